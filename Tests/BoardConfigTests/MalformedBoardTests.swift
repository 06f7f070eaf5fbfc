import BoardConfig
import XCTest

/// A bad board file is rejected with one line per issue naming the file and the key path.
final class MalformedBoardTests: XCTestCase {
    func testSyntaxErrorNamesTheLine() {
        let text = "[panel]\nwidth = 800\nheight = 480\n\n[controller\nchip = \"ft5x06\"\n"
        let issues = TestBoards.issues(text, file: "boards/bad.toml")
        XCTAssertEqual(issues.count, 1)
        XCTAssertEqual(issues.first?.line, 5)
        XCTAssertTrue(issues.first?.description.hasPrefix("boards/bad.toml:5") ?? false, "\(issues)")
    }

    func testTypoInKeyIsCaughtWithSuggestion() {
        let recognizers = """
            [[recognizer]]
            name = "single"
            kind = "tap"
            region = "screen"

            [[recognizer]]
            name = "double-tap"
            kind = "tap"
            region = "screen"
            taps = 2
            max_intervall_ms = 250
            """
        let issues = TestBoards.issues(TestBoards.text(recognizers: recognizers))
        XCTAssertEqual(issues.map(\.keyPath), ["recognizer[1] \"double-tap\".max_intervall_ms"])
        XCTAssertTrue(issues[0].message.contains("did you mean \"max_interval_ms\""), issues[0].message)
    }

    func testOutOfRangeLine() {
        let recognizers =
            TestBoards.tap + """
                [[recognizer]]
                name = "double-tap"
                kind = "tap"
                region = "screen"
                taps = 0
                """
        let issues = TestBoards.issues(TestBoards.text(recognizers: recognizers))
        XCTAssertEqual(
            BoardFileError(issues: issues).description,
            "boards/x.toml:18: recognizer[1] \"double-tap\".taps: must be ≥ 1, got 0")
    }

    func testOtherRangesAndTypes() {
        let recognizers = """
            [[recognizer]]
            name = "t"
            kind = "tap"
            region = "screen"
            max_movement = -1
            max_interval_ms = 0
            touches = 11

            """
        let panel = "[panel]\nwidth = \"800\"\nheight = 0\n"
        let issues = TestBoards.issues(TestBoards.text(panel: panel, recognizers: recognizers))
        XCTAssertEqual(
            Set(issues.map(\.keyPath)),
            [
                "panel.width", "panel.height", "recognizer[0] \"t\".max_movement",
                "recognizer[0] \"t\".max_interval_ms",
                "recognizer[0] \"t\".touches",
            ])
        XCTAssertEqual(
            issues.first { $0.keyPath == "panel.width" }?.message, "expected an integer, got a string \"800\"")
    }

