import BoardConfig
import XCTest

/// `[[binding]] action = "key"` / `"exec"` and `[exec]`.
final class CommandBindingKeyTests: XCTestCase {
    func board(_ extra: String) throws -> BoardDescription { try TestBoards.load(TestBoards.text(extra: extra)) }
    func issues(_ extra: String) -> [BoardIssue] { TestBoards.issues(TestBoards.text(extra: extra)) }

    func testKeyChordWithKernelNames() throws {
        let b = try board(
            "[[binding]]\nrecognizer = \"tap\"\naction = \"key\"\nkeys = [\"KEY_LEFTMETA\", \"KEY_F5\"]\n")
        XCTAssertEqual(b.bindings, [], "a key binding is no GPIO binding")
        XCTAssertEqual(
            b.commandBindings,
            [
                CommandBindingDescription(
                    recognizer: "tap", state: .recognized,
                    action: .key(names: ["KEY_LEFTMETA", "KEY_F5"], codes: [125, 63]))
            ])
    }

    func testWrongKeyNameGetsASuggestion() {
        let wrong = issues("[[binding]]\nrecognizer = \"tap\"\naction = \"key\"\nkeys = [\"F5\"]\n")
        XCTAssertEqual(wrong.map(\.keyPath), ["binding[0] \"tap\".keys"])
        XCTAssertTrue(wrong[0].message.contains("(did you mean \"KEY_F5\"?)"), wrong[0].message)
        let typo = issues("[[binding]]\nrecognizer = \"tap\"\naction = \"key\"\nkeys = [\"KEY_LEFTMETTA\"]\n")
        XCTAssertTrue(typo.first?.message.contains("\"KEY_LEFTMETA\"") ?? false, "\(typo)")
        XCTAssertEqual(
            issues("[[binding]]\nrecognizer = \"tap\"\naction = \"key\"\n").map(\.keyPath), ["binding[0] \"tap\".keys"])
    }

    func testExecBindingAndSection() throws {
        let text = """
            [exec]
            user = "kiosk"
            environment = { DISPLAY = ":0", XDG_RUNTIME_DIR = "/run/user/1000" }

            [[binding]]
            recognizer = "tap"
            action = "exec"
            command = ["/usr/local/bin/kiosk-admin", "--show"]
            timeout_ms = 5000
            min_interval_ms = 2000

            """
        let b = try board(text)
        XCTAssertEqual(
            b.exec, ExecDescription(user: "kiosk", environment: ["DISPLAY": ":0", "XDG_RUNTIME_DIR": "/run/user/1000"]))
        XCTAssertEqual(
            b.commandBindings.first?.action,
            .exec(
                ExecCommand(
                    argv: ["/usr/local/bin/kiosk-admin", "--show"], timeoutMilliseconds: 5000,
                    minimumIntervalMilliseconds: 2000)))
        let defaults = try board("[[binding]]\nrecognizer = \"tap\"\naction = \"exec\"\ncommand = [\"/bin/true\"]\n")
        XCTAssertEqual(defaults.commandBindings.first?.action, .exec(ExecCommand(argv: ["/bin/true"])))
        XCTAssertEqual(defaults.exec, ExecDescription())
    }

    func testRelativeProgramIsAnError() {
        let i = issues(
            "[[binding]]\nrecognizer = \"tap\"\naction = \"exec\"\ncommand = [\"kiosk-admin\", \"--show\"]\n")
        XCTAssertEqual(i.map(\.keyPath), ["binding[0] \"tap\".command"])
        XCTAssertTrue(i[0].message.contains("absolute path"), i[0].message)
        XCTAssertEqual(
            issues("[[binding]]\nrecognizer = \"tap\"\naction = \"exec\"\ncommand = \"/bin/true\"\n").map(\.keyPath),
            ["binding[0] \"tap\".command"], "a string is not an argv")
        XCTAssertEqual(
            issues(
                "[[binding]]\nrecognizer = \"tap\"\naction = \"exec\"\ncommand "
                    + "= [\"/bin/true\"]\ngpio = { chip = \"sim\", line = 1 }\n"
            )
            .map(\.keyPath), ["binding[0] \"tap\".gpio"], "exec bindings take no GPIO line")
    }

    func testStateMustBeOneTheRecognizerReports() {
        let i = issues(
            "[[binding]]\nrecognizer = \"tap\"\naction = \"exec\"\ncommand = [\"/bin/true\"]\nstate = \"began\"\n")
        XCTAssertEqual(i.map(\.keyPath), ["binding[0] \"tap\".state"])
    }
}
