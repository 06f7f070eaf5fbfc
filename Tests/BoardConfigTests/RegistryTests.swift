import BoardConfig
import Foundation
import Gestures
import XCTest

/// The extension registries (issue 28): every gesture kind, output type and binding action
/// declared in `RecognizerKind`, `OutputType` and `BindingActionKind` loads from a board file,
/// reads exactly the keys it declares, and is named with its keys in `docs/formats.md` §4.
final class RegistryTests: XCTestCase {
    // MARK: Gesture kinds

    /// A board with one `[[recognizer]]` named "r" of `kind`, plus `body`.
    private func recognizerBoard(_ kind: String, _ body: String = "") -> String {
        TestBoards.text(
            recognizers: "[[recognizer]]\nname = \"r\"\nregion = \"screen\"\nkind = \"\(kind)\"\n" + body + "\n")
    }

    func testEveryGestureKindLoadsAsItself() throws {
        for kind in RecognizerKind.allCases {
            let board = try TestBoards.load(recognizerBoard(kind.boardName))
            let r = try XCTUnwrap(board.recognizers.first, "\(kind)")
            XCTAssertEqual(r.recognizerKind, kind, "kind = \"\(kind.boardName)\"")
            XCTAssertEqual(r.kind, kind.eventKind, "\(kind): the kind its events carry")
        }
        XCTAssertEqual(
            Set(RecognizerKind.boardNames).count, RecognizerKind.allCases.count, "every board name is unique")
    }

    /// The edge pan is a kind of its own (its reader, parameters and recognizer), whose events stay pan events.
    func testEdgePanIsItsOwnKindReportingPanEvents() throws {
        let board = try TestBoards.load(recognizerBoard("edge_pan"))
        let r = try XCTUnwrap(board.recognizers.first)
        XCTAssertEqual(r.recognizerKind, .edgePan)
        XCTAssertNotEqual(r.recognizerKind, .pan)
        XCTAssertEqual(r.kind, .pan, "formats.md §2: an edge pan reports \"kind\":\"pan\"")
        XCTAssertTrue(r.recognizerKind.isContinuous, "a hold binding may follow an edge pan")
    }

    /// A kind's declared keys are read (a wrong value is a value error, never "unknown key"), and
    /// the keys of every other kind are unknown keys for it.
    func testEveryGestureKindReadsExactlyItsDeclaredKeys() {
        for kind in RecognizerKind.allCases {
            for key in RecognizerKind.allKeys {
                // An inline table is the wrong type for every key, so the board is always rejected.
                let issues = TestBoards.issues(recognizerBoard(kind.boardName, "\(key) = { wrong = true }"))
                let unknown = issues.contains { $0.keyPath.hasSuffix(".\(key)") && $0.message.hasPrefix("unknown key") }
                XCTAssertEqual(
                    unknown, !kind.keys.contains(key),
                    "\(kind.boardName).\(key): \(issues.map(\.message))")
            }
        }
    }

    /// The firmware example's generator (`mcu/gen-firmware-source`, a Python script that keeps its
    /// own list of kinds) builds every registered kind: a board with one recognizer of each, valid
    /// here, compiles to an engine setup with a recognizer per kind, and the generator exits 0 (it
    /// refuses, by name, a kind it does not know). A kind added to `RecognizerKind` fails here until
    /// the generator has its line (CONTRIBUTING.md, "Adding a gesture kind").
    func testFirmwareGeneratorBuildsEveryGestureKind() throws {
        guard let python = findTool("python3") else {
            return XCTFail("python3 (3.11 or later, for tomllib) is needed to run mcu/gen-firmware-source")
        }
        var recognizers = ""
        for kind in RecognizerKind.allCases {
            recognizers += "[[recognizer]]\nname = \"\(kind.boardName)\"\nkind = \"\(kind.boardName)\"\n"
            recognizers += "region = \"screen\"\n\n"
        }
        let text = TestBoards.text(recognizers: recognizers)
        let board = try TestBoards.load(text)
        XCTAssertEqual(board.recognizers.map(\.recognizerKind), RecognizerKind.allCases)
        let dir = try makeTemporaryDirectory(self)
        let boardFile = dir.appendingPathComponent("every-kind.toml")
        let traceFile = dir.appendingPathComponent("tap.jsonl")
        try text.write(to: boardFile, atomically: true, encoding: .utf8)
        try tapTrace.write(to: traceFile, atomically: true, encoding: .utf8)
        let run = try runProcess(
            python,
            [
                repositoryRoot.appendingPathComponent("mcu/gen-firmware-source").path, boardFile.path, traceFile.path,
                dir.path,
            ])
        XCTAssertEqual(run.status, 0, "gen-firmware-source: \(run.stderr)")
        guard run.status == 0 else { return }
        XCTAssertEqual(run.stderr, "")
        let swift = (try? String(contentsOf: dir.appendingPathComponent("Board.swift"), encoding: .utf8)) ?? ""
        for (i, kind) in RecognizerKind.allCases.enumerated() {
            XCTAssertTrue(
                swift.contains("let recognizer\(i) = ") && swift.contains("(name: \"\(kind.boardName)\""),
                "\(kind.boardName) has no recognizer in Board.swift:\n\(swift)")
        }
    }

