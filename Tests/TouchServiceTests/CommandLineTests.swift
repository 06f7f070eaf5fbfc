import Foundation
import TouchSimulation
import TouchTrace
import XCTest

/// The `touchwire` executable as a user runs it (formats.md §3).
final class CommandLineTests: XCTestCase, TouchwireCommandLine {
    /// Replay is byte-identical on every run, and the demo's gestures come out with the §2 fields.
    func testReplayOfDemoIsDeterministicAndRecognizesTheDemo() throws {
        let dir = try makeTemporaryDirectory(self)
        let tracePath = dir.appendingPathComponent("demo.jsonl").path
        let frames = DemoScript.frames(panelWidth: 800, panelHeight: 480)
        try TraceWriter.write(
            Trace(header: TraceHeader(panelWidth: 800, panelHeight: 480, source: "demo"), frames: frames),
            toPath: tracePath)
        let first = try run(["replay", tracePath, "--board", demoBoard])
        let second = try run(["replay", tracePath, "--board", demoBoard])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, second.stdout)
        let lines = first.stdout.split(separator: "\n")
        // S15: the demo's first tap is reported exactly max_interval_ms (300) after its lift.
        let firstDown = try XCTUnwrap(frames.firstIndex { !$0.isEmpty })
        let lift = try XCTUnwrap(frames[firstDown...].first { $0.isEmpty }).timestamp.microseconds
        let position = frames[firstDown..<frames.count].prefix { !$0.isEmpty }.last![0].position
        XCTAssertEqual(
            lines.first,
            (#"{"t_us":\#(lift + 300_000),"recognizer":"tap","kind":"tap","state":"recognized","#
                + #""region":"screen","x":\#(position.x),"y":\#(position.y),"touches":1,"taps":1}"#)[...]
        )
        XCTAssertTrue(lines.contains { $0.contains(#""recognizer":"double-tap""#) })
        XCTAssertTrue(lines.contains { $0.contains(#""recognizer":"long-press","kind":"long_press","state":"began""#) })
        XCTAssertTrue(lines.contains { $0.contains(#""recognizer":"pan","kind":"pan","state":"ended""#) })
        XCTAssertEqual(first.stderr, "")
    }

    /// The sample trace shipped in traces/ is the demo script, and replays on the demo board.
    /// `TOUCHWIRE_WRITE_FIXTURES=1` rewrites it from `DemoScript` (then commit the file).
    func testShippedDemoTraceIsTheDemoAndReplaysOnTheDemoBoard() throws {
        let path = repositoryRoot.appendingPathComponent("traces/demo.jsonl").path
        let demo = Trace(
            header: TraceHeader(panelWidth: 800, panelHeight: 480, source: "touchwire demo script"),
            frames: DemoScript.frames(panelWidth: 800, panelHeight: 480))
        if ProcessInfo.processInfo.environment["TOUCHWIRE_WRITE_FIXTURES"] == "1" {
            try TraceWriter.write(demo, toPath: path)
        }
        let shipped = try TraceReader.read(path: path)
        XCTAssertEqual(shipped.header, demo.header)
        XCTAssertEqual(shipped.frames, demo.frames)
        let result = try run(["replay", path, "--board", demoBoard])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains(#""recognizer":"double-tap","kind":"tap","state":"recognized""#))
    }

    /// A trace recorded on another panel is refused with both sizes, not replayed to silence.
    func testReplayOnABoardOfAnotherPanelSizeIsRefusedNamingBothSizes() throws {
        let trace = repositoryRoot.appendingPathComponent("data/unistroke/s01.jsonl").path
        let result = try run(["replay", trace, "--board", demoBoard])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("240×320"), result.stderr)
        XCTAssertTrue(result.stderr.contains("800×480"), result.stderr)
    }

    func testReplayWithDeliveryInterleavesRegionDeliveries() throws {
        let dir = try makeTemporaryDirectory(self)
        let tracePath = dir.appendingPathComponent("tap.jsonl").path
        try tapTrace.write(toFile: tracePath, atomically: true, encoding: .utf8)
        let result = try run(["replay", tracePath, "--board", demoBoard, "--delivery"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, #"{"t_us":100000,"region":"panel","delivery":"began","touch":0}"#)
        XCTAssertTrue(lines.contains(#"{"t_us":120000,"region":"panel","delivery":"moved","touch":0}"#))
        // The tap recognizes once double-tap fails (300 ms after the lift): S23 cancels the region's touch.
        XCTAssertEqual(lines.suffix(2).first, #"{"t_us":450000,"region":"panel","delivery":"cancelled","touch":0}"#)
        XCTAssertTrue(lines.last?.contains(#""recognizer":"tap","kind":"tap","state":"recognized""#) ?? false)
    }

    /// `--explain` says on stderr why the single tap waited and when it was released (S15).
    func testReplayExplainSaysWhyARecognizerWaited() throws {
        let dir = try makeTemporaryDirectory(self)
        let tracePath = dir.appendingPathComponent("tap.jsonl").path
        try tapTrace.write(toFile: tracePath, atomically: true, encoding: .utf8)
        let result = try run(["replay", tracePath, "--board", demoBoard, "--explain"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let why = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(
            why.contains("150000 tap: waiting: would be recognized, holding until double-tap fails (S15)"),
            result.stderr)
        XCTAssertTrue(
            why.contains("450000 tap: released: every recognizer it required to fail has failed (S15)"), result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 1)
    }

    /// A malformed trace line is one error line naming file and line; nothing reaches stdout.
    func testMalformedTraceLineIsOneErrorNamingTheLine() throws {
        let dir = try makeTemporaryDirectory(self)
        let tracePath = dir.appendingPathComponent("bad.jsonl").path
        let text = tapTrace.replacingOccurrences(of: #"{"t_us":120000,"#, with: #"{"t_us":"soon","#)
        try text.write(toFile: tracePath, atomically: true, encoding: .utf8)
        let result = try run(["replay", tracePath, "--board", demoBoard])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(result.stdout, "", "nothing is half-processed")
        let errors = result.stderr.split(separator: "\n")
        XCTAssertEqual(errors.count, 1, result.stderr)
        XCTAssertTrue(errors.first?.contains("bad.jsonl:3") ?? false, result.stderr)
    }

    /// A malformed board file gives one line per problem, each naming the file and the key; nothing runs.
    func testMalformedBoardIsRejectedWithFileAndKey() throws {
        let dir = try makeTemporaryDirectory(self)
        let boardPath = dir.appendingPathComponent("bad.toml").path
        let text = try String(contentsOfFile: demoBoard, encoding: .utf8)
            .replacingOccurrences(of: "max_interval_ms = 300", with: "max_intervall_ms = 300")
            .replacingOccurrences(of: "require_fail = [\"double-tap\"]", with: "require_fail = [\"dubble-tap\"]")
        try text.write(toFile: boardPath, atomically: true, encoding: .utf8)
        for command in [["validate", boardPath], ["run", "--board", boardPath]] {
            let result = try run(command)
            XCTAssertNotEqual(result.status, 0)
            XCTAssertEqual(result.stdout, "")
            let errors = result.stderr.split(separator: "\n")
            XCTAssertEqual(errors.count, 2, result.stderr)
            XCTAssertTrue(errors.allSatisfy { $0.contains("bad.toml") }, result.stderr)
            XCTAssertTrue(errors.contains { $0.contains("max_intervall_ms") }, result.stderr)
            XCTAssertTrue(errors.contains { $0.contains("require_fail") && $0.contains("dubble-tap") }, result.stderr)
        }
    }

    /// `probe --sim` finds each simulated family and reports a missing one clearly.
    func testProbeFindsEachSimulatedChipAndReportsAMissingOne() throws {
        let all = try run(["probe", "--sim"])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertTrue(all.stdout.contains("sim 0x38: FT6336U at 0x38"), all.stdout)
        XCTAssertTrue(all.stdout.contains("sim 0x5d: GT911 at 0x5d"), all.stdout)
        XCTAssertTrue(all.stdout.contains("sim 0x15: CST816S at 0x15"), all.stdout)
        let missing = try run(["probe", "--sim", "--sim-missing", "gt911"])
        XCTAssertTrue(
            missing.stdout.contains("sim 0x5d: no Goodix GT911 (no acknowledge from I2C address 0x5d"), missing.stdout)
        XCTAssertTrue(missing.stdout.contains("sim 0x38: FT6336U"), missing.stdout)
    }

    /// `validate` counts in words a user reads: "1 region", not "1 regions"; paths as given.
    func testValidateCountsInTheSingularAndPlural() throws {
        let board = repositoryRoot.appendingPathComponent("boards/sim-idle-int.toml").path
        let result = try run(["validate", board])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "\(board): ok (1 region, 4 recognizers)\n")
    }

    /// `probe --sim --bus X` is a contradiction, refused in one line rather than ignoring --bus.
    func testProbeSimWithBusIsRefused() throws {
        let result = try run(["probe", "--sim", "--bus", "/dev/i2c-1"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("--bus /dev/i2c-1"), result.stderr)
    }

    /// `probe --board` starts the board's controller as `run` does, pulsing its reset line first.
    func testProbeOfABoardPulsesItsResetLine() throws {
        let dir = try makeTemporaryDirectory(self)
        let text = try String(contentsOfFile: demoBoard, encoding: .utf8)
            .replacingOccurrences(
                of: "bus = \"sim\"              #", with: "bus = \"sim\"\nreset = { chip = \"sim-rst\", line = 3 }  #")
        let path = dir.appendingPathComponent("reset.toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try run(["probe", "--board", path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout,
            "sim 0x38: FT6336U at 0x38 (chip id 0x64, firmware 0x10, vendor 0x11) (reset pulsed on sim-rst:3)\n")
    }

    func testEveryBoardInTheRepositoryValidates() throws {
        let boards = try FileManager.default.contentsOfDirectory(
            atPath: repositoryRoot.appendingPathComponent("boards").path
        )
        .filter { $0.hasSuffix(".toml") }.map { repositoryRoot.appendingPathComponent("boards/\($0)").path }
        XCTAssertFalse(boards.isEmpty)
        let result = try run(["validate"] + boards)
        XCTAssertEqual(result.status, 0, result.stderr)
    }
}
