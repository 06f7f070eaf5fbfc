import Gestures
import TouchCore
import XCTest

final class ContinuousTests: XCTestCase {
    // S3: long press begins when the duration elapses (on the injected clock), changes with moves, ends on lift.
    func testLongPressBeganChangedEnded() throws {
        let h = EngineHarness()
        h.add(LongPressGestureRecognizer(name: "press", minimumPressDurationMilliseconds: 500))
        h.frame(0, (0, 100, 100))
        h.frame(300, (0, 102, 100))
        h.frame(700, (0, 150, 100))  // moves after it began: no movement limit any more
        h.frame(800)
        h.finish()
        XCTAssertEqual(h.log, ["press:began@500", "press:changed@700", "press:ended@800"])
        XCTAssertEqual((try h.event(1)).location, Point(x: 150, y: 100))
    }

    func testLongPressFailsWhenLiftedEarly() {
        let h = EngineHarness()
        h.add(LongPressGestureRecognizer(name: "press"))
        h.tap(at: 0, duration: 200)
        h.finish()
        XCTAssertEqual(h.log, [])
    }

    // S3 + S9: a system cancel mid-pan sends cancelled (S4 decision).
    func testPanBeganChangedThenSystemCancel() throws {
        let h = EngineHarness()
        h.add(PanGestureRecognizer(name: "pan", minimumDistance: 10))
        h.frame(0, (0, 100, 100))
        h.frame(10, (0, 105, 100))
        h.frame(20, (0, 115, 100))
        h.frame(30, (0, 125, 100))
        h.cancel(40)
        h.finish()
        XCTAssertEqual(h.log, ["pan:began@20", "pan:changed@30", "pan:cancelled@40"])
        XCTAssertEqual((try h.event(1)).translation, Point(x: 25, y: 0))
        // Least squares over (0 ms,100) (10,105) (20,115) (30,125): 0.85 px/ms; the last two samples
        // alone would say 1000.
        XCTAssertEqual((try h.event(1)).velocity.x, 850, accuracy: 0.5)
    }

    // S10: disabling mid-gesture cancels a continuous recognizer.
    func testDisablingMidPanCancels() {
        let h = EngineHarness()
        let pan = PanGestureRecognizer(name: "pan")
        h.add(pan)
        h.frame(0, (0, 100, 100))
        h.frame(10, (0, 130, 100))
        pan.isEnabled = false
        h.frame(20, (0, 160, 100))
        h.frame(30)
        XCTAssertEqual(h.log, ["pan:began@10", "pan:cancelled@10"])
    }

    // S14: a pan that begins prevents a tap still possible on the same touch.
    func testPanPreventsTap() {
        let h = EngineHarness()
        h.add(TapGestureRecognizer(name: "tap", maximumMovement: 100))
        h.add(PanGestureRecognizer(name: "pan"))
        h.frame(0, (0, 100, 100))
        h.frame(20, (0, 130, 100))
        h.frame(40)
        h.finish()
        XCTAssertEqual(h.log, ["pan:began@20", "pan:ended@40"])
    }

    // S17: simultaneous recognition lets both run.
    func testSimultaneousLetsBothRecognize() {
        let h = EngineHarness()
        let press = LongPressGestureRecognizer(name: "press")
        let pan = PanGestureRecognizer(name: "pan", minimumDistance: 30)
        pan.simultaneousNames = ["press"]
        h.add(press)
        h.add(pan)
        h.frame(0, (0, 100, 100))
        h.frame(600, (0, 105, 100))
        h.frame(700, (0, 160, 100))
        h.frame(800)
        XCTAssertEqual(
            h.log,
            [
                "press:began@500", "press:changed@600", "press:changed@700", "pan:began@700", "press:ended@800",
                "pan:ended@800",
            ])
    }
}
