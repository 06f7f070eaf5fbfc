import TouchCore

/// Driver for the Goodix GT911 over any `I2CBus`: thin I/O around `GT911Decoder`.
///
/// `start()`:
/// 1. With a reset line: the kernel's reset (GDX `goodix_reset_no_int_sync` + `goodix_int_sync`):
///    RST active 20 ms; when INT is wired it is driven to select the configured address
///    (low → 0x5D, high → 0x14) 200 µs before RST is released, held 10 ms, then low 50 ms and
///    released to an input. Without INT the address latched from a floating line is random
///    (raspberrypi/linux PR #6547, tulipcc #303).
/// 2. The product id (0x8140, 11 bytes with firmware and resolution) is read at the configured
///    address, then at the other one; the address that answered is used from then on and a
///    `note` on the identity says when it was the alternate, to help bring-up.
/// 3. Status 0x814E is cleared.
///
/// `readFrame`: one transfer of `1 + 8·maxPoints + 1` bytes from 0x814E into a buffer allocated
/// at init, decode, then — when the buffer was ready — one write of 0x00 to 0x814E (GDX: "after
/// every IRQ", or the chip never reports again). When called on an INT edge
/// (`waitsForReady`), a not-ready status is re-read every 1 ms for up to 20 ms (the ready bit
/// lags the IRQ by ~10 ms); if it never comes the INT was spurious (after a lift, GDX) and nil is
/// returned. Polling without INT: not ready → nil at once. Ready with no points → an empty frame.
///
/// Not thread-safe: owned by the driver thread.
package final class GT911Driver<Bus: I2CBus>: TouchInputSource {
    @dynamicMemberLookup
    package struct Configuration: Hashable, Sendable {
        /// The address to select at reset and try first (0x5D or 0x14), points to read 1…10
        /// (GT911: 5), and the raw panel range.
        package var bus: ControllerBusConfiguration
        /// Wait up to 20 ms for the ready bit (true when reads follow an INT edge).
        package var waitsForReady: Bool

        package init(
            address: I2CAddress = I2CAddress(GT911Registers.addressINTLow), maxPoints: Int = GT911Registers.maxPoints,
            panelWidth: Int, panelHeight: Int, waitsForReady: Bool = false
        ) {
            bus = ControllerBusConfiguration(
                address: address, maxPoints: maxPoints, maxPointsLimit: GT911Registers.maxPointsLimit,
                panelWidth: panelWidth, panelHeight: panelHeight)
            self.waitsForReady = waitsForReady
        }

        /// `configuration.address`, `.maxPoints`, `.panelWidth`, `.panelHeight`.
        package subscript<T>(dynamicMember field: WritableKeyPath<ControllerBusConfiguration, T>) -> T {
            get { bus[keyPath: field] }
            set { bus[keyPath: field] = newValue }
        }

        /// The other address of the pair.
        package var alternateAddress: I2CAddress {
            bus.address.rawValue == GT911Registers.addressINTHigh
                ? I2CAddress(GT911Registers.addressINTLow) : I2CAddress(GT911Registers.addressINTHigh)
        }
    }

    package let bus: Bus
    package let configuration: Configuration
    package let lines: ControllerLines
    package let timing: DriverTiming
    /// Identity (set by `start()`), counters over every read, last report (ready or not).
    package private(set) var state = DriverState<GT911Report>()
    package var identity: ControllerIdentity? { state.identity }
    package var counters: DriverCounters { state.counters }
    package var lastReport: GT911Report? { state.lastReport }
    /// The address that answered at the last `start()` (the configured one before).
    package private(set) var activeAddress: I2CAddress

    /// The touch read: register 0x814E (big-endian), then the status byte and point records.
    private let imageRead: RegisterTransfer
    /// The acknowledgement: 0x00 written to 0x814E.
    private let statusClear = RegisterTransfer(
        command: [UInt8(GT911Registers.status >> 8), UInt8(GT911Registers.status & 0xFF), 0], responseLength: 0)

    package init(
        bus: Bus, configuration: Configuration, lines: ControllerLines = .none(), timing: DriverTiming
    ) {
        self.bus = bus
        self.configuration = configuration
        self.lines = lines
        self.timing = timing
        activeAddress = configuration.bus.address
        imageRead = RegisterTransfer(
            command: [UInt8(GT911Registers.status >> 8), UInt8(GT911Registers.status & 0xFF)],
            responseLength: GT911Registers.imageLength(maxPoints: configuration.bus.maxPoints))
    }

    package var interruptInput: (any GPIOInput)? { lines.interruptInput }

    /// The reset sequence of the type's documentation. Does nothing without a reset line.
    package func reset() throws(GPIOError) {
        guard lines.canReset else { return }
        try lines.holdReset(true)
        timing.sleep(GT911Registers.resetAssertMicroseconds)
        if lines.hasInterrupt {
            try lines.driveInterrupt(high: configuration.bus.address.rawValue == GT911Registers.addressINTHigh)
            timing.sleep(GT911Registers.intSetupMicroseconds)
        }
        try lines.holdReset(false)
        timing.sleep(GT911Registers.resetReleaseMicroseconds)
        if lines.hasInterrupt {
            try lines.driveInterrupt(high: false)
            timing.sleep(GT911Registers.intSyncMicroseconds)
        }
    }

    /// Reads product id, firmware and resolution at `address`.
    package func identify(at address: I2CAddress) throws(I2CError) -> ControllerIdentity {
        let b = try bus.readRegisters16(address, register: GT911Registers.productID, count: 11)
        var name = ""
        for byte in b[0..<4] where byte >= 0x20 && byte < 0x7F { name.append(Character(Unicode.Scalar(byte))) }
        let chipName = name.isEmpty ? "GT911 (unidentified)" : "GT" + name
        return ControllerIdentity(
            chipName: chipName, address: address, vendor: b[10], firmwareVersion: UInt16(b[4]) | UInt16(b[5]) << 8,
            resolutionWidth: Int(b[6]) | Int(b[7]) << 8, resolutionHeight: Int(b[8]) | Int(b[9]) << 8)
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
            throw .failed(operation: "GT911 reset/INT line: \(error)", address: configuration.bus.address, errno: 0)
        }
        var id: ControllerIdentity
        do throws(I2CError) {
            id = try identify(at: configuration.bus.address)
        } catch {
            do throws(I2CError) {
                id = try identify(at: configuration.alternateAddress)
            } catch {
                throw error
            }
            id.note =
                "answered at the alternate address \(configuration.alternateAddress), not \(configuration.bus.address)"
                + (lines.hasInterrupt && lines.canReset ? "" : " (INT not driven during reset)")
        }
        activeAddress = id.address ?? configuration.bus.address
        state.identity = id
        try clearStatus()
    }

    /// Writes 0x00 to 0x814E (one message, no allocation).
    package func clearStatus() throws(I2CError) {
        try statusClear.run(on: bus, address: activeAddress)
    }

    /// Reads, decodes and acknowledges one image (see the type's documentation).
    package func readReport(at timestamp: Instant) throws(I2CError) -> GT911Report {
        var report = try readOnce(at: timestamp)
        if !report.isReady && configuration.waitsForReady {
            let deadline = timing.now().advanced(byMicroseconds: GT911Registers.readyTimeoutMicroseconds)
            // Bounded by count as well as by the clock: a clock that does not move cannot hang the read.
            var polls = GT911Registers.readyTimeoutMicroseconds / GT911Registers.readyPollMicroseconds
            while !report.isReady && timing.now() < deadline && polls > 0 {
                polls -= 1
                timing.sleep(GT911Registers.readyPollMicroseconds)
                report = try readOnce(at: timestamp)
            }
            if !report.isReady {
                state.notReady()
                try clearStatus()  // GDX clears after every IRQ, even a spurious one
            }
        }
        if report.isReady {
            state.record(report)
            try clearStatus()
        } else {
            state.keep(report)
        }
        return report
    }

    package func readFrame(at timestamp: Instant) throws(TouchInputError) -> TouchFrame? {
        do throws(I2CError) {
            let report = try readReport(at: timestamp)
            return report.isReady && report.isValid ? report.frame : nil
        } catch {
            throw .bus(state.failedRead(error))
        }
    }

    private func readOnce(at timestamp: Instant) throws(I2CError) -> GT911Report {
        try imageRead.run(on: bus, address: activeAddress)
        return GT911Decoder.decode(
            imageRead.response, at: timestamp, maxPoints: configuration.bus.maxPoints,
            panelWidth: configuration.bus.panelWidth, panelHeight: configuration.bus.panelHeight)
    }
}
