import Foundation
import TouchCore
import TouchTrace
import XCTest

/// The frame-line fast path (`TraceLineParser.feedFast`) changes speed, never meaning: every
/// line it takes, the general path (`feed`) takes to the same frame, bit for bit; every line it
/// declines goes to the general path, whose accept/reject and messages are pinned by
/// `TraceTests`. Checked on real lines, on hand-made edge cases and on 40 000 deterministic
/// mutations of real lines.
final class FrameLineFastPathTests: XCTestCase {
    static let dataDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("data/unistroke")

    /// A parser that has read a header and one frame at t_us 1000 (the previous time).
    func primedParser() throws -> TraceLineParser {
        var parser = TraceLineParser(name: "t.jsonl")
        for line in [#"{"touchwire_trace":1,"panel":{"width":240,"height":320}}"#, #"{"t_us":1000,"contacts":[]}"#] {
            _ = try Array(line.utf8).withUnsafeBufferPointer { try parser.feed($0) }
        }
        return parser
    }

    enum Verdict: Equatable { case declined, took }

    /// Feeds `line` to both paths; fails the test when the fast path's frame differs from the general path's.
    @discardableResult
    func compare(_ line: [UInt8], file: StaticString = #filePath, at: UInt = #line) throws -> Verdict {
        var fast = try primedParser()
        var general = fast
        var frame = TouchFrame(timestamp: .zero)
        let bytes = line + [0x0A]
        let newline = bytes.withUnsafeBufferPointer { fast.feedFast($0, from: 0, into: &frame) }
        guard let newline else { return .declined }
        let text = String(decoding: line, as: UTF8.self)
        XCTAssertEqual(newline, line.count, text, file: file, line: at)
        XCTAssertEqual(fast.lineNumber, 3, file: file, line: at)
        let expected: TouchFrame?
        do {
            expected = try line.withUnsafeBufferPointer { try general.feed($0) }
        } catch {
            XCTFail("the fast path took a line the general path rejects: \(text): \(error)", file: file, line: at)
            return .took
        }
        guard let expected else {
            XCTFail("the fast path took a line that holds no frame: \(text)", file: file, line: at)
            return .took
        }
        XCTAssertEqual(frame, expected, text, file: file, line: at)
        XCTAssertEqual(frame.isCancel, expected.isCancel, text, file: file, line: at)
        for i in 0..<min(frame.count, expected.count) {
            let (a, b) = (frame[i], expected[i])
            XCTAssertEqual(a.position.x.bitPattern, b.position.x.bitPattern, text, file: file, line: at)
            XCTAssertEqual(a.position.y.bitPattern, b.position.y.bitPattern, text, file: file, line: at)
            XCTAssertEqual(a.pressure, b.pressure, text, file: file, line: at)
            XCTAssertEqual(a.area, b.area, text, file: file, line: at)
        }
        return .took
    }

