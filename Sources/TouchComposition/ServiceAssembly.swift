import BoardConfig
import Gestures
import Logging
import TouchCore
import TouchDrivers
import TouchLinux
import TouchOutputs
import TouchService

/// Everything `Service.init` is handed for one board, built and opened by `ServiceParts.init`,
/// with what the controller's setup knows beyond the pipeline (the simulated world, the board's
/// transform, the polling period) for the commands that step the pipeline themselves.
package struct ServiceParts {
    package var profile: ServiceProfile
    package var realtime: BoardRealTime
    package var logger: Logger
    package var engine: GestureEngine
    package var channels: [OutputChannel]
    package var lines: GPIOActuator?
    package var commands: CommandActuator?
    package var passthrough: PassthroughOutput?
    package var display: DisplayControl?
    package var displaySwitch: (any ScreenSwitch)?
    /// The controller as `ControllerFactory.make` set it up (its simulated world, if any, included).
    package var controller: ControllerSetup
    /// What the driver stage applies: the board's transform, or none with `settings.capture`
    /// (the frame ring then carries the controller's points as read).
    package var driverTransform: PanelTransform?
    package var clock: any TouchClock

    /// Builds the whole pipeline for `board` and opens everything it needs — engine, outputs, GPIO
    /// bindings, then the controller (on `/dev/i2c-N`, an input device, or a simulated twin of
    /// either for `bus = "sim"`) — throwing one clear error if any part fails, so a bad board never
    /// starts a half-configured service. `extraOutputs` are added to the board's own (tests point
    /// one at a pseudo-terminal); `gpio`, when given, supplies every bound GPIO line (tests pass a
    /// simulated chip; otherwise chip "sim" is in memory and others are libgpiod's); `clock` is the
    /// pipeline's one clock, the monotonic one unless a test injects a `ManualClock` (the
    /// controller's reset waits then move it); `devices` opens the passthrough touchscreen, the
    /// keyboard and the exec runner (uinput and real programs on `clock` unless a test passes
    /// `SimulatedOutputDevices`). With `settings.observeOnly` none of the board's outputs is opened
    /// (`monitor`, `calibrate`); with `settings.capture` the controller is read raw (`calibrate`).
    package init(
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
                board, backlightRoot: settings.backlightRoot, gpio: gpio, clock: clock,
                execByAgents: settings.execByAgents, logger: logger) : nil
        if let warning = DisplayDescription.wakeTouchWarning(board) { logger.warning("\(warning)") }
        let setup = try ControllerFactory.make(
            board, start: clock.now, capture: settings.capture != nil,
            calibrationTargets: settings.capture?.targets ?? 5, clock: clock)
        let simulated = board.controller?.bus == .simulated
        profile = ServiceProfile(
            boardName: board.name,
            controller: (board.controller?.input.boardName ?? "none") + (simulated ? " (sim)" : ""),
            statusFile: settings.statusFile, prometheusFile: settings.prometheusFile ?? board.metrics.prometheusFile,
            reloads: settings.reloads, idleInterruptWatchdogMicroseconds: settings.idleInterruptWatchdogMicroseconds)
        self.display = board.display.map { d in
            DisplayControl(
                idleOffSeconds: d.idleOffSeconds, idleDimSeconds: d.idleDimSeconds,
                wakeGuardMilliseconds: d.wakeGuardMilliseconds, start: clock.now)
        }
        realtime = BoardRealTime(settings.realtime ?? board.realtime)
        self.logger = logger
        self.engine = engine
        self.channels = channels + extraOutputs
        self.lines = lines
        self.commands = commands
        self.passthrough = passthrough
        displaySwitch = display
        controller = setup
        driverTransform = settings.capture == nil ? setup.transform : nil
        self.clock = clock
    }
}

extension Service {
    /// `ServiceParts(board:…)` assembled: see there.
    ///
    /// This is the one place a pipeline is assembled: `run`, `bench`, a reload, `monitor` and
    /// `calibrate` all come through it.
    package convenience init(
        board: BoardDescription, logger: Logger, settings: ServiceSettings = ServiceSettings(),
        extraOutputs: [OutputChannel] = [], stdout: (any LineSink)? = nil, gpio: (any GPIOProvider)? = nil,
        devices: (any OutputDevices)? = nil, clock: any TouchClock = SystemClock.shared
    ) throws(ServiceError) {
        self.init(
            parts: try ServiceParts(
                board: board, logger: logger, settings: settings, extraOutputs: extraOutputs, stdout: stdout,
                gpio: gpio, devices: devices, clock: clock))
    }

    /// The service of parts already built (`ServiceParts`), for a caller that also needs what the
    /// controller's setup knows (the simulated world, the transform).
    package convenience init(parts p: ServiceParts) {
        self.init(
            profile: p.profile, realtime: p.realtime, logger: p.logger, engine: p.engine, channels: p.channels,
            lines: p.lines, controller: p.controller.controller, transform: p.driverTransform,
            protection: p.controller.protection, schedule: p.controller.schedule, commands: p.commands,
            passthrough: p.passthrough, display: p.display, displaySwitch: p.displaySwitch, host: LinuxServiceHost(),
            clock: p.clock)
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
                liftsOnTime: p.heldEnds == .onTime)
        } catch {
            throw .pipeline(.passthrough(board: board.location, reason: "\(error)"))
        }
    }
}
