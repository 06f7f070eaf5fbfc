import BoardConfig
import Logging
import TouchCore
import TouchDrivers
import TouchLinux
import TouchRing
import TouchService
import TouchSimulation

/// What became of one press during calibration.
package enum PressResult: Equatable, Sendable {
    /// A still, single-finger press: the median of its samples (after invert/swap), how many
    /// samples it had and how far the farthest sample lay from the median.
    case accepted(Point, samples: Int, moved: Double)
    /// A press that cannot be used, and why (moved, several fingers, cancelled).
    case rejected(String)
}

/// Turns the driver's frames into presses: from the first contact to the lift, one finger,
/// held still. Robust to jitter: the press's point is the per-axis median of its samples.
package struct PressCollector: Sendable {
    /// A press whose samples lie farther than this from their median is rejected (raw units,
    /// about pixels).
    package var maxMovement: Double
    private var samples: [Point] = []
    private var problem: String? = nil
    private var down = false

    package init(maxMovement: Double = 5) { self.maxMovement = maxMovement }

    /// True while a finger is down.
    package var isPressed: Bool { down }

    /// Feeds one queued frame whose positions are already oriented (invert/swap applied);
    /// returns the press that a lift or cancel ended.
    package mutating func feed(_ frame: TouchFrame) -> PressResult? {
        if frame.isCancel {
            guard down else { return nil }
            reset()
            return .rejected("the touch was cancelled (bus error or release watchdog)")
        }
        if frame.isEmpty {
            guard down else { return nil }
            defer { reset() }
            return finish()
        }
        down = true
        if frame.count > 1 {
            problem = "more than one finger was down"
        } else {
            samples.append(frame[0].position)
        }
        return nil
    }

    private mutating func reset() {
        samples.removeAll(keepingCapacity: true)
        problem = nil
        down = false
    }

    private func finish() -> PressResult {
        if let problem { return .rejected(problem) }
        guard !samples.isEmpty else { return .rejected("no usable sample") }
        let median = Point(x: Self.median(samples.map(\.x)), y: Self.median(samples.map(\.y)))
        let moved = samples.map { $0.distance(to: median) }.max() ?? 0
        if moved > maxMovement {
            return .rejected(
                "the finger moved \(Self.pixels(moved)) px (at most \(Self.pixels(maxMovement)) px); hold it still")
        }
        return .accepted(median, samples: samples.count, moved: moved)
    }

    /// The median (the mean of the middle two for an even count).
    package static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return .nan }
        let m = s.count / 2
        return s.count % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2
    }

    static func pixels(_ v: Double) -> String {
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? (Int(checking: r).map(String.init) ?? "\(r)") : "\(r)"
    }
}

/// One step of a calibration session.
package enum CalibrationStep: Equatable, Sendable {
    /// Target `index` was pressed; `raw` is the press after invert/swap.
    case accepted(index: Int, raw: Point, samples: Int)
    /// A press meant for target `index` was rejected; the same target is asked again.
    case rejected(index: Int, reason: String)
}

/// How a `CalibrationSession` paces its reads (`CalibrationSession.read()`).
package enum CalibrationPacing: Sendable, Equatable {
    /// One read every `CalibrationSession.pollIntervalMicroseconds` of the session's clock: a
    /// simulated board on a virtual clock, one read per simulated report (as `monitor
    /// --virtual-clock` reads it), so the same presses give the same samples every run.
    case everyReport
    /// As the service's driver thread reads the board (`DriverLoop`): on INT edges when the
    /// board wires INT, else at the adaptive polling rate.
    case driverLoop
}

