import Gestures
import TouchCore
import XCTest

/// The thresholds and directions that planted bugs slipped past (issue 20): each test pins
/// one limit from both sides, so a bug that moves, flips or ignores it changes what a user sees.
final class BoundaryTests: XCTestCase {
    /// A drag sampled every 10 ms from `from` to `to` over `ms` milliseconds, then a lift.
    func drag(_ h: EngineHarness, from: Point, to: Point, start: Int64 = 0, ms: Int64) {
        let steps = max(1, ms / 10)
        for i in 0...steps {
            let f = Double(i) / Double(steps)
            h.frame(start + i * 10, (0, from.x + (to.x - from.x) * f, from.y + (to.y - from.y) * f))
        }
        h.frame(start + steps * 10 + 10)
    }

    // MARK: timers against frames

    // S15 + "Timing": a timer due at the instant of a frame fires before that frame. The
    // double tap's window closes exactly max_interval_ms after the lift, so a second tap
    // landing at that instant starts a new sequence instead of completing a double tap.
    func testSecondTapExactlyMaxIntervalAfterTheLiftIsNotADoubleTap() {
        let h = EngineHarness()
        h.add(TapGestureRecognizer(name: "double", taps: 2, maximumIntervalMilliseconds: 300))
        h.tap(at: 0, duration: 50)  // lift at 50
        h.tap(at: 350, duration: 50)  // down exactly 300 ms after the lift
        h.finish()
        XCTAssertEqual(h.log, [])
    }

    // S15: one millisecond inside the window the same two taps are a double tap.
    func testSecondTapJustInsideMaxIntervalIsADoubleTap() {
        let h = EngineHarness()
        h.add(TapGestureRecognizer(name: "double", taps: 2, maximumIntervalMilliseconds: 300))
        h.tap(at: 0, duration: 50)
        h.tap(at: 349, duration: 50)
        h.finish()
        XCTAssertEqual(h.log, ["double:recognized@399"])
        XCTAssertEqual(h.sink.events.first?.taps, 2)
    }

    // S15: a single tap that requires the double tap to fail is reported at the instant the
    // window closes — a frame at that same instant does not delay or swallow it.
    func testWaitingSingleTapIsReportedBeforeAFrameAtTheSameInstant() {
        let h = EngineHarness()
        let single = TapGestureRecognizer(name: "single")
        let double = TapGestureRecognizer(name: "double", taps: 2, maximumIntervalMilliseconds: 300)
        single.require(toFail: double)
        h.add(single)
        h.add(double)
        h.tap(at: 0, duration: 50)
        h.tap(at: 350, duration: 50)
        h.finish()
        XCTAssertEqual(h.log, ["single:recognized@350", "single:recognized@700"])
    }

    // MARK: tap count (S13)

    // S13: a touch that lands exactly tap-count-interval (300 ms) after the last lift, close by,
    // continues the tap count; one millisecond later it starts a new count.
    func testTapCountIntervalIsInclusive() {
        final class Recorder: GestureRecognizer {
            var tapCounts: [Int] = []
            override func touchesBegan(_ t: TouchSet) { tapCounts.append(t[0].tapCount) }
        }
        let h = EngineHarness()
        let r = Recorder(name: "r", kind: .custom)
        h.add(r)
        h.tap(at: 0, duration: 50)  // lift at 50
        h.tap(at: 350, duration: 50)  // exactly 300 ms later: second tap
        h.tap(at: 701, duration: 50)  // 301 ms after the lift at 400: a new first tap
        XCTAssertEqual(r.tapCounts, [1, 2, 1])
    }

    // S13: a quick touch continues the tap count only near the last lift (45 pt by default).
    func testTapCountNeedsTheNextTouchNearby() {
        final class Recorder: GestureRecognizer {
            var tapCounts: [Int] = []
            override func touchesBegan(_ t: TouchSet) { tapCounts.append(t[0].tapCount) }
        }
        let h = EngineHarness()
        let r = Recorder(name: "r", kind: .custom)
        h.add(r)
        h.tap(at: 0, x: 100, y: 100)
        h.tap(at: 100, x: 140, y: 100)  // 40 px from the last lift: continues
        h.tap(at: 200, x: 300, y: 100)  // 160 px away: a new count
        XCTAssertEqual(r.tapCounts, [1, 2, 1])
    }

