import Foundation
import TouchLinux
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 30, class 5: text that reaches another program. What comes from outside (the event
/// stream, a board's file name, a trace's source, a template name) never reaches a terminal,
/// an SVG reader or the template reader in a form it misreads.
final class ForeignTextTests: XCTestCase, TouchwireCommandLine {
    /// `monitor` wrote OSC/CSI sequences from the stream and from the board's name raw to the terminal.
    func testMonitorShowsEscapeSequencesInsteadOfSendingThem() throws {
        let dir = try makeTemporaryDirectory(self)
        let board = dir.appendingPathComponent("kiosk\u{1B}]0;pwned\u{07}\u{1B}[2J.toml").path
        try
            (String(contentsOfFile: demoBoard, encoding: .utf8)
            + "\n[[region]]\nname = \"bad\\u001B[31m\"\nparent = \"screen\"\nframe = [0, 0, 400, 200]\n")
            .write(toFile: board, atomically: true, encoding: .utf8)
        let path = dir.appendingPathComponent("events.sock").path
        let server = try UnixStreamServer(path: path, mode: 0o600, group: nil)
        let r = try runMonitor(
            socket: path, server: server, frames: 2,
            lines: [
                "{\"t_us\":1000,\"recognizer\":\"tap\u{1B}]0;owned\u{07}\",\"state\":\"recognized\",\"x\":5,\"y\":5}",
                "{\"t_us\":2000,\"recognizer\":\"tap\",\"state\":\"\u{1B}[2J\u{9B}31m\",\"x\":5,\"y\":5,"
                    + "\"direction\":\"\u{1B}P\"}",
            ], board: board)
        XCTAssertEqual(r.status, 0, r.stderr)
        let screens = r.stdout.replacingOccurrences(of: "\u{1B}[H\u{1B}[2J", with: "")
        XCTAssertFalse(
            screens.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" },
            "a control character reached the terminal:\n\(screens.debugDescription)")
        XCTAssertTrue(screens.contains("tap\\u{1B}]0;owned\\u{07}"), screens)
        XCTAssertTrue(screens.contains("kiosk\\u{1B}]0;pwned"), screens)
    }

    /// U+FFFF and control characters from a trace's source and a region's name went raw into the
    /// SVG, which then was not XML.
    func testPlotWritesWellFormedXML() throws {
        let dir = try makeTemporaryDirectory(self)
        let trace = dir.appendingPathComponent("t.jsonl").path
        try (tapTrace.replacingOccurrences(of: "\"source\":\"test\"", with: "\"source\":\"a\\uffff\\u0001b\\uFFFE\""))
            .write(toFile: trace, atomically: true, encoding: .utf8)
        let board = dir.appendingPathComponent("b.toml").path
        try
            (simulatedBoardText(script: "t.jsonl", recognizers: ["tap"])
            + "\n[[region]]\nname = \"x\\uFFFF\\u0007\"\nparent = \"screen\"\nframe = [0, 0, 400, 200]\n")
            .write(toFile: board, atomically: true, encoding: .utf8)
        for extra in [[], ["--timeline"]] {
            let svg = dir.appendingPathComponent("p.svg").path
            let r = try run(["plot", trace, "--board", board, "-o", svg] + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
            let text = try String(contentsOfFile: svg, encoding: .utf8)
            let forbidden = text.unicodeScalars.filter {
                $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" || $0.value == 0xFFFE || $0.value == 0xFFFF
            }
            XCTAssertEqual(forbidden.map(\.value), [], "\(extra): characters XML 1.0 does not allow")
            XCTAssertTrue(text.contains("a\u{FFFD}\u{FFFD}b\u{FFFD}"), "\(extra)")
        }
    }

    /// `strokes learn --name` with U+2028 (or a control), or a stroke beyond 1e6 px, wrote a file
    /// its own reader refused; now nothing is written and the error says why.
    func testStrokesLearnWritesOnlyWhatItCanReadBack() throws {
        let dir = try makeTemporaryDirectory(self)
        let trace = dir.appendingPathComponent("t.jsonl").path
        try tapTrace.replacingOccurrences(of: "\"x\":401", with: "\"x\":460")
            .write(toFile: trace, atomically: true, encoding: .utf8)
        let output = dir.appendingPathComponent("t.templates").path
        for name in ["a\u{2028}b", "a\u{1B}b", "a\u{85}b", "a\u{2029}"] {
            let r = try run(["strokes", "learn", trace, "--name", name, "-o", output])
            XCTAssertEqual(r.status, 64, "\(name.debugDescription): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--name must not hold control characters or line separators"), r.stderr)
        }
        let far = dir.appendingPathComponent("far.jsonl").path
        try tapTrace.replacingOccurrences(of: "\"x\":401", with: "\"x\":2000000")
            .write(toFile: far, atomically: true, encoding: .utf8)
        let r = try run(["strokes", "learn", far, "--name", "far", "-o", output])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("point 1 is (2000000.0, 240.0), beyond the template file's limit"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        let ok = try run(["strokes", "learn", trace, "--name", "dash é", "-o", output])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        let test = try run(["strokes", "bench", trace, "--templates", output])
        XCTAssertEqual(test.status, 0, "the file written reads back: \(test.stderr)")
    }
}
