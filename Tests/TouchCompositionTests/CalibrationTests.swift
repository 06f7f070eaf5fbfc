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
    func board(
        _ controllerExtra: String = "", chip: String = "ft6x36", width: Int = 800, height: Int = 480
    ) throws -> BoardDescription {
        let text = """
            [panel]
            width = \(width)
            height = \(height)

            [controller]
            chip = "\(chip)"
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

    /// The inputs the service reads, each on its simulated twin: the I2C chips (the GT911 with
    /// INT and reset wired, so its driver resets it and waits for it) and an input device.
    static let inputs: [(chip: String, extra: String)] = [
        ("ft6x36", ""), ("gt911", "interrupt = { chip = \"sim\", line = 17 }\nreset = { chip = \"sim\", line = 27 }"),
        ("cst816s", ""), ("icn8318", ""), ("evdev", ""),
    ]

    /// Runs a session the way `touchwire calibrate` does: `read()` on the session's own clock
    /// (a virtual one on a simulated board) until complete or 10 s.
    func readSession(_ board: BoardDescription, points: Int = 5, pacing: CalibrationPacing? = nil) throws -> (
        CalibrationSession, [CalibrationStep]
    ) {
        let session = try CalibrationSession(board: board, points: points, pacing: pacing)
        defer { session.close() }
        let start = session.clock.now
        XCTAssertTrue(session.start())
        var steps: [CalibrationStep] = []
        while !session.isComplete && session.clock.now.microseconds(since: start) < 10_000_000 {
            steps += session.read()
        }
        XCTAssertTrue(session.isComplete, "\(board.controller?.input.boardName ?? "?"): got \(steps)")
        return (session, steps)
    }

    /// Every input the service reads calibrates through the one pipeline, with no path of its
    /// own: the same presses give the same samples and the same numbers whatever reads them,
    /// and the pipeline opened no output. (On the old code the GT911 with wired lines kept a
    /// clock of its own: its reset put the script ahead of the reads, every other report was
    /// missed, and the fit came out half a pixel off.)
    func testEveryInputCalibratesThroughTheServicePipeline() throws {
        let (reference, referenceSteps) = try readSession(try board())
        let expected = try reference.fit()
        XCTAssertEqual(referenceSteps.count, 6, "\(referenceSteps)")
        for input in Self.inputs {
            let (session, steps) = try readSession(try board(input.extra, chip: input.chip))
            XCTAssertEqual(steps, referenceSteps, input.chip)
            XCTAssertEqual(try session.fit().calibration, expected.calibration, input.chip)
            XCTAssertTrue(session.service.output.channels.isEmpty, input.chip)
            XCTAssertNil(session.service.passthroughScreen, input.chip)
            let identity = session.driver.controller.identity.map { "\($0)" } ?? "none"
            XCTAssertTrue(identity.lowercased().contains(input.chip.prefix(3)), "\(input.chip): \(identity)")
        }
    }

    /// The presses are the controller's points as read, oriented (invert, swap) and nothing
    /// more: on a board that already has a calibration (and a rotation, swap and invert), the
    /// collected points are the script's raw points oriented, never the calibrated ones, and the
    /// result is the one the uncalibrated board gives, on an I2C chip and an input device alike.
    func testAnExistingCalibrationLeavesTheResultAsItWas() throws {
        let existing = "calibration = [70000, 100, -300000, 50, 64000, 200000, 65536]"
        for chip in ["ft6x36", "evdev"] {
            for orientation in ["rotation = 90\nswap_xy = true\ninvert_x = true", "rotation = 180\ninvert_y = true"] {
                try checkExistingCalibration(chip: chip, orientation: orientation, existing: existing)
            }
        }
    }

    func checkExistingCalibration(chip: String, orientation: String, existing: String) throws {
        let what = "\(chip), \(orientation.replacingOccurrences(of: "\n", with: ", "))"
        let plainBoard = try board(orientation, chip: chip)
        let (plain, _) = try readSession(plainBoard)
        let (again, _) = try readSession(try board(orientation + "\n" + existing, chip: chip))
        XCTAssertEqual(try again.fit().calibration, try plain.fit().calibration, what)
        XCTAssertEqual(again.pairs, plain.pairs, what)
        let uncalibrated = ControllerFactory.transform(plainBoard, try XCTUnwrap(plainBoard.controller))
        XCTAssertEqual(again.pairs.count, again.targets.count, what)
        for (pair, target) in zip(again.pairs, again.targets) {
            let raw = CalibrationScript.rawPoint(for: target.point, transform: uncalibrated)
            let oriented = uncalibrated.oriented(raw)
            XCTAssertLessThan(pair.raw.distance(to: oriented), 1, "\(what), \(target.name): \(pair.raw)")
            XCTAssertEqual(pair.target, uncalibrated.unrotated(target.point), "\(what), \(target.name)")
        }
    }

    /// Paced as the service's driver thread reads (`DriverLoop`), the session reads a board with
    /// INT wired on its edges, and the presses and numbers are those of the per-report reads.
    func testDriverLoopPacingReadsOnInterruptEdges() throws {
        let b = try board(Self.inputs[1].extra, chip: "gt911")
        let (virtual, virtualSteps) = try readSession(b)
        let session = try CalibrationSession(board: b, clock: ManualClock(), pacing: .driverLoop)
        defer { session.close() }
        XCTAssertTrue(session.start())
        var steps: [CalibrationStep] = []
        while !session.isComplete && session.clock.now < .milliseconds(10_000) { steps += session.read() }
        XCTAssertTrue(session.isComplete, "\(steps)")
        XCTAssertGreaterThan(session.driver.interruptWakeups, 0)
        XCTAssertEqual(steps, virtualSteps)
        XCTAssertEqual(try session.fit().calibration, try virtual.fit().calibration)
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
