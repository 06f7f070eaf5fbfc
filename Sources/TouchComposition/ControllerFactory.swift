import BoardConfig
import TouchCore
import TouchDrivers
import TouchLinux
import TouchService
import TouchSimulation
import TouchTrace

/// A chip model for the simulated bus and how the world wires it (`ControllerFactory.simulatedChip`).
package struct SimulatedChip {
    package var model: any I2CDeviceModel & TouchPresenting
    /// Gives the model the world's clock and the INT pulse to call when it loads a report.
    package var connect: (_ clock: any TouchClock, _ pulse: @escaping (Instant) -> Void) -> Void
    /// Drives the model's reset (or wake) line: active, and INT's level at release (nil: floating).
    package var setReset: (_ active: Bool, _ intHigh: Bool?) -> Void
}

/// Everything the driver stage needs for one board's controller.
package struct ControllerSetup {
    /// The driver; on a simulated board, a `SimulatedController` around the real driver.
    package var controller: any TouchInputSource
    /// The simulated world behind `controller` (nil on real hardware): for the commands and tests
    /// that steer or inspect it. The pipeline never sees it.
    package var simulation: SimulatedTouchWorld?
    package var transform: PanelTransform
    package var protection: TouchProtection
    package var schedule: AdaptivePollSchedule
    /// The polling period of a simulated board without INT (its report rate), or the configured one.
    package var pollIntervalMicroseconds: Int64
}