/// `touchwire calibrate`'s engine, without a terminal: the board's pipeline as `run` assembles
/// it (`ServiceParts`, the one composition root), observing only (no output is opened) and with
/// the raw capture (`ServiceSettings.capture`: the board's calibration dropped, no transform in
/// the driver stage). The session reads the service's frame ring in place of the recognizer
/// stage, orients each frame (`PanelTransform.oriented`: invert, swap; neither calibration nor
/// rotation), collects one still press per target (`PressCollector`) and fits tslib's affine
/// calibration. Every input the service reads (an I2C chip, an input device, the simulated twin
/// of either) comes through the same path.
///
/// Its clock is the pipeline's: `read()` moves it on (a real sleep, or a virtual clock's
/// advance); `poll(at:)` reads at an instant the caller chooses.
package final class CalibrationSession {
    package let board: BoardDescription
    /// The targets in panel pixels (what the user sees) with their names.
    package let targets: [(name: String, point: Point)]
    /// The board's transform without calibration: `oriented` gives the point calibration
    /// applies to, `unrotated` turns a target into the space calibration maps into.
    package let transform: PanelTransform
    /// The pipeline, assembled by `Service(parts:)`; only its driver stage and frame ring run.
    package let service: Service
    /// The pipeline's driver stage.
    package var driver: DriverStage { service.driver }
    /// The simulated world, on a simulated board (to tell when its script has ended).
    package let simulation: SimulatedTouchWorld?
    /// The polling period (the simulated report rate, or the board's `poll_interval_ms`).
    package let pollIntervalMicroseconds: Int64
    /// The pipeline's clock.
    package let clock: any TouchClock
    package let pacing: CalibrationPacing
    /// The presses accepted so far, one per target in order.
    package private(set) var pairs: [CalibrationPair] = []
    /// Presses rejected so far.
    package private(set) var rejectedPresses = 0
    private var collector: PressCollector
    private var loop: DriverLoop
    private var wait: Int64?

    /// Fails when the board has no controller, its pipeline cannot be assembled, or `points` is
    /// not one of `CalibrationTargets.supportedCounts`. On a simulated board whose script is the
    /// demo (which presses no targets) the built-in calibration presses are played instead, one
    /// per target, and `log` says so. `clock` nil: a virtual clock on a simulated board (paced
    /// `.everyReport`), the monotonic one otherwise (paced `.driverLoop`); `pacing` nil: that
    /// clock's. `log` receives the pipeline's notices (a controller that is ready or not answering).
    package init(
        board: BoardDescription, points: Int = 5, clock: (any TouchClock)? = nil, pacing: CalibrationPacing? = nil,
        maxMovement: Double = 5, log: @escaping (String) -> Void = { _ in }
    ) throws(ServiceError) {
        guard
            let targets = CalibrationTargets.points(
                count: points, panelWidth: board.panel.width, panelHeight: board.panel.height)
        else {
            let counts = CalibrationTargets.supportedCounts.map(String.init).joined(separator: ", ")
            throw .argument(option: "--points", value: "\(points)", expected: "one of \(counts)")
        }
        guard board.controller != nil else { throw .noController(board: board.location) }
        var board = board
        if board.controller?.bus == .simulated, case .demo? = board.simulation?.script {
            board.simulation?.script = .calibration
            log("the simulated board's demo script presses no targets; playing the built-in calibration presses")
        }
        // A simulated board's presses play on a virtual clock: the same samples every run.
        let virtual = board.controller?.bus == .simulated
        let clock = clock ?? (virtual ? ManualClock() : SystemClock.shared)
        let parts = try ServiceParts(
            board: board, logger: ForwardingLogger.make(label: "touchwire-calibrate", log),
            settings: ServiceSettings(observeOnly: true, capture: CalibrationCapture(targets: points)), clock: clock)
        self.board = board
        self.targets = targets
        self.clock = clock
        self.pacing = pacing ?? (virtual ? .everyReport : .driverLoop)
        transform = parts.controller.transform
        pollIntervalMicroseconds = parts.controller.pollIntervalMicroseconds
        simulation = parts.controller.simulation
        service = Service(parts: parts)
        loop = DriverLoop(driver: service.driver, clock: clock)
        collector = PressCollector(maxMovement: maxMovement)
    }

    /// The session on a virtual clock started at `start` (paced `.everyReport`).
    package convenience init(
        board: BoardDescription, points: Int = 5, start: Instant, maxMovement: Double = 5,
        log: @escaping (String) -> Void = { _ in }
    ) throws(ServiceError) {
        try self.init(
            board: board, points: points, clock: ManualClock(start), pacing: .everyReport, maxMovement: maxMovement,
            log: log)
    }

    /// Releases the controller (an input device's grab, the I2C bus).
    package func close() { service.close() }

    /// The index of the target to press next (== `targets.count` when complete).
    package var currentIndex: Int { pairs.count }
    package var isComplete: Bool { pairs.count == targets.count }
    /// True while a finger is down.
    package var isPressed: Bool { collector.isPressed }
    /// True when a simulated board's script has played its last frame (it presses nothing more).
    package var scriptHasEnded: Bool { simulation?.isFinished ?? false }

    /// The prompt for target `index`: "touch the top-left target at (80, 48) and lift".
    package func prompt(for index: Int) -> String {
        let t = targets[index]
        return "touch the \(t.name) target at (\(Int(t.point.x)), \(Int(t.point.y))) and lift"
    }

    /// Starts the controller at the clock's now (retried by the reads when it does not answer).
    @discardableResult
    package func start() -> Bool { start(at: clock.now) }

    /// Starts the controller (retried by `poll` when it does not answer).
    @discardableResult
    package func start(at now: Instant) -> Bool { driver.start(at: now) }

    /// Waits for the next read as `pacing` says, on the session's clock, reads the controller
    /// and returns the presses that ended.
    package func read() -> [CalibrationStep] {
        switch pacing {
        case .everyReport:
            clock.sleep(microseconds: pollIntervalMicroseconds)
            driver.poll(at: clock.now)
        case .driverLoop:
            if let wait, wait > 0 { clock.sleep(microseconds: wait) }
            wait = loop.turn().waitMicroseconds
        }
        return collect()
    }

    /// Reads the controller once at `now`; returns the presses that ended.
    package func poll(at now: Instant) -> [CalibrationStep] {
        driver.poll(at: now)
        return collect()
    }

    /// Takes what the driver stage queued from the pipeline's frame ring, oriented, into the collector.
    private func collect() -> [CalibrationStep] {
        var steps: [CalibrationStep] = []
        while var frame = service.frames.poll() {
            guard !isComplete else { continue }
            var i = 0
            while i < frame.count {
                frame[i].position = transform.oriented(frame[i].position)
                i += 1
            }
            switch collector.feed(frame) {
            case .accepted(let raw, let samples, _)?:
                let index = pairs.count
                pairs.append(CalibrationPair(raw: raw, target: transform.unrotated(targets[index].point)))
                steps.append(.accepted(index: index, raw: raw, samples: samples))
            case .rejected(let reason)?:
                rejectedPresses += 1
                steps.append(.rejected(index: pairs.count, reason: reason))
            case nil:
                break
            }
        }
        return steps
    }

    /// The least-squares fit of the presses so far (all targets once complete).
    package func fit() throws(CalibrationError) -> CalibrationFit { try CalibrationSolver.solve(pairs) }
}
