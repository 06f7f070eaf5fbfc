import Gestures
import TouchCore
import XCTest

/// A long press whose timer falls due at the very instant of the frame that lifts or cancels its
/// touch (the soak's "long-press began after the lift", docs/RELIABILITY.md). A frame reports the
/// contacts at its instant, so at that instant no finger is down: the press must fail, never
/// begin with no touch down. Timers due at the instant of a frame that only lands or moves
/// touches still fire first (BoundaryTests: a tap window closing at that instant).
final class LongPressLiftAtDeadlineTests: XCTestCase {
    /// The demo board's recognizers (boards/sim-demo.toml), on an 800 × 480 screen with a panel.
    private func demoHarness() -> EngineHarness {
        let h = EngineHarness()
        let panel = Region(name: "panel", frame: Rect(x: 0, y: 0, width: 800, height: 380))
        h.root.addChild(panel)
        let tap = TapGestureRecognizer(name: "tap")
        let double = TapGestureRecognizer(name: "double-tap", taps: 2, maximumIntervalMilliseconds: 300)
        tap.require(toFail: double)
        h.add(tap)
        h.add(double)
        h.add(LongPressGestureRecognizer(name: "long-press", minimumPressDurationMilliseconds: 500))
        h.add(PanGestureRecognizer(name: "pan", minimumDistance: 10), to: panel)
        return h
    }

    /// The demo's still finger: x jitters 267, 268, 267, 266 px, one frame every 10 ms.
    private func hold(_ h: EngineHarness, from ms: Int64, through last: Int64, phase: Int = 0) {
        var t = ms
        var k = phase
        while t <= last {
            h.frame(t, (0, 267 + Double([0, 1, 0, -1][k % 4]), 240))
            t += 10
            k += 1
        }
    }

    // S3 + S9: the exact frames of the soak's first violation (frame 1,285,867 of
    // `tools/soak 10000000`). The demo's long press lands at 12,858,670 ms; an injected bus
    // fault cancels it 290 ms later (S9); the finger, still down, begins again 10 ms after the
    // cancel, so the new touch's 500 ms timer falls due at 12,859,470 ms — the instant of the
    // demo's lift. The timer used to fire before the lift frame: `began` and `ended` at the lift,
    // with no finger down. The touch was down for at most 500 ms: not a long press.
    func testLongPressTimerDueAtTheLiftFrameDoesNotBeginAfterASystemCancel() {
        let h = demoHarness()
        hold(h, from: 12_858_670, through: 12_858_950)
        h.cancel(12_858_960)
        hold(h, from: 12_858_970, through: 12_859_460, phase: 2)
        XCTAssertEqual(h.engine.nextDeadline, .milliseconds(12_859_470), "the press's timer is due at the lift")
        h.frame(12_859_470)  // the lift
        XCTAssertFalse(h.engine.hasTouchesDown)
        h.finish()
        // No long press at (or after) the lift of its touch; held 500 ms, the touch is a tap,
        // reported once the double tap's window closes (S15).
        XCTAssertEqual(h.log, ["tap:recognized@12859770"])
        XCTAssertNil(h.engine.nextDeadline)
    }

    // S3: the same tie without a cancel — lifted exactly min_duration_ms after the touch began.
    // One frame earlier the finger was still down and the press begins at its deadline.
    func testLongPressLiftedExactlyAtMinimumDurationFails() {
        func run(liftMs: Int64) -> [String] {
            let h = EngineHarness()
            h.add(LongPressGestureRecognizer(name: "press", minimumPressDurationMilliseconds: 500))
            var t: Int64 = 0
            while t < liftMs {
                h.frame(t, (0, 100, 100))
                t += 10
            }
            h.frame(liftMs)
            h.finish()
            return h.log
        }
        XCTAssertEqual(run(liftMs: 500), [])
        XCTAssertEqual(run(liftMs: 510), ["press:began@500", "press:ended@510"])
    }

    // S9: a system cancel at the press's deadline (a bus fault, or the driver's release
    // watchdog) cancels the touch before the timer can begin the press.
    func testSystemCancelAtTheDeadlineFailsTheLongPress() {
        let h = EngineHarness()
        h.add(LongPressGestureRecognizer(name: "press", minimumPressDurationMilliseconds: 500))
        h.frame(0, (0, 100, 100))
        h.cancel(500)
        h.finish()
        XCTAssertEqual(h.log, [])
    }

    // S3: a frame at the deadline that keeps the finger down (here a move) does not delay the
    // press: its timer fires first and it begins at its deadline.
    func testFrameAtTheDeadlineThatKeepsTheFingerDownBeginsThePress() {
        let h = EngineHarness()
        h.add(LongPressGestureRecognizer(name: "press", minimumPressDurationMilliseconds: 500))
        h.frame(0, (0, 100, 100))
        h.frame(500, (0, 103, 100))
        h.frame(800)
        h.finish()
        XCTAssertEqual(h.log, ["press:began@500", "press:changed@500", "press:ended@800"])
    }
}
