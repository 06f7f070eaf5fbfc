import Gestures
import TouchCore
import XCTest

/// Three behaviours of issue 16: prevention before release (S14 before S15), the fingers of one
/// multi-finger tap landing in different frames, and velocity after the finger rests.
final class SemanticFixTests: XCTestCase {
    /// Single requires double, double requires triple, added in `order`; three quick taps.
    private func chainedTaps(order: [Int]) -> EngineHarness {
        let h = EngineHarness()
        let taps = [
            TapGestureRecognizer(name: "single"),
            TapGestureRecognizer(name: "double", taps: 2),
            TapGestureRecognizer(name: "triple", taps: 3),
        ]
        taps[0].require(toFail: taps[1])
        taps[1].require(toFail: taps[2])
        for i in order { h.add(taps[i]) }
        h.tap(at: 0)
        h.tap(at: 150)
        h.tap(at: 300)
        h.finish()
        return h
    }

    // S14 then S15: the triple forces the single (which it can prevent) to failed before the
    // double's failure could release the single's held recognition: only the triple fires.
    func testTripleTapInARequireFailChainFiresOnlyTheTriple() {
        for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0], [2, 0, 1]] {
            let h = chainedTaps(order: order)
            XCTAssertEqual(h.log, ["triple:recognized@350"], "recognizers added in order \(order)")
            XCTAssertEqual(h.sink.events.first?.taps, 3)
        }
    }

    // S15: the same chain with a double tap fires the double only, once the triple's window closes.
    func testDoubleTapInARequireFailChainFiresOnlyTheDouble() {
        let h = EngineHarness()
        let single = TapGestureRecognizer(name: "single")
        let double = TapGestureRecognizer(name: "double", taps: 2)
        let triple = TapGestureRecognizer(name: "triple", taps: 3, maximumIntervalMilliseconds: 300)
        single.require(toFail: double)
        double.require(toFail: triple)
        h.add(triple)
        h.add(double)
        h.add(single)
        h.tap(at: 0)
        h.tap(at: 150)
        h.finish()
        XCTAssertEqual(h.log, ["double:recognized@500"])
        XCTAssertEqual(h.sink.events.first?.taps, 2)
    }

    // max_tap_distance bounds the distance between taps, not between the fingers of one tap:
    // the second finger of a two-finger tap landing a frame later, 100 px away, still taps.
    func testTwoFingerTapWhoseFingersLandInDifferentFrames() {
        let h = EngineHarness()
        h.add(TapGestureRecognizer(name: "two", touches: 2, maximumTapDistance: 45))
        h.frame(0, (0, 100, 100))
        h.frame(10, (0, 100, 100), (1, 200, 100))
        h.frame(20, (0, 100, 100), (1, 200, 100))
        h.frame(70, (1, 200, 100))
        h.frame(80)
        h.finish()
        XCTAssertEqual(h.log, ["two:recognized@80"])
        XCTAssertEqual(h.sink.events.first?.touches, 2)
        XCTAssertEqual(h.sink.events.first?.location, Point(x: 150, y: 100))
    }

    // A two-finger double tap whose second tap lands within max_tap_distance of the first is
    // recognized even though each tap's fingers landed in different frames.
    func testTwoFingerDoubleTapWithStaggeredFingers() {
        let h = EngineHarness()
        h.add(TapGestureRecognizer(name: "two2", taps: 2, touches: 2, maximumTapDistance: 45))
        h.frame(0, (0, 100, 100))
        h.frame(10, (0, 100, 100), (1, 200, 100))
        h.frame(60)
        h.frame(150, (0, 110, 100))
        h.frame(160, (0, 110, 100), (1, 210, 100))
        h.frame(210)
        h.finish()
        XCTAssertEqual(h.log, ["two2:recognized@210"])
    }

    // max_tap_distance still fails a second tap that lands too far from the first.
    func testTwoFingerDoubleTapFailsWhenSecondTapIsFarAway() {
        let h = EngineHarness()
        h.add(TapGestureRecognizer(name: "two2", taps: 2, touches: 2, maximumTapDistance: 45))
        h.frame(0, (0, 100, 100))
        h.frame(10, (0, 100, 100), (1, 200, 100))
        h.frame(60)
        h.frame(150, (0, 300, 100))
        h.frame(160, (0, 300, 100), (1, 400, 100))
        h.frame(210)
        h.finish()
        XCTAssertEqual(h.log, [])
    }

    /// A pan moving right at 1 px/ms for 100 ms, then resting `restMs` (frames every 10 ms), then lifting.
    private func panThenRest(restMs: Int64) -> EngineHarness {
        let h = EngineHarness()
        h.add(PanGestureRecognizer(name: "pan", minimumDistance: 10))
        for k in Int64(0)...10 { h.frame(k * 10, (0, 100 + Double(k * 10), 100)) }
        var t: Int64 = 110
        while t <= 100 + restMs {
            h.frame(t, (0, 200, 100))
            t += 10
        }
        h.frame(t)
        h.finish()
        return h
    }

    // A finger at rest has no velocity: a pan that stops, rests 200 ms and lifts ends with velocity 0.
    func testPanThatRestsBeforeLiftingEndsWithZeroVelocity() throws {
        let h = panThenRest(restMs: 200)
        let ended = try XCTUnwrap(h.sink.events.last)
        XCTAssertEqual(ended.state, .ended)
        XCTAssertEqual(ended.velocity, Point(x: 0, y: 0))
        XCTAssertEqual(ended.translation, Point(x: 100, y: 0))
    }

    // A pan lifted while still moving keeps its speed at `ended` (a fling stays a fling).
    func testPanLiftedWhileMovingEndsWithItsSpeed() throws {
        let h = panThenRest(restMs: 0)
        let ended = try XCTUnwrap(h.sink.events.last)
        XCTAssertEqual(ended.state, .ended)
        XCTAssertEqual(ended.velocity.x, 1000, accuracy: 0.5)
        XCTAssertEqual(ended.velocity.y, 0, accuracy: 0.5)
    }

    // The tracker itself: samples older than the stop horizon at the query instant do not count.
    func testVelocityTrackerForgetsAFingerAtRest() {
        var tracker = VelocityTracker()
        for k in Int64(0)...5 { tracker.add(Point(x: Double(k * 10), y: 0), at: .milliseconds(k * 10)) }
        XCTAssertEqual(tracker.velocity(at: .milliseconds(50)).x, 1000, accuracy: 0.5)
        let afterTheHorizon = Instant.milliseconds(50 + VelocityTracker.stopHorizonMicroseconds / 1000 + 1)
        XCTAssertEqual(tracker.velocity(at: afterTheHorizon).x, 0)
    }
}
