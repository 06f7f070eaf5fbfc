import Foundation
import Gestures
import TouchComposition
import TouchCore
import TouchLinux
import TouchOutputs
import TouchPlot
import TouchSimulation
import TouchTrace
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

enum TraceReaderShim {
    static func parse(_ text: String) throws -> Trace { try TraceReader.parse(text: text, name: "test") }
}

/// `touchwire monitor`: the character panel, and the command under a pseudo-terminal.
final class MonitorTests: XCTestCase {
    func testTerminalPanelDrawsRegionsTouchesAndMarks() {
        let panel = TerminalPanel(
            panelWidth: 800, panelHeight: 480, columns: 40, rows: 12,
            outlines: [
                .init(name: "screen", frame: Rect(x: 0, y: 0, width: 800, height: 480), isControl: false),
                .init(name: "ok", frame: Rect(x: 400, y: 240, width: 200, height: 120), isControl: true),
            ])
        let lines = panel.render(
            touches: [Contact(id: 3, x: 100, y: 120)], marks: [(Point(x: 700, y: 40), "*")])
        XCTAssertEqual(lines.count, 12)
        XCTAssertTrue(lines.allSatisfy { $0.count == 40 })
        XCTAssertEqual(lines[0], "+screen" + String(repeating: "-", count: 32) + "+")
        XCTAssertEqual(lines[11].first, "+")
        XCTAssertEqual(Array(lines[6])[20...29].map { String($0) }.joined(), "#ok======#")
        XCTAssertEqual(Array(lines[7])[20], "!")
        XCTAssertEqual(Array(lines[7])[29], "!")
        XCTAssertEqual(Array(lines[3])[5], "3", "touch id 3 at (100, 120)")
        XCTAssertEqual(Array(lines[1])[35], "*")
    }

