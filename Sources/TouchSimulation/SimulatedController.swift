import TouchCore
import TouchDrivers

/// A real driver reading a `SimulatedTouchWorld`, seen by the pipeline as any other
/// `TouchInputSource`: this is the only way the simulation enters the pipeline (as swift-nio's
/// embedded channel enters through the channel protocol). The pipeline's code is the same for a
/// board on `/dev/i2c-1` and for `bus = "sim"`:
///
/// - `readFrame(at:)` first presents the script's state at that instant in the model's registers
///   (a finger on the glass), then lets the real driver read the simulated bus;
/// - `interruptInput`, when the board wires INT, is a `ScriptedInterruptInput`: its edge wait
///   returns the next scripted edge (waiting for it on the injected clock), as a wired INT line
///   would;
/// - everything else is the driver's own.
///
/// Single-threaded: owned by the driver thread, like the driver it wraps.
package final class SimulatedController: TouchInputSource {
    /// The real driver, on the world's simulated bus.
    package let driver: any TouchInputSource
    package let world: SimulatedTouchWorld
    private let clock: any TouchClock
    private var scripted: ScriptedInterruptInput?

    /// `clock` is the pipeline's (`SystemClock` in `run`; the world's own without one): the
    /// scripted INT waits on it, so a simulated run keeps the script's pace.
    package init(driver: any TouchInputSource, world: SimulatedTouchWorld, clock: any TouchClock) {
        self.driver = driver
        self.world = world
        self.clock = clock
    }

    package var identity: ControllerIdentity? { driver.identity }
    package var counters: DriverCounters { driver.counters }

    package func start() throws(TouchInputError) { try driver.start() }

    /// Closes the real driver (its simulated INT/reset lines go back to the simulated chip).
    package func close() {
        scripted = nil
        driver.close()
    }

    package func readFrame(at timestamp: Instant) throws(TouchInputError) -> TouchFrame? {
        world.advance(to: timestamp)
        return try driver.readFrame(at: timestamp)
    }

    package var interruptInput: (any GPIOInput)? {
        guard let line = driver.interruptInput else {
            scripted = nil
            return nil
        }
        if let scripted, scripted.line === line { return scripted }
        let input = ScriptedInterruptInput(line: line, world: world, clock: clock)
        scripted = input
        return input
    }
}

/// The simulated INT line as the driver thread waits on it: an edge already raised by the model
/// is returned at once; otherwise the wait lasts until the script's next change (when the model
/// loads a report and pulses INT), or the whole timeout when nothing changes before it.
package final class ScriptedInterruptInput: GPIOInput {
    /// The simulated chip's input line, where the model's pulses arrive.
    let line: any GPIOInput
    private let world: SimulatedTouchWorld
    private let clock: any TouchClock

    init(line: any GPIOInput, world: SimulatedTouchWorld, clock: any TouchClock) {
        self.line = line
        self.world = world
        self.clock = clock
    }

    package var id: GPIOLineID { line.id }

    package func isActive() throws(GPIOError) -> Bool { try line.isActive() }

    package func waitForEdge(timeoutMicroseconds: Int64) throws(GPIOError) -> GPIOEdgeEvent? {
        let now = clock.now
        world.advance(to: now)
        if let edge = try line.waitForEdge(timeoutMicroseconds: 0) { return edge }
        let timeout = max(0, timeoutMicroseconds)
        guard let next = world.nextScriptedChange(after: now), next.microseconds(since: now) <= timeout else {
            clock.sleep(microseconds: timeout)
            return nil
        }
        clock.sleep(microseconds: next.microseconds(since: now))
        world.advance(to: next)
        return try line.waitForEdge(timeoutMicroseconds: 0) ?? GPIOEdgeEvent(rising: true, timestamp: next)
    }
}
