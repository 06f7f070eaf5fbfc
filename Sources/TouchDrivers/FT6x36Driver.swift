import TouchCore

/// Running totals of what a driver threw away, for the status output and metrics.
public struct DriverCounters: Hashable, Sendable, BitwiseCopyable {
    /// Touch images read successfully from the bus.
    public var framesRead = 0
    /// Images rejected as a whole (`FocalTechReport.isValid == false`).
    public var framesRejected = 0
    /// Point records dropped for coordinates outside the panel.
    public var rejectedOutOfPanel = 0
    /// Point records dropped for id 0x0F or a repeated id.
    public var rejectedInvalidID = 0
    /// Images rejected for a count above the chip's maximum.
    public var rejectedTooMany = 0

    public init() {}

    /// Reads that failed with an I2C error.
    public var readErrors = 0
    /// NACKs taken as "asleep while idle" (CST816 auto-sleep), not errors.
    public var sleepNacks = 0
    /// GT911 reads whose buffer never became ready (spurious INT, e.g. after a lift; GDX -ENOMSG).
    public var notReady = 0

    /// Adds one decoded report's counters (any chip family).
    @inlinable public mutating func add(_ report: some DecodedTouchReport) {
        add(
            valid: report.isValid, outOfPanel: report.rejectedOutOfPanel, invalidID: report.rejectedInvalidID,
            tooMany: report.rejectedTooMany)
    }

    /// Adds one decoded image's counters.
    @inlinable public mutating func add(valid: Bool, outOfPanel: Int, invalidID: Int, tooMany: Int) {
        framesRead += 1
        if !valid { framesRejected += 1 }
        rejectedOutOfPanel += outOfPanel
        rejectedInvalidID += invalidID
        rejectedTooMany += tooMany
    }
}

/// Driver for FocalTech FT6206 / FT6236 / FT6336 (2 points) and FT5x06 / FT5406 (5 points)
/// over any `I2CBus`: thin I/O around `FocalTechDecoder`.
///
/// Per frame it does exactly one combined transfer — write `{0x00}`, read
/// `3 + 6 * maxPoints` bytes — into a buffer allocated once at init (EDT
/// `edt_ft5x06_ts_isr`), then decodes. No allocation per frame; it reads nothing else,
/// which is what emulated clones tolerate (rpi/linux #4881).
///
/// Not thread-safe: owned and called by the driver thread.
/// What every decoder's report says, whatever the chip: the frame, whether the image as a whole
/// can be trusted, and what was thrown away — the facts `DriverCounters` sums.
public protocol DecodedTouchReport {
    /// The contacts down; empty when `isValid` is false.
    var frame: TouchFrame { get }
    /// False when the image as a whole cannot be trusted (it must be dropped, not read as "all up").
    var isValid: Bool { get }
    /// Points dropped for coordinates outside the panel.
    var rejectedOutOfPanel: Int { get }
    /// Points dropped for an invalid or repeated id.
    var rejectedInvalidID: Int { get }
    /// 1 when the whole image was rejected for a count above the chip's maximum, else 0.
    var rejectedTooMany: Int { get }
}

extension FocalTechReport: DecodedTouchReport {}
extension GT911Report: DecodedTouchReport {}
extension CST816Report: DecodedTouchReport {
    /// The CST816 reports one contact with id 0: there is no id to reject.
    public var rejectedInvalidID: Int { 0 }
}

public final class FT6x36Driver<Bus: I2CBus>: TouchController {
    /// Immutable configuration from the board description.
    public struct Configuration: Hashable, Sendable {
        /// 7-bit address; FocalTech parts answer at 0x38 (ADA `FT6206_ADDR`, LV-FT).
        public var address: I2CAddress
        /// Points the chip reports: 2 for FT6x36 (LV-FT `FT6X36_MAX_TOUCH_PNTS`), 5 for FT5x06
        /// (EDT compatible table), up to 10 for FT5506/FT5426. Clamped to 1…10.
        public var maxPoints: Int
        /// Raw controller X range: points with X ≥ width are dropped and counted.
        public var panelWidth: Int
        /// Raw controller Y range: points with Y ≥ height are dropped and counted.
        public var panelHeight: Int
        /// G_MODE written by `start()`: true = interrupt trigger mode (0x01), false = polling mode (0x00).
        public var interruptTrigger: Bool
        /// The family name used when the chip id is unknown or unreadable.
        public var familyName: String
        /// PERIOD_ACTIVE (0x88) written by `start()`, 1…255 ("0x64: 100Hz", EDT M12); nil leaves it.
        public var reportRate: UInt8?

        public init(
            address: I2CAddress = I2CAddress(0x38), maxPoints: Int, panelWidth: Int, panelHeight: Int,
            interruptTrigger: Bool = true, familyName: String = "FocalTech", reportRate: UInt8? = nil
        ) {
            self.reportRate = reportRate.flatMap { $0 == 0 ? nil : $0 }
            self.address = address
            self.maxPoints = min(max(maxPoints, 1), FocalTechRegisters.maxPointsLimit)
            self.panelWidth = panelWidth
            self.panelHeight = panelHeight
            self.interruptTrigger = interruptTrigger
            self.familyName = familyName
        }

        /// FT6206 / FT6236 / FT6336: 2 points at 0x38.
        public static func ft6x36(panelWidth: Int, panelHeight: Int, address: I2CAddress = I2CAddress(0x38)) -> Self {
            Self(address: address, maxPoints: 2, panelWidth: panelWidth, panelHeight: panelHeight, familyName: "FT6x36")
        }

