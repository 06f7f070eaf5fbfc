import Foundation
import TouchLinux
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 30, class 3: numbers at the edges. What `validate` (and the trace reader) accepts,
/// every command runs: contacts at 1e308 or 3e9, region frames of 1e300, times at Int64's ends,
/// and a socket stream of 1e300, NaN, ∞ and Int64.min. Each of these used to trap (SIGILL).
final class NumberEdgeTests: XCTestCase, TouchwireCommandLine {
    private func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func trace(_ lines: [String]) -> String {
        ([#"{"touchwire_trace":1,"panel":{"width":800,"height":480},"source":"t"}"#] + lines).joined(separator: "\n")
            + "\n"
    }

    private func assertRuns(
        _ arguments: [String], status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line
    )
        throws -> TouchwireRun
    {
        let r = try run(arguments)
        XCTAssertFalse(r.signalled, "\(arguments) trapped:\n\(r.stderr.suffix(2000))", file: file, line: line)
        XCTAssertEqual(r.status, status, "\(arguments): \(r.stderr.suffix(2000))", file: file, line: line)
        return r
    }

    /// A contact at 1e308: `replay --explain` printed `Int(distance)`, plot and learn converted it too.
    func testAContactAt1e308() throws {
        let dir = try makeTemporaryDirectory(self)
        let far = try write(
            trace([
                #"{"t_us":100000,"contacts":[{"id":0,"x":400,"y":240}]}"#,
                #"{"t_us":120000,"contacts":[{"id":0,"x":1e308,"y":240}]}"#, #"{"t_us":150000,"contacts":[]}"#,
            ]), "far.jsonl", in: dir)
        let explain = try assertRuns(["replay", far, "--board", demoBoard, "--explain"])
        XCTAssertTrue(explain.stderr.contains("finger moved inf pt"), explain.stderr)
        _ = try assertRuns(["plot", far, "--board", demoBoard, "-o", dir.appendingPathComponent("p.svg").path])
        _ = try assertRuns(
            ["plot", far, "--board", demoBoard, "--timeline", "-o", dir.appendingPathComponent("t.svg").path])
        let output = dir.appendingPathComponent("t.templates").path
        let learn = try assertRuns(["strokes", "learn", far, "--name", "x", "-o", output], status: 1)
        XCTAssertTrue(learn.stderr.contains("far.jsonl: template 1 (x): point 1"), learn.stderr)
        XCTAssertTrue(learn.stderr.contains("limit of 1e6 px"), learn.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output), "a file its reader refuses was written")
    }

    /// `plot --from/--to` at Int64's ends, and a trace spanning ±9.1e18 µs: a small picture, no trap
    /// (the timeline's ticks are bounded: it used to draw millions of them).
    func testPlotAtTheEndsOfInt64() throws {
        let dir = try makeTemporaryDirectory(self)
        let wide = try write(
            trace([
                #"{"t_us":-9100000000000000000,"contacts":[{"id":0,"x":400,"y":240}]}"#,
                #"{"t_us":9100000000000000000,"contacts":[]}"#,
            ]), "wide.jsonl", in: dir)
        let svg = dir.appendingPathComponent("p.svg").path
        let cases: [[String]] = [
            [wide], [wide, "--timeline"],
            [wide, "--from=-9223372036854775808", "--to", "9223372036854775807"],
            [wide, "--timeline", "--from=-9223372036854775808", "--to", "9223372036854775807"],
            [wide, "--timeline", "--from", "9223372036854775807"],
            [wide, "--from", "9223372036854775807"],
        ]
        for c in cases {
            _ = try assertRuns(["plot"] + c + ["--board", demoBoard, "-o", svg])
            let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: svg)[.size] as? Int)
            XCTAssertLessThan(size, 100_000, "\(c): \(size) bytes")
        }
    }

    /// `strokes test` with a label ending at Int64.max (`end + 100 ms` overflowed).
    func testStrokesTestWithALabelEndingAtInt64Max() throws {
        let dir = try makeTemporaryDirectory(self)
        let t = try write(
            trace([
                #"{"t_us":100000,"contacts":[{"id":0,"x":100,"y":100}]}"#,
                #"{"t_us":120000,"contacts":[{"id":0,"x":200,"y":100}]}"#, #"{"t_us":150000,"contacts":[]}"#,
            ]), "t.jsonl", in: dir)
        let labels = try write("gesture,t_start_us,t_end_us\nline,0,9223372036854775807\n", "l.csv", in: dir)
        let r = try assertRuns(["strokes", "test", t, labels])
        XCTAssertTrue(r.stdout.contains("line"), r.stdout)
    }

    /// A simulated evdev contact at x = 3e9 (the Int32 conversion) and a region frame of 1e300 in
    /// `monitor`: both boards validate, so both run.
    func testSimulatedBoardsWithHugeNumbersRun() throws {
        let dir = try makeTemporaryDirectory(self)
        _ = try write(
            trace([#"{"t_us":100000,"contacts":[{"id":0,"x":3e9,"y":240}]}"#, #"{"t_us":150000,"contacts":[]}"#]),
            "far.jsonl", in: dir)
        let board = """
            [panel]
            width = 800
            height = 480
            [controller]
            chip = "CHIP"
            bus = "sim"
            [simulation]
            script = "far.jsonl"
            [[region]]
            name = "screen"
            frame = [0, 0, WIDTH, 480]
            [[recognizer]]
            name = "tap"
            kind = "tap"
            region = "screen"

            """
        let evdev = try write(
            board.replacingOccurrences(of: "CHIP", with: "evdev").replacingOccurrences(of: "WIDTH", with: "800"),
            "evdev.toml", in: dir)
        let wide = try write(
            board.replacingOccurrences(of: "CHIP", with: "ft6x36").replacingOccurrences(of: "WIDTH", with: "1e300"),
            "wide.toml", in: dir)
        _ = try assertRuns(["validate", evdev])
        _ = try assertRuns(["monitor", "--board", evdev, "--virtual-clock", "--frames", "40"])
        // A region 1e300 px wide reaches off the 800 px panel: one clear error (issue 31), no trap.
        for command in [["validate", wide], ["monitor", "--board", wide, "--virtual-clock", "--frames", "40"]] {
            let refused = try assertRuns(command, status: 2)
            XCTAssertTrue(refused.stderr.contains("[0, 0, 1e+300, 480] reaches outside the 800×480 px panel"))
        }
    }

    /// A swipe's `min_velocity = 1e-300` validates; its duration bound (distance / velocity in µs)
    /// used to trap converting to Int64.
    func testASwipeWithATinyMinimumVelocityReplays() throws {
        let dir = try makeTemporaryDirectory(self)
        let t = try write(
            trace([
                #"{"t_us":100000,"contacts":[{"id":0,"x":100,"y":100}]}"#,
                #"{"t_us":120000,"contacts":[{"id":0,"x":300,"y":100}]}"#, #"{"t_us":150000,"contacts":[]}"#,
            ]), "t.jsonl", in: dir)
        let board = try write(
            simulatedBoardText(script: "t.jsonl", recognizers: [])
                + "[[recognizer]]\nname = \"swipe\"\nkind = \"swipe\"\nregion = \"screen\"\nmin_velocity = 1e-300\n",
            "b.toml", in: dir)
        _ = try assertRuns(["validate", board])
        _ = try assertRuns(["replay", t, "--board", board])
    }

    /// `monitor` fed `"x":1e300`, NaN, ∞ and `t_us` Int64.min over the service's socket.
    func testMonitorSurvivesExtremeNumbersFromTheStream() throws {
        let dir = try makeTemporaryDirectory(self)
        let path = dir.appendingPathComponent("events.sock").path
        let server = try UnixStreamServer(path: path, mode: 0o600, group: nil)
        let r = try runMonitor(
            socket: path, server: server, frames: 3,
            lines: [
                #"{"t_us":1000,"recognizer":"tap","state":"recognized","x":1e300,"y":-1e300}"#,
                #"{"t_us":-9223372036854775808,"recognizer":"tap","state":"recognized","x":1,"y":1}"#,
                #"{"t_us":1000,"recognizer":"tap","state":"recognized","x":nan,"y":inf}"#,
                #"{"t_us":1000,"recognizer":"tap","state":"recognized","x":-inf,"y":1}"#,
                #"{"t_us":9223372036854775807,"recognizer":"tap","state":"recognized","x":5,"y":5}"#,
            ])
        XCTAssertFalse(r.signalled, r.stderr)
        XCTAssertEqual(r.status, 0, r.stderr)
    }
}

extension TouchwireCommandLine {
    /// Runs `touchwire monitor --socket` against `server`, sends `lines` once it connects, and
    /// collects it (it stops after `frames` events).
    func runMonitor(
        socket: String, server: UnixStreamServer, frames: Int, lines: [String], board: String? = nil
    ) throws -> TouchwireRun {
        let monitor = try start(
            ["monitor", "--board", board ?? demoBoard, "--socket", socket, "--frames", String(frames)])
        var waited = 0
        while server.clients.isEmpty && waited < 400 {  // a guard, not a verdict
            server.acceptPending(limit: 4)
            usleep(50_000)
            waited += 1
        }
        XCTAssertEqual(server.clients.count, 1, "the monitor never connected")
        let text = Array(lines.map { $0 + "\n" }.joined().utf8)
        if !server.clients.isEmpty { _ = text.withUnsafeBytes { server.send($0, toClient: 0) } }
        return monitor.finish(within: 20)
    }
}
