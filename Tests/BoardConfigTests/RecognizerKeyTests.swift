import BoardConfig
import Gestures
import XCTest

/// Kind parameters and common keys: defaults of `formats.md` §4, every key read, keys of other kinds rejected.
final class RecognizerKeyTests: XCTestCase {
    func testCommonDefaultsAreUIKits() throws {
        let r = try XCTUnwrap(TestBoards.recognizer("kind = \"pinch\""))
        XCTAssertTrue(r.enabled)
        XCTAssertTrue(r.cancelsTouches)
        XCTAssertFalse(r.delaysBegan)
        XCTAssertTrue(r.delaysEnded)
        XCTAssertEqual(r.requireFail, [])
        XCTAssertEqual(r.simultaneous, [])
        XCTAssertEqual(r.parameters, .pinch)
    }

    func testCommonKeysAreRead() throws {
        let text = TestBoards.text(
            recognizers: TestBoards.tap + """
                [[recognizer]]
                name = "r"
                kind = "rotation"
                region = "screen"
                enabled = false
                cancels_touches = false
                delays_began = true
                delays_ended = false
                require_fail = ["tap"]
                simultaneous = ["tap"]
                """)
        let r = try XCTUnwrap(try TestBoards.load(text).recognizer(named: "r"))
        XCTAssertFalse(r.enabled)
        XCTAssertFalse(r.cancelsTouches)
        XCTAssertTrue(r.delaysBegan)
        XCTAssertFalse(r.delaysEnded)
        XCTAssertEqual(r.requireFail, ["tap"])
        XCTAssertEqual(r.simultaneous, ["tap"])
        XCTAssertEqual(r.kind, .rotation)
    }

    func testTapDefaults() throws {
        let r = try XCTUnwrap(TestBoards.recognizer("kind = \"tap\""))
        guard case .tap(let p) = r.parameters else { return XCTFail("not a tap") }
        XCTAssertEqual(p.taps, 1)
        XCTAssertEqual(p.touches, 1)
        XCTAssertEqual(p.maxMovement, 10)
        XCTAssertEqual(p.maxIntervalMilliseconds, 300)
        XCTAssertEqual(p.maxTapDistance, 45)
    }

    func testTapKeys() throws {
        let r = try XCTUnwrap(
            TestBoards.recognizer(
                """
                kind = "tap"
                taps = 3
                touches = 2
                max_movement = 12.5
                max_interval_ms = 250
                max_tap_distance = 30
                """))
        guard case .tap(let p) = r.parameters else { return XCTFail("not a tap") }
        XCTAssertEqual(p.taps, 3)
        XCTAssertEqual(p.touches, 2)
        XCTAssertEqual(p.maxMovement, 12.5)
        XCTAssertEqual(p.maxIntervalMilliseconds, 250)
        XCTAssertEqual(p.maxTapDistance, 30)
    }

    func testLongPressDefaultsAndKeys() throws {
        let d = try XCTUnwrap(TestBoards.recognizer("kind = \"long_press\""))
        XCTAssertEqual(d.parameters, .longPress(LongPressParameters()))
        guard case .longPress(let defaults) = d.parameters else { return XCTFail("not a long press") }
        XCTAssertEqual(defaults.minDurationMilliseconds, 500)
        XCTAssertEqual(defaults.allowableMovement, 10)
        XCTAssertEqual(defaults.touches, 1)
        XCTAssertEqual(defaults.taps, 0)

        let r = try XCTUnwrap(
            TestBoards.recognizer(
                """
                kind = "long_press"
                min_duration_ms = 800
                allowable_movement = 20
                touches = 2
                taps = 1
                """))
        guard case .longPress(let p) = r.parameters else { return XCTFail("not a long press") }
        XCTAssertEqual(p.minDurationMilliseconds, 800)
        XCTAssertEqual(p.allowableMovement, 20)
        XCTAssertEqual(p.touches, 2)
        XCTAssertEqual(p.taps, 1)
    }

    func testPanDefaultsAndKeys() throws {
        let d = try XCTUnwrap(TestBoards.recognizer("kind = \"pan\""))
        guard case .pan(let defaults) = d.parameters else { return XCTFail("not a pan") }
        XCTAssertEqual(defaults.minTouches, 1)
        XCTAssertEqual(defaults.maxTouches, Int.max)
        XCTAssertEqual(defaults.minDistance, 10)

        let r = try XCTUnwrap(
            TestBoards.recognizer(
                """
                kind = "pan"
                min_touches = 2
                max_touches = 3
                min_distance = 4
                """))
        guard case .pan(let p) = r.parameters else { return XCTFail("not a pan") }
        XCTAssertEqual(p.minTouches, 2)
        XCTAssertEqual(p.maxTouches, 3)
        XCTAssertEqual(p.minDistance, 4)
    }

