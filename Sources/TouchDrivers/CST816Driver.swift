import TouchCore

/// Driver for the Hynitron CST816S/T/D over any `I2CBus`: thin I/O around `CST816Decoder`.
///
/// `start()`: resets first when a reset line is wired (the chip "will not appear as a I2C
/// device unless recently touched or reset", PyDevices PR #21): RST active 50 ms, released,
/// 100 ms (HYN8). Reads CHIP_ID/PROJ_ID/FW_VERSION (0xA7…0xA9); writes DIS_AUTO_SLEEP
/// (0xFE) = 0x01 and, with an INT line, IRQ_CTL (0xFA) = EnTouch | EnChange (Z-CST). Without a
/// reset line a sleeping chip NACKs and `start()` throws; the stage retries, and the chip
/// answers after the next touch.
///
/// `readFrame`: one transfer of 6 bytes from 0x01 into a buffer allocated at init. Auto-sleep
/// is handled twice: disabled at start, and — because some parts ignore 0xFE — a NACK while
/// no finger is down is counted as `sleepNacks` and read as "nothing new" (nil), not as an
/// error. A NACK while a finger is down is an error (the stage cancels the touch).
package final class CST816Driver<Bus: I2CBus>: TouchInputSource {
    @dynamicMemberLookup
    package struct Configuration: Hashable, Sendable {
        /// The address (0x15) and raw panel range; one point.
        package var bus: ControllerBusConfiguration
        /// Write DIS_AUTO_SLEEP at start.
        package var disablesAutoSleep: Bool

        package init(
            address: I2CAddress = I2CAddress(CST816Registers.address), panelWidth: Int, panelHeight: Int,
            disablesAutoSleep: Bool = true
        ) {
            bus = ControllerBusConfiguration(
                address: address, maxPoints: 1, maxPointsLimit: 1, panelWidth: panelWidth, panelHeight: panelHeight)
            self.disablesAutoSleep = disablesAutoSleep
        }

        /// `configuration.address`, `.panelWidth`, `.panelHeight` (`.maxPoints` is 1).
        package subscript<T>(dynamicMember field: WritableKeyPath<ControllerBusConfiguration, T>) -> T {
            get { bus[keyPath: field] }
            set { bus[keyPath: field] = newValue }
        }
    }

    package let bus: Bus
    package let configuration: Configuration
    package let lines: ControllerLines
    package let timing: DriverTiming
    /// Identity (set by `start()`), counters over every read, last report.
    package private(set) var state = DriverState<CST816Report>()
    package var identity: ControllerIdentity? { state.identity }
    package var counters: DriverCounters { state.counters }
    package var lastReport: CST816Report? { state.lastReport }
    /// True after a NACK while idle, until the chip answers again.
    package private(set) var isAsleep = false
    private var fingerDown = false

    /// The touch read: register 0x01, then the 6-byte image, in one buffer for the driver's life.
    private let imageRead = RegisterTransfer(
        command: [CST816Registers.gestureID], responseLength: CST816Registers.imageLength)

    package init(
        bus: Bus, configuration: Configuration, lines: ControllerLines = .none(), timing: DriverTiming
    ) {
        self.bus = bus
        self.configuration = configuration
        self.lines = lines
        self.timing = timing
    }

    package var interruptInput: (any GPIOInput)? { lines.interruptInput }

    /// Pulses reset (see the type's documentation). Does nothing without a reset line.
    package func reset() throws(GPIOError) {
        try lines.pulseReset(
            assert: CST816Registers.resetAssertMicroseconds, release: CST816Registers.resetReleaseMicroseconds,
            timing: timing)
    }

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
            throw .failed(operation: "CST816 reset/INT line: \(error)", address: configuration.bus.address, errno: 0)
        }
        let id = try bus.readRegisters(configuration.bus.address, register: CST816Registers.chipID, count: 3)
        let name = CST816Registers.chipName(forChipID: id[0]) ?? "CST816 (unidentified)"
        if configuration.disablesAutoSleep {
            try bus.write(configuration.bus.address, [CST816Registers.disableAutoSleep, 0x01])
        }
        if lines.hasInterrupt {
            try bus.write(
                configuration.bus.address,
                [CST816Registers.irqControl, CST816Registers.irqEnableTouch | CST816Registers.irqEnableChange])
        }
        state.identity = ControllerIdentity(
            chipName: name, address: configuration.bus.address, chipID: id[0], firmware: id[2], vendor: id[1])
        isAsleep = false
        fingerDown = false
    }

    /// Reads and decodes one image (6 bytes from 0x01).
    package func readReport(at timestamp: Instant) throws(I2CError) -> CST816Report {
        try imageRead.run(on: bus, address: configuration.bus.address)
        let report = CST816Decoder.decode(
            imageRead.response, at: timestamp, panelWidth: configuration.bus.panelWidth,
            panelHeight: configuration.bus.panelHeight)
        state.record(report)
        return report
    }

    package func readFrame(at timestamp: Instant) throws(TouchInputError) -> TouchFrame? {
        let report: CST816Report
        do throws(I2CError) {
            report = try readReport(at: timestamp)
        } catch {
            if case .noAcknowledge = error, !fingerDown {
                state.sleepNack()
                isAsleep = true
                return nil
            }
            throw .bus(state.failedRead(error))
        }
        isAsleep = false
        guard report.isValid else { return nil }
        fingerDown = !report.frame.isEmpty
        return report.frame
    }
}
