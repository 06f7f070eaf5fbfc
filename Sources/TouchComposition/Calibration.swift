import BoardConfig
import TouchCore
import TouchDrivers
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

/// `touchwire calibrate`'s engine, without a terminal: reads the board's controller through the
/// same `ControllerFactory` / `DriverStage` path as `run` — with the board's calibration dropped
/// and the rotation not applied (capture raw: only invert/swap) — collects one still press per
/// target and fits tslib's affine calibration.
///
/// Clock-free: the caller polls it at the instants it chooses (a real clock on hardware; a
/// virtual one on a simulated board, which makes the whole session deterministic).
package final class CalibrationSession {
    package let board: BoardDescription
    /// The targets in panel pixels (what the user sees) with their names.
    package let targets: [(name: String, point: Point)]
    /// The board's transform without calibration: `oriented` gives the point calibration
    /// applies to, `unrotated` turns a target into the space calibration maps into.
    package let transform: PanelTransform
    package let driver: DriverStage
    /// The simulated world, on a simulated board (to tell when its script has ended).
    package let simulation: SimulatedTouchWorld?
    /// The polling period (the simulated report rate, or the board's `poll_interval_ms`).
    package let pollIntervalMicroseconds: Int64
    /// The presses accepted so far, one per target in order.
    package private(set) var pairs: [CalibrationPair] = []
    /// Presses rejected so far.
    package private(set) var rejectedPresses = 0
    private var collector: PressCollector

    /// Fails when the board has no controller, the simulation cannot be built, or `points` is
    /// not one of `CalibrationTargets.supportedCounts`. On a simulated board whose script is the
    /// demo (which presses no targets) the built-in calibration presses are played instead, one
    /// per target, and `log` says so.
    package init(
        board: BoardDescription, points: Int = 5, start: Instant, maxMovement: Double = 5,
        log: @escaping (String) -> Void = { _ in }
    ) throws(ServiceError) {
        guard
            let targets = CalibrationTargets.points(
                count: points, panelWidth: board.panel.width, panelHeight: board.panel.height)
        else {
            let counts = CalibrationTargets.supportedCounts.map(String.init).joined(separator: ", ")
            throw .argument(option: "--points", value: "\(points)", expected: "one of \(counts)")
        }
        var board = board
        if board.controller?.bus == .simulated, case .demo? = board.simulation?.script {
            board.simulation?.script = .calibration
            log("the simulated board's demo script presses no targets; playing the built-in calibration presses")
        }
        let setup = try ControllerFactory.make(board, start: start, capture: true, calibrationTargets: points)
        self.board = board
        self.targets = targets
        transform = setup.transform
        pollIntervalMicroseconds = setup.pollIntervalMicroseconds
        simulation = setup.simulation
        driver = DriverStage(
            controller: setup.controller, frames: FrameQueue(capacity: 64), transform: nil,
            protection: setup.protection, schedule: setup.schedule, log: log)
        collector = PressCollector(maxMovement: maxMovement)
    }

    /// The index of the target to press next (== `targets.count` when complete).
    package var currentIndex: Int { pairs.count }
    package var isComplete: Bool { pairs.count == targets.count }
    /// True while a finger is down.
    package var isPressed: Bool { collector.isPressed }

    /// The prompt for target `index`: "touch the top-left target at (80, 48) and lift".
    package func prompt(for index: Int) -> String {
        let t = targets[index]
        return "touch the \(t.name) target at (\(Int(t.point.x)), \(Int(t.point.y))) and lift"
    }

    /// Starts the controller (retried by `poll` when it does not answer).
    @discardableResult
    package func start(at now: Instant) -> Bool { driver.start(at: now) }

    /// Reads the controller once at `now`; returns the presses that ended.
    package func poll(at now: Instant) -> [CalibrationStep] {
        driver.poll(at: now)
        var steps: [CalibrationStep] = []
        while var frame = driver.frames.poll() {
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
