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
        try templates(5001).write(toFile: many, atomically: true, encoding: .utf8)
        let enough = dir.appendingPathComponent("enough.templates").path
        try templates(5000).write(toFile: enough, atomically: true, encoding: .utf8)
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
            refused.stderr.contains("many.templates: 5001 templates, more than the limit of 5000"), refused.stderr)
        XCTAssertEqual(try run(["validate", try board("enough.templates")]).status, 0)
        let test = try run(["strokes", "bench", dir.appendingPathComponent("t.jsonl").path, "--templates", many])
        XCTAssertEqual(test.status, 1, test.stderr)
        XCTAssertTrue(test.stderr.contains("5001 templates, more than the limit of 5000"), test.stderr)

        // `strokes learn` does not write a file a board would refuse.
        var lines = [#"{"touchwire_trace":1,"panel":{"width":800,"height":480},"source":"t"}"#]
        for i in 0..<5001 {
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
        XCTAssertTrue(learn.stderr.contains("5001 templates, more than the limit of 5000 a board loads"), learn.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    /// A trace of `strokes` strokes of 200 frames 5 ms apart, each lifted for 5 ms (1.005 s a stroke).
    private func strokeTrace(_ strokes: Int) -> String {
        var text = #"{"touchwire_trace":1,"panel":{"width":800,"height":480},"source":"long"}"# + "\n"
        var t = 0
        for _ in 0..<strokes {
            for k in 0..<200 {
                t += 5000
                text += "{\"t_us\":\(t),\"contacts\":[{\"id\":0,\"x\":\(100 + k * 3),\"y\":\(100 + k * 7 % 300)}]}\n"
            }
            t += 5000
            text += "{\"t_us\":\(t),\"contacts\":[]}\n"
        }
        return text
    }

    /// The peak resident set of `touchwire` with `arguments`, in MB (it must exit 0).
    private func peakMB(_ arguments: [String]) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "peak %M KB", executable.path] + arguments
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, stderr)
        let kb = try XCTUnwrap(
            stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }.flatMap {
                Double($0.dropFirst(5).dropLast(3))
            }, stderr)
        return kb / 1000
    }

    /// `plot` held the whole trace and every frame again (27 times the trace: 20 MB → 634 MB),
    /// then a compact recording of it (about twice the trace). It now streams the trace through
    /// the engine into what the picture draws: the same window of a trace 4 times longer takes
    /// the same memory (peak RSS, which machine load does not change).
    func testPlotMemoryIsFlatInTheTracesLength() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw XCTSkip("needs /usr/bin/time to measure the peak RSS of a child")
        }
        let dir = try makeTemporaryDirectory(self)
        let short = dir.appendingPathComponent("short.jsonl").path
        try strokeTrace(250).write(toFile: short, atomically: false, encoding: .utf8)
        let text = strokeTrace(1000)
        let long = dir.appendingPathComponent("long.jsonl").path
        try text.write(toFile: long, atomically: false, encoding: .utf8)
        let longMB = Double(text.utf8.count) / 1e6
        for extra in [[], ["--timeline"]] {
            func peak(_ trace: String) throws -> Double {
                try peakMB(
                    ["plot", trace, "--board", demoBoard, "--from", "0", "--to", "1000000"] + extra
                        + ["-o", dir.appendingPathComponent("p.svg").path])
            }
            let shortPeak = try peak(short)
            let longPeak = try peak(long)
            // A compact recording of the 9 MB more grew the peak by about 18 MB; flat is within a few.
            XCTAssertLessThan(
                longPeak, shortPeak + 4,
                "\(extra): peak \(longPeak) MB for a \(longMB) MB trace, \(shortPeak) MB for a quarter of it")
        }
        // The whole trace (201,000 samples, as many events) is more than a picture shows.
        let svg = dir.appendingPathComponent("whole.svg").path
        for extra in [[], ["--timeline"]] {
            let whole = try run(["plot", long, "--board", demoBoard, "-o", svg] + extra)
            XCTAssertEqual(whole.status, 1, whole.stderr)
            XCTAssertTrue(whole.stderr.contains("more than a picture shows"), whole.stderr)
            XCTAssertTrue(whole.stderr.contains("narrow it with --from/--to"), whole.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: svg))
        }
    }

    /// A timeline's bars and failure marks are bounded too: 15,000 taps make few events but about
    /// nine bars and failures each (the whole of a 46 MB trace drew 107,000, a 25 MB picture).
    func testTimelineBarsAreBounded() throws {
        let dir = try makeTemporaryDirectory(self)
        var text = #"{"touchwire_trace":1,"panel":{"width":800,"height":480},"source":"taps"}"# + "\n"
        for i in 0..<15_000 {
            let t = (i + 1) * 400_000
            text += "{\"t_us\":\(t),\"contacts\":[{\"id\":0,\"x\":\(100 + i % 500),\"y\":\(100 + i % 300)}]}\n"
            text += "{\"t_us\":\(t + 50_000),\"contacts\":[]}\n"
        }
        let trace = dir.appendingPathComponent("taps.jsonl").path
        try text.write(toFile: trace, atomically: false, encoding: .utf8)
        let svg = dir.appendingPathComponent("taps.svg").path
        let whole = try run(["plot", trace, "--board", demoBoard, "--timeline", "-o", svg])
        XCTAssertEqual(whole.status, 1, whole.stderr)
        XCTAssertTrue(
            whole.stderr.contains("timeline bars and failures, more than a picture shows (at most 100000)"),
            whole.stderr)
        XCTAssertEqual(whole.stderr.split(separator: "\n").count, 1, whole.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: svg))
        // A narrower window of the same trace (250 taps) is drawn.
        let narrow = try run(
            ["plot", trace, "--board", demoBoard, "--timeline", "--from", "0", "--to", "100000000", "-o", svg])
        XCTAssertEqual(narrow.status, 0, narrow.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: svg))
    }
}
