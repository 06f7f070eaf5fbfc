import BoardConfig
import Foundation
import TouchComposition
import TouchCore
import TouchDrivers
import TouchService
import TouchSimulation
import XCTest

/// `touchwire calibrate` end to end on the simulated controller: the built-in calibration script
/// presses the five targets through a known misaligned panel; the fitted numbers, applied by
/// `PanelTransform` as `run` applies them, put the presses back on the targets. Virtual clock,
/// driver stepped by hand: deterministic.
final class CalibrationTests: XCTestCase {
    func board(_ controllerExtra: String = "", width: Int = 800, height: Int = 480) throws -> BoardDescription {
        let text = """
            [panel]
            width = \(width)
            height = \(height)

            [controller]
            chip = "ft6x36"
            bus = "sim"
            \(controllerExtra)

            [simulation]
            script = "calibration"
            report_rate_hz = 100

            [[region]]
            name = "screen"
            frame = [0, 0, \(width), \(height)]

            [[recognizer]]
            name = "tap"
            kind = "tap"
            region = "screen"
            """
        do throws(BoardFileError) {
            return try BoardLoader.parse(text, file: "calibrate.toml", directory: "/tmp")
        } catch {
            throw error
        }
    }

    /// Steps the session every poll interval of virtual time until complete (or 10 s).
    func runSession(_ board: BoardDescription, points: Int = 5) throws -> (CalibrationSession, [CalibrationStep]) {
        let session = try CalibrationSession(board: board, points: points, start: .zero)
        XCTAssertTrue(session.start(at: .zero))
        var steps: [CalibrationStep] = []
        var now = Instant.zero
        while !session.isComplete && now < .milliseconds(10_000) {
            now = now.advanced(byMicroseconds: session.pollIntervalMicroseconds)
            steps += session.poll(at: now)
        }
        XCTAssertTrue(session.isComplete, "got \(steps)")
        return (session, steps)
    }

    func checkRecovers(
        _ controllerExtra: String, width: Int = 800, height: Int = 480, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let b = try board(controllerExtra, width: width, height: height)
        let (session, steps) = try runSession(b)
        // The sloppy first press was rejected, then every target accepted once, in order.
        guard case .rejected(0, let reason) = steps.first else {
            return XCTFail("first step \(String(describing: steps.first))", file: file, line: line)
        }
        XCTAssertTrue(reason.contains("moved"), reason, file: file, line: line)
        XCTAssertEqual(session.rejectedPresses, 1, file: file, line: line)
        XCTAssertEqual(steps.count, 6, file: file, line: line)
        let fit = try session.fit()
        XCTAssertLessThan(fit.maxResidual, 1, file: file, line: line)
        XCTAssertEqual(fit.calibration.a6, 65536, file: file, line: line)

        // The numbers as `run` uses them: written into the board, loaded, turned into the transform.
        var calibrated = b
        calibrated.controller?.calibration = fit.calibration.pointercal
        let transform = ControllerFactory.transform(calibrated, calibrated.controller!)
        let uncalibrated = ControllerFactory.transform(b, b.controller!)
        for target in session.targets {
            let raw = CalibrationScript.rawPoint(for: target.point, transform: uncalibrated)
            let p = try XCTUnwrap(transform.apply(raw), "\(target.name) lands off the panel", file: file, line: line)
            XCTAssertLessThan(p.distance(to: target.point), 1, "\(target.name): \(p)", file: file, line: line)
        }
        // Without calibration the same presses miss their targets by far more.
        let miss = session.targets.map { t in
            uncalibrated.apply(CalibrationScript.rawPoint(for: t.point, transform: uncalibrated))
                .map { $0.distance(to: t.point) } ?? .infinity
        }
        XCTAssertGreaterThan(miss.max() ?? 0, 5, file: file, line: line)
        // And the fit is the distortion's inverse.
        let d = CalibrationScript.distortion(for: uncalibrated)
        for p in [Point(x: 10, y: 10), Point(x: Double(width) / 2, y: Double(height) / 3)] {
            let display = uncalibrated.unrotated(p)
            XCTAssertLessThan(fit.calibration.apply(d.apply(display)).distance(to: display), 1, file: file, line: line)
        }
    }

    func testRecoversTheSimulatedPanelsDistortion() throws {
        try checkRecovers("")
    }

    /// Calibration sits between swap/invert and rotation: capture and fit respect that order.
    func testRecoversWithRotationSwapAndInvert() throws {
        try checkRecovers("rotation = 90\nswap_xy = true\ninvert_x = true")
        try checkRecovers("rotation = 270\ninvert_y = true", width: 480, height: 800)
        try checkRecovers("rotation = 180", width: 240, height: 240)
    }

    /// The board's existing calibration is ignored for the capture (raw), so re-calibrating a
    /// calibrated board gives the same numbers.
    func testExistingCalibrationIsIgnoredWhileCapturing() throws {
        let plain = try runSession(try board()).0.fit()
        let again = try runSession(try board("calibration = [2, 0, 5, 0, 2, 7, 1]")).0.fit()
        XCTAssertEqual(plain.calibration, again.calibration)
    }

