import TouchCore

/// Who answered on the bus: for `touchwire probe`, logs and the status output.
///
/// Identification registers are unreliable across firmwares and absent on emulated
/// clones (EDT comment; rpi/linux #4881, #6298), so every value read from the chip is
/// optional; `chipName` falls back to the configured family name.
package struct ControllerIdentity: Hashable, Sendable, CustomStringConvertible {
    /// A human name: "FT6336U", or the driver family ("FT6x36 (unidentified)") when the chip id is unknown.
    package var chipName: String
    /// The I2C address that answered; nil for an input that is no I2C chip (an evdev device,
    /// named by `device`).
    package var address: I2CAddress?
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
        chipName: String, address: I2CAddress? = nil, chipID: UInt8? = nil, firmware: UInt8? = nil,
        vendor: UInt8? = nil, firmwareVersion: UInt16? = nil, resolutionWidth: Int? = nil, resolutionHeight: Int? = nil,
        note: String? = nil,
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
        var text = chipName
        if let device {
            text += " on \(device)"
        } else if let address {
            text += " at \(address)"
        }
        if !fields.isEmpty { text += " (" + fields.joined(separator: ", ") + ")" }
        if let note { text += "; " + note }
        return text
    }
}

/// Why a touch input failed: the one error type of `TouchInputSource`, whatever the input is.
/// Each case carries the error of the input's own kind, which names what and where (the I2C
/// address, the device path, the GPIO line); `description` is that error's.
package enum TouchInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An I2C controller's transfer failed.
    case bus(I2CError)
    /// A Linux input device (`chip = "evdev"`) failed.
    case device(InputDeviceError)
    /// A controller's reset, wake or INT line could not be driven.
    case line(GPIOError)

    package var description: String {
        switch self {
        case .bus(let e): "\(e)"
        case .device(let e): "\(e)"
        case .line(let e): "\(e)"
        }
    }
}

/// What the pipeline reads touches from: an I2C controller driver (FT5x06/FT6x36, GT911,
/// CST816, ICN8318), a Linux input device (`EvdevController`), or either of them reading a
/// simulated world (`SimulatedController`). They are peers: the driver stage sees only this
/// protocol and its one error type, never which kind of input it holds.
///
/// Called from the driver thread only; implementations are not required to be thread-safe.
package protocol TouchInputSource: AnyObject {
    /// Set by a successful `start()`; nil before.
    var identity: ControllerIdentity? { get }
    /// Checks the controller answers, identifies it and configures it. Throws when it does
    /// not answer at all; missing identification registers are tolerated.
    func start() throws(TouchInputError)
    /// Reads one report. Returns nil when there is nothing new to report: a frame that must be
    /// dropped (invalid count), a GT911 buffer not ready, a CST816 asleep while idle. An empty
    /// frame means every finger is up. Coordinates are raw chip coordinates (the driver stage
    /// applies `PanelTransform`).
    func readFrame(at timestamp: Instant) throws(TouchInputError) -> TouchFrame?
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

extension TouchInputSource {
    package var interruptInput: (any GPIOInput)? { nil }
    package var stampsFrames: Bool { false }
}
