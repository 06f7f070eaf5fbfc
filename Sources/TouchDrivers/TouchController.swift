import TouchCore

/// Who answered on the bus: for `touchwire probe`, logs and the status output.
///
/// Identification registers are unreliable across firmwares and absent on emulated
/// clones (EDT comment; rpi/linux #4881, #6298), so every value read from the chip is
/// optional; `chipName` falls back to the configured family name.
public struct ControllerIdentity: Hashable, Sendable, CustomStringConvertible {
    /// A human name: "FT6336U", or the driver family ("FT6x36 (unidentified)") when the chip id is unknown.
    public var chipName: String
    /// The address that answered.
    public var address: I2CAddress
    /// The chip id register's value (FocalTech 0xA3), nil when the read failed.
    public var chipID: UInt8?
    /// The firmware id register's value (FocalTech 0xA6), nil when the read failed.
    public var firmware: UInt8?
    /// The vendor / panel id register's value (FocalTech 0xA8), nil when the read failed.
    public var vendor: UInt8?

    public init(
        chipName: String, address: I2CAddress, chipID: UInt8? = nil, firmware: UInt8? = nil, vendor: UInt8? = nil
    ) {
        self.chipName = chipName
        self.address = address
        self.chipID = chipID
        self.firmware = firmware
        self.vendor = vendor
    }

    /// "FT6336U at 0x38 (chip id 0x64, firmware 0x10, vendor 0x11)"; "?" for unread fields.
    public var description: String {
        func hex(_ v: UInt8?) -> String {
            guard let v else { return "?" }
            let s = String(v, radix: 16)
            return "0x" + (s.count < 2 ? "0" + s : s)
        }
        return "\(chipName) at \(address) (chip id \(hex(chipID)), firmware \(hex(firmware)), vendor \(hex(vendor)))"
    }
}

/// What the service needs from any touch controller driver.
///
/// Called from the driver thread only; implementations are not required to be thread-safe.
public protocol TouchController: AnyObject {
    /// Set by a successful `start()`; nil before.
    var identity: ControllerIdentity? { get }
    /// Checks the controller answers, identifies it and configures it. Throws when it does
    /// not answer at all; missing identification registers are tolerated.
    func start() throws(I2CError)
    /// Reads one report. Returns nil when the controller sent a frame that must be dropped
    /// (invalid count); an empty frame means every finger is up.
    func readFrame(at timestamp: Instant) throws(I2CError) -> TouchFrame?
}
