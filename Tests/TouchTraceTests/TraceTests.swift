import Foundation
import TouchCore
import TouchTrace
import XCTest

final class TraceTests: XCTestCase {
    let header = #"{"touchwire_trace":1,"panel":{"width":800,"height":480},"source":"sim"}"#

    private func expectError(
        _ text: String, line: Int, contains fragment: String, file: StaticString = #filePath, l: UInt = #line
    ) {
        XCTAssertThrowsError(try TraceReader.parse(text: text, name: "trace.jsonl"), file: file, line: l) { error in
            guard let e = error as? TraceError else {
                return XCTFail("not a TraceError: \(error)", file: file, line: l)
            }
            XCTAssertEqual(e.line, line, "\(e)", file: file, line: l)
            let d = e.description
            XCTAssertTrue(d.hasPrefix("trace.jsonl:\(line): "), d, file: file, line: l)
            XCTAssertTrue(d.contains(fragment), d, file: file, line: l)
            XCTAssertFalse(d.contains("\n"), file: file, line: l)
        }
    }

    func testParsesFramesCancelAndUnknownKeys() throws {
        let text = """
            \(header)
            {"t_us":120000,"contacts":[{"id":0,"x":401.5,"y":233.0,"p":12,\
            "area":3,"extra":[1,{"a":null}]},{"id":1,"x":520,"y":240}],"note":"hi"}
            {"t_us":130000,"contacts":[]}
            {"t_us":130000,"cancel":true}


            """
        let trace = try TraceReader.parse(text: text, name: "t")
        XCTAssertEqual(trace.header, TraceHeader(panelWidth: 800, panelHeight: 480, source: "sim"))
        XCTAssertEqual(trace.frames.count, 3)
        XCTAssertEqual(
            trace.frames[0].contacts,
            [
                Contact(id: 0, position: Point(x: 401.5, y: 233), pressure: 12, area: 3),
                Contact(id: 1, x: 520, y: 240),
            ])
        XCTAssertTrue(trace.frames[1].isEmpty)
        XCTAssertFalse(trace.frames[1].isCancel)
        XCTAssertTrue(trace.frames[2].isCancel)
        XCTAssertEqual(trace.frames[2].timestamp, Instant(microseconds: 130_000))
    }

