import BoardConfig
import Foundation
import Gestures
import TouchComposition
import TouchCore
import TouchService
import TouchTrace
import XCTest

/// `touchwire record`: what the controller reported, as a trace that replays to the same gestures.
final class RecorderTests: XCTestCase {
    func testRecordingOfASimulatedTapReplaysToTheTap() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let board = try tapBoard(script: "tap.jsonl", directory: dir)
        let path = dir.appendingPathComponent("recorded.jsonl").path
        let recorder = try Recorder(board: board, path: path, logger: quietLogger, start: .zero)
        XCTAssertTrue(recorder.driver.start(at: .zero))
        for ms in stride(from: Int64(0), through: 300, by: 10) { try recorder.step(at: .milliseconds(ms)) }
        try recorder.finish(at: .milliseconds(310))

        let trace = try TraceReader.read(path: path)
        XCTAssertEqual(trace.header.panelWidth, 800)
        XCTAssertEqual(trace.frames.map { $0.count }, [1, 1, 0], "down, moved, lifted: only changes are recorded")
        XCTAssertEqual(trace.frames.map(\.timestamp), [.milliseconds(0), .milliseconds(20), .milliseconds(50)])
        XCTAssertEqual(trace.frames[1][0].position, Point(x: 401, y: 240))

        let engine = try EngineBuilder.build(board)
        let sink = RecordingSink()
        engine.sink = sink
        for frame in trace.frames { engine.process(frame) }
        engine.drainTimers()
        XCTAssertEqual(sink.events.map { "\(engine.recognizerName($0.recognizer)):\($0.state)" }, ["tap:recognized"])
    }

    /// `record` reads no clock of its own: given the caller's clock, the simulated board and the
    /// trace's timestamps follow it alone, so a recording on a `ManualClock` set far from any real
    /// monotonic time comes out the same whatever the wall time was.
    func testRecordingOnAManualClockFollowsThatClockOnly() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let board = try tapBoard(script: "tap.jsonl", directory: dir)
        func record(_ name: String) throws -> [Int64] {
            let clock = ManualClock(.milliseconds(7_000_000_000))
            let start = clock.now
            let path = dir.appendingPathComponent(name).path
            let recorder = try Recorder(
                board: board, path: path, logger: quietLogger, start: start, clock: clock)
            XCTAssertTrue(recorder.driver.start(at: clock.now))
            while clock.now.microseconds(since: start) <= 300_000 {
                try recorder.step(at: clock.now)
                clock.advance(byMicroseconds: 10_000)
            }
            try recorder.finish(at: clock.now)
            return try TraceReader.read(path: path).frames.map { $0.timestamp.microseconds(since: start) }
        }
        let first = try record("first.jsonl")
        XCTAssertEqual(first, [0, 20_000, 50_000], "down, moved, lifted at the script's times on the given clock")
        XCTAssertEqual(try record("second.jsonl"), first)
    }

    /// A recording cut while a finger is down ends that touch with a system cancel, never leaving it open.
    func testRecordingStoppedMidTouchEndsWithACancel() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let board = try tapBoard(script: "tap.jsonl", directory: dir)
        let path = dir.appendingPathComponent("cut.jsonl").path
        let recorder = try Recorder(board: board, path: path, logger: quietLogger, start: .zero)
        XCTAssertTrue(recorder.driver.start(at: .zero))
        try recorder.step(at: .milliseconds(0))
        try recorder.finish(at: .milliseconds(5))
        let trace = try TraceReader.read(path: path)
        XCTAssertEqual(trace.frames.count, 2)
        XCTAssertEqual(trace.frames.last?.isCancel, true)
        XCTAssertEqual(trace.frames.last?.timestamp, .milliseconds(5))
    }
}