/// Builds the touch input a board names (`controller.chip`): an I2C controller's driver on the
/// simulated bus (`bus = "sim"`, with a register-level model of the same chip) or on `/dev/i2c-N`
/// (with libgpiod INT/reset lines when the board wires them); or an input device, simulated or
/// real (`EvdevSetup`). Every per-family switch here is exhaustive over `ControllerChip`.
package enum ControllerFactory {
    /// The panel transform of a board: rotation, swap, invert and calibration into `[panel]` pixels.
    package static func transform(_ board: BoardDescription, _ c: ControllerDescription) -> PanelTransform {
        PanelTransform(
            panelWidth: board.panel.width, panelHeight: board.panel.height, rotationDegrees: c.rotation.rawValue,
            swapXY: c.swapXY, invertX: c.invertX, invertY: c.invertY,
            calibration: c.calibration.flatMap { AffineCalibration(pointercal: $0) })
    }

    /// The raw chip coordinate range the decoders check. With a calibration the raw range is not
    /// known from the panel, so the decoders accept the chips' full 12-bit range (the transform
    /// still rejects points off the panel).
    static func rawRange(_ t: PanelTransform, calibrated: Bool) -> (Int, Int) {
        calibrated ? (4096, 4096) : (t.rawWidth, t.rawHeight)
    }

    static func line(_ d: GPIOLineDescription?) -> ControllerLine? {
        d.map { ControllerLine(id: GPIOLineID(chip: $0.chip, offset: $0.line), activeLow: $0.activeLow) }
    }

    /// The controller of `board`, started at `start`. With `capture` (`touchwire calibrate`) the
    /// board's calibration is dropped (the returned transform has none) and the decoders accept
    /// the chip's full 12-bit range, so presses come through however far off the panel they
    /// land; the caller applies only `transform.oriented` (invert, swap). `calibrationTargets` is how
    /// many targets the built-in calibration script presses (`script = "calibration"`).
    ///
    /// On a simulated board, `clock` is the pipeline's clock (its `sleep` moves it on): the
    /// driver's reset and ready waits and the simulated INT line's edge wait all use it, and the
    /// world follows `clock`, so the pipeline and the simulated chip agree on the time. Without a
    /// `clock` the world keeps its own time (`ownClock`; tests and commands stepping the board at
    /// instants they choose from `start`).
    package static func make(
        _ board: BoardDescription, start: Instant, capture: Bool = false, calibrationTargets: Int = 5,
        clock: (any TouchClock)? = nil
    ) throws(ServiceError) -> ControllerSetup {
        guard var c = board.controller else {
            throw .noController(board: board.location)
        }
        if capture { c.calibration = nil }
        let transform = transform(board, c)
        let (rawW, rawH) = rawRange(transform, calibrated: capture || c.calibration != nil)
        let protection = TouchProtection(
            releaseTimeoutMicroseconds: Int64(c.releaseTimeoutMilliseconds) * 1000,
            minContactMicroseconds: Int64(c.minContactMilliseconds) * 1000)
        let interrupt = line(c.interrupt)
        let reset = line(c.reset)
        switch c.bus {
        case .simulated:
            guard let sim = board.simulation else {
                throw .noSimulation(board: board.location)
            }
            let frames = try scriptFrames(board, sim, calibrationTargets: calibrationTargets)
            var loopPeriod: Int64? = nil
            if sim.loop {
                if case .demo = sim.script {
                    loopPeriod = DemoScript.duration
                } else if let first = frames.first, let last = frames.last {
                    loopPeriod = last.timestamp.microseconds(since: first.timestamp) + 1_000_000
                }
            }
            var chips: [String: Int] = [:]
            for l in [interrupt, reset].compactMap({ $0 }) { chips[l.id.chip] = max(64, l.id.offset + 1) }
            let gpio = chips.isEmpty ? nil : SimulatedGPIO(chips: chips, clock: StandingClock(start))
            let player = TouchScriptPlayer(frames: frames, start: start, loopPeriod: loopPeriod)
            let world: SimulatedTouchWorld
            switch c.input {
            case .controller(let chip):
                let model = Self.simulatedChip(
                    chip, address: c.address ?? chip.defaultAddress, width: rawW, height: rawH)
                let bus = SimulatedI2CBus()
                world = SimulatedTouchWorld(
                    panel: .controller(model.model, on: bus), player: player, gpio: gpio, interruptLine: interrupt,
                    start: start)
                wire(world, chip: model, on: bus, interrupt: interrupt, reset: reset)
            case .evdev:
                let device = SimulatedInputDevice(scriptWidth: rawW, scriptHeight: rawH)
                world = SimulatedTouchWorld(
                    panel: .inputDevice(device), player: player, gpio: gpio, interruptLine: interrupt, start: start)
            }
            let lines = ControllerLines(provider: gpio, interrupt: interrupt, reset: reset)
            let time: any TouchClock = clock ?? world.ownClock
            let timing = clock.map { world.timing(following: $0) } ?? world.timing
            let driver: any TouchInputSource
            switch world.panel {
            case .controller(let model, let bus):
                guard let chip = c.chip else { throw .noSimulation(board: board.location) }
                driver = makeDriver(
                    chip, address: model.address, reportRate: c.reportRate, bus: bus, lines: lines, timing: timing,
                    rawW: rawW, rawH: rawH)
            case .inputDevice(let device):
                driver = EvdevController(source: device, rawWidth: rawW, rawHeight: rawH, timing: timing)
            }
            let period = Int64(1_000_000 / max(1, sim.reportRateHz))
            return ControllerSetup(
                controller: SimulatedController(driver: driver, world: world, clock: time),
                simulation: world, transform: transform, protection: protection,
                schedule: AdaptivePollSchedule(configuredMicroseconds: period), pollIntervalMicroseconds: period)
        case .input(let selector):
            return try EvdevSetup.make(
                board, selector: selector, grab: c.grab, transform: transform, protection: protection, rawW: rawW,
                rawH: rawH, pollIntervalMilliseconds: c.pollIntervalMilliseconds)
        case .device(let path):
            // The board reader gives `chip = "evdev"` no I2C bus; should it happen, one clear error.
            guard let chip = c.chip else {
                throw .device(
                    board: board.location, what: "controller.bus",
                    reason: "chip = \"evdev\" reads /dev/input (device = or name =), not the I2C bus \(path)")
            }
            let bus: LinuxI2CBus
            do throws(I2CError) {
                bus = try LinuxI2CBus(path: path)
            } catch {
                throw .controllerBus(board: board.location, path: path, error: error)
            }
            let provider: (any GPIOProvider)? = (interrupt != nil || reset != nil) ? LinuxGPIO() : nil
            let lines = ControllerLines(provider: provider, interrupt: interrupt, reset: reset)
            let driver = makeDriver(
                chip, address: c.address ?? chip.defaultAddress, reportRate: c.reportRate, bus: bus, lines: lines,
                timing: .system, rawW: rawW, rawH: rawH)
            let period = Int64(c.pollIntervalMilliseconds) * 1000
            return ControllerSetup(
                controller: driver, simulation: nil, transform: transform, protection: protection,
                schedule: AdaptivePollSchedule(configuredMicroseconds: period), pollIntervalMicroseconds: period)
        }
    }

    /// The driver for `chip` at `address` on `bus`. Exhaustive: a new `ControllerChip` does not
    /// compile until it has its driver here.
    package static func makeDriver<Bus: I2CBus>(
        _ chip: ControllerChip, address: I2CAddress, reportRate: Int? = nil, bus: Bus, lines: ControllerLines,
        timing: DriverTiming, rawW: Int, rawH: Int
    ) -> any TouchInputSource {
        switch chip {
        case .ft6x36, .ft5x06:
            let config = FT6x36Driver<Bus>.Configuration(
                address: address, maxPoints: chip.maxContacts, panelWidth: rawW, panelHeight: rawH,
                interruptTrigger: lines.hasInterrupt, familyName: chip == .ft6x36 ? "FT6x36" : "FT5x06",
                reportRate: reportRate.map { UInt8(clamping: $0) })
            return FT6x36Driver(bus: bus, configuration: config, lines: lines, timing: timing)
        case .gt911:
            let config = GT911Driver<Bus>.Configuration(
                address: address, maxPoints: chip.maxContacts, panelWidth: rawW, panelHeight: rawH,
                waitsForReady: lines.hasInterrupt)
            return GT911Driver(bus: bus, configuration: config, lines: lines, timing: timing)
        case .cst816s:
            let config = CST816Driver<Bus>.Configuration(address: address, panelWidth: rawW, panelHeight: rawH)
            return CST816Driver(bus: bus, configuration: config, lines: lines, timing: timing)
        case .icn8318:
            return ICN8318Driver(
                bus: bus, address: address, panelWidth: rawW, panelHeight: rawH, lines: lines, timing: timing)
        }
    }

    /// What `probe` learns from `chip` at `address` without resetting it or configuring it:
    /// its identity, or the I2C error of the attempt. Exhaustive, like `makeDriver`.
    package static func identify<Bus: I2CBus>(
        _ chip: ControllerChip, at address: I2CAddress, on bus: Bus
    ) throws(I2CError) -> ControllerIdentity {
        switch chip {
        case .ft6x36, .ft5x06:
            return try FT6x36Driver(
                bus: bus, configuration: .ft5x06(panelWidth: 4096, panelHeight: 4096, address: address),
                timing: .system
            )
            .identify()
        case .gt911:
            return try GT911Driver(
                bus: bus, configuration: .init(address: address, panelWidth: 4096, panelHeight: 4096), timing: .system
            )
            .identify(at: address)
        case .cst816s:
            let d = CST816Driver(
                bus: bus,
                configuration: .init(address: address, panelWidth: 4096, panelHeight: 4096, disablesAutoSleep: false),
                timing: .system)
            do throws(TouchInputError) {
                try d.start()
            } catch {
                guard case .bus(let e) = error else {
                    throw .failed(operation: "\(error)", address: address, errno: 0)
                }
                throw e
            }
            return d.identity ?? ControllerIdentity(chipName: "CST816", address: address)
        case .icn8318:
            return try ICN8318Driver(bus: bus, address: address, panelWidth: 4096, panelHeight: 4096, timing: .system)
                .identify()
        }
    }

    /// A register-level model of `chip` at `address` for the simulated bus, with how the world
    /// connects it (its clock, its INT pulses) and drives its reset line. Exhaustive, like
    /// `makeDriver`: a new `ControllerChip` does not compile until it has its model here.
    package static func simulatedChip(
        _ chip: ControllerChip, address: I2CAddress, width: Int, height: Int
    ) -> SimulatedChip {
        switch chip {
        case .ft6x36, .ft5x06:
            let m = FT6x36Model(address: address)
            return SimulatedChip(
                model: m, connect: { _, pulse in m.onInterrupt = pulse }, setReset: { active, _ in m.setReset(active) })
        case .gt911:
            let m = GT911Model(address: address, width: width, height: height)
            return SimulatedChip(
                model: m,
                connect: { clock, pulse in
                    m.clock = clock
                    m.onInterrupt = pulse
                }, setReset: { active, intHigh in _ = m.setReset(active, intHigh: intHigh) })
        case .cst816s:
            let m = CST816Model(address: address)
            return SimulatedChip(
                model: m,
                connect: { clock, pulse in
                    m.clock = clock
                    m.onInterrupt = pulse
                }, setReset: { active, _ in m.setReset(active) })
        case .icn8318:
            let m = ICN8318Model(address: address)
            return SimulatedChip(
                model: m,
                connect: { clock, pulse in
                    m.clock = clock
                    m.onInterrupt = pulse
                }, setReset: { active, _ in m.setReset(active) })
        }
    }

    /// Connects the chip model to the world's clock and, when wired, to the simulated INT and reset lines.
    static func wire(
        _ world: SimulatedTouchWorld, chip: SimulatedChip, on bus: SimulatedI2CBus, interrupt: ControllerLine?,
        reset: ControllerLine?
    ) {
        let clock = world.ownClock
        let pulse: (Instant) -> Void = { [unowned world] t in world.pulseInterrupt(at: t) }
        if let gpio = world.gpio { gpio.clock = clock }
        chip.connect(clock, pulse)
        guard let gpio = world.gpio, let reset else { return }
        let model = chip.model
        let setReset = chip.setReset
        gpio.onOutputChange = { [unowned gpio, unowned bus] id, active, _ in
            guard id == reset.id else { return }
            // INT's physical level at the moment RST is released (nil when not driven: floating).
            var intHigh: Bool? = nil
            if let interrupt, gpio.isOutput(interrupt.id) {
                intHigh = gpio.isActive(interrupt.id) != interrupt.activeLow
            }
            let before = model.address
            setReset(active, intHigh)
            if model.address != before {  // a GT911 latches its address from INT at reset
                bus.detach(before)
                bus.attach(model)
            }
        }
    }

    static func scriptFrames(
        _ board: BoardDescription, _ sim: SimulationDescription, calibrationTargets: Int = 5
    ) throws(ServiceError) -> [TouchFrame] {
        switch sim.script {
        case .demo:
            return DemoScript.frames(panelWidth: board.panel.width, panelHeight: board.panel.height)
        case .calibration:
            guard var c = board.controller else { return [] }
            c.calibration = nil
            return CalibrationScript.frames(transform: transform(board, c), targets: calibrationTargets)
        case .trace(let path):
            do throws(TraceError) {
                return try TraceReader.read(path: path).frames
            } catch {
                throw .simulationScript(board: board.location, error: error)
            }
        }
    }
}
