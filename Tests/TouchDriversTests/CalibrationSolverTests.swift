import TouchCore
import TouchDrivers
import XCTest

/// `touchwire calibrate`'s fit: tslib's least-squares affine (bookworm-feedback #161).
final class CalibrationSolverTests: XCTestCase {
    /// The 5 tslib targets of an 800×480 panel.
    let targets = CalibrationTargets.points(count: 5, panelWidth: 800, panelHeight: 480)!.map(\.point)

    /// A known "panel": display → raw. The solver must find its inverse.
    let panel = AffineCalibration(a0: 1.3, a1: 0.05, a2: 120, a3: -0.04, a4: 1.7, a5: 90, a6: 1)

    func pairs(_ points: [Point], noise: (Int) -> Point = { _ in .zero }) -> [CalibrationPair] {
        points.enumerated().map { i, t in CalibrationPair(raw: panel.apply(t) + noise(i), target: t) }
    }

    func testTargetsAreTslibsFiveInsetTenPercent() {
        XCTAssertEqual(
            CalibrationTargets.points(count: 5, panelWidth: 800, panelHeight: 480)!.map(\.name),
            ["top-left", "top-right", "bottom-right", "bottom-left", "centre"])
        XCTAssertEqual(
            targets,
            [
                Point(x: 80, y: 48), Point(x: 719, y: 48), Point(x: 719, y: 431), Point(x: 80, y: 431),
                Point(x: 400, y: 240),
            ])
        XCTAssertEqual(CalibrationTargets.points(count: 9, panelWidth: 800, panelHeight: 480)?.count, 9)
        XCTAssertEqual(CalibrationTargets.points(count: 4, panelWidth: 800, panelHeight: 480)?.count, 4)
        XCTAssertNil(CalibrationTargets.points(count: 6, panelWidth: 800, panelHeight: 480))
    }

    func testRecoversAKnownAffineExactly() throws {
        let fit = try CalibrationSolver.solve(pairs(targets), scale: 1)
        for t in targets {
            let back = fit.calibration.apply(panel.apply(t))
            XCTAssertEqual(back.x, t.x, accuracy: 1e-9)
            XCTAssertEqual(back.y, t.y, accuracy: 1e-9)
        }
        XCTAssertLessThan(fit.maxResidual, 1e-9)
        XCTAssertLessThan(fit.rmsResidual, 1e-9)
        // The inverse of `panel`, coefficient by coefficient.
        let det = 1.3 * 1.7 - 0.05 * -0.04
        XCTAssertEqual(fit.exact.a0, 1.7 / det, accuracy: 1e-12)
        XCTAssertEqual(fit.exact.a1, -0.05 / det, accuracy: 1e-12)
        XCTAssertEqual(fit.exact.a3, 0.04 / det, accuracy: 1e-12)
        XCTAssertEqual(fit.exact.a4, 1.3 / det, accuracy: 1e-12)
    }

    func testTslibIntegerFormIsWithinAHundredthOfAPixel() throws {
        let fit = try CalibrationSolver.solve(pairs(targets))
        XCTAssertEqual(fit.calibration.a6, 65536)
        for v in fit.calibration.pointercal { XCTAssertEqual(v, v.rounded(), "pointercal numbers are integers") }
        XCTAssertLessThan(fit.maxResidual, 0.01)
        // The same numbers through the board-file path: PanelTransform applies them.
        let t = PanelTransform(
            panelWidth: 800, panelHeight: 480, calibration: AffineCalibration(pointercal: fit.calibration.pointercal))
        for target in targets {
            let p = try XCTUnwrap(t.apply(panel.apply(target)))
            XCTAssertLessThan(p.distance(to: target), 0.01)
        }
        XCTAssertEqual(fit.calibration.boardFileArray.first, "[")
        XCTAssertEqual(AffineCalibration(pointercalText: fit.calibration.pointercalText), fit.calibration)
    }