    // MARK: tap distance and movement (S2)

    // S2: the second tap of a double tap must land within max_tap_distance of the first.
    func testDoubleTapFailsWhenTheSecondTapLandsBeyondMaxTapDistance() {
        func run(secondX: Double) -> [String] {
            let h = EngineHarness()
            h.add(TapGestureRecognizer(name: "double", taps: 2, maximumTapDistance: 45))
            h.tap(at: 0, x: 100, y: 100)
            h.tap(at: 150, x: secondX, y: 100)
            h.finish()
            return h.log
        }
        XCTAssertEqual(run(secondX: 140), ["double:recognized@200"])  // 40 px away
        XCTAssertEqual(run(secondX: 145), ["double:recognized@200"])  // exactly the limit
        XCTAssertEqual(run(secondX: 160), [])  // 60 px away
    }

    // S2: a tap fails as soon as a finger moves more than max_movement; exactly the limit is fine.
    func testTapMovementLimitIsInclusive() {
        func run(dx: Double) -> [String] {
            let h = EngineHarness()
            h.add(TapGestureRecognizer(name: "tap", maximumMovement: 10))
            h.frame(0, (0, 100, 100))
            h.frame(20, (0, 100 + dx, 100))
            h.frame(40)
            h.finish()
            return h.log
        }
        XCTAssertEqual(run(dx: 10), ["tap:recognized@40"])
        XCTAssertEqual(run(dx: 11), [])
    }

    // S2: a tap held longer than its press duration fails; a quick one does not.
    func testTapPressDurationLimit() {
        func run(holdMs: Int64) -> [String] {
            let h = EngineHarness()
            h.add(TapGestureRecognizer(name: "tap"))
            h.tap(at: 0, duration: holdMs)
            h.finish()
            return h.log
        }
        XCTAssertEqual(run(holdMs: 1400), ["tap:recognized@1400"])
        XCTAssertEqual(run(holdMs: 1600), [])
    }

    // MARK: swipe directions (S2)

    // S2, S12: panel y grows downwards, so a finger moving to smaller y is an `up` swipe.
    func testVerticalSwipesReportUpAndDown() {
        func run(from: Point, to: Point, direction: SwipeDirection) -> [SwipeDirection] {
            let h = EngineHarness()
            h.add(SwipeGestureRecognizer(name: "swipe", direction: direction))
            drag(h, from: from, to: to, ms: 100)
            h.finish()
            return h.sink.events.map(\.direction)
        }
        let top = Point(x: 300, y: 100)
        let bottom = Point(x: 300, y: 300)
        XCTAssertEqual(run(from: bottom, to: top, direction: [.up, .down]), [.up])
        XCTAssertEqual(run(from: top, to: bottom, direction: [.up, .down]), [.down])
        XCTAssertEqual(run(from: bottom, to: top, direction: .up), [.up])
        XCTAssertEqual(run(from: top, to: bottom, direction: .down), [.down])
        // Only the permitted direction recognizes.
        XCTAssertEqual(run(from: top, to: bottom, direction: .up), [])
        XCTAssertEqual(run(from: bottom, to: top, direction: .down), [])
    }

    // S2: horizontal directions, each against its own permission.
    func testHorizontalSwipesReportLeftAndRight() {
        func run(from: Point, to: Point, direction: SwipeDirection) -> [SwipeDirection] {
            let h = EngineHarness()
            h.add(SwipeGestureRecognizer(name: "swipe", direction: direction))
            drag(h, from: from, to: to, ms: 100)
            h.finish()
            return h.sink.events.map(\.direction)
        }
        let left = Point(x: 100, y: 200)
        let right = Point(x: 300, y: 200)
        XCTAssertEqual(run(from: left, to: right, direction: .right), [.right])
        XCTAssertEqual(run(from: right, to: left, direction: .left), [.left])
        XCTAssertEqual(run(from: left, to: right, direction: .left), [])
    }

