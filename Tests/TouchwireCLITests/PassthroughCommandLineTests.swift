import BoardConfig
import Foundation
import Gestures
import TouchComposition
import TouchCore
import TouchDrivers
import TouchService
import TouchTrace
import XCTest

// `[passthrough]` through the `touchwire` executable (the stage: TouchServiceTests/PassthroughTests).
extension CommandLineTests {
    /// A temporary directory with the tap trace and a simulated board with `[passthrough]`.
    private func passthroughReplayFiles() throws -> (dir: URL, trace: String, board: String) {
        let dir = try makeTemporaryDirectory(self)
        let trace = dir.appendingPathComponent("tap.jsonl").path
        try tapTrace.write(toFile: trace, atomically: true, encoding: .utf8)
        let board = dir.appendingPathComponent("b.toml").path
        try (simulatedBoardText(script: "demo", recognizers: ["pan"]) + "\n[passthrough]\n")
            .write(toFile: board, atomically: true, encoding: .utf8)
        return (dir, trace, board)
    }

    /// `replay --passthrough-trace` writes what the UI would receive as a trace that reads back.
    func testReplayWritesThePassthroughTrace() throws {
        let (dir, trace, board) = try passthroughReplayFiles()
        let out = dir.appendingPathComponent("ui.jsonl").path
        let result = try run(["replay", trace, "--board", board, "--passthrough-trace", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        let ui = try TraceReader.read(path: out)
        XCTAssertEqual(ui.frames.map(\.count), [1, 1, 0], "the tap reaches the UI: down, moved, up")
        let again = try run(["replay", trace, "--board", board, "--passthrough-trace", out + "2"])
        XCTAssertEqual(again.status, 0)
        XCTAssertEqual(
            try String(contentsOfFile: out, encoding: .utf8), try String(contentsOfFile: out + "2", encoding: .utf8))
    }

    /// A passthrough trace that cannot be created is one error naming its path, before any event;
    /// a replay whose trace is bad leaves no partial passthrough trace behind.
    func testReplayPassthroughTraceErrorsNameThePathAndLeaveNoPartialFile() throws {
        let (dir, trace, board) = try passthroughReplayFiles()
        let unwritable = dir.appendingPathComponent("no-such-dir/ui.jsonl").path
        let refused = try run(["replay", trace, "--board", board, "--passthrough-trace", unwritable])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains(unwritable), refused.stderr)
        XCTAssertEqual(refused.stdout, "", "no event before the output is known to be writable")

        let bad = dir.appendingPathComponent("bad.jsonl").path
        try (tapTrace + "{not json\n").write(toFile: bad, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("ui.jsonl").path
        let failed = try run(["replay", bad, "--board", board, "--passthrough-trace", out])
        XCTAssertNotEqual(failed.status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "a failed replay leaves no partial trace")
    }

    /// `replay --passthrough-trace` shows, without a device, that a tap and a 2 s press with the
    /// same contact id reach the UI as two touches as the fingers made them: the tap's lift, which
    /// the double tap holds back (S24), at 60 ms, the press from 180 ms to 2.18 s.
    func testReplayPassthroughTraceShowsTwoTouchesForTwoFingers() throws {
        let dir = try makeTemporaryDirectory(self)
        let trace = dir.appendingPathComponent("tap-press.jsonl").path
        try """
        {"touchwire_trace":1,"panel":{"width":800,"height":480},"source":"test"}
        {"t_us":0,"contacts":[{"id":0,"x":100,"y":100}]}
        {"t_us":60000,"contacts":[]}
        {"t_us":180000,"contacts":[{"id":0,"x":102,"y":101}]}
        {"t_us":2180000,"contacts":[]}

        """.write(toFile: trace, atomically: true, encoding: .utf8)
        let board = dir.appendingPathComponent("b.toml").path
        try """
        [panel]
        width = 800
        height = 480

        [controller]
        chip = "ft6x36"
        bus = "sim"

        [simulation]
        script = "demo"

        [[region]]
        name = "screen"
        frame = [0, 0, 800, 480]

        [[recognizer]]
        name = "double"
        kind = "tap"
        region = "screen"
        taps = 2

        [passthrough]

        """.write(toFile: board, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("ui.jsonl").path
        let result = try run(["replay", trace, "--board", board, "--passthrough-trace", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        let ui = try TraceReader.read(path: out)
        XCTAssertEqual(ui.frames.map(\.count), [1, 0, 1, 0], "two touches, a lift between them")
        XCTAssertEqual(ui.frames.map { $0.timestamp.microseconds / 1000 }, [0, 60, 180, 2180], "as made")
    }
}
