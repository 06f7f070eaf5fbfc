import TouchCore

/// Driver for the Chipone ICN8318 over any `I2CBus`: thin I/O around `ICN8318Decoder`.
///
/// `start()`: when the board wires the chip's wake line (as `reset`: low = asleep), pulses it
/// (10 ms low, 50 ms after raising it); writes POWER (0x04) = active and reads one image to check
/// the chip answers (`identify()`). The chip has no identification register, so the identity is
/// the family name with a note saying so.
///
/// `readFrame`: one transfer of 37 bytes from TOUCHDATA (0x10) into a buffer allocated at init;
/// an invalid image (a soft button held, a count above 5) is nil, not a release.
package final class ICN8318Driver<Bus: I2CBus>: TouchInputSource {
    package let bus: Bus
    package let configuration: ControllerBusConfiguration
    package let lines: ControllerLines
    package let timing: DriverTiming
    package private(set) var state = DriverState<ICN8318Report>()
    package var identity: ControllerIdentity? { state.identity }
    package var counters: DriverCounters { state.counters }
    package var lastReport: ICN8318Report? { state.lastReport }

    private let imageRead = RegisterTransfer(
        command: [ICN8318Registers.touchData], responseLength: ICN8318Registers.imageLength)

    /// `address` defaults to 0x40; the raw panel range is the chip's configured resolution.
    package init(
        bus: Bus, address: I2CAddress = I2CAddress(ICN8318Registers.address), panelWidth: Int, panelHeight: Int,
        lines: ControllerLines = .none(), timing: DriverTiming
    ) {
        self.bus = bus
        configuration = ControllerBusConfiguration(
            address: address, maxPoints: ICN8318Registers.maxPoints, maxPointsLimit: ICN8318Registers.maxPoints,
            panelWidth: panelWidth, panelHeight: panelHeight)
        self.lines = lines
        self.timing = timing
    }

    package var interruptInput: (any GPIOInput)? { lines.interruptInput }

    /// Releases the INT and wake lines; the bus stays open.
    package func close() { lines.release() }

    /// Identifies the chip without writing to it (`probe` uses it on devices it does not know):
    /// one image read from TOUCHDATA, which must look like a touch image — no soft button
    /// outside 0…0x0F, at most 5 records, each with a slot below 5 and an event 1…4. The chip
    /// has no identification register, so the identity says so.
    package func identify() throws(I2CError) -> ControllerIdentity {
        try imageRead.run(on: bus, address: configuration.address)
        if let why = Self.implausibility(imageRead.response) {
            throw .failed(
                operation: "reading an ICN8318 touch image at 0x10 (\(why))", address: configuration.address, errno: 0)
        }
        return ControllerIdentity(
            chipName: "ICN8318", address: configuration.address,
            note: "no identification register: the touch image answered")
    }

    /// Why `image` is no ICN8318 touch image, nil when it may be one.
    package static func implausibility(_ image: UnsafeRawBufferPointer) -> String? {
        guard image.count >= ICN8318Registers.imageLength else { return "short image" }
        let count = Int(image[ICN8318Registers.countOffset])
        guard count <= ICN8318Registers.maxPoints else { return "count \(count)" }
        var i = 0
        while i < count {
            let at = ICN8318Registers.firstRecordOffset + i * ICN8318Registers.recordLength
            i += 1
            guard image[at] < UInt8(ICN8318Registers.maxPoints), (1...4).contains(image[at + 6]) else {
                return "record \(i) has slot \(image[at]), event \(image[at + 6])"
            }
        }
        return nil
    }

    package func start() throws(TouchInputError) {
        do throws(GPIOError) {
            try lines.pulseReset(
                assert: ICN8318Registers.wakeAssertMicroseconds, release: ICN8318Registers.wakeReleaseMicroseconds,
                timing: timing)
            try lines.releaseInterrupt()
        } catch {
            throw .line(error)
        }
        do throws(I2CError) {
            try bus.write(configuration.address, [ICN8318Registers.power, ICN8318Registers.powerActive])
            state.identity = try identify()
        } catch {
            throw .bus(error)
        }
    }

    /// Reads and decodes one image (37 bytes from 0x10).
    package func readReport(at timestamp: Instant) throws(I2CError) -> ICN8318Report {
        try imageRead.run(on: bus, address: configuration.address)
        let report = ICN8318Decoder.decode(
            imageRead.response, at: timestamp, panelWidth: configuration.panelWidth,
            panelHeight: configuration.panelHeight)
        state.record(report)
        return report
    }

    package func readFrame(at timestamp: Instant) throws(TouchInputError) -> TouchFrame? {
        do throws(I2CError) {
            let report = try readReport(at: timestamp)
            return report.isValid ? report.frame : nil
        } catch {
            throw .bus(state.failedRead(error))
        }
    }
}
