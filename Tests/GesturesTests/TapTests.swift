import Gestures
import TouchCore
import XCTest

final class TapTests: XCTestCase {
    // S2, S4: a discrete recognizer goes possible → recognized and sends one action.
    func testSingleTapIsRecognizedOnLift() throws {
        let h = EngineHarness()
        let tap = TapGestureRecognizer(name: "tap")
        var calls: [GestureState] = []
        tap.addTarget { r in calls.append(r.currentEvent!.state) }
        h.add(tap)
        h.tap(at: 0, x: 120, y: 80)
        h.finish()
        XCTAssertEqual(h.log, ["tap:recognized@50"])
        XCTAssertEqual(calls, [.recognized])
        XCTAssertEqual((try h.event(0)).location, Point(x: 120, y: 80))  // S12
        XCTAssertEqual((try h.event(0)).taps, 1)
        XCTAssertEqual((try h.event(0)).touches, 1)
        XCTAssertEqual(tap.state, .possible)  // S6: reset after recognized
    }

    // S2: moving too far fails the tap; no action for failed (S4).
    func testTapFailsWhenFingerMovesTooFar() {
        let h = EngineHarness()
        h.add(TapGestureRecognizer(name: "tap", maximumMovement: 10))
        h.frame(0, (0, 100, 100))
        h.frame(20, (0, 130, 100))
        h.frame(40)
        h.finish()
        XCTAssertEqual(h.log, [])
    }

    func testTapFailsWhenHeldTooLong() {
        let h = EngineHarness()
        h.add(TapGestureRecognizer(name: "tap"))
        h.frame(0, (0, 100, 100))
        h.frame(2000)
        h.finish()
        XCTAssertEqual(h.log, [])
    }

    // S16: without a failure requirement a double tap reports the single tap first, then the double.
    func testDoubleTapWithoutRequirementReportsSingleThenDouble() {
        let h = EngineHarness()
        h.add(TapGestureRecognizer(name: "single"))
        h.add(TapGestureRecognizer(name: "double", taps: 2))
        h.tap(at: 0)
        h.tap(at: 150)
        h.finish()
        XCTAssertEqual(h.log, ["single:recognized@50", "double:recognized@200"])
    }

    // S15: single tap requiring double tap to fail is reported exactly max_interval after the lift.
    func testSingleTapWaitsExactlyTheIntervalForDoubleTapToFail() throws {
        let h = EngineHarness()
        let single = TapGestureRecognizer(name: "single")
        let double = TapGestureRecognizer(name: "double", taps: 2, maximumIntervalMilliseconds: 300)
        single.require(toFail: double)
        h.add(single)
        h.add(double)
        h.tap(at: 0, duration: 40)
        h.finish()
        XCTAssertEqual(h.log, ["single:recognized@340"])
        XCTAssertEqual((try h.event(0)).location, Point(x: 100, y: 100))
    }

    // S15: when the required recognizer succeeds, the waiting one fails.
    func testSingleTapFailsWhenDoubleTapSucceeds() {
        let h = EngineHarness()
        let single = TapGestureRecognizer(name: "single")
        let double = TapGestureRecognizer(name: "double", taps: 2)
        single.require(toFail: double)
        h.add(single)
        h.add(double)
        h.tap(at: 0)
        h.tap(at: 200)
        h.finish()
        XCTAssertEqual(h.log, ["double:recognized@250"])
    }

    // A second tap too late is not a double tap; the timer decides at the deadline.
    func testSecondTapAfterIntervalIsTwoSingles() {
        let h = EngineHarness()
        let single = TapGestureRecognizer(name: "single")
        let double = TapGestureRecognizer(name: "double", taps: 2)
        single.require(toFail: double)
        h.add(single)
        h.add(double)
        h.tap(at: 0)
        h.tap(at: 500)
        h.finish()
        XCTAssertEqual(h.log, ["single:recognized@350", "single:recognized@850"])
    }

    // Two-finger tap needs both fingers.
    func testTwoFingerTap() throws {
        let h = EngineHarness()
        h.add(TapGestureRecognizer(name: "two", touches: 2))
        h.frame(0, (0, 100, 100), (1, 200, 100))
        h.frame(60, (1, 200, 100))
        h.frame(80)
        h.tap(at: 1000)
        h.finish()
        XCTAssertEqual(h.log, ["two:recognized@80"])
        XCTAssertEqual((try h.event(0)).touches, 2)
        XCTAssertEqual((try h.event(0)).location, Point(x: 150, y: 100))
    }

