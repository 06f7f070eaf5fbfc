import TouchTrace
import XCTest

/// Issue 17 #4, #7: the trace reader's bounds and messages for hostile input.
final class TraceBoundsTests: XCTestCase {
    let header = #"{"touchwire_trace":1,"panel":{"width":800,"height":480}}"#

    func error(_ text: String) -> TraceError? {
        do throws(TraceError) {
            _ = try TraceReader.parse(text: text, name: "t.jsonl")
            return nil
        } catch {
            return error
        }
    }

    /// A 19-digit `t_us` is an integer, just too large: the message says so.
    func testNineteenDigitTimeIsOutOfRangeNotNotAnInteger() {
        let e = error("\(header)\n{\"t_us\":9999999999999999999,\"contacts\":[]}\n")
        XCTAssertTrue(
            "\(e.map { "\($0)" } ?? "accepted")".contains("\"t_us\" is out of range"), "\(String(describing: e))")
        XCTAssertTrue("\(error("\(header)\n{\"t_us\":1.5,\"contacts\":[]}\n")!)".contains("must be an integer"))
    }

    /// A line longer than `maximumLineBytes` is refused with its line number, not parsed.
    func testOverlongLineIsAnErrorNamingTheLine() {
        let padding = String(repeating: " ", count: TraceReader.maximumLineBytes)
        let e = error("\(header)\n{\"t_us\":1,\"contacts\":[]}\n{\"t_us\":2,\"contacts\":[]\(padding)}\n")
        XCTAssertEqual(e.map { "\($0)" }?.contains("t.jsonl:3"), true, "\(String(describing: e))")
        XCTAssertEqual(e.map { "\($0)" }?.contains("longer than the limit of 65536"), true)
        XCTAssertLessThan(e.map { "\($0)" }?.count ?? .max, 200, "the bad line is not echoed")
    }
}