    // S2: a swipe needs its minimum distance and speed, and stays close to its axis.
    func testSwipeDistanceSpeedAndDeviationLimits() {
        func run(to: Point, ms: Int64) -> Int {
            let h = EngineHarness()
            h.add(SwipeGestureRecognizer(name: "swipe", direction: .right, minimumDistance: 50, minimumVelocity: 300))
            drag(h, from: Point(x: 100, y: 200), to: to, ms: ms)
            h.finish()
            return h.sink.events.count
        }
        XCTAssertEqual(run(to: Point(x: 160, y: 200), ms: 100), 1)
        XCTAssertEqual(run(to: Point(x: 140, y: 200), ms: 100), 0, "40 px is short of 50")
        XCTAssertEqual(run(to: Point(x: 160, y: 200), ms: 400), 0, "60 px in 400 ms is slower than 300 px/s")
        XCTAssertEqual(run(to: Point(x: 180, y: 265), ms: 100), 0, "65 px off an 80 px axis")
    }

    // MARK: long press (S3)

    // S3: a long press begins after min_duration only if the finger stayed within
    // allowable_movement; moving farther first fails it.
    func testLongPressAllowableMovement() {
        func run(dx: Double) -> [String] {
            let h = EngineHarness()
            h.add(
                LongPressGestureRecognizer(name: "press", minimumPressDurationMilliseconds: 500, allowableMovement: 10))
            h.frame(0, (0, 100, 100))
            h.frame(100, (0, 100 + dx, 100))
            h.frame(800)
            h.finish()
            return h.log
        }
        XCTAssertEqual(run(dx: 8), ["press:began@500", "press:ended@800"])
        XCTAssertEqual(run(dx: 25), [])
    }

    // S3: lifting before min_duration fails the press; holding to it begins exactly then.
    func testLongPressMinimumDuration() {
        func run(liftMs: Int64) -> [String] {
            let h = EngineHarness()
            h.add(LongPressGestureRecognizer(name: "press", minimumPressDurationMilliseconds: 500))
            h.frame(0, (0, 100, 100))
            h.frame(liftMs)
            h.finish()
            return h.log
        }
        XCTAssertEqual(run(liftMs: 499), [])
        XCTAssertEqual(run(liftMs: 600), ["press:began@500", "press:ended@600"])
    }

    // MARK: pan and pinch finger counts (S3)

    // S3: a pan that needs two fingers does not begin for one finger, however far it moves;
    // with two fingers moving together it begins.
    func testPanMinimumTouches() {
        func run(fingers: Int) -> [String] {
            let h = EngineHarness()
            h.add(PanGestureRecognizer(name: "pan", minimumTouches: 2))
            for i in 0...10 {
                let x = 100 + Double(i) * 10
                if fingers == 1 {
                    h.frame(Int64(i) * 10, (0, x, 100))
                } else {
                    h.frame(Int64(i) * 10, (0, x, 100), (1, x, 200))
                }
            }
            h.frame(110)
            h.finish()
            return h.log.map { String($0.split(separator: "@")[0]) }
        }
        XCTAssertEqual(run(fingers: 1), [])
        XCTAssertEqual(run(fingers: 2).first, "pan:began")
        XCTAssertEqual(run(fingers: 2).last, "pan:ended")
    }

    // S3: pinch is a two-finger gesture: a third finger before it began fails it for the rest of
    // the sequence, even when a finger lifts and the other two then spread.
    func testThirdFingerFailsAPinchThatHasNotBegun() {
        let h = EngineHarness()
        h.add(PinchGestureRecognizer(name: "pinch"))
        h.frame(0, (0, 300, 240), (1, 500, 240))
        h.frame(10, (0, 300, 240), (1, 500, 240), (2, 400, 400))
        h.frame(20, (0, 300, 240), (1, 500, 240))
        for i in 1...10 {
            let d = Double(i) * 10
            h.frame(20 + Int64(i) * 10, (0, 300 - d, 240), (1, 500 + d, 240))
        }
        h.frame(200)
        h.finish()
        XCTAssertEqual(h.log, [])
    }