    func testErrorsNameTheLine() {
        let f = #"{"t_us":1,"contacts":[]}"#
        expectError("\(header)\n\(f)\n{\"t_us\":2,\"contacts\":[]\n", line: 3, contains: "malformed JSON")
        expectError("\(header)\n\(f)\n{\"contacts\":[]}\n", line: 3, contains: "missing \"t_us\"")
        expectError("\(header)\n{\"t_us\":5,\"contacts\":[]}\n\(f)\n", line: 3, contains: "earlier than the previous")
        expectError("\(f)\n", line: 1, contains: "touchwire_trace")
        expectError(
            #"{"touchwire_trace":2,"panel":{"width":1,"height":1}}"#, line: 1, contains: "unsupported trace version 2")
        expectError("", line: 1, contains: "empty trace")
        expectError("not json\n", line: 1, contains: "header")
        expectError(
            "\(header)\n{\"t_us\":1,\"contacts\":[{\"id\":0,\"x\":\"1\",\"y\":2}]}", line: 2,
            contains: #""x" must be a number"#)
        expectError("\(header)\n{\"t_us\":1.5,\"contacts\":[]}", line: 2, contains: #""t_us" must be an integer"#)
        expectError("\(header)\n{\"t_us\":1,\"contacts\":[{\"id\":10,\"x\":1,\"y\":2}]}", line: 2, contains: "0…9")
        expectError("\(header)\n{\"t_us\":1,\"contacts\":[{\"id\":1,\"x\":1}]}", line: 2, contains: "lacks \"y\"")
        expectError(
            "\(header)\n{\"t_us\":1,\"contacts\":[{\"id\":1,\"x\":1,\"y\":1},{\"id\":1,\"x\":2,\"y\":2}]}", line: 2,
            contains: "duplicate contact id 1")
        let eleven = (0..<11).map { "{\"id\":\($0 % 10),\"x\":1,\"y\":1}" }.joined(separator: ",")
        expectError("\(header)\n{\"t_us\":1,\"contacts\":[\(eleven)]}", line: 2, contains: "more than 10 contacts")
        let tenDistinctPlusOne = (0..<10).map { "{\"id\":\($0),\"x\":1,\"y\":1}" }.joined(separator: ",")
        XCTAssertNoThrow(try TraceReader.parse(text: "\(header)\n{\"t_us\":1,\"contacts\":[\(tenDistinctPlusOne)]}"))
        expectError("\(header)\n\n\(f)\n", line: 2, contains: "blank line")
        expectError("\(header)\n{\"t_us\":1,\"contacts\":[],}", line: 2, contains: "malformed JSON")
        expectError("\(header)\n{\"t_us\":1,\"contacts\":[]} x", line: 2, contains: "end of line")
        expectError("\(header)\n{\"t_us\":1}", line: 2, contains: "missing \"contacts\"")
    }

    func testGarbageNeverCrashes() {
        let samples = [
            "{", "[", "\"", "{\"t_us\":", "{\"t_us\":-", "{\"t_us\":1e999,\"contacts\":[]}",
            String(repeating: "[", count: 10_000), "{\"a\":\"\\u12\"}", "\u{0}\u{1}", "{\"t_us\":01}",
        ]
        for s in samples {
            XCTAssertThrowsError(try TraceReader.parse(text: "\(header)\n\(s)"))
        }
    }

    func testRoundTripThroughWriter() throws {
        let frames = [
            TouchFrame(timestamp: Instant(microseconds: 0)),
            TouchFrame(
                timestamp: Instant(microseconds: 10),
                contacts: [
                    Contact(id: 0, position: Point(x: 1.25, y: 479), pressure: 7, area: 2),
                    Contact(id: 9, x: 0.1, y: 1e-3),
                ]),
            .cancel(at: Instant(microseconds: 10)),
            TouchFrame(timestamp: Instant(microseconds: 20), contacts: [Contact(id: 3, x: -5, y: 123456.789)]),
        ]
        let trace = Trace(
            header: TraceHeader(panelWidth: 240, panelHeight: 320, source: "quote \" and \\ and \n"), frames: frames)
        let text = TraceWriter.text(of: trace)
        let back = try TraceReader.parse(text: text)
        XCTAssertEqual(back.header, trace.header)
        XCTAssertEqual(back.frames, trace.frames)
        XCTAssertEqual(back.frames.map(\.isCancel), trace.frames.map(\.isCancel))
        XCTAssertEqual(back.frames[1].contacts, frames[1].contacts)

        let path = NSTemporaryDirectory() + "touchwire-trace-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try TraceWriter.write(trace, toPath: path)
        XCTAssertEqual(try TraceReader.read(path: path).frames, frames)
        XCTAssertThrowsError(
            try TraceFileWriter(path: path, header: trace.header), "an existing file is never truncated")
        let streamed = path + ".streamed"
        defer { try? FileManager.default.removeItem(atPath: streamed) }
        let stream = try TraceFileWriter(path: streamed, header: trace.header)
        for f in frames { try stream.append(f) }
        try stream.close()
        XCTAssertEqual(try TraceReader.read(path: streamed).frames, frames)
    }

    func testMissingFileIsIOError() {
        XCTAssertThrowsError(try TraceReader.read(path: "/nonexistent/x.jsonl")) { error in
            guard case .io(let file, _) = error as? TraceError else { return XCTFail("\(error)") }
            XCTAssertEqual(file, "/nonexistent/x.jsonl")
        }
    }

    func testRealUnistrokeTrace() throws {
        let repo = repositoryRoot
        let path = repo.appendingPathComponent("data/unistroke/s01.jsonl").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).count
        let start = Date()
        let trace = try TraceReader.read(path: path)
        let elapsed = Date().timeIntervalSince(start)
        print("read \(trace.frames.count) frames from s01.jsonl in \(Int(elapsed * 1000)) ms")
        XCTAssertEqual(trace.frames.count, lines - 1)
        XCTAssertEqual(trace.header.panelWidth, 240)
        XCTAssertEqual(trace.header.panelHeight, 320)
        // And it survives a round trip through the writer.
        XCTAssertEqual(try TraceReader.parse(text: TraceWriter.text(of: trace)).frames, trace.frames)
    }
}
