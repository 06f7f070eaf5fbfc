import TouchCore

/// How a driver waits and reads the time during reset sequences and ready polling: a thin view
/// of the pipeline's one clock (`TouchCore.TouchClock`), with the two calls the drivers make.
///
/// Always injected — the drivers never call the system themselves, so this module links no
/// Linux code: the service passes its clock (`DriverTiming.system` is `TouchLinux.SystemClock`,
/// built by the composition root), the simulated world a clock it follows or keeps itself, and
/// tests a `ManualClock` (they never sleep). Called from the driver thread only.
package struct DriverTiming {
    /// The clock this view reads and sleeps on.
    package let clock: any TouchClock

    /// Sleeps and reads on `clock`, the pipeline's one clock.
    package init(clock: any TouchClock) { self.clock = clock }

    /// Sleeps (a manual clock: advances) for the given microseconds.
    package func sleep(_ microseconds: Int64) { clock.sleep(microseconds: microseconds) }

    /// The clock's current instant.
    package func now() -> Instant { clock.now }

    /// A clock that stands still and waits that return at once: for drivers with no reset line and
    /// no INT (nothing to wait for), e.g. identification scans and tests on the simulated bus.
    package static var immediate: DriverTiming { DriverTiming(clock: StandingClock()) }
}

/// A GPIO line as a board names it: the line and whether it is active-low.
package struct ControllerLine: Hashable, Sendable {
    package var id: GPIOLineID
    package var activeLow: Bool
    package init(id: GPIOLineID, activeLow: Bool) {
        self.id = id
        self.activeLow = activeLow
    }
}

/// The controller's INT and reset lines, owned by its driver.
///
/// The reset line is requested once as an output (inactive = chip running). The INT line is
/// an input with edge events to the active level, except while a GT911 reset drives it to
/// select the address; `interruptInput` is then nil until `releaseInterrupt()`.
/// Single-threaded: the driver thread.
package final class ControllerLines {
    package let provider: (any GPIOProvider)?
    package let interrupt: ControllerLine?
    package let reset: ControllerLine?
    /// The INT input, when requested and not being driven.
    package private(set) var interruptInput: (any GPIOInput)?
    private var resetOutput: (any GPIOOutput)?
    private var interruptOutput: (any GPIOOutput)?

    /// No lines: polling, no reset.
    package static func none() -> ControllerLines { ControllerLines(provider: nil, interrupt: nil, reset: nil) }

    package init(provider: (any GPIOProvider)?, interrupt: ControllerLine?, reset: ControllerLine?) {
        self.provider = provider
        self.interrupt = provider == nil ? nil : interrupt
        self.reset = provider == nil ? nil : reset
    }

    /// Lines are returned before the provider goes (a provider may be released with us).
    deinit { release() }

    /// Gives the INT and reset lines back to the provider (reset is left where it was: the chip
    /// keeps running). Idempotent; a later reset or INT use requests them again.
    package func release() {
        interruptInput = nil
        interruptOutput = nil
        resetOutput = nil
    }

    /// True when a reset line is wired.
    package var canReset: Bool { reset != nil }
    /// True when INT is wired (and so can be driven during a reset).
    package var hasInterrupt: Bool { interrupt != nil }

    /// Drives reset: `true` holds the chip in reset (RSTN low on an active-low line).
    /// The plain reset pulse: assert for `assert` µs, release, then wait `release` µs before the
    /// chip may be addressed. Does nothing without a reset line. (GT911 interleaves INT with it and
    /// sequences the lines itself.)
    package func pulseReset(assert: Int64, release: Int64, timing: DriverTiming) throws(GPIOError) {
        guard canReset else { return }
        try holdReset(true)
        timing.sleep(assert)
        try holdReset(false)
        timing.sleep(release)
    }

    package func holdReset(_ active: Bool) throws(GPIOError) {
        guard let provider, let reset else { return }
        if let out = resetOutput {
            try out.setActive(active)
        } else {
            resetOutput = try provider.requestOutput(reset.id, activeLow: reset.activeLow, active: active)
        }
    }

    /// Drives INT to a physical level (GT911 address selection): high = true.
    package func driveInterrupt(high: Bool) throws(GPIOError) {
        guard let provider, let interrupt else { return }
        interruptInput = nil
        let active = high != interrupt.activeLow
        if let out = interruptOutput {
            try out.setActive(active)
        } else {
            interruptOutput = try provider.requestOutput(interrupt.id, activeLow: interrupt.activeLow, active: active)
        }
    }

    /// Returns INT to an input reporting edges to its active level (Zephyr "edge to active").
    package func releaseInterrupt() throws(GPIOError) {
        guard let provider, let interrupt else { return }
        interruptOutput = nil
        if interruptInput == nil {
            interruptInput = try provider.requestInput(interrupt.id, activeLow: interrupt.activeLow, edges: .rising)
        }
    }
}
