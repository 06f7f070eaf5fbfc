import TouchCore
import TouchDrivers
import TouchSimulation

/// The simulated side of a `bus = "sim"` board: a script player feeding a register-level
/// controller model on a simulated I2C bus. The driver reads that bus exactly as it would
/// read `/dev/i2c-N`.
///
/// Single-threaded: owned by the driver thread.
public final class SimulatedTouchWorld {
    public let bus: SimulatedI2CBus
    public let model: FT6x36Model
    public private(set) var player: TouchScriptPlayer

    public init(bus: SimulatedI2CBus, model: FT6x36Model, player: TouchScriptPlayer) {
        self.bus = bus
        self.model = model
        self.player = player
        bus.attach(model)
    }

    /// Presents the script's frame for `now` in the model's registers (as a finger on the glass would).
    public func advance(to now: Instant) {
        _ = player.advance(to: now, model: model)
    }

    /// True when a non-looping script has played its last frame.
    public var isFinished: Bool { player.isFinished }
}