    // S7: duplicate target-action pairs are ignored; nil removes all.
    func testTargetActionDuplicatesAndRemoval() {
        final class Target {
            var hits = 0
            func handle(_ r: GestureRecognizer) { hits += 1 }
        }
        let h = EngineHarness()
        let tap = TapGestureRecognizer(name: "tap")
        let target = Target()
        tap.addTarget(target, action: "handle", Target.handle)
        tap.addTarget(target, action: "handle", Target.handle)
        h.add(tap)
        h.tap(at: 0)
        XCTAssertEqual(target.hits, 1)
        tap.removeTarget(nil, action: nil)
        h.tap(at: 1000)
        XCTAssertEqual(target.hits, 1)
    }

    // S26: the documented double-tap delivery sequences.
    func testDoubleTapDeliveriesWithDelaysEnded() {
        let h = EngineHarness()
        let double = TapGestureRecognizer(name: "double", taps: 2)
        h.add(double)
        h.tap(at: 0)
        h.tap(at: 150)
        h.finish()
        XCTAssertEqual(h.deliveries, ["began", "began", "cancelled", "cancelled"])
    }

    func testDoubleTapDeliveriesWithoutDelaysEnded() {
        let h = EngineHarness()
        let double = TapGestureRecognizer(name: "double", taps: 2)
        double.delaysTouchesEnded = false
        h.add(double)
        h.tap(at: 0)
        h.tap(at: 150)
        h.finish()
        XCTAssertEqual(h.deliveries, ["began", "ended", "began", "cancelled"])
    }

    // S9: a system cancel fails a discrete recognizer and cancels the region's touches.
    func testSystemCancelFailsTapAndCancelsRegionTouch() {
        let h = EngineHarness()
        h.add(TapGestureRecognizer(name: "tap"))
        h.frame(0, (0, 100, 100))
        h.cancel(20)
        h.frame(40)
        h.finish()
        XCTAssertEqual(h.log, [])
        XCTAssertEqual(h.deliveries, ["began", "cancelled"])
    }

    // S28: a control's default action wins over an ancestor's tap.
    func testControlWinsOverAncestorTap() throws {
        let h = EngineHarness()
        let button = Region(name: "button", frame: Rect(x: 0, y: 0, width: 100, height: 50), isControl: true)
        h.root.addChild(button)
        h.add(TapGestureRecognizer(name: "tap"))
        h.tap(at: 0, x: 20, y: 20)
        h.tap(at: 1000, x: 400, y: 300)
        h.finish()
        XCTAssertEqual(h.sink.events.map { "\($0.kind)" }, ["control", "tap"])
        XCTAssertEqual(h.engine.regionName((try h.event(0)).region), "button")
    }

    // S28: a control's action names its region in its own field; a recognizer's action has none.
    func testControlActionCarriesItsRegionAsItsOwnField() throws {
        let h = EngineHarness()
        let button = Region(name: "button", frame: Rect(x: 0, y: 0, width: 100, height: 50), isControl: true)
        h.root.addChild(button)
        h.add(TapGestureRecognizer(name: "tap"))
        h.tap(at: 0, x: 20, y: 20)
        h.tap(at: 1000, x: 400, y: 300)
        h.finish()
        XCTAssertEqual(h.sink.events.count, 2)
        XCTAssertTrue((try h.event(0)).isControlAction)
        XCTAssertEqual(h.engine.regionName((try h.event(0)).control), "button")
        XCTAssertFalse((try h.event(1)).isControlAction)
        XCTAssertEqual((try h.event(1)).control, -1)
    }

    // S20: shouldReceive false hides the touch; S21: shouldBegin false fails the recognizer.
    func testDelegateShouldReceiveAndShouldBegin() {
        final class Delegate: GestureRecognizerDelegate {
            var receive = true
            var begin = true
            func gestureRecognizer(_ r: GestureRecognizer, shouldReceive touch: Touch) -> Bool { receive }
            func gestureRecognizerShouldBegin(_ r: GestureRecognizer) -> Bool { begin }
        }
        let h = EngineHarness()
        let tap = TapGestureRecognizer(name: "tap")
        let d = Delegate()
        tap.delegate = d
        h.add(tap)
        d.receive = false
        h.tap(at: 0)
        d.receive = true
        d.begin = false
        h.tap(at: 1000)
        d.begin = true
        h.tap(at: 2000)
        h.finish()
        XCTAssertEqual(h.log, ["tap:recognized@2050"])
    }
}
