import Foundation
import XCTest

/// `touchwire display …` against `touchwire run`, and `validate` on the modes where the wake
/// touch cannot be hidden (issue 27).
final class DisplayCommandLineTests: XCTestCase, TouchwireCommandLine {
    private func board(_ dir: URL, display: String, controller: String? = nil, socket: String? = nil) throws -> String {
        let trace =
            #"{"touchwire_trace":1,"panel":{"width":800,"height":480}}"# + "\n"
            + #"{"t_us":0,"contacts":[]}"# + "\n"
        try trace.write(to: dir.appendingPathComponent("idle.jsonl"), atomically: true, encoding: .utf8)
        var text = simulatedBoardText(
            script: "idle.jsonl", recognizers: ["tap"], extra: "[display]\n\(display)\n")
        if let controller {
            text = text.replacingOccurrences(
                of: "[controller]\nchip = \"ft6x36\"\nbus = \"sim\"\n\n[simulation]\nscript = \"idle.jsonl\"\n"
                    + "report_rate_hz = 100\n",
                with: controller)
        }
        if let socket { text += "[[output]]\ntype = \"socket\"\npath = \"\(socket)\"\n" }
        let path = dir.appendingPathComponent("display.toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testValidateNamesThePassiveEvdevModeAndAcceptsTheOthers() throws {
        let dir = try makeTemporaryDirectory(self)
        let passive = try board(
            dir, display: "idle_off_s = 60\nbacklight = \"panel\"",
            controller: "[controller]\nchip = \"evdev\"\ndevice = \"/dev/input/event0\"\n")
        let result = try run(["validate", passive])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("ok"), result.stdout)
        XCTAssertTrue(result.stderr.contains("warning:") && result.stderr.contains("wake touch"), result.stderr)
        let owned = try board(dir, display: "idle_off_s = 60\nbacklight = \"panel\"")
        let ok = try run(["validate", owned])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(ok.stderr, "")
        let bad = try board(dir, display: "idle_off_s = 60\non_command = [\"/bin/true\"]")
        let refused = try run(["validate", bad])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("display.toml") && refused.stderr.contains("display.off_command"))
    }

    /// The packaged unit runs `run --exec-by-agents`, which refuses screen commands (or exec
    /// bindings) without a socket output for the agents: `validate` accepts the board for a bench
    /// and warns, naming the option, so a kiosk builder hears it before `systemctl reload`.
    func testValidateWarnsWhatThePackagedUnitWouldRefuse() throws {
        let dir = try makeTemporaryDirectory(self)
        let commands = "idle_off_s = 60\non_command = [\"/bin/true\"]\noff_command = [\"/bin/true\"]"
        let lonely = try run(["validate", try board(dir, display: commands)])
        XCTAssertEqual(lonely.status, 0, lonely.stderr)
        XCTAssertTrue(
            lonely.stderr.contains("warning:") && lonely.stderr.contains("--exec-by-agents")
                && lonely.stderr.contains("display.on_command"), lonely.stderr)
        let heard = try run(
            ["validate", try board(dir, display: commands, socket: dir.appendingPathComponent("e.sock").path)])
        XCTAssertEqual(heard.status, 0, heard.stderr)
        XCTAssertEqual(heard.stderr, "")
    }

    /// A missing backlight stops `run` before anything starts, naming the key and what exists.
    func testRunRefusesAMissingBacklight() throws {
        let dir = try makeTemporaryDirectory(self)
        let path = try board(dir, display: "idle_off_s = 60\nbacklight = \"no-such-panel\"")
        let result = try run(["run", "--board", path, "--status-file", ""])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(
            result.stderr.contains("display.backlight") && result.stderr.contains("no-such-panel"), result.stderr)
    }

    /// `touchwire display off|status|on` speaks the event socket; the commands switch the screen.
    func testDisplayCommandsSwitchTheRunningServiceThroughItsSocket() throws {
        let dir = try makeTemporaryDirectory(self)
        let socket = dir.appendingPathComponent("events.sock").path
        let marks = dir.appendingPathComponent("marks").path
        try FileManager.default.createDirectory(atPath: marks, withIntermediateDirectories: true)
        let path = try board(
            dir,
            display: """
                idle_off_s = 0
                on_command = ["/usr/bin/touch", "\(marks)/on"]
                off_command = ["/usr/bin/touch", "\(marks)/off"]
                """, socket: socket)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["run", "--board", path, "--status-file", ""]
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        XCTAssertTrue(waitFor(30) { FileManager.default.fileExists(atPath: socket) }, "no socket")

        let status = try run(["display", "status", "--socket", socket])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.hasPrefix(#"{"reply":"status","display":"on""#), status.stdout)
        let off = try run(["display", "off", "--board", path])
        XCTAssertEqual(off.stdout, #"{"reply":"ok"}"# + "\n", off.stderr)
        XCTAssertTrue(waitFor(20) { FileManager.default.fileExists(atPath: marks + "/off") }, "off_command did not run")
        let dark = try run(["display", "status", "--socket", socket])
        XCTAssertTrue(dark.stdout.contains(#""display":"off","cause":"command""#), dark.stdout)
        _ = try run(["display", "on", "--socket", socket])
        XCTAssertTrue(waitFor(20) { FileManager.default.fileExists(atPath: marks + "/on") }, "on_command did not run")
        let bad = try run(["display", "keep-awake", "forever", "--socket", socket])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stdout.contains("keep-awake takes"), bad.stdout)
        // Stopped while dark, the service leaves the screen on: on_command runs on the way out.
        try FileManager.default.removeItem(atPath: marks + "/on")
        try FileManager.default.removeItem(atPath: marks + "/off")
        _ = try run(["display", "off", "--socket", socket])
        XCTAssertTrue(waitFor(20) { FileManager.default.fileExists(atPath: marks + "/off") }, "off_command did not run")
        process.interrupt()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: marks + "/on"), "the screen was left dark")

        let gone = try run(["display", "status", "--socket", socket])
        XCTAssertEqual(gone.status, 1)
        XCTAssertTrue(gone.stderr.hasPrefix("touchwire: display:"), gone.stderr)
    }
}