    func testAllIssuesAreCollectedOneLineEach() {
        let recognizers = """
            [[recognizer]]
            name = "a"
            kind = "tap"
            region = "nowhere"
            taps = 0
            bogus = 1
            """
        let issues = TestBoards.issues(TestBoards.text(recognizers: recognizers), file: "boards/many.toml")
        XCTAssertEqual(issues.count, 3)
        let lines = BoardFileError(issues: issues).description.split(separator: "\n")
        XCTAssertEqual(lines.count, 3)
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("boards/many.toml:1") }, "\(lines)")
        XCTAssertTrue(lines.allSatisfy { $0.contains(": recognizer[0] \"a\".") }, "\(lines)")
    }

    func testUnknownRecognizerInRequireFail() {
        let recognizers = TestBoards.tap.replacingOccurrences(
            of: "region = \"screen\"", with: "region = \"screen\"\nrequire_fail = [\"double-tapp\"]")
        let issues = TestBoards.issues(TestBoards.text(recognizers: recognizers))
        XCTAssertEqual(issues.map(\.keyPath), ["recognizer[0] \"tap\".require_fail[0]"])
        XCTAssertTrue(issues[0].message.contains("no recognizer named \"double-tapp\""))
    }

    func testRequireFailOnItselfAndUnknownSimultaneous() {
        let recognizers = TestBoards.tap.replacingOccurrences(
            of: "region = \"screen\"", with: "region = \"screen\"\nrequire_fail = [\"tap\"]\nsimultaneous = [\"x\"]")
        let issues = TestBoards.issues(TestBoards.text(recognizers: recognizers))
        XCTAssertEqual(
            issues.map(\.keyPath), ["recognizer[0] \"tap\".require_fail[0]", "recognizer[0] \"tap\".simultaneous[0]"])
    }

    func testRequireFailCycleIsNamed() {
        func recognizer(_ name: String, requires other: String) -> String {
            "[[recognizer]]\nname = \"\(name)\"\nkind = \"tap\"\nregion = \"screen\"\nrequire_fail = [\"\(other)\"]\n\n"
        }
        let two = TestBoards.issues(
            TestBoards.text(recognizers: recognizer("a", requires: "b") + recognizer("b", requires: "a")))
        XCTAssertEqual(
            two.map(\.description),
            [
                "boards/x.toml:14: recognizer[0] "
                    + "\"a\".require_fail: require_fail cycle: a → b → a"
            ])

        let three = TestBoards.issues(
            TestBoards.text(
                recognizers: recognizer("x", requires: "y") + recognizer("y", requires: "z")
                    + recognizer("z", requires: "x")))
        XCTAssertEqual(three.map(\.message), ["require_fail cycle: x → y → z → x"])

        // A chain is not a cycle.
        XCTAssertNoThrow(
            try TestBoards.load(
                TestBoards.text(
                    recognizers: recognizer("x", requires: "y") + recognizer("y", requires: "z")
                        + TestBoards.tap.replacingOccurrences(of: "\"tap\"\nkind", with: "\"z\"\nkind"))))
    }

    func testMissingRegionReferences() {
        let regions = TestBoards.regions + "[[region]]\nname = \"b\"\nparent = \"scren\"\nframe = [0, 0, 10, 10]\n"
        let recognizers = TestBoards.tap.replacingOccurrences(of: "region = \"screen\"", with: "region = \"knob\"")
        let issues = TestBoards.issues(TestBoards.text(regions: regions, recognizers: recognizers))
        XCTAssertEqual(issues.map(\.keyPath), ["region[1] \"b\".parent", "recognizer[0] \"tap\".region"])
        XCTAssertTrue(issues[0].message.contains("did you mean \"screen\""), issues[0].message)
        XCTAssertEqual(issues[1].message, "no region named \"knob\"")
    }

    func testDuplicateNames() {
        let regions =
            TestBoards.regions + "[[region]]\nname = \"screen\"\nparent = \"screen\"\nframe = [0, 0, 10, 10]\n"
        let issues = TestBoards.issues(TestBoards.text(regions: regions, recognizers: TestBoards.tap + TestBoards.tap))
        XCTAssertTrue(
            issues.contains {
                $0.keyPath == "region[1] \"screen\".name" && $0.message.hasPrefix("duplicate region name")
            }, "\(issues)")
        XCTAssertTrue(
            issues.contains {
                $0.keyPath == "recognizer[1] \"tap\".name" && $0.message.hasPrefix("duplicate recognizer name")
            }, "\(issues)")
    }

    func testTwoRootsAreRejected() {
        let regions = TestBoards.regions + "[[region]]\nname = \"other\"\nframe = [0, 0, 10, 10]\n"
        let issues = TestBoards.issues(TestBoards.text(regions: regions))
        XCTAssertEqual(issues.map(\.keyPath), ["region[1] \"other\""])
        XCTAssertTrue(issues[0].message.contains("only the root region may omit it"), issues[0].message)
    }

    func testRegionParentCycleAndNoRoot() {
        let regions = """
            [[region]]
            name = "a"
            parent = "b"
            frame = [0, 0, 10, 10]

            [[region]]
            name = "b"
            parent = "a"
            frame = [0, 0, 10, 10]

            """
        let recognizers = TestBoards.tap.replacingOccurrences(of: "region = \"screen\"", with: "region = \"a\"")
        let issues = TestBoards.issues(TestBoards.text(regions: regions, recognizers: recognizers))
        XCTAssertTrue(issues.contains { $0.message == "parent cycle: a → b → a" }, "\(issues)")
        XCTAssertTrue(issues.contains { $0.message.hasPrefix("no root region") }, "\(issues)")
    }

    func testNonPositiveFrame() {
        let regions = "[[region]]\nname = \"screen\"\nframe = [0, 0, 0, -5]\n"
        let issues = TestBoards.issues(TestBoards.text(regions: regions))
        XCTAssertEqual(issues.map(\.message), ["width must be > 0, got 0", "height must be > 0, got -5"])
        XCTAssertEqual(Set(issues.map(\.keyPath)), ["region[0] \"screen\".frame"])
        // A rejected region does not also make its recognizers' references fail.
        XCTAssertFalse(issues.contains { $0.keyPath.hasPrefix("recognizer") })
    }

    func testMissingSectionsAndNoRecognizer() {
        let issues = TestBoards.issues(TestBoards.hardware + TestBoards.regions)
        XCTAssertEqual(issues.map(\.keyPath), ["panel", "recognizer"])
    }

    func testMissingRequiredKeys() {
        let issues = TestBoards.issues(
            TestBoards.text(regions: "[[region]]\nname = \"screen\"\n", recognizers: "[[recognizer]]\nkind = \"tap\"\n")
        )
        XCTAssertEqual(
            issues.map(\.description),
            [
                "boards/x.toml:7: region[0] \"screen\".frame: missing required key",
                "boards/x.toml:9: recognizer[0].name: missing required key",
                "boards/x.toml:9: recognizer[0].region: missing required key",
            ])
    }

    func testUnknownTopLevelKeyAndTableInsteadOfArray() {
        let text =
            TestBoards.panel + TestBoards.hardware + "[region]\nname = \"screen\"\n" + TestBoards.tap
            + "\n[outputs]\ntype = \"stdout\"\n"
        let issues = TestBoards.issues(text)
        XCTAssertTrue(issues.contains { $0.keyPath == "region" && $0.message.contains("[[region]]") }, "\(issues)")
        XCTAssertTrue(
            issues.contains { $0.keyPath == "outputs" && $0.message.contains("did you mean \"output\"") }, "\(issues)")
    }

    func testMissingFileIsABoardFileError() {
        do throws(BoardFileError) {
            _ = try BoardLoader.load(path: "/nonexistent/board.toml")
            XCTFail("loaded a missing file")
        } catch {
            XCTAssertEqual(error.issues.count, 1)
            XCTAssertTrue(error.description.hasPrefix("/nonexistent/board.toml: cannot read"), error.description)
        }
    }

    /// Garbage is refused with issues that say what is wrong and where — never a crash, and
    /// never an empty list (which would mean a board was accepted).
    func testGarbageIsRefusedWithIssuesNamingWhatAndWhere() {
        func first(_ text: String) -> [String] {
            TestBoards.issues(text).map { "\($0.keyPath)@\($0.line.map(String.init) ?? "-"): \($0.message)" }
        }
        XCTAssertEqual(
            first(""),
            [
                "panel@-: missing [panel] section (width and height in pixels)",
                "region@-: at least one [[region]] is required (the root)",
                "recognizer@-: at least one [[recognizer]] is required",
            ])
        XCTAssertEqual(first("\u{0}"), ["@-: the file contains a NUL byte"])
        XCTAssertEqual(
            first("panel = 3\nregion = 4\nrecognizer = [1, \"x\"]"),
            [
                "panel@1: expected a table, got an integer 3",
                "region@2: expected an array of tables ([[region]]), got an integer 4",
                "recognizer[0]@-: expected a table, got an integer 1",
                "recognizer[1]@-: expected a table, got a string \"x\"",
                "recognizer@3: at least one [[recognizer]] is required",
            ])
        XCTAssertEqual(
            first("a.b.c = 1979-05-27").last,
            "a@1: unknown key for a board file; known keys: panel, controller, simulation, region, recognizer, "
                + "output, binding, exec, passthrough, realtime, metrics, display")
        let huge = first("[panel]\nwidth = 1e400")
        XCTAssertEqual(huge.count, 1)
        XCTAssertTrue(huge.first?.hasPrefix("@2: TOML syntax error") ?? false, "\(huge)")
        XCTAssertTrue(huge.first?.contains("1e400") ?? false, "\(huge)")
    }

    /// toml++ 3.4.0 aborts on these in debug builds; they must come back as syntax errors with a line.
    func testInputsThatAbortTomlPlusPlusAreSyntaxErrors() {
        let cases: [(String, Int)] = [
            ("[[[", 1), ("[panel]\nwidth = 1\n[=]\n", 3), ("[.a]", 1), ("[\n", 1), ("[[ #", 1), ("a = [}", 1),
            ("a = [1,\n  }", 2), ("a = { b = [ # c\n} }", 2),
        ]
        for (text, line) in cases {
            let issues = TestBoards.issues(text)
            XCTAssertEqual(issues.count, 1, text)
            XCTAssertEqual(issues.first?.line, line, text)
            XCTAssertTrue(issues.first?.message.hasPrefix("TOML syntax error") ?? false, text)
        }
    }

    func testNestedArraysAndStringsAreNotMistakenForHeaders() {
        let extra = "notes = \"\"\"\n[=]\n\"\"\"\ngrid = [\n  [\n    1,\n  ],\n  [{ a = 1 }],\n]\n"
        let issues = TestBoards.issues(extra + TestBoards.text())
        XCTAssertEqual(issues.map(\.keyPath), ["grid", "notes"], "\(issues)")
        // Each names the line of its key (formats.md §4), not a `[` inside the array or string.
        XCTAssertEqual(issues.map(\.line), [4, 1], "\(issues)")
    }
}
