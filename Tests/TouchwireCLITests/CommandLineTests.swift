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

    /// The kiosk workload shipped in traces/ (what `bench` and `tools/callgrind-engine` play, and
    /// what `mcu/run` replays on the emulated microcontroller) is `KioskScript`, and replays on the
    /// kiosk board to every recognizer kind, the checkmark and the rotation included.
    /// `TOUCHWIRE_WRITE_FIXTURES=1` rewrites it from `KioskScript` (then commit the file).
    func testShippedKioskTraceIsTheKioskWorkloadAndReplaysOnTheKioskBoard() throws {
        let path = repositoryRoot.appendingPathComponent("traces/kiosk.jsonl").path
        let kiosk = Trace(
            header: TraceHeader(panelWidth: 800, panelHeight: 480, source: "touchwire kiosk script"),
            frames: KioskScript.frames())
        if ProcessInfo.processInfo.environment["TOUCHWIRE_WRITE_FIXTURES"] == "1" {
            try TraceWriter.write(kiosk, toPath: path)
        }
        let shipped = try TraceReader.read(path: path)
        XCTAssertEqual(shipped.header, kiosk.header)
        XCTAssertEqual(shipped.frames, kiosk.frames)
        let board = repositoryRoot.appendingPathComponent("boards/kiosk-sim.toml").path
        let result = try run(["replay", path, "--board", board])
        XCTAssertEqual(result.status, 0, result.stderr)
        for kind in ["tap", "long_press", "pan", "swipe", "pinch", "rotation", "checkmark"] {
            XCTAssertTrue(result.stdout.contains(#""kind":"\#(kind)""#), "no \(kind) event")
        }
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
        XCTAssertEqual(lines.first, #"{"t_us":100000,"region":"panel","delivery":"began","touch":0,"serial":1}"#)
        XCTAssertTrue(lines.contains(#"{"t_us":120000,"region":"panel","delivery":"moved","touch":0,"serial":1}"#))
        // The tap recognizes once double-tap fails (300 ms after the lift): S23 cancels the region's touch.
        XCTAssertEqual(
            lines.suffix(2).first, #"{"t_us":450000,"region":"panel","delivery":"cancelled","touch":0,"serial":1}"#)
        XCTAssertTrue(lines.last?.contains(#""recognizer":"tap","kind":"tap","state":"recognized""#) ?? false)
    }

    /// Issue 31: an argument error is one line starting `touchwire:` (formats.md §3), not `Error:`.
    func testArgumentErrorsAreOneLineStartingTouchwire() throws {
        for arguments in [["replay", "--board", demoBoard], ["run"], ["plot", "x.jsonl", "--nonsense"]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "")
            XCTAssertTrue(result.stderr.hasPrefix("touchwire: "), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains("(see `touchwire \(arguments[0]) --help`)"), result.stderr)
        }
        let help = try run(["run", "--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        // One default for --status-file, the one the help text spells out.
        let statusHelp = help.stdout.components(separatedBy: "--status-file").dropFirst().joined()
        XCTAssertEqual(statusHelp.components(separatedBy: "default").count - 1, 1, help.stdout)
    }

    /// Issue 31: two fingers one after the other get the same tracking id from the controller
    /// (`touch`), but each physical touch its own number (`serial`).
    func testReplayDeliveryNumbersEachPhysicalTouch() throws {
        let dir = try makeTemporaryDirectory(self)
        let tracePath = dir.appendingPathComponent("two.jsonl").path
        try """
        {"touchwire_trace":1,"panel":{"width":800,"height":480},"source":"test"}
        {"t_us":100000,"contacts":[{"id":0,"x":100,"y":100}]}
        {"t_us":150000,"contacts":[]}
        {"t_us":1000000,"contacts":[{"id":0,"x":600,"y":300}]}
        {"t_us":1050000,"contacts":[]}
        {"t_us":2000000,"contacts":[]}

        """.write(toFile: tracePath, atomically: true, encoding: .utf8)
        let result = try run(["replay", tracePath, "--board", demoBoard, "--delivery"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let began = result.stdout.split(separator: "\n").filter { $0.contains(#""delivery":"began""#) }
        XCTAssertEqual(
            began,
            [
                #"{"t_us":100000,"region":"panel","delivery":"began","touch":0,"serial":1}"#,
                #"{"t_us":1000000,"region":"panel","delivery":"began","touch":0,"serial":2}"#,
            ])
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

    /// Issue 31: `--explain` quotes a threshold in the board's own unit (points), not the pixels
    /// it converts to (sim-demo's 10 pt are 8 px on its 154.2 mm wide panel).
    func testReplayExplainQuotesThresholdsInPoints() throws {
        let dir = try makeTemporaryDirectory(self)
        let tracePath = dir.appendingPathComponent("slide.jsonl").path
        try """
        {"touchwire_trace":1,"panel":{"width":800,"height":480},"source":"test"}
        {"t_us":100000,"contacts":[{"id":0,"x":100,"y":100}]}
        {"t_us":120000,"contacts":[{"id":0,"x":120,"y":100}]}
        {"t_us":140000,"contacts":[]}
        {"t_us":900000,"contacts":[]}

        """.write(toFile: tracePath, atomically: true, encoding: .utf8)
        let result = try run(["replay", tracePath, "--board", demoBoard, "--explain"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("120000 tap: finger moved 23 pt, more than max_movement 10 pt"),
            result.stderr)
        XCTAssertFalse(result.stderr.contains(" px"), result.stderr)
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
        // The Pi boards name programs, users and groups of the Pi they are for: --portable.
        let result = try run(["validate", "--portable"] + boards)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// Issue 31: `validate` refuses what `run` would (an unknown socket group, a missing program,
    /// a region reaching off the panel), every problem in one pass, each naming file and key.
    func testValidateRefusesWhatRunWouldAllAtOnce() throws {
        let dir = try makeTemporaryDirectory(self)
        let boardPath = dir.appendingPathComponent("kiosk.toml").path
        try """
        [panel]
        width = 800
        height = 480

        [[region]]
        name = "screen"
        frame = [0, 0, 900, 480]

        [[recognizer]]
        name = "tap"
        kind = "tap"
        region = "screen"

        [[binding]]
        recognizer = "tap"
        action = "exec"
        command = ["/nonexistent/kiosk-admin"]

        [[output]]
        type = "socket"
        path = "\(dir.path)/events.sock"
        group = "no-such-group-31"
        """.write(toFile: boardPath, atomically: true, encoding: .utf8)
        let region = try run(["validate", boardPath])
        XCTAssertEqual(region.status, 2)
        XCTAssertEqual(region.stdout, "")
        XCTAssertEqual(
            region.stderr,
            "touchwire: \(boardPath):7: region[0] \"screen\".frame: [0, 0, 900, 480] reaches outside the 800×480 px "
                + "panel (x + width ≤ 800, y + height ≤ 480)\n")
        try String(contentsOfFile: boardPath, encoding: .utf8)
            .replacingOccurrences(of: "900, 480", with: "800, 480")
            .write(toFile: boardPath, atomically: true, encoding: .utf8)
        let host = try run(["validate", boardPath])
        XCTAssertEqual(host.status, 2)
        let lines = host.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, host.stderr)
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("touchwire: \(boardPath): ") }, host.stderr)
        XCTAssertTrue(lines.contains { $0.contains("/nonexistent/kiosk-admin is missing or not executable") })
        XCTAssertTrue(lines.contains { $0.contains(#"output[0].group: no group named "no-such-group-31""#) })
        let started = try run(["run", "--board", boardPath, "--status-file", ""])
        XCTAssertNotEqual(started.status, 0, "run refuses the board validate refused")
        XCTAssertEqual(try run(["validate", "--portable", boardPath]).status, 0)
    }
}
