import BoardConfig
import TouchCore
import TouchDrivers
import TouchLinux
import TouchService
import TouchSimulation
import TouchTrace

/// Everything the driver stage needs for one board's controller.
package struct ControllerSetup {
    /// The driver; on a simulated board, a `SimulatedController` around the real driver.
    package var controller: any TouchController
    /// The simulated world behind `controller` (nil on real hardware): for the commands and tests
    /// that steer or inspect it. The pipeline never sees it.
    package var simulation: SimulatedTouchWorld?
    package var transform: PanelTransform
    package var protection: TouchProtection
    package var schedule: AdaptivePollSchedule
    /// The polling period of a simulated board without INT (its report rate), or the configured one.
    package var pollIntervalMicroseconds: Int64
}

/// Builds the controller driver a board names: by `controller.chip`, on the simulated bus
/// (`bus = "sim"`, with a register-level model of the same chip) or on `/dev/i2c-N` (with
/// libgpiod INT/reset lines when the board wires them).
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
    /// On a simulated board, `clock` is the pipeline's clock and `sleep` (a real sleep unless given;
    /// it must move `clock` on) how time passes on it: the driver's reset and ready waits and the
    /// simulated INT line's edge wait all use them, and the world follows `clock`, so the pipeline and
    /// the simulated chip agree on the time. Without a `clock` the world keeps its own time (tests and
    /// commands stepping the board at instants they choose from `start`).
    package static func make(
        _ board: BoardDescription, start: Instant, capture: Bool = false, calibrationTargets: Int = 5,
        clock: (() -> Instant)? = nil, sleep: ((Int64) -> Void)? = nil
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
            let bus = SimulatedI2CBus()
            var chips: [String: Int] = [:]
            for l in [interrupt, reset].compactMap({ $0 }) { chips[l.id.chip] = max(64, l.id.offset + 1) }
            let gpio = chips.isEmpty ? nil : SimulatedGPIO(chips: chips, clock: { start })
            let model = makeModel(c, width: rawW, height: rawH)
            let world = SimulatedTouchWorld(
                bus: bus, model: model,
                player: TouchScriptPlayer(frames: frames, start: start, loopPeriod: loopPeriod), gpio: gpio,
                interruptLine: interrupt, start: start)
            wire(world, model: model, interrupt: interrupt, reset: reset)
            let lines = ControllerLines(provider: gpio, interrupt: interrupt, reset: reset)
            let now: () -> Instant
            let pass: (Int64) -> Void
            let timing: DriverTiming
            if let clock {
                now = clock
                pass = sleep ?? { MonotonicClock.sleep(microseconds: $0) }
                timing = world.timing(clock: now, sleep: pass)
            } else {
                now = { [unowned world] in world.now }
                pass = { [unowned world] in world.sleep(microseconds: $0) }
                timing = world.timing
            }
            let driver =
                EvdevSetup.simulatedDriver(model, timing: timing, rawW: rawW, rawH: rawH)
                ?? makeDriver(c, bus: bus, lines: lines, timing: timing, rawW: rawW, rawH: rawH)
            let period = Int64(1_000_000 / max(1, sim.reportRateHz))
            return ControllerSetup(
                controller: SimulatedController(driver: driver, world: world, clock: now, sleep: pass),
                simulation: world, transform: transform, protection: protection,
                schedule: AdaptivePollSchedule(configuredMicroseconds: period), pollIntervalMicroseconds: period)
        case .input(let selector):
            return try EvdevSetup.make(
                board, selector: selector, grab: c.grab, transform: transform, protection: protection, rawW: rawW,
                rawH: rawH, pollIntervalMilliseconds: c.pollIntervalMilliseconds)
        case .device(let path):
            let bus: LinuxI2CBus
            do throws(I2CError) {
                bus = try LinuxI2CBus(path: path)
            } catch {
                throw .controllerBus(board: board.location, path: path, error: error)
            }
            let provider: (any GPIOProvider)? = (interrupt != nil || reset != nil) ? LinuxGPIO() : nil
            let lines = ControllerLines(provider: provider, interrupt: interrupt, reset: reset)
            let driver = makeDriver(c, bus: bus, lines: lines, timing: .system, rawW: rawW, rawH: rawH)
            let period = Int64(c.pollIntervalMilliseconds) * 1000
            return ControllerSetup(
                controller: driver, simulation: nil, transform: transform, protection: protection,
                schedule: AdaptivePollSchedule(configuredMicroseconds: period), pollIntervalMicroseconds: period)
        }
    }

    /// The driver for `c.chip` on `bus`.
    package static func makeDriver<Bus: I2CBus>(
        _ c: ControllerDescription, bus: Bus, lines: ControllerLines, timing: DriverTiming, rawW: Int, rawH: Int
    ) -> any TouchController {
        switch c.chip {
        case .ft6x36, .ft5x06:
            let config = FT6x36Driver<Bus>.Configuration(
                address: c.address, maxPoints: c.chip.maxContacts, panelWidth: rawW, panelHeight: rawH,
                interruptTrigger: lines.hasInterrupt, familyName: c.chip == .ft6x36 ? "FT6x36" : "FT5x06",
                reportRate: c.reportRate.map { UInt8(clamping: $0) })
            return FT6x36Driver(bus: bus, configuration: config, lines: lines, timing: timing)
        case .gt911:
            let config = GT911Driver<Bus>.Configuration(
                address: c.address, maxPoints: c.chip.maxContacts, panelWidth: rawW, panelHeight: rawH,
                waitsForReady: lines.hasInterrupt)
            return GT911Driver(bus: bus, configuration: config, lines: lines, timing: timing)
        case .cst816s:
            let config = CST816Driver<Bus>.Configuration(address: c.address, panelWidth: rawW, panelHeight: rawH)
            return CST816Driver(bus: bus, configuration: config, lines: lines, timing: timing)
        case .evdev:
            return EvdevSetup.misrouted(rawW: rawW, rawH: rawH)
        }
    }

    static func makeModel(_ c: ControllerDescription, width: Int, height: Int) -> any I2CDeviceModel & TouchPresenting {
        switch c.chip {
        case .ft6x36, .ft5x06: return FT6x36Model(address: c.address)
        case .gt911: return GT911Model(address: c.address, width: width, height: height)
        case .cst816s: return CST816Model(address: c.address)
        case .evdev: return SimulatedInputDevice(scriptWidth: width, scriptHeight: height)
        }
    }

    /// Connects the model to the world's clock and, when wired, to the simulated INT and reset lines.
    static func wire(
        _ world: SimulatedTouchWorld, model: any I2CDeviceModel & TouchPresenting, interrupt: ControllerLine?,
        reset: ControllerLine?
    ) {
        let clock: () -> Instant = { [unowned world] in world.now }
        let pulse: (Instant) -> Void = { [unowned world] t in world.pulseInterrupt(at: t) }
        if let gpio = world.gpio { gpio.clock = clock }
        switch model {
        case let m as GT911Model:
            m.clock = clock
            m.onInterrupt = pulse
        case let m as CST816Model:
            m.clock = clock
            m.onInterrupt = pulse
        case let m as FT6x36Model:
            m.onInterrupt = pulse
        default: break
        }
        guard let gpio = world.gpio, let reset else { return }
        gpio.onOutputChange = { [unowned world, unowned gpio] id, active, _ in
            guard id == reset.id else { return }
            switch world.model {
            case let m as GT911Model:
                // INT's physical level at the moment RST is released (nil when not driven: floating).
                var intHigh: Bool? = nil
                if let interrupt, gpio.isOutput(interrupt.id) {
                    intHigh = gpio.isActive(interrupt.id) != interrupt.activeLow
                }
                let before = m.address
                m.setReset(active, intHigh: intHigh)
                if m.address != before {
                    world.bus.detach(before)
                    world.bus.attach(m)
                }
            case let m as CST816Model: m.setReset(active)
            case let m as FT6x36Model: m.setReset(active)
            default: break
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