    // MARK: checkmark (S2, the seeds' custom recognizer)

    /// One finger through `corners`, each leg in 10 steps of 10 ms, then a lift; the events' log.
    func stroke(_ corners: [Point]) -> [String] {
        let h = EngineHarness()
        h.add(CheckmarkGestureRecognizer(name: "check"))
        var t: Int64 = 0
        h.frame(t, (0, corners[0].x, corners[0].y))
        for (a, b) in zip(corners, corners.dropFirst()) {
            for i in 1...10 {
                t += 10
                let f = Double(i) / 10
                h.frame(t, (0, a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f))
            }
        }
        h.frame(t + 10)
        h.finish()
        return h.log
    }

    // S2: a check — short leg down, longer leg up to the right, ending above its start — is
    // recognized on lift, at the bottom of the stroke (S12: its midPoint).
    func testCheckmarkEndingHighIsRecognized() {
        let log = stroke([Point(x: 100, y: 100), Point(x: 120, y: 200), Point(x: 300, y: 40)])
        XCTAssertEqual(log, ["check:recognized@210"])
    }

    // S2: the same shape that ends below where it started is a "v"-like stroke, not a check.
    func testCheckmarkEndingBelowItsStartIsRejected() {
        XCTAssertEqual(stroke([Point(x: 100, y: 100), Point(x: 120, y: 200), Point(x: 260, y: 140)]), [])
    }

    // S2: a check a tenth of the size (a 10 px down leg, under the 12 px minimum) is a speck.
    func testTinyCheckmarkIsRejected() {
        XCTAssertEqual(stroke([Point(x: 100, y: 100), Point(x: 102, y: 110), Point(x: 120, y: 94)]), [])
        XCTAssertEqual(stroke([Point(x: 100, y: 100), Point(x: 104, y: 120), Point(x: 140, y: 88)]).count, 1)
    }

    // MARK: simultaneity and hit testing

    // S14, S17: two single taps on one region — by default the first prevents the second; when
    // either one's delegate allows simultaneous recognition, both recognize.
    func testDelegateSimultaneityFromEitherSide() {
        final class Together: GestureRecognizerDelegate {
            func gestureRecognizer(
                _ a: GestureRecognizer, shouldRecognizeSimultaneouslyWith b: GestureRecognizer
            ) -> Bool { true }
        }
        let together = Together()
        func run(delegateOn side: Int?) -> [String] {
            let h = EngineHarness()
            let a = TapGestureRecognizer(name: "a")
            let b = TapGestureRecognizer(name: "b")
            if side == 0 { a.delegate = together }
            if side == 1 { b.delegate = together }
            h.add(a)
            h.add(b)
            h.tap(at: 0)
            h.finish()
            return h.log
        }
        XCTAssertEqual(run(delegateOn: nil), ["a:recognized@50"])
        XCTAssertEqual(run(delegateOn: 0), ["a:recognized@50", "b:recognized@50"])
        XCTAssertEqual(run(delegateOn: 1), ["a:recognized@50", "b:recognized@50"])
    }

    // S8: where sibling regions overlap, the one added last is on top and takes the touch
    // (UIView hit testing visits subviews front to back).
    func testTheTopmostOverlappingSiblingTakesTheTouch() {
        let h = EngineHarness()
        let under = Region(name: "under", frame: Rect(x: 0, y: 0, width: 400, height: 480))
        let over = Region(name: "over", frame: Rect(x: 200, y: 0, width: 400, height: 480))
        h.root.addChild(under)
        h.root.addChild(over)
        h.tap(at: 0, x: 300, y: 100)  // in both
        h.tap(at: 100, x: 100, y: 100)  // only in "under"
        h.finish()
        XCTAssertEqual(
            h.sink.deliveries.map { "\(h.engine.regionName($0.region)):\($0.phase)" },
            ["over:began", "over:ended", "under:began", "under:ended"])
    }

