import TouchCore

/// Driver for FocalTech FT6206 / FT6236 / FT6336 (2 points) and FT5x06 / FT5406 (5 points)
/// over any `I2CBus`: thin I/O around `FocalTechDecoder`.
///
/// Per frame it does exactly one combined transfer — write `{0x00}`, read
/// `3 + 6 * maxPoints` bytes — into a buffer allocated once at init (EDT
/// `edt_ft5x06_ts_isr`), then decodes. No allocation per frame; it reads nothing else,
/// which is what emulated clones tolerate (rpi/linux #4881).
///
/// Not thread-safe: owned and called by the driver thread.
package final class FT6x36Driver<Bus: I2CBus>: TouchInputSource {
    /// Immutable configuration from the board description.
    @dynamicMemberLookup
    package struct Configuration: Hashable, Sendable {
        /// Address (FocalTech parts answer at 0x38: ADA `FT6206_ADDR`, LV-FT), points — 2 for FT6x36
        /// (LV-FT `FT6X36_MAX_TOUCH_PNTS`), 5 for FT5x06 (EDT compatible table), up to 10 for
        /// FT5506/FT5426, clamped to 1…10 — and the raw panel range.
        package var bus: ControllerBusConfiguration
        /// G_MODE written by `start()`: true = interrupt trigger mode (0x01), false = polling mode (0x00).
        package var interruptTrigger: Bool
        /// The family name used when the chip id is unknown or unreadable.
        package var familyName: String
        /// PERIOD_ACTIVE (0x88) written by `start()`, 1…255 ("0x64: 100Hz", EDT M12); nil leaves it.
        package var reportRate: UInt8?

        package init(
            address: I2CAddress = I2CAddress(0x38), maxPoints: Int, panelWidth: Int, panelHeight: Int,
            interruptTrigger: Bool = true, familyName: String = "FocalTech", reportRate: UInt8? = nil
        ) {
            bus = ControllerBusConfiguration(
                address: address, maxPoints: maxPoints, maxPointsLimit: FocalTechRegisters.maxPointsLimit,
                panelWidth: panelWidth, panelHeight: panelHeight)
            self.reportRate = reportRate.flatMap { $0 == 0 ? nil : $0 }
            self.interruptTrigger = interruptTrigger
            self.familyName = familyName
        }

        /// `configuration.address`, `.maxPoints`, `.panelWidth`, `.panelHeight`.
        package subscript<T>(dynamicMember field: WritableKeyPath<ControllerBusConfiguration, T>) -> T {
            get { bus[keyPath: field] }
            set { bus[keyPath: field] = newValue }
        }

        /// FT6206 / FT6236 / FT6336: 2 points at 0x38.
        package static func ft6x36(panelWidth: Int, panelHeight: Int, address: I2CAddress = I2CAddress(0x38)) -> Self {
            Self(address: address, maxPoints: 2, panelWidth: panelWidth, panelHeight: panelHeight, familyName: "FT6x36")
        }

        /// FT5206 / FT5306 / FT5406: 5 points at 0x38.
        package static func ft5x06(panelWidth: Int, panelHeight: Int, address: I2CAddress = I2CAddress(0x38)) -> Self {
            Self(address: address, maxPoints: 5, panelWidth: panelWidth, panelHeight: panelHeight, familyName: "FT5x06")
        }
    }

    package let bus: Bus
    package let configuration: Configuration
    package let lines: ControllerLines
    package let timing: DriverTiming
    /// Identity (set by `identify()` / `start()`), counters over every `readReport`, last report.
    package private(set) var state = DriverState<FocalTechReport>()
    package var identity: ControllerIdentity? { state.identity }
    package var counters: DriverCounters { state.counters }
    package var lastReport: FocalTechReport? { state.lastReport }

    /// The touch read: register pointer 0x00, then the image, in one buffer for the driver's life.
    private let imageRead: RegisterTransfer

    package init(
        bus: Bus, configuration: Configuration, lines: ControllerLines = .none(), timing: DriverTiming
    ) {
        self.bus = bus
        self.configuration = configuration
        self.lines = lines
        self.timing = timing
        imageRead = RegisterTransfer(
            command: [FocalTechRegisters.deviceMode],
            responseLength: FocalTechRegisters.imageLength(maxPoints: configuration.bus.maxPoints))
    }

    /// Reads the image once (the presence check, and the dummy first read some panels need:
    /// "EP0700MLP1 returns bogus data on the first register read access", EDT), then the chip
    /// id (0xA3), firmware id (0xA6) and vendor id (0xA8) one byte each. A failing id read
    /// leaves its field nil; only a failing image read throws.
    @discardableResult
    package func identify() throws(I2CError) -> ControllerIdentity {
        try readImage()
        let chip = try? readRegister(FocalTechRegisters.chipID)
        let firmware = try? readRegister(FocalTechRegisters.firmwareID)
        let vendor = try? readRegister(FocalTechRegisters.vendorID)
        let name = chip.flatMap(FocalTechRegisters.chipName(forChipID:)) ?? "\(configuration.familyName) (unidentified)"
        let id = ControllerIdentity(
            chipName: name, address: configuration.bus.address, chipID: chip, firmware: firmware, vendor: vendor)
        state.identity = id
        return id
    }

    /// Writes G_MODE (0xA4): 0x01 interrupt trigger mode, 0x00 interrupt polling mode (ST-BSP).
    package func configure(interruptTrigger: Bool) throws(I2CError) {
        let value = interruptTrigger ? FocalTechRegisters.interruptModeTrigger : FocalTechRegisters.interruptModePolling
        try bus.write(configuration.bus.address, [FocalTechRegisters.interruptMode, value])
    }

    /// Reset held active 5 ms ("held low 1 ms, or 1 ms + 100us if powering on", Z-FT), then
    /// released and 300 ms before the first access (EDT `msleep(300)`).
    package static var resetAssertMicroseconds: Int64 { 5_000 }
    package static var resetReleaseMicroseconds: Int64 { 300_000 }

    package var interruptInput: (any GPIOInput)? { lines.interruptInput }

    /// Pulses the reset line when wired (timings above).
    package func reset() throws(GPIOError) {
        try lines.pulseReset(
            assert: Self.resetAssertMicroseconds, release: Self.resetReleaseMicroseconds, timing: timing)
    }

    /// Writes PERIOD_ACTIVE (0x88), the report rate in Active mode (EDT `M12_REGISTER_REPORT_RATE`).
    package func configure(reportRate: UInt8) throws(I2CError) {
        try bus.write(configuration.bus.address, [FocalTechRegisters.reportRate, reportRate])
    }

    /// Reset (when wired), `identify()`, G_MODE from the configuration (trigger mode when an INT
    /// line is wired), and the report rate when configured.
    /// Releases the INT and reset lines (`ControllerLines.release()`); the bus stays open.
    package func close() { lines.release() }

    package func start() throws(TouchInputError) {
        do throws(I2CError) { try startOnBus() } catch { throw .bus(error) }
    }

    private func startOnBus() throws(I2CError) {
        do throws(GPIOError) {
            try reset()
            try lines.releaseInterrupt()
        } catch {
            throw .failed(operation: "FocalTech reset/INT line: \(error)", address: configuration.bus.address, errno: 0)
        }
        try identify()
        try configure(interruptTrigger: configuration.interruptTrigger || lines.hasInterrupt)
        if let rate = configuration.reportRate { try configure(reportRate: rate) }
    }

    /// Reads and decodes one touch image: exactly one transfer from register 0x00 of
    /// `3 + 6 * maxPoints` bytes, no allocation. Counters are updated.
    package func readReport(at timestamp: Instant) throws(I2CError) -> FocalTechReport {
        try readImage()
        let report = FocalTechDecoder.decode(
            imageRead.response, at: timestamp, maxPoints: configuration.bus.maxPoints,
            panelWidth: configuration.bus.panelWidth, panelHeight: configuration.bus.panelHeight)
        state.record(report)
        return report
    }

    /// `readReport(at:)`, with an invalid image as nil (`TouchInputSource`).
    package func readFrame(at timestamp: Instant) throws(TouchInputError) -> TouchFrame? {
        do throws(I2CError) {
            let report = try readReport(at: timestamp)
            return report.isValid ? report.frame : nil
        } catch {
            throw .bus(state.failedRead(error))
        }
    }

    private func readImage() throws(I2CError) {
        try imageRead.run(on: bus, address: configuration.bus.address)
    }

    private func readRegister(_ register: UInt8) throws(I2CError) -> UInt8 {
        var reg = register
        var value: UInt8 = 0
        try withUnsafeBytes(of: &reg) { (cmd) throws(I2CError) in
            try withUnsafeMutableBytes(of: &value) { (out) throws(I2CError) in
                try bus.transfer(configuration.bus.address, write: cmd, read: out)
            }
        }
        return value
    }
}