    func testUnknownKindListsTheRegistry() {
        let issues = TestBoards.issues(recognizerBoard("lasso"))
        let message = issues.first { $0.keyPath.hasSuffix(".kind") }?.message ?? ""
        for name in RecognizerKind.boardNames {
            XCTAssertTrue(message.contains(name), "\(name) missing from: \(message)")
        }
    }

    // MARK: Output types

    /// A board with `[[output]] type = X` and the keys it needs to load.
    private func outputBoard(_ type: OutputType, _ body: String = "") -> String {
        let required: String
        switch type {
        case .stdout, .socket: required = ""
        case .uart: required = "device = \"/dev/ttyUSB0\"\n"
        case .websocket: required = ""
        }
        var text = "[[output]]\ntype = \"\(type.boardName)\"\n" + required + body + "\n"
        // A websocket output is served from the board's socket output (formats.md §4).
        if type == .websocket { text += "\n[[output]]\ntype = \"socket\"\n" }
        return TestBoards.text(extra: text)
    }

    func testEveryOutputTypeLoadsAsItself() throws {
        for type in OutputType.allCases {
            let board = try TestBoards.load(outputBoard(type))
            if type.isServiceOutput {
                XCTAssertEqual(board.outputs.first?.type, type, "type = \"\(type.boardName)\"")
            } else {
                XCTAssertNotNil(board.webSocket, "type = \"\(type.boardName)\" is kept for the bridge")
                XCTAssertFalse(board.outputs.contains { $0.type == type })
            }
        }
    }

    func testEveryOutputTypeReadsExactlyItsDeclaredKeys() {
        for type in OutputType.allCases {
            for key in OutputType.allKeys {
                let issues = TestBoards.issues(outputBoard(type, "\(key) = { wrong = true }"))
                let unknown = issues.contains {
                    $0.keyPath == "output[0].\(key)" && $0.message.hasPrefix("unknown key")
                }
                XCTAssertEqual(
                    unknown, !type.keys.contains(key), "\(type.boardName).\(key): \(issues.map(\.message))")
            }
        }
    }

    func testUnknownOutputTypeListsTheRegistry() {
        let issues = TestBoards.issues(TestBoards.text(extra: "[[output]]\ntype = \"mqtt\"\n"))
        let message = issues.first { $0.keyPath == "output[0].type" }?.message ?? ""
        for name in OutputType.boardNames {
            XCTAssertTrue(message.contains(name), "\(name) missing from: \(message)")
        }
    }

    // MARK: Binding actions

    /// A board with a pan recognizer "p" (continuous, so `hold` applies) and one binding of `action`.
    private func bindingBoard(_ action: BindingActionKind, _ body: String = "") -> String {
        let required: String
        switch action {
        case .pulse, .hold, .toggle: required = "gpio = { chip = \"sim\", line = 3 }\n"
        case .key: required = "keys = [\"KEY_F5\"]\n"
        case .exec: required = "command = [\"/bin/true\"]\n"
        }
        let pan = "[[recognizer]]\nname = \"p\"\nkind = \"pan\"\nregion = \"screen\"\n\n"
        return TestBoards.text(
            recognizers: pan,
            extra: "[[binding]]\nrecognizer = \"p\"\naction = \"\(action.boardName)\"\n" + required + body + "\n")
    }

    func testEveryBindingActionLoadsAsItself() throws {
        for action in BindingActionKind.allCases {
            let board = try TestBoards.load(bindingBoard(action))
            switch action.family {
            case .gpio:
                XCTAssertEqual(board.bindings.first?.action.kind, action, "action = \"\(action.boardName)\"")
                XCTAssertTrue(board.commandBindings.isEmpty)
            case .command:
                XCTAssertEqual(board.commandBindings.first?.action.kind, action, "action = \"\(action.boardName)\"")
                XCTAssertTrue(board.bindings.isEmpty)
            }
        }
    }

    func testEveryBindingActionReadsExactlyItsDeclaredKeys() {
        let allKeys = BindingActionKind.allCases.flatMap(\.keys)
        for action in BindingActionKind.allCases {
            for key in Set(allKeys) {
                let issues = TestBoards.issues(bindingBoard(action, "\(key) = { wrong = true }"))
                let unknown = issues.contains { $0.keyPath.hasSuffix(".\(key)") && isForeignKey($0.message) }
                XCTAssertEqual(
                    unknown, !action.keys.contains(key), "\(action.boardName).\(key): \(issues.map(\.message))")
            }
        }
    }

