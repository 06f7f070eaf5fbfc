import TouchCore
import TouchDrivers

/// What a simulated board's script is shown to: a register-level controller model on the
/// simulated I2C bus, or a simulated Linux input device (`chip = "evdev"`, no bus at all).
package enum SimulatedPanel {
    /// A chip model, attached to `bus` at its address; an I2C driver reads that bus.
    case controller(any I2CDeviceModel & TouchPresenting, on: SimulatedI2CBus)
    /// An evdev-shaped device; `EvdevController` reads it as it reads `/dev/input/eventN`.
    case inputDevice(SimulatedInputDevice)

    /// What the script player presents frames to.
    package var presenter: any TouchPresenting {
        switch self {
        case .controller(let m, _): m
        case .inputDevice(let d): d
        }
    }
}

/// The simulated side of a `bus = "sim"` board: a script player feeding the panel — a
/// register-level controller model (`ControllerFactory.simulatedChip`) on a simulated I2C bus, or a simulated
/// input device —, plus, when the board wires them, simulated INT and reset lines. The driver
/// reads that bus (or device) exactly as it would read `/dev/i2c-N` (or `/dev/input/eventN`).
///
/// Time: `now` is the latest instant the world has been advanced to. Either the world keeps its
/// own time (`timing`: the drivers' sleeps move `now` forward, no real sleeping, so reset
/// sequences and GT911 ready waits run at once in tests), or it follows the pipeline's injected
/// clock (`timing(clock:sleep:)`: the drivers sleep on that clock and the world catches up).
///
/// Single-threaded: owned by the driver thread.
package final class SimulatedTouchWorld {
    package let panel: SimulatedPanel
    /// The simulated I2C bus the controller model is on; nil for an input device, which has none.
    package var bus: SimulatedI2CBus? {
        if case .controller(_, let bus) = panel { bus } else { nil }
    }
    /// What the script is presented to (the controller model or the input device).
    package var model: any TouchPresenting { panel.presenter }
    /// The controller model on the bus, nil for an input device.
    package var controllerModel: (any I2CDeviceModel & TouchPresenting)? {
        if case .controller(let m, _) = panel { m } else { nil }
    }
    package private(set) var player: TouchScriptPlayer
    /// The simulated GPIO chip, when the board wires INT or reset.
    package let gpio: SimulatedGPIO?
    /// The INT line the model pulses, when wired.
    package let interruptLine: ControllerLine?
    /// The latest instant the world has reached.
    package private(set) var now: Instant

    package init(
        panel: SimulatedPanel, player: TouchScriptPlayer,
        gpio: SimulatedGPIO? = nil, interruptLine: ControllerLine? = nil, start: Instant = .zero
    ) {
        self.panel = panel
        self.player = player
        self.gpio = gpio
        self.interruptLine = interruptLine
        now = start
        if case .controller(let m, let bus) = panel { bus.attach(m) }
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

    /// The world's own time as a clock (`now`; a sleep advances it): what a simulated board runs
    /// on when the world keeps its own time.
    package var ownClock: any TouchClock { WorldClock(world: self) }

    /// Timing for drivers on this world when the world keeps its own time: sleeping advances `now`.
    package var timing: DriverTiming { DriverTiming(clock: ownClock) }

    /// Timing for drivers on this world when the pipeline's clock is injected: a driver's sleep (a
    /// reset pulse, a GT911 ready poll) is the clock's `sleep`, which moves it on (a real sleep, or
    /// a manual clock's advance), and the world then catches up with the clock — so a reset takes
    /// its time on both alike and the script is never presented ahead of the pipeline.
    package func timing(following clock: any TouchClock) -> DriverTiming {
        DriverTiming(clock: FollowingClock(world: self, clock: clock))
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

/// `SimulatedTouchWorld.ownClock`: the world's `now`, which a sleep advances. Driver thread only,
/// like the world.
private final class WorldClock: TouchClock, @unchecked Sendable {
    unowned let world: SimulatedTouchWorld
    init(world: SimulatedTouchWorld) { self.world = world }
    var now: Instant { world.now }
    func sleep(microseconds: Int64) { world.sleep(microseconds: microseconds) }
}

/// `SimulatedTouchWorld.timing(following:)`'s clock: the pipeline's, with the world catching up
/// with it after every sleep. Driver thread only, like the world.
private final class FollowingClock: TouchClock, @unchecked Sendable {
    unowned let world: SimulatedTouchWorld
    let clock: any TouchClock
    init(world: SimulatedTouchWorld, clock: any TouchClock) {
        self.world = world
        self.clock = clock
    }
    var now: Instant { clock.now }
    func sleep(microseconds: Int64) {
        clock.sleep(microseconds: microseconds)
        world.advance(to: clock.now)
    }
}
