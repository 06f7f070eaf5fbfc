import Foundation
import TouchLinux
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 30, class 4: unbounded work or memory. Every reader bounds what it buffers and what
/// it prepares, with one clear error, before the work.
final class BoundsTests: XCTestCase, TouchwireCommandLine {
    /// `monitor` buffered an endless line and rescanned it on every read (quadratic).
    func testMonitorStopsOnAnOverlongLine() throws {
        let dir = try makeTemporaryDirectory(self)
        let path = dir.appendingPathComponent("events.sock").path
        let server = try UnixStreamServer(path: path, mode: 0o600, group: nil)
        let r = try runMonitor(
            socket: path, server: server, frames: 3,
            lines: [
                #"{"t_us":1,"recognizer":"tap","state":"recognized","x":1,"y":1}"#,
                String(repeating: "x", count: 70_000),
            ])
        XCTAssertFalse(r.signalled, r.stderr)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("\(path): a line of more than 65536 bytes"), r.stderr)
    }

    private func templates(_ count: Int) -> String {
        let points = (0..<16).map { "[\($0 * 10),\($0 % 4 * 7)]" }.joined(separator: ",")
        return (0..<count).map { "{\"name\":\"g\($0 % 16)\",\"points\":[\(points)]}\n" }.joined()
    }

    /// 100,000 templates took 157 s to validate, before READY and again at every reload.
    func testTemplateFilesAreBoundedBeforeTheyArePrepared() throws {
        let dir = try makeTemporaryDirectory(self)
        let many = dir.appendingPathComponent("many.templates").path
        try templates(1001).write(toFile: many, atomically: true, encoding: .utf8)
        let enough = dir.appendingPathComponent("enough.templates").path
        try templates(1000).write(toFile: enough, atomically: true, encoding: .utf8)
        try tapTrace.write(to: dir.appendingPathComponent("t.jsonl"), atomically: true, encoding: .utf8)
        func board(_ templates: String) throws -> String {
            let path = dir.appendingPathComponent("\(templates).toml").path
            let recognizer = "[[recognizer]]\nname = \"s\"\nkind = \"stroke\"\nregion = \"screen\"\n"
            let text = simulatedBoardText(script: "t.jsonl", recognizers: []) + recognizer
            try (text + "templates = \"\(templates)\"\n").write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let refused = try run(["validate", try board("many.templates")])
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(
            refused.stderr.contains("many.templates: 1001 templates, more than the limit of 1000"), refused.stderr)
        XCTAssertEqual(try run(["validate", try board("enough.templates")]).status, 0)
        let test = try run(["strokes", "bench", dir.appendingPathComponent("t.jsonl").path, "--templates", many])
        XCTAssertEqual(test.status, 1, test.stderr)
        XCTAssertTrue(test.stderr.contains("1001 templates, more than the limit of 1000"), test.stderr)

        // `strokes learn` does not write a file a board would refuse.
        var lines = [#"{"touchwire_trace":1,"panel":{"width":800,"height":480},"source":"t"}"#]
        for i in 0..<1001 {
            let t = i * 1_000_000
            lines += [
                "{\"t_us\":\(t),\"contacts\":[{\"id\":0,\"x\":100,\"y\":100}]}",
                "{\"t_us\":\(t + 20000),\"contacts\":[{\"id\":0,\"x\":200,\"y\":100}]}",
                "{\"t_us\":\(t + 40000),\"contacts\":[]}",
            ]
        }
        let long = dir.appendingPathComponent("long.jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: long, atomically: true, encoding: .utf8)
        let output = dir.appendingPathComponent("learned.templates").path
        let learn = try run(["strokes", "learn", long, "--name", "dash", "-o", output])
        XCTAssertEqual(learn.status, 1, learn.stderr)
        XCTAssertTrue(learn.stderr.contains("1001 templates, more than the limit of 1000 a board loads"), learn.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }
}