    /// "unknown key …", or a key of another action named as such ("applies only to action = …").
    private func isForeignKey(_ message: String) -> Bool {
        message.hasPrefix("unknown key") || message.hasPrefix("applies only to")
    }

    func testUnknownActionListsTheRegistry() {
        let issues = TestBoards.issues(bindingBoard(.pulse).replacingOccurrences(of: "\"pulse\"", with: "\"blink\""))
        let message = issues.first { $0.keyPath.hasSuffix(".action") }?.message ?? ""
        for name in BindingActionKind.boardNames {
            XCTAssertTrue(message.contains(name), "\(name) missing from: \(message)")
        }
    }

    // MARK: The docs' key tables

    /// `docs/formats.md` by `### ` heading: the heading line → the lines up to the next heading.
    private func formatsSections() throws -> [(heading: String, body: [String])] {
        let text = try String(contentsOfFile: repositoryRoot() + "/docs/formats.md", encoding: .utf8)
        var sections: [(heading: String, body: [String])] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("#") {
                sections.append((line, []))
            } else if !sections.isEmpty {
                sections[sections.count - 1].body.append(line)
            }
        }
        return sections
    }

    /// The table row of `section` whose first cell holds `` `name` `` (`| `pinch`, `rotation` | …`).
    private func row(naming name: String, in body: [String]) -> String? {
        body.first { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: true)
            return line.hasPrefix("|") && (cells.first?.contains("`\(name)`") ?? false)
        }
    }

    /// The names in the first cells of a section's table, without the header row.
    private func firstCellNames(_ body: [String]) -> Set<String> {
        var names = Set<String>()
        for line in body where line.hasPrefix("|") && !line.hasPrefix("|---") {
            guard let cell = line.split(separator: "|").first else { continue }
            let parts = cell.split(separator: "`")
            for (i, part) in parts.enumerated() where i % 2 == 1 { names.insert(String(part)) }
        }
        return names
    }

    func testFormatsNamesEveryGestureKindWithItsKeys() throws {
        let sections = try formatsSections()
        let table = try XCTUnwrap(
            sections.first { $0.heading == "### `[[recognizer]]`" }, "formats.md §4 [[recognizer]]")
        XCTAssertEqual(
            firstCellNames(table.body), Set(RecognizerKind.boardNames),
            "the [[recognizer]] kind table names exactly the registered kinds")
        for kind in RecognizerKind.allCases {
            guard let row = row(naming: kind.boardName, in: table.body) else {
                XCTFail("formats.md: no row for kind \(kind.boardName)")
                continue
            }
            let own = sections.first { $0.heading.hasPrefix("### `kind = \"\(kind.boardName)\"`") }
            let text = ([row] + (own?.body ?? [])).joined(separator: "\n")
            for key in kind.keys {
                XCTAssertTrue(text.contains("`\(key)"), "formats.md: key \(key) of kind \(kind.boardName)")
            }
        }
    }

    func testFormatsNamesEveryOutputTypeWithItsKeys() throws {
        let sections = try formatsSections()
        let table = try XCTUnwrap(sections.first { $0.heading.hasPrefix("### `[[output]]`") })
        let typeRow = try XCTUnwrap(row(naming: "type", in: table.body))
        for type in OutputType.allCases {
            XCTAssertTrue(typeRow.contains("`\(type.boardName)`"), "formats.md: output type \(type.boardName)")
            let own = sections.first { $0.heading.hasPrefix("### `[[output]] type = \"\(type.boardName)\"`") }
            let text = (table.body + (own?.body ?? [])).joined(separator: "\n")
            for key in type.keys {
                XCTAssertTrue(text.contains("`\(key)`"), "formats.md: key \(key) of output type \(type.boardName)")
            }
        }
    }

    func testFormatsNamesEveryBindingActionWithItsKeys() throws {
        let sections = try formatsSections()
        let table = try XCTUnwrap(sections.first { $0.heading.hasPrefix("### `[[binding]]`") })
        let actionRow = try XCTUnwrap(row(naming: "action", in: table.body))
        for action in BindingActionKind.allCases {
            XCTAssertTrue(actionRow.contains("`\(action.boardName)`"), "formats.md: action \(action.boardName)")
            let own = sections.first { $0.heading.hasPrefix("### `[[binding]] action = \"\(action.boardName)\"`") }
            let text = (table.body + (own?.body ?? [])).joined(separator: "\n")
            for key in action.keys + BindingActionKind.commonKeys {
                XCTAssertTrue(text.contains("`\(key)`"), "formats.md: key \(key) of action \(action.boardName)")
            }
        }
    }
}
