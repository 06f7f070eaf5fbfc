import Foundation
import TouchPlot
import XCTest

/// The `plot` subcommand as a user runs it.
final class PlotCommandTests: XCTestCase {
    func testPlotWritesTheSamePictureAsTheLibraryAndTheTimeline() throws {
        let dir = try makeTemporaryDirectory(self)
        let out = dir.appendingPathComponent("p.svg").path
        let result = try runProcess(
            touchwireExecutable.path,
            [
                "plot", ReadmePicture.trace, "--board", ReadmePicture.board, "--from", String(ReadmePicture.from),
                "--to", String(ReadmePicture.to), "-o", out,
            ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let written = try String(contentsOfFile: out, encoding: .utf8)
        let committed = try String(
            contentsOf: repositoryRoot.appendingPathComponent(ReadmePicture.svg), encoding: .utf8)
        XCTAssertTrue(written == committed, "the command makes the README picture")
        let timeline = try runProcess(
            touchwireExecutable.path,
            [
                "plot", ReadmePicture.trace, "--board", ReadmePicture.board, "--from", "36400000", "--to", "42200000",
                "--timeline",
            ])
        XCTAssertEqual(timeline.status, 0, timeline.stderr)
        let svg = String(decoding: timeline.stdout, as: UTF8.self)
        _ = parseXML(svg)
        // The pen board's pan requires the checkmark to fail (S15): each stroke shows the wait.
        XCTAssertTrue(svg.contains("<title>waiting for check to fail</title>"))
    }

    func testBadInputGetsOneClearError() throws {
        let backwards = try runProcess(
            touchwireExecutable.path,
            ["plot", ReadmePicture.trace, "--board", ReadmePicture.board, "--from", "5", "--to", "1"])
        XCTAssertNotEqual(backwards.status, 0)
        XCTAssertTrue(backwards.stderr.contains("--to (1) is before --from (5)"), backwards.stderr)
        let missing = try runProcess(
            touchwireExecutable.path, ["plot", "no/such/trace.jsonl", "--board", ReadmePicture.board])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("no/such/trace.jsonl"), missing.stderr)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1, missing.stderr)
        XCTAssertTrue(missing.stdout.isEmpty)
    }
}