    func testEventLinesFromTheServiceStreamAreReadBack() {
        let names = EventNames(recognizers: ["swipe"], regions: ["screen"])
        var event = GestureEvent(
            time: Instant(microseconds: 1_500_000), recognizer: 0, kind: .swipe, state: .recognized, region: 0,
            location: Point(x: 12.5, y: 30), touches: 1)
        event.direction = .left
        let line = EventJSONEncoder(names: names).line(for: event)
        let parsed = MonitorEvent.parse(line[...])
        XCTAssertEqual(
            parsed,
            MonitorEvent(
                time: 1_500_000, recognizer: "swipe", state: "recognized", location: Point(x: 12.5, y: 30),
                direction: "left"))
        XCTAssertEqual(parsed?.summary, "t 1.500 s  swipe recognized left at (12.5, 30)")
        XCTAssertNil(MonitorEvent.parse(#"{"t_us":1,"region":"screen","delivery":"began","touch":0}"#[...]))
        XCTAssertNil(MonitorEvent.parse("garbage"[...]))
    }

    func testARunningPanIsOneLineOfTheLastGestures() {
        var recent: [MonitorEvent] = []
        func event(_ t: Int64, _ name: String, _ state: String) -> MonitorEvent {
            MonitorEvent(time: t, recognizer: name, state: state, location: Point(x: Double(t), y: 0))
        }
        MonitorEvent.append(event(1, "pan", "began"), to: &recent)
        for t in 2...50 { MonitorEvent.append(event(Int64(t), "pan", "changed"), to: &recent) }
        MonitorEvent.append(event(51, "pan", "ended"), to: &recent)
        XCTAssertEqual(recent.map(\.state), ["began", "changed", "ended"])
        XCTAssertEqual(recent[1].time, 50, "the latest changed replaces the earlier ones")
        for t in 100...120 { MonitorEvent.append(event(Int64(t), "tap", "recognized"), to: &recent, limit: 8) }
        XCTAssertEqual(recent.count, 8)
        XCTAssertEqual(recent.last?.time, 120)
    }

    /// The screens the monitor wrote to a pseudo-terminal, split at each clear-screen.
    func runMonitorUnderPseudoTerminal(_ arguments: [String]) throws -> (
        status: Int32, screens: [String], stderr: String
    ) {
        let terminal = try PseudoTerminal()
        let subordinate = try XCTUnwrap(FileHandle(forUpdatingAtPath: terminal.subordinatePath))
        let process = Process()
        process.executableURL = touchwireExecutable
        process.arguments = ["monitor"] + arguments
        process.currentDirectoryURL = repositoryRoot
        process.standardOutput = subordinate
        let err = Pipe()
        process.standardError = err
        try process.run()
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        // Read until the process has exited and the terminal has nothing more (the bound is --frames,
        // not time: the timeout only guards against a hang).
        var idle = 0
        while idle < 3000 {
            let n = try buffer.withUnsafeMutableBytes { try terminal.read(into: $0, timeoutMilliseconds: 10) }
            if n > 0 {
                output.append(contentsOf: buffer[..<n])
                idle = 0
            } else if !process.isRunning {
                break
            } else {
                idle += 1
            }
        }
        process.waitUntilExit()
        try subordinate.close()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let text = String(decoding: output, as: UTF8.self)
        return (
            process.terminationStatus, text.components(separatedBy: MonitorScreen.clear).filter { !$0.isEmpty }, stderr
        )
    }

    func testMonitorShowsASimulatedTapUnderAPseudoTerminal() throws {
        // The demo taps at 500 ms for 80 ms; with a 10 ms poll the tap is recognized at 880 ms
        // (300 ms after the lift, S15). 100 reads on the virtual clock reach 990 ms.
        let tap = try XCTUnwrap(DemoScript.frames(panelWidth: 800, panelHeight: 480).first { !$0.isEmpty })[0]
        let (column, row) = (Int(tap.position.x / 800 * 64) + 1, Int(tap.position.y / 480 * 19))
        let result = try runMonitorUnderPseudoTerminal([
            "--board", "boards/sim-demo.toml", "--virtual-clock", "--frames", "100", "--columns", "64",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertGreaterThan(result.screens.count, 2)
        // The finger on the panel: some screen shows contact id 0 at the tap's cell (of 64 columns
        // and 19 rows), inside the panel frame.
        let touching = result.screens.first { screen in
            let lines = screen.components(separatedBy: "\r\n")
            guard lines.count > 2 + row else { return false }
            let cells = Array(lines[2 + row])
            return cells.count > column && cells[column] == "0"
        }
        XCTAssertNotNil(touching, result.screens.last ?? "")
        let last = try XCTUnwrap(result.screens.last)
        // Where the tap was recognized: the tap's last sample (the demo jitters ±1 px).
        let frames = DemoScript.frames(panelWidth: 800, panelHeight: 480)
        let down = try XCTUnwrap(frames.firstIndex { !$0.isEmpty })
        let place = frames[down...].prefix { !$0.isEmpty }.last![0].position
        XCTAssertTrue(last.contains("t 0.880 s  tap recognized at (\(Int(place.x)), \(Int(place.y)))"), last)
        XCTAssertTrue(last.contains("frames/s 100"), last)
        XCTAssertTrue(last.contains(":+screen-panel--"), last)
        XCTAssertTrue(last.contains("#button"), last)
        XCTAssertFalse(last.contains("(none yet)"))
    }

    func testMonitorReadsTheServiceSocketStream() throws {
        let dir = try makeTemporaryDirectory(self)
        let path = dir.appendingPathComponent("events.sock").path
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(listener, 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(listener, 1), 0)
        let lines =
            #"{"t_us":1000,"recognizer":"tap","kind":"tap","state":"recognized","region":"screen","x":400.0,"#
            + #""y":240.0,"touches":1,"taps":1}"# + "\n"
            + #"{"t_us":2000,"region":"screen","delivery":"began","touch":0}"# + "\n"
            + #"{"t_us":3000,"recognizer":"pan","kind":"pan","state":"began","region":"panel","x":160.0,"y":240.0,"#
            + #""touches":1,"translation_x":0.0,"translation_y":0.0,"velocity_x":0.0,"velocity_y":0.0}"# + "\n"
        let server = DispatchQueue(label: "server")
        server.async {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            _ = lines.withCString { write(client, $0, strlen($0)) }
            close(client)
        }
        let result = try runMonitorUnderPseudoTerminal([
            "--board", "boards/sim-demo.toml", "--socket", path, "--frames", "2",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let last = try XCTUnwrap(result.screens.last)
        XCTAssertTrue(last.contains("service stream \(path)"), last)
        XCTAssertTrue(last.contains("tap recognized at (400, 240)"), last)
        XCTAssertTrue(last.contains("pan began at (160, 240)"), last)
        XCTAssertFalse(last.contains("delivery"), last)
    }

    func testMonitorNamesAMissingSocketItWasGiven() throws {
        let result = try runProcess(
            touchwireExecutable.path,
            ["monitor", "--board", "boards/sim-demo.toml", "--socket", "/nonexistent/touchwire.sock", "--frames", "1"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("/nonexistent/touchwire.sock: no service listening"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    }
}