    func testPressCollectorMedianAndRejections() {
        var c = PressCollector(maxMovement: 5)
        func frame(_ points: [(Double, Double)]) -> TouchFrame {
            TouchFrame(
                timestamp: .zero,
                contacts: points.enumerated().map { Contact(id: UInt8($0.offset), x: $0.element.0, y: $0.element.1) })
        }
        XCTAssertNil(c.feed(frame([])), "a lift with nothing down is no press")
        for p in [(100.0, 50.0), (101, 50), (100, 52), (99, 50), (130, 50)] { XCTAssertNil(c.feed(frame([p]))) }
        // One outlier of 30 px: the median ignores it but the press moved too far.
        guard case .rejected(let why)? = c.feed(frame([])) else { return XCTFail() }
        XCTAssertTrue(why.contains("moved 30 px"), why)
        for p in [(100.0, 50.0), (101, 50), (100, 52), (99, 50)] { _ = c.feed(frame([p])) }
        XCTAssertEqual(c.feed(frame([])), .accepted(Point(x: 100, y: 50), samples: 4, moved: 2))
        _ = c.feed(frame([(10, 10), (300, 300)]))
        guard case .rejected(let two)? = c.feed(frame([])) else { return XCTFail() }
        XCTAssertTrue(two.contains("more than one finger"), two)
        _ = c.feed(frame([(10, 10)]))
        guard case .rejected? = c.feed(.cancel(at: .zero)) else { return XCTFail() }
        XCTAssertFalse(c.isPressed)
        XCTAssertEqual(PressCollector.median([3, 1, 2]), 2)
        XCTAssertEqual(PressCollector.median([4, 1, 2, 3]), 2.5)
    }

    /// `--points 9` and `--points 4` on the simulation: the script presses as many targets as asked.
    func testNineAndFourPointsOnTheSimulation() throws {
        for points in [9, 4] {
            let (session, _) = try runSession(try board(), points: points)
            XCTAssertEqual(session.pairs.count, points)
            XCTAssertLessThan(try session.fit().maxResidual, 1)
        }
    }

    func testUnsupportedPointCountIsAnError() throws {
        XCTAssertThrowsError(try CalibrationSession(board: try board(), points: 6, start: .zero)) { error in
            guard case .argument(let option, let value, _)? = error as? ServiceError else { return XCTFail("\(error)") }
            XCTAssertEqual(option, "--points")
            XCTAssertEqual(value, "6")
            XCTAssertEqual("\(error)", "--points must be one of 4, 5, 9, got 6")
        }
    }
}

/// The built executable: `touchwire calibrate --write` on a simulated board.
extension CommandLineTests {
    func testCalibrateWritesTheBoardFileAndKeepsEverythingElse() throws {
        let dir = try makeTemporaryDirectory(self)
        let original = try String(contentsOfFile: demoBoard, encoding: .utf8)
            .replacingOccurrences(of: #"script = "demo"  "#, with: #"script = "calibration""#)
        XCTAssertTrue(original.contains(#"script = "calibration""#))
        let path = dir.appendingPathComponent("board.toml").path
        try original.write(toFile: path, atomically: true, encoding: .utf8)

        let dry = try run(["calibrate", "--board", path])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), original, "without --write nothing changes")
        let lines = dry.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, dry.stdout)
        XCTAssertTrue(lines[0].hasPrefix("calibration = ["), dry.stdout)
        XCTAssertTrue(lines[0].hasSuffix(", 65536]"), dry.stdout)
        XCTAssertTrue(lines[1].hasPrefix("# residual: max 0."), dry.stdout)
        XCTAssertTrue(dry.stderr.contains("touch the top-left target at (80, 48) and lift"), dry.stderr)
        XCTAssertTrue(dry.stderr.contains("touch the centre target at (400, 240) and lift"), dry.stderr)
        XCTAssertTrue(dry.stderr.contains("press rejected: the finger moved"), dry.stderr)

        let written = try run(["calibrate", "--board", path, "--write"])
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(written.stdout, dry.stdout, "deterministic")
        let after = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(
            after, original.replacingOccurrences(of: "invert_y = false\n", with: "invert_y = false\n\(lines[0])\n"))
        let validate = try run(["validate", path])
        XCTAssertEqual(validate.status, 0, validate.stderr)

        // Again on the now-calibrated board: same numbers (capture is raw), the line replaced, not added.
        let again = try run(["calibrate", "--board", path, "--write"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, dry.stdout)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), after)

        // A fit over --max-residual is refused: exit 1, the numbers on stderr only, nothing written.
        let strict = try run(["calibrate", "--board", path, "--write", "--max-residual", "0.001"])
        XCTAssertEqual(strict.status, 1, strict.stderr)
        XCTAssertEqual(strict.stdout, "", "a refused fit is not printed like an accepted one")
        XCTAssertTrue(strict.stderr.contains("refused: calibration = ["), strict.stderr)
        XCTAssertTrue(strict.stderr.contains("touchwire: the fit is off by"), strict.stderr)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), after)

        // The shipped demo board (script = "demo", which presses no targets): calibrate plays the
        // built-in calibration presses, also for --points 9, and says so.
        let demoCopy = dir.appendingPathComponent("demo.toml").path
        let demoText = try String(contentsOfFile: demoBoard, encoding: .utf8)
        try demoText.write(toFile: demoCopy, atomically: true, encoding: .utf8)
        let demo = try run(["calibrate", "--board", demoCopy, "--points", "9"])
        XCTAssertEqual(demo.status, 0, demo.stderr)
        XCTAssertTrue(demo.stderr.contains("playing the built-in calibration presses"), demo.stderr)
        XCTAssertTrue(demo.stderr.contains("touch the bottom-right target"), demo.stderr)
        XCTAssertTrue(demo.stdout.contains("over 9 points"), demo.stdout)
        XCTAssertEqual(try String(contentsOfFile: demoCopy, encoding: .utf8), demoText)
    }
}
