import BoardConfig
import Gestures
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
    /// chip "sim" is in memory and others are libgpiod's); `clock` is the pipeline's one clock,
    /// the monotonic one unless a test injects a `ManualClock` (the controller's reset waits then
    /// move it); `devices` opens the passthrough touchscreen, the keyboard and the exec runner
    /// (uinput and real programs on `clock` unless a test passes `SimulatedOutputDevices`).
    /// With `settings.observeOnly` none of the board's outputs is opened (`monitor`).
    ///
    /// This is the one place a pipeline is assembled: `run`, `bench`, a reload and `monitor`
    /// all come through it.
    package convenience init(
        board: BoardDescription, logger: Logger, settings: ServiceSettings = ServiceSettings(),
        extraOutputs: [OutputChannel] = [], stdout: (any LineSink)? = nil, gpio: (any GPIOProvider)? = nil,
        devices: (any OutputDevices)? = nil, clock: any TouchClock = SystemClock.shared
    ) throws(ServiceError) {
        let devices = devices ?? SystemOutputDevices(clock: clock)
        let engine = try EngineBuilder.build(board)
        let names = EngineBuilder.names(of: engine)
        let outputs = !settings.observeOnly
        let channels =
            outputs
            ? try OutputFactory.channels(board, names: names, stdout: stdout, logger: logger, clock: clock) : []
        let lines = outputs ? try OutputFactory.gpio(board, names: names, provider: gpio, logger: logger) : nil
        var commands: CommandActuator? = nil
        if outputs {
            do throws(PipelineSetupError) {
                commands = try CommandSetup.make(
                    board, names: names, devices: devices, logger: logger, execByAgents: settings.execByAgents)
            } catch {
                throw .pipeline(error)
            }
        }
        let passthrough = outputs ? try PassthroughTracker.output(board, engine: engine, devices: devices) : nil
        let display =
            outputs
            ? try DisplaySetup.make(
                board, backlightRoot: settings.backlightRoot, gpio: gpio, clock: clock, logger: logger) : nil
        if let warning = DisplayDescription.wakeTouchWarning(board) { logger.warning("\(warning)") }
        let setup = try ControllerFactory.make(
            board, start: clock.now, clock: clock)
        let simulated = board.controller?.bus == .simulated
        let profile = ServiceProfile(
            boardName: board.name,
            controller: (board.controller?.input.boardName ?? "none") + (simulated ? " (sim)" : ""),
            statusFile: settings.statusFile, prometheusFile: settings.prometheusFile ?? board.metrics.prometheusFile,
            reloads: settings.reloads, idleInterruptWatchdogMicroseconds: settings.idleInterruptWatchdogMicroseconds)
        let gate = board.display.map { d in
            DisplayControl(
                idleOffSeconds: d.idleOffSeconds, idleDimSeconds: d.idleDimSeconds,
                wakeGuardMilliseconds: d.wakeGuardMilliseconds, start: clock.now)
        }
        self.init(
            profile: profile, realtime: BoardRealTime(settings.realtime ?? board.realtime), logger: logger,
            engine: engine, channels: channels + extraOutputs, lines: lines, controller: setup.controller,
            transform: setup.transform, protection: setup.protection, schedule: setup.schedule, commands: commands,
            passthrough: passthrough, display: gate, displaySwitch: display, host: LinuxServiceHost(),
            clock: clock)
    }
}

extension PassthroughTracker {
    /// Regions of `board` in the engine's order, forwarded unless marked `passthrough = false`;
    /// `[passthrough] held_ends` decides `liftsOnTime`.
    package convenience init(board: BoardDescription, engine: GestureEngine) {
        self.init(
            forwarded: Self.forwarded(board, engine: engine),
            liftsOnTime: (board.passthrough?.heldEnds ?? .onTime) == .onTime)
    }

    /// Region index → whether its touches reach the UI (`passthrough = false` keeps them).
    static func forwarded(_ board: BoardDescription, engine: GestureEngine) -> [Bool] {
        engine.regions.map { r in board.region(named: r.name)?.passthrough ?? true }
    }

    /// Opens `board`'s `[passthrough]` touchscreen through `devices` (nil without one) before
    /// anything starts: a missing /dev/uinput or a permission problem is one error.
    static func output(_ board: BoardDescription, engine: GestureEngine, devices: any OutputDevices)
        throws(ServiceError) -> PassthroughOutput?
    {
        guard let p = board.passthrough else { return nil }
        let slots = p.slots ?? board.controller?.input.maxContacts ?? 10
        do throws(UInputError) {
            let device = try devices.touchscreen(
                name: p.name, width: board.panel.width, height: board.panel.height, slots: slots,
                widthMillimetres: board.panel.widthMillimetres, heightMillimetres: board.panel.heightMillimetres)
            return PassthroughOutput(
                screen: PassthroughTouchscreen(device: device, slots: slots),
                forwarded: forwarded(board, engine: engine),
                liftsOnTime: (p.heldEnds ?? .onTime) == .onTime)
        } catch {
            throw .pipeline(.passthrough(board: board.location, reason: "\(error)"))
        }
    }
}
