import TouchCore
import TouchDrivers

/// The simulated side of a `bus = "sim"` board: a script player feeding a register-level
/// controller model (FT6x36, GT911 or CST816) on a simulated I2C bus, plus, when the board
/// wires them, simulated INT and reset lines. The driver reads that bus exactly as it would
/// read `/dev/i2c-N`.
///
/// Time: `now` is the latest instant the world has been advanced to. Either the world keeps its
/// own time (`timing`: the drivers' sleeps move `now` forward, no real sleeping, so reset
/// sequences and GT911 ready waits run at once in tests), or it follows the pipeline's injected
/// clock (`timing(clock:sleep:)`: the drivers sleep on that clock and the world catches up).
///
/// Single-threaded: owned by the driver thread.
package final class SimulatedTouchWorld {
    package let bus: SimulatedI2CBus
    package let model: any I2CDeviceModel & TouchPresenting
    package private(set) var player: TouchScriptPlayer
    /// The simulated GPIO chip, when the board wires INT or reset.
    package let gpio: SimulatedGPIO?
    /// The INT line the model pulses, when wired.
    package let interruptLine: ControllerLine?
    /// The latest instant the world has reached.
    package private(set) var now: Instant

    package init(
        bus: SimulatedI2CBus, model: any I2CDeviceModel & TouchPresenting, player: TouchScriptPlayer,
        gpio: SimulatedGPIO? = nil, interruptLine: ControllerLine? = nil, start: Instant = .zero
    ) {
        self.bus = bus
        self.model = model
        self.player = player
        self.gpio = gpio
        self.interruptLine = interruptLine
        now = start
        bus.attach(model)
    }

    /// Presents the script's frame for `time` in the model's registers (as a finger on the glass would).
    package func advance(to time: Instant) {
        if time > now { now = time }
        _ = player.advance(to: now, model: model)
    }

    /// Moves the world's clock forward without presenting (what a driver's sleep does).
    package func sleep(microseconds: Int64) {
        if microseconds > 0 { now = now.advanced(byMicroseconds: microseconds) }
    }

    /// Timing for drivers on this world when the world keeps its own time: sleeping advances `now`.
    package var timing: DriverTiming {
        DriverTiming(sleep: { [unowned self] us in sleep(microseconds: us) }, now: { [unowned self] in now })
    }

    /// Timing for drivers on this world when the pipeline's clock is injected: a driver's sleep (a
    /// reset pulse, a GT911 ready poll) is the pipeline's `sleep`, which moves `clock` on (a real
    /// sleep, or a virtual clock's advance), and the world then catches up with `clock` — so a reset
    /// takes its time on both clocks alike and the script is never presented ahead of the pipeline.
    package func timing(clock: @escaping () -> Instant, sleep: @escaping (Int64) -> Void) -> DriverTiming {
        DriverTiming(
            sleep: { [unowned self] us in
                sleep(us)
                advance(to: clock())
            }, now: clock)
    }

    /// Pulses the INT input (active then inactive) at `time`, as the chip does when a report is loaded.
    package func pulseInterrupt(at time: Instant) {
        guard let gpio, let line = interruptLine else { return }
        gpio.drive(line.id, active: true, at: time)
        gpio.drive(line.id, active: false, at: time.advanced(byMicroseconds: 50))
    }

    /// When the script next changes what the glass shows (the simulated INT edge), nil: never again.
    package func nextScriptedChange(after time: Instant) -> Instant? { player.nextFrameTime(after: time) }

    /// True when a non-looping script has played its last frame.
    package var isFinished: Bool { player.isFinished }
}