    // S15 over S17: a recognizer that requires another to fail fails when that one recognizes,
    // even when the two may recognize simultaneously.
    func testFailureRequirementWinsOverSimultaneity() {
        let h = EngineHarness()
        let single = TapGestureRecognizer(name: "single")
        let double = TapGestureRecognizer(name: "double", taps: 2)
        single.require(toFail: double)
        single.simultaneousNames = ["double"]
        double.simultaneousNames = ["single"]
        h.add(single)
        h.add(double)
        h.tap(at: 0)
        h.tap(at: 200)
        h.tap(at: 2000)
        h.finish()
        XCTAssertEqual(h.log, ["double:recognized@250", "single:recognized@2350"])
    }

    // S15, S25: when the double tap recognizes, the single tap waiting for it fails at once, so
    // the region's withheld `ended`s are delivered then (the double tap does not cancel them).
    func testWaitingRecognizerFailsAndReleasesTheRegionWhenItsRequirementRecognizes() {
        let h = EngineHarness()
        let single = TapGestureRecognizer(name: "single")
        let double = TapGestureRecognizer(name: "double", taps: 2)
        double.cancelsTouchesInView = false
        single.require(toFail: double)
        single.simultaneousNames = ["double"]
        double.simultaneousNames = ["single"]
        h.add(single)
        h.add(double)
        h.tap(at: 0)
        h.tap(at: 200)
        h.finish()
        XCTAssertEqual(h.log, ["double:recognized@250"])
        XCTAssertEqual(
            h.sink.deliveries.map { "\($0.phase)@\($0.time.microseconds / 1000)" },
            ["began@0", "began@200", "ended@250", "ended@250"])
    }

    // S28: a control's action is "touch up inside": it fires when the finger lifts on it, and
    // not at all when the finger slides off before lifting.
    func testControlFiresOnTouchUpInsideOnly() {
        let h = EngineHarness()
        let button = Region(name: "button", frame: Rect(x: 0, y: 0, width: 100, height: 50), isControl: true)
        h.root.addChild(button)
        h.tap(at: 0, x: 20, y: 20, duration: 80)
        h.frame(1000, (0, 20, 20))
        h.frame(1020, (0, 200, 20))  // slides off the button
        h.frame(1040)
        h.finish()
        XCTAssertEqual(h.sink.events.map { "\($0.kind)@\($0.time.microseconds / 1000)" }, ["control@80"])
    }

    // S10: a recognizer disabled when a finger lands never receives that touch, even when it is
    // enabled again before the finger moves and lifts; the next touch reaches it.
    func testATouchThatBeganWhileDisabledNeverReachesTheRecognizer() {
        final class Recorder: GestureRecognizer {
            var calls: [String] = []
            override func touchesBegan(_ t: TouchSet) { calls.append("began") }
            override func touchesMoved(_ t: TouchSet) { calls.append("moved") }
            override func touchesEnded(_ t: TouchSet) { calls.append("ended") }
        }
        let h = EngineHarness()
        let r = Recorder(name: "r", kind: .custom)
        h.add(r)
        r.isEnabled = false
        h.frame(0, (0, 100, 100))
        r.isEnabled = true
        h.frame(10, (0, 120, 100))
        h.frame(20)
        XCTAssertEqual(r.calls, [])
        h.tap(at: 100)
        XCTAssertEqual(r.calls, ["began", "ended"])
    }

    // S6: a recognizer still undecided when the last finger lifts (nothing left to wait for)
    // fails, is reset, and starts the next sequence fresh — one reset per sequence.
    func testAnUndecidedRecognizerIsResetAtTheEndOfEachSequence() {
        final class Undecided: GestureRecognizer {
            var resets = 0
            var began = 0
            override func touchesBegan(_ t: TouchSet) { began += 1 }
            override func reset() { resets += 1 }
        }
        let h = EngineHarness()
        let r = Undecided(name: "u", kind: .custom)
        h.add(r)
        h.tap(at: 0)
        XCTAssertEqual([r.began, r.resets], [1, 1])
        h.tap(at: 1000)
        XCTAssertEqual([r.began, r.resets], [2, 2])
        XCTAssertEqual(r.state, .possible)
        XCTAssertEqual(h.log, [], "a failure sends no action (S4)")
    }
}
