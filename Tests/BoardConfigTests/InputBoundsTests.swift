import BoardConfig
import Gestures
import XCTest

/// Issue 17 #2, #3, #7: no board file — however large, deep or hostile — crashes `validate`,
/// `replay` or `run`, takes long to check, or floods the terminal; `validate` rejects what
/// `run` would.
final class InputBoundsTests: XCTestCase {
    func lineCount(_ text: String) -> Int { text.filter { $0 == "\n" }.count }

    func recognizers(_ count: Int) -> String {
        (0..<count).map { "[[recognizer]]\nname = \"t\($0)\"\nkind = \"tap\"\nregion = \"screen\"\n" }.joined()
    }

    /// More recognizers than the engine holds is one issue naming the limit (it used to trap).
    func testTooManyRecognizersIsAnIssueNamingTheLimit() throws {
        let limit = GestureEngine.maximumRecognizers
        XCTAssertEqual(try TestBoards.load(TestBoards.text(recognizers: recognizers(limit))).recognizers.count, limit)
        let issues = TestBoards.issues(TestBoards.text(recognizers: recognizers(limit + 1)))
        XCTAssertEqual(issues.count, 1, "\(issues)")
        XCTAssertEqual(issues.first?.keyPath, "recognizer")
        XCTAssertTrue(issues.first?.message.contains("more than the limit of \(limit)") ?? false, "\(issues)")
    }

    /// A dotted key of 50,000 parts (a 100 KB line) used to overflow the stack.
    func testDeepDottedKeyIsASyntaxIssueNotACrash() {
        let key = Array(repeating: "a", count: 50_000).joined(separator: ".")
        let issues = TestBoards.issues(TestBoards.text(extra: "[extra]\n\(key) = 1\n"))
        XCTAssertEqual(issues.count, 1)
        XCTAssertEqual(issues.first?.line, lineCount(TestBoards.text()) + 2)
        XCTAssertTrue(issues.first?.message.contains("more than 32 dotted parts") ?? false, "\(issues)")
        XCTAssertLessThan(issues.first?.description.count ?? .max, 300)
    }

    func testDeepTableHeaderAndQuotedKeyParts() {
        let header = "[" + Array(repeating: "\"q\"", count: 40_000).joined(separator: ".") + "]\n"
        let issues = TestBoards.issues(TestBoards.text(extra: header))
        XCTAssertEqual(issues.map(\.line), [lineCount(TestBoards.text()) + 1])
        XCTAssertTrue(issues.first?.message.contains("table header") ?? false, "\(issues)")
        // 32 parts is within the bound: this one fails later, as an unknown key, not on depth.
        let ok = "[" + Array(repeating: "q", count: 32).joined(separator: ".") + "]\n"
        XCTAssertEqual(TestBoards.issues(TestBoards.text(extra: ok)).map(\.keyPath), ["q"])
    }

