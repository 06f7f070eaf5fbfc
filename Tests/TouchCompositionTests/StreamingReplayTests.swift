import BoardConfig
import Gestures
import TouchComposition
import TouchCore
import TouchOutputs
import TouchService
import TouchTrace
import XCTest

/// `touchwire replay` streams: the trace is read in chunks (lines straddle chunk boundaries in
/// the 2 MB unistroke files), and a bad trace gives its error and no events.
final class StreamingReplayTests: XCTestCase {
    final class Lines: LineSink {
        var text = ""
        func write(_ line: UnsafeRawBufferPointer) { text += String(decoding: line, as: UTF8.self) }
    }

    func testStreamedFramesEqualTheWholeFileReader() throws {
        for subject in ["s01", "s02", "s03"] {
            let path = repositoryRoot.appendingPathComponent("data/unistroke/\(subject).jsonl").path
            let whole = try TraceReader.read(path: path)
            let reader = try TraceFileReader(path: path)
            XCTAssertEqual(reader.header, whole.header)
            var streamed: [TouchFrame] = []
            while let f = try reader.next() { streamed.append(f) }
            XCTAssertEqual(streamed.count, whole.frames.count, subject)
            XCTAssertEqual(streamed, whole.frames, subject)
            XCTAssertEqual(try TraceFileReader.validate(path: path), whole.frames.count)
        }
    }

    func testStreamedReplayEqualsReplayOfTheParsedTrace() throws {
        let path = repositoryRoot.appendingPathComponent("data/unistroke/s02.jsonl").path
        let board = try BoardLoader.parse(ReplayGoldenTests.board, file: "golden.toml", directory: "/")
        let parsed = Lines()
        Replay.run(
            trace: try TraceReader.read(path: path), engine: try EngineBuilder.build(board), delivery: true,
            output: parsed)
        let streamed = Lines()
        let frames = try Replay.run(
            path: path, engine: try EngineBuilder.build(board), delivery: true,
            output: BlockBufferedSink(streamed, capacity: 4096))
        XCTAssertGreaterThan(frames, 1000)
        XCTAssertEqual(streamed.text, parsed.text)
    }

    func testBadLineNamesFileAndLineAndNoEventIsWritten() throws {
        let dir = try makeTemporaryDirectory(self)
        let path = dir.appendingPathComponent("bad.jsonl").path
        var text = "{\"touchwire_trace\":1,\"panel\":{\"width\":240,\"height\":320}}\n"
        for i in 0..<50_000 {
            text += "{\"t_us\":\(i * 10_000),\"contacts\":[{\"id\":0,\"x\":\(100 + i % 50),\"y\":100}]}\n"
        }
        text += "{\"t_us\":1,\"contacts\":[]}\n"  // time goes back on line 50 002
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let board = try BoardLoader.parse(ReplayGoldenTests.board, file: "golden.toml", directory: "/")
        let out = Lines()
        let engine = try EngineBuilder.build(board)
        XCTAssertThrowsError(try Replay.run(path: path, engine: engine, delivery: false, output: out)) {
            XCTAssertEqual(($0 as? TraceError)?.line, 50_002)
            XCTAssertTrue("\($0)".hasPrefix("\(path):50002: "), "\($0)")
        }
        XCTAssertEqual(out.text, "")
    }

    func testMissingFileAndEmptyFile() throws {
        XCTAssertThrowsError(try TraceFileReader(path: "/nonexistent/x.jsonl")) {
            XCTAssertTrue("\($0)".hasPrefix("/nonexistent/x.jsonl: cannot read trace"), "\($0)")
        }
        let dir = try makeTemporaryDirectory(self)
        let path = dir.appendingPathComponent("empty.jsonl").path
        try "".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try TraceFileReader(path: path)) { XCTAssertEqual(($0 as? TraceError)?.line, 1) }
    }
}