        /// FT5206 / FT5306 / FT5406: 5 points at 0x38.
        public static func ft5x06(panelWidth: Int, panelHeight: Int, address: I2CAddress = I2CAddress(0x38)) -> Self {
            Self(address: address, maxPoints: 5, panelWidth: panelWidth, panelHeight: panelHeight, familyName: "FT5x06")
        }
    }

    public let bus: Bus
    public let configuration: Configuration
    public let lines: ControllerLines
    public let timing: DriverTiming
    /// Set by `identify()` / `start()`.
    public private(set) var identity: ControllerIdentity?
    /// Totals over every `readReport`.
    public private(set) var counters = DriverCounters()
    /// The last report read (valid or not), for "last N raw frames" diagnostics.
    public private(set) var lastReport: FocalTechReport?

    /// The touch read: register pointer 0x00, then the image, in one buffer for the driver's life.
    private let imageRead: RegisterTransfer

    public init(
        bus: Bus, configuration: Configuration, lines: ControllerLines = .none(), timing: DriverTiming
    ) {
        self.bus = bus
        self.configuration = configuration
        self.lines = lines
        self.timing = timing
        imageRead = RegisterTransfer(
            command: [FocalTechRegisters.deviceMode],
            responseLength: FocalTechRegisters.imageLength(maxPoints: configuration.maxPoints))
    }

    /// Reads the image once (the presence check, and the dummy first read some panels need:
    /// "EP0700MLP1 returns bogus data on the first register read access", EDT), then the chip
    /// id (0xA3), firmware id (0xA6) and vendor id (0xA8) one byte each. A failing id read
    /// leaves its field nil; only a failing image read throws.
    @discardableResult
    public func identify() throws(I2CError) -> ControllerIdentity {
        try readImage()
        let chip = try? readRegister(FocalTechRegisters.chipID)
        let firmware = try? readRegister(FocalTechRegisters.firmwareID)
        let vendor = try? readRegister(FocalTechRegisters.vendorID)
        let name = chip.flatMap(FocalTechRegisters.chipName(forChipID:)) ?? "\(configuration.familyName) (unidentified)"
        let id = ControllerIdentity(
            chipName: name, address: configuration.address, chipID: chip, firmware: firmware, vendor: vendor)
        identity = id
        return id
    }

    /// Writes G_MODE (0xA4): 0x01 interrupt trigger mode, 0x00 interrupt polling mode (ST-BSP).
    public func configure(interruptTrigger: Bool) throws(I2CError) {
        let value = interruptTrigger ? FocalTechRegisters.interruptModeTrigger : FocalTechRegisters.interruptModePolling
        try bus.write(configuration.address, [FocalTechRegisters.interruptMode, value])
    }

    /// Reset held active 5 ms ("held low 1 ms, or 1 ms + 100us if powering on", Z-FT), then
    /// released and 300 ms before the first access (EDT `msleep(300)`).
    public static var resetAssertMicroseconds: Int64 { 5_000 }
    public static var resetReleaseMicroseconds: Int64 { 300_000 }

    public var interruptInput: (any GPIOInput)? { lines.interruptInput }

    /// Pulses the reset line when wired (timings above).
    public func reset() throws(GPIOError) {
        try lines.pulseReset(assert: Self.resetAssertMicroseconds, release: Self.resetReleaseMicroseconds, timing: timing)
    }

    /// Writes PERIOD_ACTIVE (0x88), the report rate in Active mode (EDT `M12_REGISTER_REPORT_RATE`).
    public func configure(reportRate: UInt8) throws(I2CError) {
        try bus.write(configuration.address, [FocalTechRegisters.reportRate, reportRate])
    }

    /// Reset (when wired), `identify()`, G_MODE from the configuration (trigger mode when an INT
    /// line is wired), and the report rate when configured.
    /// Releases the INT and reset lines (`ControllerLines.release()`); the bus stays open.
    public func close() { lines.release() }

    public func start() throws(I2CError) {
        do throws(GPIOError) {
            try reset()
            try lines.releaseInterrupt()
        } catch {
            throw .failed(operation: "FocalTech reset/INT line: \(error)", address: configuration.address, errno: 0)
        }
        try identify()
        try configure(interruptTrigger: configuration.interruptTrigger || lines.hasInterrupt)
        if let rate = configuration.reportRate { try configure(reportRate: rate) }
    }

    /// Reads and decodes one touch image: exactly one transfer from register 0x00 of
    /// `3 + 6 * maxPoints` bytes, no allocation. Counters are updated.
    public func readReport(at timestamp: Instant) throws(I2CError) -> FocalTechReport {
        try readImage()
        let report = FocalTechDecoder.decode(
            imageRead.response, at: timestamp, maxPoints: configuration.maxPoints,
            panelWidth: configuration.panelWidth, panelHeight: configuration.panelHeight)
        counters.add(report)
        lastReport = report
        return report
    }

    /// `readReport(at:)`, with an invalid image as nil (`TouchController`).
    public func readFrame(at timestamp: Instant) throws(I2CError) -> TouchFrame? {
        let report: FocalTechReport
        do throws(I2CError) {
            report = try readReport(at: timestamp)
        } catch {
            counters.readErrors += 1
            throw error
        }
        return report.isValid ? report.frame : nil
    }

    private func readImage() throws(I2CError) {
        try imageRead.run(on: bus, address: configuration.address)
    }

    private func readRegister(_ register: UInt8) throws(I2CError) -> UInt8 {
        var reg = register
        var value: UInt8 = 0
        try withUnsafeBytes(of: &reg) { (cmd) throws(I2CError) in
            try withUnsafeMutableBytes(of: &value) { (out) throws(I2CError) in
                try bus.transfer(configuration.address, write: cmd, read: out)
            }
        }
        return value
    }
}
