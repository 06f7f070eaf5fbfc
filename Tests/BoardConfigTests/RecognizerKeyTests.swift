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

    /// One recognizer body and the parameters it must give: every kind's defaults (UIKit's, spelled
    /// out here so a changed default fails) and every kind key read.
    private struct KindCase {
        var name: String
        var body: String
        var expected: RecognizerParameters
    }

    private static func tap(_ set: (inout TapParameters) -> Void) -> RecognizerParameters {
        var p = TapParameters()
        set(&p)
        return .tap(p)
    }
    private static func longPress(_ set: (inout LongPressParameters) -> Void) -> RecognizerParameters {
        var p = LongPressParameters()
        set(&p)
        return .longPress(p)
    }
    private static func pan(_ set: (inout PanParameters) -> Void) -> RecognizerParameters {
        var p = PanParameters()
        set(&p)
        return .pan(p)
    }
    private static func swipe(_ set: (inout SwipeParameters) -> Void) -> RecognizerParameters {
        var p = SwipeParameters()
        set(&p)
        return .swipe(p)
    }

    private static let kindCases: [KindCase] = [
        KindCase(
            name: "tap defaults", body: "kind = \"tap\"",
            expected: tap {
                $0.taps = 1
                $0.touches = 1
                $0.maxMovement = 10
                $0.maxIntervalMilliseconds = 300
                $0.maxTapDistance = 45
            }),
        KindCase(
            name: "tap keys",
            body: """
                kind = "tap"
                taps = 3
                touches = 2
                max_movement = 12.5
                max_interval_ms = 250
                max_tap_distance = 30
                """,
            expected: tap {
                $0.taps = 3
                $0.touches = 2
                $0.maxMovement = 12.5
                $0.maxIntervalMilliseconds = 250
                $0.maxTapDistance = 30
            }),
        KindCase(
            name: "long_press defaults", body: "kind = \"long_press\"",
            expected: longPress {
                $0.minDurationMilliseconds = 500
                $0.allowableMovement = 10
                $0.touches = 1
                $0.taps = 0
            }),
        KindCase(
            name: "long_press keys",
            body: """
                kind = "long_press"
                min_duration_ms = 800
                allowable_movement = 20
                touches = 2
                taps = 1
                """,
            expected: longPress {
                $0.minDurationMilliseconds = 800
                $0.allowableMovement = 20
                $0.touches = 2
                $0.taps = 1
            }),
        KindCase(
            name: "pan defaults", body: "kind = \"pan\"",
            expected: pan {
                $0.minTouches = 1
                $0.maxTouches = Int.max
                $0.minDistance = 10
            }),
        KindCase(
            name: "pan keys",
            body: """
                kind = "pan"
                min_touches = 2
                max_touches = 3
                min_distance = 4
                """,
            expected: pan {
                $0.minTouches = 2
                $0.maxTouches = 3
                $0.minDistance = 4
            }),
        KindCase(
            name: "swipe defaults", body: "kind = \"swipe\"",
            expected: swipe {
                $0.direction = .right
                $0.touches = 1
                $0.minDistance = 50
                $0.minVelocity = 300
                $0.maxDurationMilliseconds = 500
            }),
        KindCase(
            name: "swipe keys",
            body: """
                kind = "swipe"
                direction = ["left", "up"]
                touches = 2
                min_distance = 80
                min_velocity = 150.5
                max_duration_ms = 700
                """,
            expected: swipe {
                $0.direction = [.left, .up]
                $0.touches = 2
                $0.minDistance = 80
                $0.minVelocity = 150.5
                $0.maxDurationMilliseconds = 700
            }),
        KindCase(name: "pinch has no keys", body: "kind = \"pinch\"", expected: .pinch),
        KindCase(name: "rotation has no keys", body: "kind = \"rotation\"", expected: .rotation),
        KindCase(name: "checkmark has no keys", body: "kind = \"checkmark\"", expected: .checkmark),
    ]

    func testKindDefaultsAndKeys() {
        for c in Self.kindCases {
            XCTAssertEqual(TestBoards.recognizer(c.body)?.parameters, c.expected, c.name)
        }
    }

    /// One bad recognizer section and the issue it must raise: where, and what the message says.
    private struct RejectCase {
        var name: String
        var recognizers: String
        var hardware: String = TestBoards.hardware
        var keyPaths: [String]
        var message: String? = nil
    }

    private static func section(_ name: String, _ kind: String, _ keys: String = "") -> String {
        "[[recognizer]]\nname = \"\(name)\"\nkind = \"\(kind)\"\nregion = \"screen\"\n\(keys)"
    }

    private static let rejectCases: [RejectCase] = [
        RejectCase(
            name: "a key of another kind",
            recognizers: TestBoards.tap.replacingOccurrences(
                of: "kind = \"tap\"", with: "kind = \"tap\"\nmin_distance = 3"),
            keyPaths: ["recognizer[0] \"tap\".min_distance"], message: "unknown key for a tap recognizer"),
        RejectCase(
            name: "a key on a keyless kind", recognizers: section("p", "pinch", "touches = 2\n"),
            keyPaths: ["recognizer[0] \"p\".touches"]),
        RejectCase(
            name: "an unknown kind", recognizers: section("p", "tapp"),
            keyPaths: ["recognizer[0] \"p\".kind"], message: "did you mean \"tap\""),
        RejectCase(
            name: "an empty swipe direction", recognizers: section("s", "swipe", "direction = []\n"),
            keyPaths: ["recognizer[0] \"s\".direction"]),
        RejectCase(
            name: "an unknown swipe direction", recognizers: section("s", "swipe", "direction = [\"sideways\"]\n"),
            keyPaths: ["recognizer[0] \"s\".direction"]),
        RejectCase(
            name: "a swipe direction that is a number", recognizers: section("s", "swipe", "direction = 3\n"),
            keyPaths: ["recognizer[0] \"s\".direction"]),
        RejectCase(
            name: "pan max_touches below min_touches",
            recognizers: section("p", "pan", "min_touches = 3\nmax_touches = 2\n"),
            keyPaths: ["recognizer[0] \"p\".max_touches"]),
        RejectCase(
            name: "more touches than the chip reports", recognizers: section("zoom", "pinch"),
            hardware: TestBoards.hardware.replacingOccurrences(of: "ft5x06", with: "cst816s"),
            keyPaths: ["recognizer[0] \"zoom\""], message: "at most 1 contact"),
    ]

    func testRejectedRecognizerKeys() {
        for c in Self.rejectCases {
            let issues = TestBoards.issues(TestBoards.text(hardware: c.hardware, recognizers: c.recognizers))
            XCTAssertEqual(issues.map(\.keyPath), c.keyPaths, c.name)
            if let message = c.message {
                XCTAssertTrue(issues.first?.message.contains(message) ?? false, "\(c.name): \(issues)")
            }
        }
        // The recognizer refused on a 1-contact chip is fine on the 5-contact one.
        XCTAssertNoThrow(try TestBoards.load(TestBoards.text(recognizers: Self.section("zoom", "pinch"))))
    }
}
