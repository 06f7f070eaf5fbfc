import TouchCore
import TouchDrivers
import XCTest

/// The one place for orientation: orientation and calibration.
final class PanelTransformTests: XCTestCase {
    func testIdentityAndOffPanelRejected() {
        let t = PanelTransform(panelWidth: 800, panelHeight: 480)
        XCTAssertEqual(t.apply(Point(x: 10, y: 20)), Point(x: 10, y: 20))
        XCTAssertNil(t.apply(Point(x: 800, y: 0)))
        XCTAssertNil(t.apply(Point(x: -1, y: 0)))
        XCTAssertEqual(t.rawWidth, 800)
    }

    func testRotationsMoveTheChipsTopLeftCornerClockwise() {
        // Panel 800x480 after rotation; for 90/270 the chip reports 480x800.
        let r90 = PanelTransform(panelWidth: 800, panelHeight: 480, rotationDegrees: 90)
        XCTAssertEqual(r90.rawWidth, 480)
        XCTAssertEqual(r90.rawHeight, 800)
        XCTAssertEqual(r90.apply(Point(x: 0, y: 0)), Point(x: 799, y: 0), "top-left goes to top-right")
        XCTAssertEqual(r90.apply(Point(x: 479, y: 0)), Point(x: 799, y: 479))
        let r180 = PanelTransform(panelWidth: 800, panelHeight: 480, rotationDegrees: 180)
        XCTAssertEqual(r180.apply(Point(x: 0, y: 0)), Point(x: 799, y: 479))
        let r270 = PanelTransform(panelWidth: 800, panelHeight: 480, rotationDegrees: 270)
        XCTAssertEqual(r270.apply(Point(x: 0, y: 0)), Point(x: 0, y: 479))
        // A swipe to the chip's right (+x) is a swipe down on a 90° panel: directions follow rotation.
        let a = r90.apply(Point(x: 100, y: 400))!
        let b = r90.apply(Point(x: 300, y: 400))!
        XCTAssertEqual(b.x, a.x)
        XCTAssertGreaterThan(b.y, a.y)
    }

    func testInvertThenSwap() {
        let t = PanelTransform(panelWidth: 480, panelHeight: 800, swapXY: true, invertX: true)
        // raw range 800 x 480; invert x then swap.
        XCTAssertEqual(t.rawWidth, 800)
        XCTAssertEqual(t.apply(Point(x: 0, y: 10)), Point(x: 10, y: 799))
    }

    func testPointercalCalibration() throws {
        // tslib: x' = (a2 + a0 x + a1 y) / a6. Scale 0.5 and shift by 10 px, a6 = 65536.
        let cal = try XCTUnwrap(AffineCalibration(pointercalText: "32768 0 655360 0 32768 655360 65536\n"))
        let t = PanelTransform(panelWidth: 800, panelHeight: 480, calibration: cal)
        XCTAssertEqual(t.apply(Point(x: 100, y: 200)), Point(x: 60, y: 110))
        XCTAssertNil(AffineCalibration(pointercal: [1, 0, 0, 0, 1, 0, 0]), "a6 = 0")
        XCTAssertNil(AffineCalibration(pointercalText: "1 2 three"))
        XCTAssertNotNil(AffineCalibration(pointercal: [1, 0, 0, 0, 1, 0, 1, 800, 480]), "with resolution")
    }

    func testFrameTransformDropsAndCounts() {
        let t = PanelTransform(panelWidth: 800, panelHeight: 480, rotationDegrees: 180)
        var f = TouchFrame(timestamp: .zero, contacts: [Contact(id: 0, x: 0, y: 0), Contact(id: 1, x: 900, y: 0)])
        XCTAssertEqual(t.apply(to: &f), 1)
        XCTAssertEqual(f.contacts, [Contact(id: 0, x: 799, y: 479)])
    }
}
