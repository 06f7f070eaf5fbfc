import BoardConfig
import Logging
import TouchCore
import TouchLinux
import TouchOutputs
import TouchService

extension Service {
    /// Builds the whole pipeline for `board` and opens everything it needs — engine, outputs, GPIO
    /// bindings, then the controller (on `/dev/i2c-N`, or a `SimulatedController` for `bus = "sim"`)
    /// — throwing one clear error if any part fails, so a bad board never starts a half-configured
    /// service. `extraOutputs` are added to the board's own (tests point one at a pseudo-terminal);
    /// `gpio`, when given, supplies every bound GPIO line (tests pass a simulated chip; otherwise
    /// chip "sim" is in memory and others are libgpiod's); `clock` is the monotonic clock unless a
    /// test injects one.
    package convenience init(
        board: BoardDescription, logger: Logger, settings: ServiceSettings = ServiceSettings(),
        extraOutputs: [OutputChannel] = [], stdout: (any LineSink)? = nil, gpio: (any GPIOProvider)? = nil,
        clock: @escaping @Sendable () -> Instant = { MonotonicClock.now() }
    ) throws(ServiceError) {
        let engine = try EngineBuilder.build(board)
        let names = EngineBuilder.names(of: engine)
        let channels = try OutputFactory.channels(board, names: names, stdout: stdout, logger: logger, clock: clock)
        let lines = try OutputFactory.gpio(board, names: names, provider: gpio, logger: logger)
        let commands: CommandActuator?
        do throws(PipelineSetupError) {
            commands = try CommandActuator.make(board, names: names, logger: logger)
        } catch {
            throw .pipeline(error)
        }
        let display = try DisplaySetup.make(
            board, backlightRoot: settings.backlightRoot, gpio: gpio, logger: logger)
        if let warning = DisplayDescription.wakeTouchWarning(board) { logger.warning("\(warning)") }
        let setup = try ControllerFactory.make(board, start: clock(), clock: clock)
        do throws(PipelineSetupError) {
            try self.init(
                board: board, logger: logger, settings: settings, engine: engine, channels: channels + extraOutputs,
                lines: lines, controller: setup.controller, transform: setup.transform, protection: setup.protection,
                schedule: setup.schedule, commands: commands, displaySwitch: display, clock: clock)
        } catch {
            throw .pipeline(error)
        }
    }
}