    func testSwipeDefaultsAndKeys() throws {
        let d = try XCTUnwrap(TestBoards.recognizer("kind = \"swipe\""))
        guard case .swipe(let defaults) = d.parameters else { return XCTFail("not a swipe") }
        XCTAssertEqual(defaults.direction, .right)
        XCTAssertEqual(defaults.touches, 1)
        XCTAssertEqual(defaults.minDistance, 50)
        XCTAssertEqual(defaults.minVelocity, 300)
        XCTAssertEqual(defaults.maxDurationMilliseconds, 500)

        let r = try XCTUnwrap(
            TestBoards.recognizer(
                """
                kind = "swipe"
                direction = ["left", "up"]
                touches = 2
                min_distance = 80
                min_velocity = 150.5
                max_duration_ms = 700
                """))
        guard case .swipe(let p) = r.parameters else { return XCTFail("not a swipe") }
        XCTAssertEqual(p.direction, [.left, .up])
        XCTAssertEqual(p.touches, 2)
        XCTAssertEqual(p.minDistance, 80)
        XCTAssertEqual(p.minVelocity, 150.5)
        XCTAssertEqual(p.maxDurationMilliseconds, 700)
    }

    func testKeylessKinds() throws {
        XCTAssertEqual(TestBoards.recognizer("kind = \"pinch\"")?.parameters, .pinch)
        XCTAssertEqual(TestBoards.recognizer("kind = \"rotation\"")?.parameters, .rotation)
        XCTAssertEqual(TestBoards.recognizer("kind = \"checkmark\"")?.parameters, .checkmark)
    }

    func testKeyOfAnotherKindIsUnknown() {
        let issues = TestBoards.issues(
            TestBoards.text(
                recognizers: TestBoards.tap.replacingOccurrences(
                    of: "kind = \"tap\"", with: "kind = \"tap\"\nmin_distance = 3")))
        XCTAssertEqual(issues.map(\.keyPath), ["recognizer[0] \"tap\".min_distance"])
        XCTAssertTrue(issues[0].message.hasPrefix("unknown key for a tap recognizer"), issues[0].message)
    }

    func testKeylessKindRejectsKeys() {
        let issues = TestBoards.issues(
            TestBoards.text(
                recognizers: "[[recognizer]]\nname = \"p\"\nkind = \"pinch\"\nregion = \"screen\"\ntouches = 2\n"))
        XCTAssertEqual(issues.map(\.keyPath), ["recognizer[0] \"p\".touches"])
    }

    func testUnknownKind() {
        let issues = TestBoards.issues(
            TestBoards.text(recognizers: "[[recognizer]]\nname = \"p\"\nkind = \"tapp\"\nregion = \"screen\"\n"))
        XCTAssertEqual(issues.map(\.keyPath), ["recognizer[0] \"p\".kind"])
        XCTAssertTrue(issues[0].message.contains("did you mean \"tap\""), issues[0].message)
    }

    func testBadSwipeDirection() {
        for value in ["[]", "[\"sideways\"]", "3"] {
            let issues = TestBoards.issues(
                TestBoards.text(
                    recognizers:
                        "[[recognizer]]\nname = \"s\"\nkind = \"swipe\"\nregion = \"screen\"\ndirection = \(value)\n"))
            XCTAssertEqual(issues.map(\.keyPath), ["recognizer[0] \"s\".direction"], value)
        }
    }

    func testPanMaxBelowMin() {
        let issues = TestBoards.issues(
            TestBoards.text(
                recognizers:
                    "[[recognizer]]\nname = \"p\"\nkind = \"pan\"\nregion = \"screen\"\nmin_touches = 3\nmax_touches = 2\n"
            ))
        XCTAssertEqual(issues.map(\.keyPath), ["recognizer[0] \"p\".max_touches"])
    }

    func testTouchesBeyondTheChipAreRejected() {
        let hardware = TestBoards.hardware.replacingOccurrences(of: "ft5x06", with: "cst816s")
        let issues = TestBoards.issues(
            TestBoards.text(
                hardware: hardware,
                recognizers: "[[recognizer]]\nname = \"zoom\"\nkind = \"pinch\"\nregion = \"screen\"\n"))
        XCTAssertEqual(issues.count, 1)
        XCTAssertEqual(issues.first?.keyPath, "recognizer[0] \"zoom\"")
        XCTAssertTrue(issues.first?.message.contains("at most 1 contact") ?? false)
        // The same recognizer on a 5-contact chip is fine.
        XCTAssertNoThrow(
            try TestBoards.load(
                TestBoards.text(recognizers: "[[recognizer]]\nname = \"zoom\"\nkind = \"pinch\"\nregion = \"screen\"\n")
            ))
    }
}
