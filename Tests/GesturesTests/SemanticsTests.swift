import Gestures
import TouchCore
import XCTest

/// One test (at least) per rule of gesture-semantics.md not covered elsewhere.
final class SemanticsTests: XCTestCase {
    /// A recognizer that records its callbacks and recognizes on demand.
    final class Probe: GestureRecognizer {
        var calls: [String] = []
        var recognizeOnEnd = false
        var continuous = false
        init(_ name: String, continuous: Bool = false) {
            self.continuous = continuous
            super.init(name: name, kind: .custom)
        }
        override var isContinuous: Bool { continuous }
        override func touchesBegan(_ t: TouchSet) { calls.append("began\(t.count)") }
        override func touchesMoved(_ t: TouchSet) {
            calls.append("moved\(t.count)")
            if continuous { state = state == .possible ? .began : .changed }
        }
        override func touchesEnded(_ t: TouchSet) {
            calls.append("ended\(t.count)")
            if continuous && (state == .began || state == .changed) { state = .ended }
            if recognizeOnEnd && state == .possible { state = .recognized }
        }
        override func touchesCancelled(_ t: TouchSet) {
            calls.append("cancelled\(t.count)")
            super.touchesCancelled(t)
        }
        override func reset() { calls.append("reset") }
    }

    // S1: every recognizer starts in possible; S6: after recognized/ended/cancelled/failed it resets to possible,
    // sends no action for the return, and gets no more updates for touches that began before.
    func testResetAfterEveryTerminalState() {
        let h = EngineHarness()
        let discrete = Probe("discrete")
        discrete.recognizeOnEnd = true
        let continuous = Probe("continuous", continuous: true)
        continuous.simultaneousNames = ["discrete"]
        XCTAssertEqual(discrete.state, .possible)
        h.add(discrete)
        h.add(continuous)
        // recognized (discrete) and ended (continuous)
        h.frame(0, (0, 10, 10))
        h.frame(10, (0, 20, 10))
        h.frame(20)
        XCTAssertEqual(h.log, ["continuous:began@10", "continuous:ended@20", "discrete:recognized@20"])
        XCTAssertEqual([discrete.state, continuous.state], [.possible, .possible])
        XCTAssertEqual(discrete.calls.filter { $0 == "reset" }.count, 1)
        // cancelled (continuous), failed (discrete): the system cancel
        h.frame(100, (0, 10, 10))
        h.frame(110, (0, 30, 10))
        h.cancel(120)
        XCTAssertEqual(h.log.suffix(2), ["continuous:began@110", "continuous:cancelled@120"])
        XCTAssertEqual([discrete.state, continuous.state], [.possible, .possible])
        XCTAssertEqual(continuous.calls.filter { $0 == "reset" }.count, 2)
        XCTAssertEqual(discrete.calls.filter { $0 == "reset" }.count, 2)
        // After reset mid-touch (S6), the old touch's updates no longer arrive.
        discrete.calls.removeAll()
        h.frame(200, (0, 10, 10))
        discrete.state = .failed
        h.frame(210, (0, 50, 50))
        h.frame(220)
        XCTAssertEqual(discrete.calls, ["began1", "reset"])
    }

    // S5: actions run after the whole frame was offered to every recognizer.
    func testActionsAreDispatchedAfterEveryRecognizerSawTheFrame() {
        let h = EngineHarness()
        let a = Probe("a")
        let b = Probe("b")
        a.recognizeOnEnd = true
        b.recognizeOnEnd = true
        a.simultaneousNames = ["b"]
        var seenByA: [String] = []
        a.addTarget { _ in seenByA = b.calls }
        h.add(a)
        h.add(b)
        h.tap(at: 0)
        XCTAssertEqual(seenByA, ["began1", "ended1"], "b had the frame before a's action ran")
    }

    // S8: recognizers of the hit region and its ancestors see the touch; a sibling's do not.
    func testRecognizersOfAncestorsSeeTouchesInSubRegions() {
        let h = EngineHarness()
        let left = Region(name: "left", frame: Rect(x: 0, y: 0, width: 400, height: 480))
        let right = Region(name: "right", frame: Rect(x: 400, y: 0, width: 400, height: 480))
        let inner = Region(name: "inner", frame: Rect(x: 50, y: 50, width: 100, height: 100))
        h.root.addChild(left)
        h.root.addChild(right)
        left.addChild(inner)
        let onRoot = Probe("root")
        let onLeft = Probe("left")
        let onRight = Probe("right")
        h.add(onRoot)
        h.add(onLeft, to: left)
        h.add(onRight, to: right)
        h.tap(at: 0, x: 100, y: 100)  // inside "inner"
        XCTAssertEqual(onRoot.calls.prefix(2), ["began1", "ended1"])
        XCTAssertEqual(onLeft.calls.prefix(2), ["began1", "ended1"])
        XCTAssertEqual(onRight.calls, [])
        XCTAssertEqual(h.engine.regionName(h.sink.deliveries[0].region), "inner")
    }

