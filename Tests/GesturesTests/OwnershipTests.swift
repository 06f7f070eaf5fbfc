import TouchCore
import XCTest

@testable import Gestures

/// The invariants of the engine's unchecked storage (`Ownership.swift`, docs/ARCHITECTURE.md
/// "Unchecked storage"): the owner → observer links never keep their objects alive and are
/// cleared by their owner, and the engine's mirrors of its recognizers' state (the recognizer
/// table, the timer, held and terminal masks) agree with the recognizers after every step.
final class OwnershipTests: XCTestCase {
    /// The recognizer outlives its engine: the engine's `deinit` clears its `engine` and `region`
    /// links (an owner clears the links it handed out), so the recognizer reads "not installed"
    /// instead of a freed engine, and can be installed in a new engine.
    func testAnEngineClearsItsRecognizersLinksWhenItGoesAway() {
        let tap = TapGestureRecognizer(name: "tap")
        do {
            let h = EngineHarness()
            h.add(tap)
            XCTAssertTrue(tap.engine === h.engine)
            XCTAssertTrue(tap.region === h.root)
        }
        XCTAssertNil(tap.engine, "the engine went away: its link is cleared")
        XCTAssertNil(tap.region, "the region tree went away with it: cleared too")
        let h = EngineHarness()
        h.add(tap)
        h.tap(at: 0)
        h.finish()
        XCTAssertEqual(h.log, ["tap:recognized@50"], "installed again, it recognizes in its new engine")
    }

    /// No link keeps its object alive, so nothing forms a cycle: an engine, its region tree, its
    /// recognizers and their action targets are all freed once the caller lets go of them (a
    /// strong parent, engine or target link would keep them alive for ever).
    func testTheEngineItsRegionsRecognizersAndTargetsAreFreedTogether() {
        final class Target {
            var fired = 0
            func handle(_ r: GestureRecognizer) { fired += 1 }
        }
        weak var engine: GestureEngine?
        weak var child: Region?
        weak var tap: GestureRecognizer?
        weak var target: Target?
        do {
            let h = EngineHarness()
            let button = Region(name: "button", frame: Rect(x: 0, y: 0, width: 200, height: 200))
            h.root.addChild(button)
            let t = TapGestureRecognizer(name: "tap")
            let object = Target()
            t.addTarget(object, action: "handle", Target.handle)
            h.add(t, to: button)
            h.tap(at: 0)
            h.finish()
            XCTAssertEqual(object.fired, 1, "the action ran through its unretained target")
            XCTAssertTrue(button.parent === h.root)
            engine = h.engine
            child = button
            tap = t
            target = object
            t.removeTarget(object, action: nil)  // the target goes first: it removes its actions (UIKit's rule)
        }
        XCTAssertNil(target, "a recognizer does not retain its action's target")
        XCTAssertNil(engine, "recognizers do not retain their engine")
        XCTAssertNil(child, "a region does not retain its parent")
        XCTAssertNil(tap, "the engine's recognizer table does not retain recognizers beyond `recognizers`")
    }

    /// The engine's mirrors agree with its recognizers after every frame and timer of a workload
    /// that arms and fires timers (S13 tap windows, long press), holds transitions (S15), and
    /// ends, fails and resets recognizers (S2, S3, S6).
    func testTheEnginesMirrorsAgreeWithItsRecognizersAfterEveryStep() {
        let h = EngineHarness()
        let single = TapGestureRecognizer(name: "single")
        let double = TapGestureRecognizer(name: "double", taps: 2)
        single.require(toFail: double)  // S15: held while the double tap may still come
        let press = LongPressGestureRecognizer(name: "press")
        let pan = PanGestureRecognizer(name: "pan")
        let pinch = PinchGestureRecognizer(name: "pinch")
        let swipe = SwipeGestureRecognizer(name: "swipe")
        for r in [single, double, press, pan, pinch, swipe] as [GestureRecognizer] { h.add(r) }
        var violations: [String] = []
        func check(_ step: String) {
            violations += h.engine.storageViolations().map { "\(step): \($0)" }
        }
        var ms: Int64 = 0
        func frame(_ contacts: (UInt8, Double, Double)...) {
            ms += 20
            var f = TouchFrame(timestamp: .milliseconds(ms))
            for c in contacts { f.append(Contact(id: c.0, x: c.1, y: c.2)) }
            h.engine.process(f)
            check("frame@\(ms)")
        }
        func wait(_ duration: Int64) {
            ms += duration
            h.engine.advance(to: .milliseconds(ms))
            check("advance@\(ms)")
        }
        // A single tap (held by the double tap, released by its timer), then a double tap.
        frame((0, 100, 100))
        frame()
        wait(400)
        frame((0, 100, 100))
        frame()
        frame((0, 102, 100))
        frame()
        wait(400)
        // A long press, then a pan, then a pinch, then a cancel mid-swipe.
        frame((0, 300, 300))
        wait(600)
        frame()
        for x in stride(from: 300.0, through: 500, by: 25) { frame((0, x, 300)) }
        frame()
        wait(400)
        for d in stride(from: 40.0, through: 160, by: 20) { frame((0, 400 - d, 240), (1, 400 + d, 240)) }
        frame()
        wait(400)
        for x in stride(from: 100.0, through: 300, by: 50) { frame((0, x, 100)) }
        ms += 20
        h.engine.process(.cancel(at: .milliseconds(ms)))
        check("cancel@\(ms)")
        h.finish()
        check("drained")
        XCTAssertEqual(violations, [])
        XCTAssertTrue(h.log.contains("single:recognized@340"), "the workload exercised a held transition: \(h.log)")
        XCTAssertTrue(h.log.contains { $0.hasPrefix("double:recognized") }, "\(h.log)")
        XCTAssertTrue(h.log.contains { $0.hasPrefix("press:began") }, "\(h.log)")
        XCTAssertTrue(h.log.contains { $0.hasPrefix("pinch:began") }, "\(h.log)")
    }

    /// The check itself sees a mirror out of step (otherwise the test above could not fail).
    func testTheStorageCheckReportsAMirrorOutOfStep() {
        let h = EngineHarness()
        let press = LongPressGestureRecognizer(name: "press")
        h.add(press)
        h.frame(0, (0, 100, 100))
        XCTAssertEqual(h.engine.storageViolations(), [], "the long press armed its timer: mirrored")
        h.engine.timerMask = 0  // as if `timerChanged` had been skipped
        XCTAssertEqual(h.engine.storageViolations(), ["press: timer armed, but timerMask bit clear"])
    }
}
