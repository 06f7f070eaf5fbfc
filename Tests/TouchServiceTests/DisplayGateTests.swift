import TouchCore
import TouchService
import XCTest

/// The touch-to-wake stage on frames with their own instants (issue 27): what the engine (and so
/// the UI's passthrough and every binding) gets, and when the display changes.
final class DisplayGateTests: XCTestCase {
    private func frame(_ ms: Int64, _ contacts: [(UInt8, Double)] = []) -> TouchFrame {
        TouchFrame(timestamp: .milliseconds(ms), contacts: contacts.map { Contact(id: $0.0, x: $0.1, y: 100) })
    }

    /// Feeds `f` and returns the ids the engine sees and the transition.
    private func pass(_ gate: inout DisplayGate, _ f: TouchFrame) -> ([UInt8], DisplayTransition?) {
        var copy = f
        let t = gate.filter(&copy)
        return (copy.contacts.map(\.id), t)
    }

    private func gate(off: Int64 = 10_000, dim: Int64 = 0, guardMs: Int64 = 300) -> DisplayGate {
        DisplayGate(
            idleOffMicroseconds: off * 1000, idleDimMicroseconds: dim * 1000, wakeGuardMicroseconds: guardMs * 1000,
            start: .zero)
    }

    func testGoesOffAfterIdleTimeAtItsDeadlineNotWhileAFingerRests() {
        var g = gate(off: 10_000, dim: 4_000)
        XCTAssertNil(g.advance(to: .milliseconds(3_999)))
        XCTAssertEqual(g.nextDeadline, .milliseconds(4_000))
        XCTAssertEqual(
            g.advance(to: .milliseconds(5_000)),
            DisplayTransition(time: .milliseconds(4_000), state: .dimmed, cause: .idle))
        XCTAssertEqual(
            g.advance(to: .milliseconds(12_000)),
            DisplayTransition(time: .milliseconds(10_000), state: .off, cause: .idle))
        XCTAssertNil(g.advance(to: .milliseconds(99_000)))

        var resting = gate(off: 1_000)
        _ = pass(&resting, frame(100, [(0, 10)]))
        XCTAssertNil(resting.advance(to: .milliseconds(5_000)), "a finger resting on the panel is not idle")
        _ = pass(&resting, frame(5_000))
        XCTAssertNil(resting.advance(to: .milliseconds(5_999)))
        XCTAssertEqual(resting.advance(to: .milliseconds(6_000))?.state, .off)
    }

    func testWakeTouchIsSwallowedWholeAndWakesTheDisplay() {
        var g = gate(off: 1_000)
        _ = g.advance(to: .milliseconds(1_000))
        XCTAssertEqual(g.state, .off)
        let (seen, t) = pass(&g, frame(2_000, [(0, 10)]))
        XCTAssertEqual(seen, [])
        XCTAssertEqual(t, DisplayTransition(time: .milliseconds(2_000), state: .on, cause: .touch))
        // It moves for a second (past the guard) and lifts: the engine never sees any of it.
        XCTAssertEqual(pass(&g, frame(2_500, [(0, 40)])).0, [])
        XCTAssertEqual(pass(&g, frame(3_000, [(0, 80)])).0, [])
        XCTAssertEqual(pass(&g, frame(3_050)).0, [])
        XCTAssertEqual(g.swallowedTouches, 1)
        // The next touch, after the guard, is an ordinary touch.
        XCTAssertEqual(pass(&g, frame(3_100, [(0, 10)])).0, [0])
        XCTAssertNil(pass(&g, frame(3_150)).1)
    }

    func testTouchesBeginningInTheGuardAreSwallowedUntilTheyLift() {
        var g = gate(off: 1_000, guardMs: 300)
        _ = g.advance(to: .milliseconds(1_000))
        _ = pass(&g, frame(2_000, [(0, 10)]))  // wake
        _ = pass(&g, frame(2_050))
        // A second tap 200 ms later (a double tap to wake): swallowed, and its finger stays
        // swallowed after the guard ends while a new finger (after the guard) goes through.
        XCTAssertEqual(pass(&g, frame(2_200, [(1, 10)])).0, [])
        XCTAssertEqual(pass(&g, frame(2_400, [(1, 12)])).0, [])
        XCTAssertEqual(pass(&g, frame(2_450, [(1, 12), (2, 300)])).0, [2])
        XCTAssertEqual(pass(&g, frame(2_500, [(2, 300)])).0, [2])
        XCTAssertEqual(g.swallowedTouches, 2)
        // With no guard, only the wake touch is swallowed.
        var none = gate(off: 1_000, guardMs: 0)
        _ = none.advance(to: .milliseconds(1_000))
        XCTAssertEqual(pass(&none, frame(2_000, [(0, 10)])).0, [])
        XCTAssertEqual(pass(&none, frame(2_000, [(0, 10), (1, 20)])).0, [1])
    }