    // S11: an ignored touch leaves the recognizer for good and is never cancelled on the region.
    func testIgnoredTouchIsNotCancelledOnTheRegion() {
        final class IgnoreFirst: GestureRecognizer {
            override var isContinuous: Bool { true }
            var seen = 0
            override func touchesBegan(_ t: TouchSet) {
                for touch in t where touch.id == 0 { ignore(touch) }
            }
            override func touchesMoved(_ t: TouchSet) {
                seen += t.count
                if state == .possible { state = .began }
            }
            override func touchesEnded(_ t: TouchSet) { if state != .possible { state = .ended } }
        }
        let h = EngineHarness()
        let region = Region(
            name: "multi", frame: Rect(x: 0, y: 0, width: 800, height: 480), isMultipleTouchEnabled: true)
        h.root.addChild(region)
        let r = IgnoreFirst(name: "r", kind: .custom)
        h.add(r, to: region)
        h.frame(0, (0, 10, 10), (1, 300, 300))
        h.frame(10, (0, 20, 10), (1, 310, 300))
        h.frame(20)
        XCTAssertEqual(r.seen, 1, "only touch 1 reaches the recognizer")
        let touch0 = h.sink.deliveries.filter { $0.touch == 0 }.map { "\($0.phase)" }
        let touch1 = h.sink.deliveries.filter { $0.touch == 1 }.map { "\($0.phase)" }
        XCTAssertEqual(touch0, ["began", "moved", "ended"])
        XCTAssertEqual(touch1, ["began", "cancelled"])
    }

    // S13: a touch carries its tap count and previous location.
    func testTouchCarriesTapCountAndPreviousLocation() {
        final class Recorder: GestureRecognizer {
            var tapCounts: [Int] = []
            var previous: [Point] = []
            override func touchesBegan(_ t: TouchSet) { tapCounts.append(t[0].tapCount) }
            override func touchesMoved(_ t: TouchSet) { previous.append(t[0].previousLocation) }
        }
        let h = EngineHarness()
        let r = Recorder(name: "r", kind: .custom)
        h.add(r)
        h.tap(at: 0)
        h.tap(at: 100)
        h.tap(at: 200)
        h.tap(at: 2000)
        h.frame(3000, (0, 10, 10))
        h.frame(3010, (0, 15, 10))
        h.frame(3020)
        XCTAssertEqual(r.tapCounts, [1, 2, 3, 1, 1])
        XCTAssertEqual(r.previous, [Point(x: 10, y: 10)])
    }

    // S18: canPrevent / canBePrevented are one-way.
    func testCanPreventIsOneWay() {
        /// Recognizes as soon as a finger lands; `prevents` decides whether it may stop others.
        final class Early: GestureRecognizer {
            var prevents = true
            override func touchesBegan(_ t: TouchSet) { state = .recognized }
            override func canPrevent(_ other: GestureRecognizer) -> Bool { prevents }
        }
        let h = EngineHarness()
        let meek = Early(name: "meek", kind: .custom)
        meek.prevents = false
        h.add(meek)
        h.add(TapGestureRecognizer(name: "tap"))
        h.tap(at: 0)
        XCTAssertEqual(h.log, ["meek:recognized@0", "tap:recognized@50"], "meek cannot prevent tap")

        let h2 = EngineHarness()
        h2.add(Early(name: "bold", kind: .custom))
        h2.add(TapGestureRecognizer(name: "tap"))
        h2.tap(at: 0)
        XCTAssertEqual(h2.log, ["bold:recognized@0"], "bold prevents tap")

        // canBePrevented(by:) false on the other side protects it from bold.
        final class Stubborn: TapGestureRecognizer {
            override func canBePrevented(by other: GestureRecognizer) -> Bool { false }
        }
        let h3 = EngineHarness()
        h3.add(Early(name: "bold", kind: .custom))
        h3.add(Stubborn(name: "tap"))
        h3.tap(at: 0)
        XCTAssertEqual(h3.log, ["bold:recognized@0", "tap:recognized@50"])
    }

