import BoardConfig
import Foundation
import TouchComposition
import TouchCore
import TouchService
import XCTest

/// The ICN8318's sample board, `boards/sim-icn8318.toml`: the demo played into the chip's
/// register-level model, read by its driver through the whole pipeline.
final class ICN8318BoardTests: XCTestCase, TouchwireCommandLine {
    /// Through the simulated ICN8318 the pipeline gives exactly the events that `replay` gives for
    /// the same script on the same board (the engine alone): the chip's registers lose nothing.
    func testSampleBoardGivesTheDemoGesturesAsItsReplayDoes() throws {
        let path = repositoryRoot.appendingPathComponent("boards/sim-icn8318.toml").path
        let board = try BoardLoader.load(path: path)
        XCTAssertEqual(board.controller?.chip, .icn8318)
        let clock = ManualClock()
        let stdout = CollectingSink()
        let service = try Service(board: board, logger: quietLogger, stdout: stdout, clock: clock)
        XCTAssertTrue(service.driver.start(at: .zero))
        XCTAssertEqual(service.driver.controller.identity?.chipName, "ICN8318")
        // One pass of the looping demo (7.17 s), read every 10 ms as the board's report rate does.
        for ms in stride(from: Int64(0), through: 7_160, by: 10) {
            clock.now = .milliseconds(ms)
            service.driver.poll(at: clock.now)
            service.recognizer.step(now: clock.now)
            service.output.drain(clock: clock)
        }
        service.output.flush()
        let events = stdout.text.split(separator: "\n").map(String.init)
        let kinds = events.compactMap { line in
            ["tap", "double-tap", "long-press", "pan"].first { line.contains("\"recognizer\":\"\($0)\"") }
        }
        XCTAssertEqual(kinds.first, "tap", stdout.text)
        XCTAssertTrue(kinds.contains("double-tap"), stdout.text)
        XCTAssertTrue(kinds.contains("long-press"), stdout.text)
        XCTAssertEqual(kinds.last, "pan", stdout.text)

        let replay = try run([
            "replay", repositoryRoot.appendingPathComponent("traces/demo.jsonl").path, "--board", path,
        ])
        XCTAssertEqual(replay.status, 0, replay.stderr)
        XCTAssertEqual(events, replay.stdout.split(separator: "\n").map(String.init))
    }
}
