import Foundation
import TouchLinux
import TouchPlot
import TouchSimulation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `touchwire monitor` as a user runs it: under a pseudo-terminal, on a simulated board and on
/// a service's socket stream. The panel and the stream's parsing alone: TouchPlotTests.
final class MonitorCommandTests: XCTestCase {
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
        let bound = withUnixSocketAddress(path) { bind(listener, $0, $1) }
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
