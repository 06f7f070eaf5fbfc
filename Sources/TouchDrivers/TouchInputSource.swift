import TouchCore

/// Who answered on the bus: for `touchwire probe`, logs and the status output.
///
/// Identification registers are unreliable across firmwares and absent on emulated
/// clones (EDT comment; rpi/linux #4881, #6298), so every value read from the chip is
/// optional; `chipName` falls back to the configured family name.
package struct ControllerIdentity: Hashable, Sendable, CustomStringConvertible {
    /// A human name: "FT6336U", or the driver family ("FT6x36 (unidentified)") when the chip id is unknown.
    package var chipName: String
    /// The address that answered.
    package var address: I2CAddress
    /// The chip id register's value (FocalTech 0xA3), nil when the read failed.
    package var chipID: UInt8?
    /// The firmware id register's value (FocalTech 0xA6), nil when the read failed.
    package var firmware: UInt8?
    /// The vendor / panel id register's value (FocalTech 0xA8), nil when the read failed.
    package var vendor: UInt8?
    /// A 16-bit firmware version where the chip has one (GT911 0x8144), nil otherwise.
    package var firmwareVersion: UInt16?
    /// The resolution the chip reports (GT911 0x8146/0x8148), nil when it has none.
    package var resolution: (width: Int, height: Int)? {
        get { resolutionWidth.flatMap { w in resolutionHeight.map { (w, $0) } } }
        set {
            resolutionWidth = newValue?.width
            resolutionHeight = newValue?.height
        }
    }
    package var resolutionWidth: Int?
    package var resolutionHeight: Int?
    /// Something the user should know about how the chip was found (e.g. "answered at the
    /// alternate address 0x14"), nil when nothing.
    package var note: String?
    /// The device file of a controller the kernel drives (evdev: `/dev/input/event3`), shown
    /// instead of an I2C address it does not have.
    package var device: String?

    package init(
        chipName: String, address: I2CAddress, chipID: UInt8? = nil, firmware: UInt8? = nil, vendor: UInt8? = nil,
        firmwareVersion: UInt16? = nil, resolutionWidth: Int? = nil, resolutionHeight: Int? = nil, note: String? = nil,
        device: String? = nil
    ) {
        self.device = device
        self.chipName = chipName
        self.address = address
        self.chipID = chipID
        self.firmware = firmware
        self.vendor = vendor
        self.firmwareVersion = firmwareVersion
        self.resolutionWidth = resolutionWidth
        self.resolutionHeight = resolutionHeight
        self.note = note
    }

    /// "FT6336U at 0x38 (chip id 0x64, firmware 0x10, vendor 0x11)"; "?" for unread fields.
    package var description: String {
        func hex(_ v: UInt8?) -> String {
            guard let v else { return "?" }
            let s = String(v, radix: 16)
            return "0x" + (s.count < 2 ? "0" + s : s)
        }
        // Fields the chip does not have (GT911: no chip id byte, no vendor) are left out, not shown as "?".
        var fields: [String] = []
        if let chipID { fields.append("chip id \(hex(chipID))") }
        if let v = firmwareVersion {
            fields.append("firmware 0x" + String(v, radix: 16))
        } else if let firmware {
            fields.append("firmware \(hex(firmware))")
        }
        if let vendor, vendor != 0 { fields.append("vendor \(hex(vendor))") }
        if let w = resolutionWidth, let h = resolutionHeight { fields.append("resolution \(w)x\(h)") }
        var text = device.map { "\(chipName) on \($0)" } ?? "\(chipName) at \(address)"
        if !fields.isEmpty { text += " (" + fields.joined(separator: ", ") + ")" }
        if let note { text += "; " + note }
        return text
    }
}

/// What the service needs from any touch controller driver.
///
/// Called from the driver thread only; implementations are not required to be thread-safe.
package protocol TouchController: AnyObject {
    /// Set by a successful `start()`; nil before.
    var identity: ControllerIdentity? { get }
    /// Checks the controller answers, identifies it and configures it. Throws when it does
    /// not answer at all; missing identification registers are tolerated.
    func start() throws(I2CError)
    /// Reads one report. Returns nil when there is nothing new to report: a frame that must be
    /// dropped (invalid count), a GT911 buffer not ready, a CST816 asleep while idle. An empty
    /// frame means every finger is up. Coordinates are raw chip coordinates (the driver stage
    /// applies `PanelTransform`).
    func readFrame(at timestamp: Instant) throws(I2CError) -> TouchFrame?
    /// Running totals of what the driver threw away.
    var counters: DriverCounters { get }
    /// The INT line as an input with edge events, when the driver owns one (set by `start()`).
    var interruptInput: (any GPIOInput)? { get }
    /// Gives back what the driver holds exclusively — its INT and reset lines (GPIO v2 line
    /// requests), a grabbed input device (`EVIOCGRAB`) — so another driver may take them (a board
    /// reload opens the new board's controller after the old one is closed). Idempotent; the
    /// controller is not read again afterwards (`start()` may take the resources again).
    func close()
    /// True when `readFrame` stamps its frames with when the touch happened (an evdev device's
    /// kernel event times): the driver stage keeps those times instead of the read's. False
    /// (the default): frames are stamped with the read's instant.
    var stampsFrames: Bool { get }
}

extension TouchController {
    package var interruptInput: (any GPIOInput)? { nil }
    package var stampsFrames: Bool { false }
}