    func testCommandsSwitchAndTheScreenWakesOnTouchTheSameWay() {
        var g = gate(off: 0)
        XCTAssertNil(g.advance(to: .milliseconds(999_000)), "idle_off_s = 0: never")
        // A finger already down when the display goes off goes on to the engine until it lifts.
        _ = pass(&g, frame(100, [(0, 10)]))
        XCTAssertEqual(g.apply(.off, at: .milliseconds(150))?.cause, .command)
        XCTAssertEqual(pass(&g, frame(200, [(0, 20)])).0, [0])
        XCTAssertEqual(pass(&g, frame(250)).0, [])
        let (seen, t) = pass(&g, frame(1_000, [(3, 10)]))
        XCTAssertEqual(seen, [])
        XCTAssertEqual(t?.cause, .touch)
        XCTAssertNil(g.apply(.on, at: .milliseconds(1_100)), "already on")
        XCTAssertEqual(g.apply(.off, at: .milliseconds(1_200))?.state, .off)
        XCTAssertEqual(
            g.apply(.on, at: .milliseconds(1_300)),
            DisplayTransition(time: .milliseconds(1_300), state: .on, cause: .command))
        // Switched on from outside: the guard applies as after a wake.
        XCTAssertEqual(pass(&g, frame(1_400, [(4, 10)])).0, [])
    }

    func testKeepAwakeHoldsOffIdleTimeThenIdleTimeCountsAgain() {
        var g = gate(off: 1_000)
        XCTAssertNil(g.apply(.keepAwake(seconds: 0), at: .milliseconds(500)))
        XCTAssertNil(g.advance(to: .milliseconds(60_000)))
        XCTAssertNil(g.apply(.keepAwakeEnd, at: .milliseconds(60_000)))
        XCTAssertEqual(g.advance(to: .milliseconds(61_000))?.state, .off)
        // keep-awake on a dark screen switches it on; for SECONDS, then idle time from its end.
        XCTAssertEqual(g.apply(.keepAwake(seconds: 5), at: .milliseconds(70_000))?.state, .on)
        XCTAssertNil(g.advance(to: .milliseconds(75_500)))
        XCTAssertEqual(g.advance(to: .milliseconds(76_000))?.state, .off)
    }

    func testACancelForgetsSwallowedTouches() {
        var g = gate(off: 1_000)
        _ = g.advance(to: .milliseconds(1_000))
        _ = pass(&g, frame(2_000, [(0, 10)]))
        var cancel = TouchFrame.cancel(at: .milliseconds(2_100))
        XCTAssertNil(g.filter(&cancel))
        XCTAssertTrue(cancel.isCancel)
        XCTAssertEqual(pass(&g, frame(2_500, [(0, 10)])).0, [0])
    }

    func testSocketProtocolLines() {
        XCTAssertEqual(DisplayCommandLine.parse("display on"), .success(.command(.on)))
        XCTAssertEqual(DisplayCommandLine.parse(" display  off\r"), .success(.command(.off)))
        XCTAssertEqual(DisplayCommandLine.parse("display status"), .success(.status))
        XCTAssertEqual(DisplayCommandLine.parse("display keep-awake"), .success(.command(.keepAwake(seconds: 0))))
        XCTAssertEqual(DisplayCommandLine.parse("display keep-awake 60"), .success(.command(.keepAwake(seconds: 60))))
        XCTAssertEqual(DisplayCommandLine.parse("display keep-awake off"), .success(.command(.keepAwakeEnd)))
        XCTAssertEqual(DisplayCommandLine.parse("display keep-awake -3"), .failure(.badSeconds("-3")))
        XCTAssertEqual(DisplayCommandLine.parse("reboot"), .failure(.unknown("reboot")))
        XCTAssertEqual(
            DisplayCommandLine.reply(to: "display on", control: nil),
            #"{"reply":"error","message":"this board has no [display] section"}"#)
    }
}