    // S19: dynamic failure requirements, as a subclass override and as a delegate answer.
    func testDynamicFailureRequirements() {
        final class Waiter: TapGestureRecognizer {
            override func shouldRequireFailure(of other: GestureRecognizer) -> Bool { other.name == "double" }
        }
        let h = EngineHarness()
        h.add(Waiter(name: "single"))
        h.add(TapGestureRecognizer(name: "double", taps: 2))
        h.tap(at: 0)
        h.finish()
        XCTAssertEqual(h.log, ["single:recognized@350"])

        final class Delegate: GestureRecognizerDelegate {
            func gestureRecognizer(_ r: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool {
                other.name == "single"
            }
        }
        let d = Delegate()
        let h2 = EngineHarness()
        let double = TapGestureRecognizer(name: "double", taps: 2)
        double.delegate = d
        h2.add(TapGestureRecognizer(name: "single"))
        h2.add(double)
        h2.tap(at: 0)
        h2.finish()
        XCTAssertEqual(h2.log, ["single:recognized@350"])
    }

    // S22: UIKit's defaults.
    func testDeliveryDefaults() {
        let r = TapGestureRecognizer(name: "t")
        XCTAssertTrue(r.cancelsTouchesInView)
        XCTAssertFalse(r.delaysTouchesBegan)
        XCTAssertTrue(r.delaysTouchesEnded)
    }

    // S23: with cancelsTouchesInView false the region receives every touch of the sequence.
    func testNoCancelWhenCancelsTouchesInViewIsFalse() {
        let h = EngineHarness()
        let pan = PanGestureRecognizer(name: "pan")
        pan.cancelsTouchesInView = false
        h.add(pan)
        h.frame(0, (0, 10, 10))
        h.frame(10, (0, 40, 10))
        h.frame(20)
        XCTAssertEqual(h.deliveries, ["began", "moved", "ended"])
        let h2 = EngineHarness()
        h2.add(PanGestureRecognizer(name: "pan"))
        h2.frame(0, (0, 10, 10))
        h2.frame(10, (0, 40, 10))
        h2.frame(20)
        XCTAssertEqual(h2.deliveries, ["began", "cancelled"])
    }

    // S24: delaysTouchesBegan withholds began (and moves) while undecided; on failure they arrive with a
    // catch-up move; on recognition they are discarded.
    func testDelaysTouchesBegan() {
        let h = EngineHarness()
        let press = LongPressGestureRecognizer(name: "press")
        press.delaysTouchesBegan = true
        h.add(press)
        h.frame(0, (0, 10, 10))
        h.frame(100, (0, 14, 10))
        XCTAssertEqual(h.deliveries, [])
        h.frame(200)  // lifted early: the press fails, withheld deliveries are released
        XCTAssertEqual(h.deliveries, ["began", "moved", "ended"])
        XCTAssertEqual(h.sink.deliveries.map(\.time), [.milliseconds(200), .milliseconds(200), .milliseconds(200)])
        XCTAssertEqual(h.sink.deliveries[1].location, Point(x: 14, y: 10))

        let h2 = EngineHarness()
        let press2 = LongPressGestureRecognizer(name: "press")
        press2.delaysTouchesBegan = true
        h2.add(press2)
        h2.frame(0, (0, 10, 10))
        h2.frame(700)
        XCTAssertEqual(h2.log, ["press:began@500", "press:ended@700"])
        XCTAssertEqual(h2.deliveries, [], "recognized: the withheld began is discarded")
    }

    // S25: delaysTouchesEnded withholds ended while undecided and delivers it on failure.
    func testDelaysTouchesEndedDeliversOnFailure() {
        let h = EngineHarness()
        h.add(TapGestureRecognizer(name: "double", taps: 2))
        h.tap(at: 0)
        XCTAssertEqual(h.deliveries, ["began"])
        h.finish()  // the double tap fails at 350 ms
        XCTAssertEqual(h.deliveries, ["began", "ended"])
        XCTAssertEqual(h.sink.deliveries.last?.time, .milliseconds(350))
    }

    // S27: the two-finger discrete example.
    func testTwoFingerDiscreteDeliverySequence() {
        let h = EngineHarness()
        let region = Region(
            name: "pad", frame: Rect(x: 0, y: 0, width: 800, height: 480), isMultipleTouchEnabled: true)
        h.root.addChild(region)
        h.add(TapGestureRecognizer(name: "two", touches: 2), to: region)
        h.frame(0, (0, 100, 100), (1, 200, 100))
        h.frame(10, (0, 102, 100), (1, 202, 100))
        h.frame(40, (1, 202, 100))
        h.frame(60)
        let lines = h.sink.deliveries.map { "\($0.phase)\($0.touch)" }
        XCTAssertEqual(lines, ["began0", "began1", "moved0", "moved1", "cancelled0", "cancelled1"])
        XCTAssertEqual(h.log, ["two:recognized@60"])
    }

    // S29: a single-touch region gets no deliveries for a second finger; recognizers still receive it.
    func testSingleTouchRegionIgnoresSecondFingerButRecognizersSeeIt() {
        let h = EngineHarness()
        let pinch = PinchGestureRecognizer(name: "pinch")
        pinch.cancelsTouchesInView = false
        h.add(pinch)
        h.frame(0, (0, 300, 240), (1, 500, 240))
        h.frame(10, (0, 280, 240), (1, 520, 240))
        h.frame(20)
        XCTAssertEqual(h.sink.deliveries.map(\.touch), [0, 0, 0])
        XCTAssertEqual(h.log, ["pinch:began@10", "pinch:ended@20"])
    }
}
