import Gestures
import TouchCore
import XCTest

/// How the engine hands touches to recognizers each frame: one set per phase, built once and
/// shared, or a recognizer's own when it receives only some of the touches; and the calls it
/// leaves out because they cannot change anything.
final class PhaseDeliveryTests: XCTestCase {
    /// Records the tracking ids of every set it is given, per phase.
    final class Recorder: GestureRecognizer {
        var began: [[UInt8]] = []
        var moved: [[UInt8]] = []
        var ended: [[UInt8]] = []
        var ignoreID: UInt8?
        override func touchesBegan(_ t: TouchSet) {
            began.append(t.map(\.id))
            for touch in t where touch.id == ignoreID { ignore(touch) }
        }
        override func touchesMoved(_ t: TouchSet) { moved.append(t.map(\.id)) }
        override func touchesEnded(_ t: TouchSet) { ended.append(t.map(\.id)) }
    }

    final class RefuseID: GestureRecognizerDelegate {
        let id: UInt8
        init(_ id: UInt8) { self.id = id }
        func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
            touch.id != id
        }
    }

    private func multiTouchHarness() -> (EngineHarness, Region) {
        let h = EngineHarness()
        let region = Region(
            name: "multi", frame: Rect(x: 0, y: 0, width: 800, height: 480), isMultipleTouchEnabled: true)
        h.root.addChild(region)
        return (h, region)
    }

    // S13: a recognizer's touches come in the order they began, even when the engine's table holds
    // them in another order (a later touch reusing a freed entry).
    func testTouchesComeInTheOrderTheyBeganWhateverTheTableOrder() {
        let (h, region) = multiTouchHarness()
        let r = Recorder(name: "r", kind: .custom)
        let refuse = RefuseID(0)
        r.delegate = refuse  // touch 0 reaches no recognizer, so its table entry is freed when it lifts
        h.add(r, to: region)
        withExtendedLifetime(refuse) {
            h.frame(0, (0, 10, 10))
            h.frame(10, (0, 10, 10), (1, 200, 200))  // 1 takes the second entry
            h.frame(20, (1, 200, 200))  // 0 lifts: the first entry is free again
            h.frame(30, (1, 200, 200), (2, 400, 300))  // 2 takes the first entry
            h.frame(40, (1, 210, 200), (2, 410, 300))
            h.frame(50)
        }
        XCTAssertEqual(r.began, [[1], [2]])
        XCTAssertEqual(r.moved, [[1, 2]], "1 began before 2")
        XCTAssertEqual(r.ended, [[1, 2]])
    }

    // S11: a recognizer that ignored a touch gets a set without it; the others still get all.
    func testARecognizerThatIgnoredATouchGetsItsOwnSet() {
        let (h, region) = multiTouchHarness()
        let ignoring = Recorder(name: "ignoring", kind: .custom)
        ignoring.ignoreID = 5
        let all = Recorder(name: "all", kind: .custom)
        h.add(ignoring, to: region)
        h.add(all, to: region)
        h.frame(0, (5, 10, 10), (2, 300, 300))
        h.frame(10, (2, 310, 300), (5, 20, 10))
        h.frame(20, (2, 320, 300))
        h.frame(30)
        XCTAssertEqual(ignoring.began, [[5, 2]], "touches in the frame's order, as they began")
        XCTAssertEqual(all.began, [[5, 2]])
        XCTAssertEqual(ignoring.moved, [[2], [2]])
        XCTAssertEqual(all.moved, [[5, 2], [2]])
        XCTAssertEqual(all.ended, [[5], [2]])
        XCTAssertEqual(ignoring.ended, [[2]], "no call for the lift of a touch it ignored")
    }

    // The engine skips pinch's and rotation's one-finger moves (they change nothing), but a
    // subclass that overrides `touchesMoved` still gets every move.
    func testAPinchSubclassStillGetsOneFingerMoves() {
        final class CountingPinch: PinchGestureRecognizer {
            var moves = 0
            override func touchesMoved(_ touches: TouchSet) {
                moves += 1
                super.touchesMoved(touches)
            }
        }
        let (h, region) = multiTouchHarness()
        let pinch = CountingPinch(name: "pinch")
        h.add(pinch, to: region)
        h.frame(0, (0, 100, 100))
        h.frame(10, (0, 120, 100))
        h.frame(20, (0, 140, 100))
        h.frame(30)
        XCTAssertEqual(pinch.moves, 2)
    }

    // S3: a pinch still begins and reports its scale after one-finger moves were skipped.
    func testPinchBeginsAfterOneFingerMovesWereSkipped() throws {
        let (h, region) = multiTouchHarness()
        let pinch = PinchGestureRecognizer.builtIn(name: "pinch")
        h.add(pinch, to: region)
        h.frame(0, (0, 100, 100))
        h.frame(10, (0, 110, 100))  // one finger: nothing to measure
        h.frame(20, (0, 110, 100), (1, 210, 100))
        h.frame(30, (0, 90, 100), (1, 230, 100))
        h.frame(40, (0, 70, 100), (1, 250, 100))
        h.frame(50)
        XCTAssertEqual(h.log, ["pinch:began@30", "pinch:changed@40", "pinch:ended@50"])
        XCTAssertEqual((try h.event(1)).value, 180.0 / 100.0, accuracy: 1e-12)
    }

    // S13: the built-in pan, long press, swipe and tap are told only how many touches a phase has,
    // but a subclass overriding the callbacks still gets the sets themselves, in began order.
    func testSubclassesOfCountOnlyRecognizersStillGetTheirSets() {
        final class RecordingPan: PanGestureRecognizer {
            var began: [[UInt8]] = []
            var moved: [[UInt8]] = []
            var ended: [[UInt8]] = []
            override func touchesBegan(_ t: TouchSet) {
                began.append(t.map(\.id))
                super.touchesBegan(t)
            }
            override func touchesMoved(_ t: TouchSet) {
                moved.append(t.map(\.id))
                super.touchesMoved(t)
            }
            override func touchesEnded(_ t: TouchSet) {
                ended.append(t.map(\.id))
                super.touchesEnded(t)
            }
        }
        final class RecordingLongPress: LongPressGestureRecognizer {
            var moved: [[UInt8]] = []
            override func touchesMoved(_ t: TouchSet) {
                moved.append(t.map(\.id))
                super.touchesMoved(t)
            }
        }
        final class RecordingSwipe: SwipeGestureRecognizer {
            var began: [[UInt8]] = []
            override func touchesBegan(_ t: TouchSet) {
                began.append(t.map(\.id))
                super.touchesBegan(t)
            }
        }
        final class RecordingTap: TapGestureRecognizer {
            var moved: [[UInt8]] = []
            override func touchesMoved(_ t: TouchSet) {
                moved.append(t.map(\.id))
                super.touchesMoved(t)
            }
        }
        let (h, region) = multiTouchHarness()
        let tap = RecordingTap(name: "tap", touches: 2)
        h.add(tap, to: region)
        let pan = RecordingPan(name: "pan")
        let press = RecordingLongPress(name: "press", touches: 2)
        let swipe = RecordingSwipe(name: "swipe", touches: 2)
        h.add(pan, to: region)
        h.add(press, to: region)
        h.add(swipe, to: region)
        h.frame(0, (3, 100, 100), (1, 200, 100))
        h.frame(10, (3, 104, 100), (1, 204, 100))
        h.frame(20, (1, 230, 100))
        h.frame(30)
        XCTAssertEqual(pan.began, [[3, 1]])
        XCTAssertEqual(pan.moved, [[3, 1], [1]])
        XCTAssertEqual(pan.ended, [[3], [1]])
        XCTAssertEqual(press.moved, [[3, 1], [1]], "a frame's moves come before its lifts")
        XCTAssertEqual(swipe.began, [[3, 1]])
        XCTAssertEqual(tap.moved, [[3, 1], [1]], "1 moves 30 px at 20 ms, beyond max_movement: the tap fails")
        XCTAssertEqual(h.log, ["pan:began@20", "pan:ended@30"], "the subclass still pans")
    }

    // S11, S20: a count-only recognizer counts only the touches it receives: a one-finger pan
    // whose delegate refuses the second finger of a two-finger landing still pans.
    func testACountOnlyRecognizerCountsOnlyTheTouchesItReceives() {
        let (h, region) = multiTouchHarness()
        let pan = PanGestureRecognizer(name: "pan", maximumTouches: 1)
        let refuse = RefuseID(1)
        pan.delegate = refuse
        h.add(pan, to: region)
        withExtendedLifetime(refuse) {
            h.frame(0, (0, 100, 100), (1, 300, 100))
            h.frame(10, (0, 120, 100), (1, 300, 100))
            h.frame(20, (1, 300, 100))
            h.frame(30)
        }
        XCTAssertEqual(h.log, ["pan:began@10", "pan:ended@20"])
    }

    // The engine holds its sink: one made just for it is not lost.
    func testTheEngineKeepsItsSink() {
        let h = EngineHarness()
        h.add(TapGestureRecognizer(name: "tap"))
        h.engine.sink = RecordingSink()
        h.tap(at: 0)
        h.finish()
        let sink = h.engine.sink as? RecordingSink
        XCTAssertEqual(sink?.events.map(\.state), [.recognized])
        XCTAssertEqual(h.sink.events.count, 0, "the harness's own sink was replaced")
    }
}