    func testTheUsualLinesTakeTheFastPathToTheSameFrames() throws {
        let cases = [
            #"{"t_us":2000,"contacts":[]}"#,
            #"{"t_us": 2000, "contacts": [{"id": 0, "x": 69, "y": 228}]}"#,
            #"{"t_us":2000,"contacts":[{"id":0,"x":401.5,"y":233.25,"p":12,"area":3},{"id":9,"x":-0.5,"y":0}]}"#,
            #"{"contacts":[{"y":1.00000000000001,"x":0.1,"id":3,"area":65535,"p":0.5}],"t_us":1000}"#,
            "{\"t_us\":\t2000 ,\r\"contacts\" : [ { \"id\" : 1 , \"x\" : 1 , \"y\" : 2 } ] }\r",
            #"{"t_us":2000,"contacts":[{"id":0,"x":-0,"y":-0.0,"p":12.5,"area":2.5}]}"#,
            #"{"t_us":999999999999999999,"contacts":[{"id":0,"x":123456789012345678,"y":12345678901234.5}]}"#,
        ]
        for text in cases { XCTAssertEqual(try compare(Array(text.utf8)), .took, text) }
        // Ten contacts, the most a frame holds.
        let ten = (0..<10).map { #"{"id":\#($0),"x":\#($0).5,"y":1}"# }.joined(separator: ",")
        XCTAssertEqual(try compare(Array(#"{"t_us":2000,"contacts":[\#(ten)]}"#.utf8)), .took)
    }

    func testUnusualAndBadLinesAreLeftToTheGeneralPath() throws {
        let cases = [
            #"{"t_us":999,"contacts":[]}"#,  // time goes back: the general path's message
            #"{"t_us":2000,"cancel":true}"#,
            #"{"t_us":2000,"contacts":[],"note":"hi"}"#,
            #"{"t_us":2000,"contacts":[{"id":0,"x":1,"y":2,"extra":1}]}"#,
            #"{"t_us":2000,"t_us":3000,"contacts":[]}"#,
            #"{"t_us":2000,"contacts":[],"contacts":[]}"#,
            #"{"t_us":2000,"contacts":[{"id":0,"x":1,"x":2,"y":2}]}"#,
            #"{"t_u\u0073":2000,"contacts":[]}"#,
            #"{"t_us":2e3,"contacts":[]}"#,
            #"{"t_us":2000.0,"contacts":[]}"#,
            #"{"t_us":02000,"contacts":[]}"#,
            #"{"t_us":2000,"contacts":[{"id":0,"x":1e2,"y":2}]}"#,
            #"{"t_us":2000,"contacts":[{"id":0,"x":0.1234567890123456,"y":2}]}"#,
            #"{"t_us":2000,"contacts":[{"id":0,"x":1,"y":2,"p":null}]}"#,
            #"{"t_us":2000,"contacts":[{"id":0,"x":1,"y":2,"p":70000}]}"#,
            #"{"t_us":2000,"contacts":[{"id":10,"x":1,"y":2}]}"#,
            #"{"t_us":2000,"contacts":[{"id":1.0,"x":1,"y":2}]}"#,
            #"{"t_us":2000,"contacts":[{"id":0,"x":1,"y":2},{"id":0,"x":3,"y":4}]}"#,
            #"{"t_us":2000,"contacts":[{"id":0,"x":1,"y":2},]}"#,
            #"{"t_us":2000,"contacts":[{"id":0,"x":1}]}"#,
            #"{"t_us":2000,"contacts":[]},"#,
            #"{"t_us":2000,"contacts":[]} x"#,
            #"{"t_us":2000}"#,
            #"{"t_us":2000,}"#,
            "",
            "   ",
        ]
        for text in cases { XCTAssertEqual(try compare(Array(text.utf8)), .declined, text) }
        let eleven = (0..<11).map { #"{"id":\#($0 % 10),"x":1,"y":1}"# }.joined(separator: ",")
        XCTAssertEqual(try compare(Array(#"{"t_us":2000,"contacts":[\#(eleven)]}"#.utf8)), .declined)
        // A line longer than the limit, however well formed, gets the general path's message.
        let padded = #"{"t_us":2000,"contacts":[]"# + String(repeating: " ", count: 65_536) + "}"
        XCTAssertEqual(try compare(Array(padded.utf8)), .declined)
    }

    func testEveryUnistrokeLineTakesTheFastPath() throws {
        let text = try String(contentsOf: Self.dataDirectory.appendingPathComponent("s01.jsonl"), encoding: .utf8)
        let lines = text.split(separator: "\n").dropFirst().prefix(3000)
        XCTAssertEqual(lines.count, 3000)
        for line in lines {
            // Time is rebased after the primed parser's 1000 µs.
            XCTAssertEqual(try compare(Array(line.utf8)), .took, String(line))
        }
    }

    /// Byte flips, insertions and deletions of real lines (a fixed-seed generator, so the same
    /// 40 000 lines every run): whatever the fast path takes, it takes to the general path's frame.
    func testMutatedLinesAgreeWithTheGeneralPath() throws {
        let text = try String(contentsOf: Self.dataDirectory.appendingPathComponent("s02.jsonl"), encoding: .utf8)
        var seeds = text.split(separator: "\n").dropFirst().prefix(200).map { Array($0.utf8) }
        seeds.append(Array(#"{"t_us":2000,"contacts":[{"id":0,"x":401.5,"y":-233.25,"p":12,"area":3}]}"#.utf8))
        let alphabet = Array(#"{}[]":,.-+eE0123456789 \t"xyidparecontsu"#.utf8) + [0x5C, 0x0D, 0x00, 0xFF]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        var took = 0
        for _ in 0..<40_000 {
            var line = seeds[random(seeds.count)]
            for _ in 0...random(3) {
                let at = random(line.count + 1)
                switch random(3) {
                case 0 where at < line.count: line[at] = alphabet[random(alphabet.count)]
                case 1: line.insert(alphabet[random(alphabet.count)], at: at)
                default: if at < line.count { line.remove(at: at) }
                }
            }
            if line.contains(0x0A) { continue }
            if try compare(line) == .took { took += 1 }
        }
        // Both kinds of outcome are exercised: many mutants still parse, many do not.
        XCTAssertGreaterThan(took, 2_000)
        XCTAssertLessThan(took, 36_000)
    }
}
