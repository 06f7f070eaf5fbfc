import Gestures
import TouchCore
import XCTest

final class RecognizerKindTests: XCTestCase {
    /// A drag sampled every 10 ms from `from` to `to` over `ms` milliseconds, then a lift.
    func drag(_ h: EngineHarness, from: Point, to: Point, start: Int64 = 0, ms: Int64, id: UInt8 = 0) {
        let steps = max(1, ms / 10)
        for i in 0...steps {
            let f = Double(i) / Double(steps)
            h.frame(start + i * 10, (id, from.x + (to.x - from.x) * f, from.y + (to.y - from.y) * f))
        }
        h.frame(start + steps * 10 + 10)
    }

    // S2: a swipe is discrete; it reports its direction and where it began (S12).
    func testFastFlickIsASwipeWithDirectionAndStartLocation() {
        let h = EngineHarness()
        h.add(SwipeGestureRecognizer(name: "swipe", direction: [.right, .left]))
        drag(h, from: Point(x: 300, y: 200), to: Point(x: 200, y: 205), ms: 100)
        h.finish()
        XCTAssertEqual(h.log.count, 1)
        XCTAssertEqual(h.sink.events.first?.direction, .left)
        XCTAssertEqual(h.sink.events.first?.location, Point(x: 300, y: 200))
    }

    func testSwipeInAForbiddenDirectionFails() {
        let h = EngineHarness()
        h.add(SwipeGestureRecognizer(name: "swipe", direction: .right))
        drag(h, from: Point(x: 300, y: 200), to: Point(x: 300, y: 50), ms: 100)
        h.finish()
        XCTAssertEqual(h.log, [])
    }

    // S15 with pan requiring swipe to fail: a fast flick is a swipe only; a slow drag is a pan only.
    func testPanRequiringSwipeToFail() {
        func make() -> EngineHarness {
            let h = EngineHarness()
            let swipe = SwipeGestureRecognizer(name: "swipe", direction: .right)
            let pan = PanGestureRecognizer(name: "pan")
            pan.require(toFail: swipe)
            h.add(swipe)
            h.add(pan)
            return h
        }
        let fast = make()
        drag(fast, from: Point(x: 100, y: 200), to: Point(x: 300, y: 200), ms: 100)
        fast.finish()
        XCTAssertEqual(fast.log.map { $0.split(separator: "@")[0] }, ["swipe:recognized"])

        let slow = make()
        drag(slow, from: Point(x: 100, y: 200), to: Point(x: 300, y: 200), ms: 1000)
        slow.finish()
        let names = slow.log.map { String($0.split(separator: "@")[0]) }
        XCTAssertEqual(names.first, "pan:began")
        XCTAssertEqual(names.last, "pan:ended")
        XCTAssertFalse(names.contains("swipe:recognized"))
        // The pan waited only until the swipe could no longer succeed: 50 px at 300 px/s ≈ 167 ms.
        XCTAssertEqual(slow.sink.events.first?.time, Instant(microseconds: 166_666))
    }

    /// Two fingers moving apart (pinch) or turning (rotation), sampled every 10 ms.
    func twoFingers(_ h: EngineHarness, spread: Double, turn: Double, ms: Int64 = 300) {
        let c = Point(x: 400, y: 240)
        let steps = ms / 10
        for i in 0...steps {
            let f = Double(i) / Double(steps)
            let r = 50 + spread * f
            let a = turn * f
            h.frame(
                i * 10, (0, c.x - r * cos(a), c.y - r * sin(a)), (1, c.x + r * cos(a), c.y + r * sin(a)))
        }
        h.frame(steps * 10 + 10)
    }

    // S3: pinch reports absolute scale since the fingers landed.
    func testPinchReportsScale() {
        let h = EngineHarness()
        h.add(PinchGestureRecognizer(name: "pinch"))
        twoFingers(h, spread: 50, turn: 0)
        h.finish()
        XCTAssertEqual(h.log.first?.hasPrefix("pinch:began"), true)
        XCTAssertEqual(h.log.last?.hasPrefix("pinch:ended"), true)
        let last = h.sink.events.last!
        XCTAssertEqual(last.value, 2.0, accuracy: 0.001)  // distance 100 → 200
        XCTAssertEqual(h.sink.events[h.sink.events.count - 2].scalarVelocity, 50.0 / 50 / 0.3, accuracy: 0.3)
    }

    // S14: pinch and rotation are exclusive by default; S17: together when allowed.
    func testPinchAndRotationExclusiveByDefaultTogetherWhenSimultaneous() {
        let exclusive = EngineHarness()
        exclusive.add(PinchGestureRecognizer(name: "pinch"))
        exclusive.add(RotationGestureRecognizer(name: "rotation"))
        twoFingers(exclusive, spread: 60, turn: 1.0)
        exclusive.finish()
        let kinds = Set(exclusive.log.map { $0.split(separator: ":")[0] })
        XCTAssertEqual(kinds.count, 1, "only one of them may recognize: \(exclusive.log)")

        let together = EngineHarness()
        let pinch = PinchGestureRecognizer(name: "pinch")
        pinch.simultaneousNames = ["rotation"]
        together.add(pinch)
        together.add(RotationGestureRecognizer(name: "rotation"))
        twoFingers(together, spread: 60, turn: 1.0)
        together.finish()
        XCTAssertEqual(Set(together.log.map { $0.split(separator: ":")[0] }), ["pinch", "rotation"])
        let rotationEnd = together.sink.events.last { $0.kind == .rotation }!
        XCTAssertEqual(rotationEnd.value, 1.0, accuracy: 0.001)
    }

    // UIKit's custom-recognizer example: a check drawn down-right then up-right is recognized at its midpoint.
    func testCheckmarkRecognizesACheckAndRejectsAV() {
        let h = EngineHarness()
        h.add(CheckmarkGestureRecognizer(name: "check"))
        // down-right 40 px, then up-right 100 px
        var t: Int64 = 0
        for i in 0...8 {
            h.frame(t, (0, 100 + Double(i) * 3, 100 + Double(i) * 5))
            t += 10
        }
        for i in 1...10 {
            h.frame(t, (0, 124 + Double(i) * 7, 140 - Double(i) * 8))
            t += 10
        }
        h.frame(t)
        // A symmetric "v" ends level: not a checkmark.
        t += 1000
        for i in 0...10 {
            h.frame(t, (0, 300 + Double(i) * 4, 100 + Double(i) * 8))
            t += 10
        }
        for i in 1...10 {
            h.frame(t, (0, 340 + Double(i) * 4, 180 - Double(i) * 8))
            t += 10
        }
        h.frame(t)
        h.finish()
        XCTAssertEqual(h.log, ["check:recognized@190"])
        XCTAssertEqual(h.sink.events.first?.location, Point(x: 124, y: 140))
    }

    // The diagnostic trace says why a recognizer failed or waited.
    func testDiagnosticsExplainFailuresAndWaits() {
        let h = EngineHarness()
        let single = TapGestureRecognizer(name: "single")
        let double = TapGestureRecognizer(name: "double", taps: 2)
        single.require(toFail: double)
        h.add(single)
        h.add(double)
        var lines: [String] = []
        h.engine.diagnostics = { lines.append("\($0)") }
        h.tap(at: 0)
        h.finish()
        XCTAssertEqual(
            lines,
            [
                "50000 single: waiting: would be recognized, holding until double fails (S15)",
                "350000 double: the next tap did not come within max_interval_ms",
                "350000 single: released: every recognizer it required to fail has failed (S15)",
            ])
    }
}
