import BoardConfig
import Foundation
import Gestures
import TouchComposition
import TouchCore
import TouchService
import TouchTrace
import XCTest

/// `[passthrough]`: what the UI receives, from the engine's deliveries (S22–S27), on replay.
final class PassthroughTests: XCTestCase {
    /// A board with one "screen" region (plus `regions`) and the given recognizers, replaying `frames`;
    /// returns the frames the UI sees.
    func uiFrames(recognizers: String, regions: String = "", frames: [TouchFrame]) throws -> [TouchFrame] {
        let text = """
            [panel]
            width = 800
            height = 480

            [[region]]
            name = "screen"
            frame = [0, 0, 800, 480]
            multiple_touch = true

            \(regions)
            \(recognizers)

            [passthrough]
            """
        let board = try BoardLoader.parse(text, file: "p.toml", directory: "/tmp")
        XCTAssertEqual(board.passthrough, PassthroughDescription())
        let engine = try EngineBuilder.build(board)
        let tracker = PassthroughTracker(board: board, engine: engine)
        var out: [TouchFrame] = []
        tracker.onFrame = { out.append($0) }
        Replay.run(
            trace: Trace(header: TraceHeader(panelWidth: 800, panelHeight: 480), frames: frames), engine: engine,
            delivery: false, output: CollectingSink(), passthrough: tracker)
        return out
    }

    func f(_ ms: Int64, _ contacts: (UInt8, Double, Double)...) -> TouchFrame {
        TouchFrame(timestamp: .milliseconds(ms), contacts: contacts.map { Contact(id: $0.0, x: $0.1, y: $0.2) })
    }

    func shape(_ frames: [TouchFrame]) -> [String] {
        frames.map { fr in
            "\(fr.timestamp.microseconds / 1000):"
                + fr.contacts.map { "\($0.id)@\(Int($0.position.x)),\(Int($0.position.y))" }
                .joined(separator: " ")
        }
    }

    /// Nothing recognizes: frames in = frames out (S22 defaults deliver every phase).
    func testUnrecognizedTouchesReachTheUIUnchanged() throws {
        let frames = [
            f(0, (0, 100, 100)), f(10, (0, 102, 101)), f(20, (0, 102, 101), (1, 500, 300)), f(30, (1, 500, 300)), f(40),
        ]
        let ui = try uiFrames(
            recognizers: "[[recognizer]]\nname = \"lp\"\nkind = \"long_press\"\nregion = \"screen\"\ntouches = 3\n",
            frames: frames)
        XCTAssertEqual(shape(ui), shape(frames))
    }

    // S23: cancels_touches — once the pan recognizes, the UI sees the touch lifted and no more of it.
    func testRecognizedPanLiftsTheTouchForTheUI() throws {
        let ui = try uiFrames(
            recognizers: "[[recognizer]]\nname = \"pan\"\nkind = \"pan\"\nregion = \"screen\"\n",
            frames: [f(0, (0, 100, 100)), f(10, (0, 104, 100)), f(20, (0, 140, 100)), f(30, (0, 180, 100)), f(40)])
        XCTAssertEqual(shape(ui), ["0:0@100,100", "10:0@104,100", "20:"])
    }

    // S23 with cancels_touches = false: the UI gets the whole touch while the pan runs.
    func testPanThatDoesNotCancelLeavesTheTouchToTheUI() throws {
        let frames = [f(0, (0, 100, 100)), f(10, (0, 140, 100)), f(20)]
        let ui = try uiFrames(
            recognizers:
                "[[recognizer]]\nname = \"pan\"\nkind = \"pan\"\nregion = \"screen\"\ncancels_touches = false\n",
            frames: frames)
        XCTAssertEqual(shape(ui), shape(frames))
    }

    // S24: delays_began — the UI sees nothing until the recognizer fails, then the held frames in order.
    func testDelaysBeganHoldsFramesUntilFailureThenReleasesThemInOrder() throws {
        let ui = try uiFrames(
            recognizers: """
                [[recognizer]]
                name = "swipe"
                kind = "swipe"
                region = "screen"
                direction = ["up"]
                delays_began = true
                max_duration_ms = 100
                """,
            frames: [f(0, (0, 100, 300)), f(20, (0, 101, 300)), f(40, (0, 103, 301)), f(300, (0, 104, 301)), f(320)])
        XCTAssertEqual(ui.first.map { $0.timestamp.microseconds > 0 }, true, "nothing at the touch's start")
        // The engine releases a held touch as its began (where it landed) then one move to where it
        // is now; later frames follow as they come, then the lift.
        XCTAssertEqual(ui.map { $0.contacts.map { Int($0.position.x) } }, [[100], [103], [104], []])
        XCTAssertEqual(ui[0].timestamp, ui[1].timestamp, "landing point and current position released together")
    }

    /// A region with `passthrough = false` (a reserved edge strip): the UI never sees its touches.
    func testReservedStripIsNeverSeenByTheUI() throws {
        let ui = try uiFrames(
            recognizers: "[[recognizer]]\nname = \"lp\"\nkind = \"long_press\"\nregion = \"screen\"\ntouches = 3\n",
            regions:
                "[[region]]\nname = \"strip\"\nparent = \"screen\"\nframe = [0, 460, 800, 20]\npassthrough = false\n",
            frames: [f(0, (0, 400, 470)), f(10, (0, 400, 440)), f(20), f(100, (1, 50, 50)), f(110)])
        XCTAssertEqual(shape(ui), ["100:1@50,50", "110:"])
    }

    func testPassthroughNeedsUInputOrDoesNotStart() throws {
        guard !FileManager.default.fileExists(atPath: "/dev/uinput") else {
            throw XCTSkip("/dev/uinput exists here; the VM tests cover the device")
        }
        let text = simulatedBoardText(script: "demo", recognizers: ["tap"], extra: "[passthrough]\nname = \"ui\"\n")
        let board = try BoardLoader.parse(text, file: "p.toml", directory: "/tmp")
        XCTAssertThrowsError(try Service(board: board, logger: quietLogger, stdout: CollectingSink())) {
            XCTAssertEqual(
                "\($0)",
                "p.toml: passthrough: /dev/uinput does not exist (load the uinput module: sudo modprobe uinput)")
        }
    }
}

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
}