    func testDeeplyNestedArraysAndInlineTables() {
        let arrays = "x = " + String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000) + "\n"
        XCTAssertTrue(TestBoards.issues(TestBoards.text(extra: arrays)).first?.message.contains("nested") ?? false)
        let tables = "x = " + String(repeating: "{a=", count: 5_000) + "1" + String(repeating: "}", count: 5_000)
        XCTAssertTrue(TestBoards.issues(TestBoards.text(extra: tables)).first?.message.contains("nested") ?? false)
        let inlineKey = "x = {" + Array(repeating: "b", count: 100).joined(separator: ".") + " = 1}\n"
        XCTAssertTrue(
            TestBoards.issues(TestBoards.text(extra: inlineKey)).first?.message.contains("dotted parts") ?? false)
    }

    func testOversizedFileIsRefusedBeforeParsing() {
        let comment = "# " + String(repeating: "x", count: 100) + "\n"
        let text = TestBoards.text() + String(repeating: comment, count: 11_000)
        let issues = TestBoards.issues(text)
        XCTAssertEqual(issues.count, 1)
        XCTAssertTrue(issues.first?.message.contains("more than the limit of 1048576") ?? false, "\(issues)")
    }

    /// A chain of 1,000 nested regions closed into one cycle: one issue (this took seconds
    /// with the old quadratic-per-region walk; now each region is walked once).
    func testLongParentCycleIsReportedOnce() {
        var regions = "[[region]]\nname = \"screen\"\nframe = [0, 0, 800, 480]\n"
        for i in 0..<1_000 {
            let parent = i == 0 ? "r999" : "r\(i - 1)"
            regions += "[[region]]\nname = \"r\(i)\"\nparent = \"\(parent)\"\nframe = [0, 0, 10, 10]\n"
        }
        let issues = TestBoards.issues(TestBoards.text(regions: regions))
        XCTAssertEqual(issues.count, 1, "\(issues.prefix(3))")
        XCTAssertEqual(issues.first?.keyPath, "region[1] \"r0\".parent")
        XCTAssertTrue(issues.first?.message.hasPrefix("parent cycle: r0 → r999 → r998") ?? false)
        XCTAssertTrue(issues.first?.message.hasSuffix("r2 → r1 → r0") ?? false, "\(issues)")
    }

    func testDeepRegionChainLoadsAndTooManyRegionsIsAnIssue() throws {
        var regions = "[[region]]\nname = \"r0\"\nframe = [0, 0, 800, 480]\n"
        for i in 1..<1_024 {
            regions += "[[region]]\nname = \"r\(i)\"\nparent = \"r\(i - 1)\"\nframe = [0, 0, 800, 480]\n"
        }
        let tap = "[[recognizer]]\nname = \"tap\"\nkind = \"tap\"\nregion = \"r1023\"\n"
        XCTAssertEqual(try TestBoards.load(TestBoards.text(regions: regions, recognizers: tap)).regions.count, 1_024)
        regions += "[[region]]\nname = \"r1024\"\nparent = \"r0\"\nframe = [0, 0, 800, 480]\n"
        let issues = TestBoards.issues(TestBoards.text(regions: regions, recognizers: tap))
        XCTAssertTrue(issues.contains { $0.keyPath == "region" && $0.message.contains("limit of 1024") }, "\(issues)")
    }

    /// A megabyte-long bad value is quoted back cut short, on one line, without control codes.
    func testIssuesDoNotEchoHugeOrControlValues() {
        let huge = String(repeating: "z", count: 500_000)
        let recognizer = "[[recognizer]]\nname = \"t\"\nkind = \"tap\"\nregion = \"\(huge)\"\n"
        let issues = TestBoards.issues(TestBoards.text(recognizers: recognizer))
        XCTAssertEqual(issues.count, 1)
        XCTAssertLessThan(issues[0].description.count, 800)
        XCTAssertTrue(issues[0].message.contains("characters)"), issues[0].message)
        let escape = "[[recognizer]]\nname = \"t\\u001b[2J\\n\"\nkind = \"tap\"\nregion = \"nowhere\"\n"
        let escaped = TestBoards.issues(TestBoards.text(recognizers: escape))
        XCTAssertFalse(escaped.isEmpty)
        for issue in escaped {
            XCTAssertFalse(issue.description.unicodeScalars.contains { $0.value < 0x20 }, issue.description)
        }
        XCTAssertTrue(escaped.contains { $0.description.contains("\\u{1B}[2J") }, "\(escaped)")
    }

    /// `run` has 64 lines on the in-memory chip "sim"; `validate` used to accept 64…1023.
    func testSimulatedGPIOOffsetsBeyondTheChipAreRejected() throws {
        func binding(_ line: Int) -> String {
            "[[binding]]\nrecognizer = \"tap\"\naction = \"toggle\"\ngpio = { chip = \"sim\", line = \(line) }\n"
        }
        XCTAssertEqual(try TestBoards.load(TestBoards.text(extra: binding(63))).bindings.count, 1)
        let issues = TestBoards.issues(TestBoards.text(extra: binding(64)))
        XCTAssertEqual(issues.map(\.keyPath), ["binding[0] \"tap\".gpio.line"])
        XCTAssertTrue(issues.first?.message.contains("0…63") ?? false, "\(issues)")
    }

    /// A device as a simulation script would be read without end by `run`.
    func testDeviceFileAsSimulationScriptIsRejected() {
        let hardware = "[controller]\nchip = \"ft6x36\"\nbus = \"sim\"\n\n[simulation]\nscript = \"/dev/zero\"\n\n"
        let issues = TestBoards.issues(TestBoards.text(hardware: hardware))
        XCTAssertEqual(issues.map(\.keyPath), ["simulation.script"])
        XCTAssertTrue(issues.first?.message.contains("not a regular file") ?? false, "\(issues)")
    }
}