    func testThreePointsInterpolate() throws {
        let three = Array(targets.prefix(3))
        let fit = try CalibrationSolver.solve(pairs(three), scale: 1)
        XCTAssertLessThan(fit.maxResidual, 1e-9)
        let p = fit.calibration.apply(panel.apply(Point(x: 400, y: 240)))
        XCTAssertEqual(p.x, 400, accuracy: 1e-9)
        XCTAssertEqual(p.y, 240, accuracy: 1e-9)
    }

    func testNoiseStaysWithinTolerance() throws {
        // Deterministic ±2 raw-unit noise on each press (raw units ≈ 1.3–1.7 px per display px).
        let noise: [Point] = [
            Point(x: 2, y: -1), Point(x: -2, y: 2), Point(x: 1, y: 1), Point(x: -1, y: -2), Point(x: 0, y: 2),
            Point(x: 2, y: 0), Point(x: -1, y: 1), Point(x: 1, y: -1), Point(x: -2, y: -2),
        ]
        let grid = CalibrationTargets.points(count: 9, panelWidth: 800, panelHeight: 480)!.map(\.point)
        let fit = try CalibrationSolver.solve(pairs(grid, noise: { noise[$0] }))
        XCTAssertLessThan(fit.maxResidual, 2.5)
        XCTAssertGreaterThan(fit.rmsResidual, 0)
        XCTAssertLessThanOrEqual(fit.rmsResidual, fit.maxResidual)
        XCTAssertEqual(fit.residuals.count, 9)
        // Away from the presses the fit still maps within 2 px of the truth.
        for p in [Point(x: 0, y: 0), Point(x: 799, y: 479), Point(x: 250, y: 300)] {
            XCTAssertLessThan(fit.calibration.apply(panel.apply(p)).distance(to: p), 2)
        }
    }

    func testDegenerateInputIsATypedError() {
        XCTAssertThrowsError(try CalibrationSolver.solve(pairs(Array(targets.prefix(2))))) {
            XCTAssertEqual($0 as? CalibrationError, .tooFewPoints(2))
        }
        XCTAssertThrowsError(try CalibrationSolver.solve([])) {
            XCTAssertEqual($0 as? CalibrationError, .tooFewPoints(0))
        }
        // Collinear raw points (a diagonal), and all presses on one spot.
        let line = (0..<5).map { i in
            CalibrationPair(raw: Point(x: 100 + 50 * Double(i), y: 80 + 30 * Double(i)), target: targets[i])
        }
        XCTAssertThrowsError(try CalibrationSolver.solve(line)) { XCTAssertEqual($0 as? CalibrationError, .collinear) }
        let spot = targets.map { CalibrationPair(raw: Point(x: 300, y: 200), target: $0) }
        XCTAssertThrowsError(try CalibrationSolver.solve(spot)) { XCTAssertEqual($0 as? CalibrationError, .collinear) }
        // Nearly collinear (within a fraction of a unit over 400): still rejected.
        var almost = line
        almost[2].raw.y += 0.01
        XCTAssertThrowsError(try CalibrationSolver.solve(almost)) {
            XCTAssertEqual($0 as? CalibrationError, .collinear)
        }
        var nan = pairs(targets)
        nan[1].raw.x = .nan
        XCTAssertThrowsError(try CalibrationSolver.solve(nan)) { XCTAssertEqual($0 as? CalibrationError, .nonFinite) }
    }

    /// `oriented`/`unoriented` and `rotated`/`unrotated` are inverses, for every orientation.
    func testOrientationHelpersInvertEachOther() {
        for turns in 0..<4 {
            for swap in [false, true] {
                for inv in [false, true] {
                    let t = PanelTransform(
                        panelWidth: 800, panelHeight: 480, rotationDegrees: turns * 90, swapXY: swap, invertX: inv,
                        invertY: !inv)
                    let p = Point(x: 123, y: 45)
                    XCTAssertEqual(t.unoriented(t.oriented(p)), p)
                    XCTAssertEqual(t.unrotated(t.rotated(p)), p)
                    XCTAssertEqual(
                        t.rotated(t.oriented(p)), t.apply(p), "apply = rotate ∘ orient without calibration")
                }
            }
        }
    }
}
