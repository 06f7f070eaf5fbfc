import FuzzSupport
import TouchCore
import TouchTrace

/// The trace reader on any bytes: a trace or one TraceError, never a trap; a trace that is
/// accepted has non-decreasing timestamps and at most 10 contacts a frame, and its error
/// message is one bounded line. And the frame-line fast path agrees with the general path: each
/// line it accepts (after a header) the general path accepts to the same frame, bit for bit.
func fuzz(_ input: UnsafeRawBufferPointer) {
    agreesWithTheGeneralPath(input.bindMemory(to: UInt8.self))
    do throws(TraceError) {
        let trace = try TraceReader.parse(bytes: input, name: "fuzz.jsonl")
        var previous: Int64 = .min
        for frame in trace.frames {
            precondition(frame.timestamp.microseconds >= previous, "timestamps went back")
            precondition(frame.count <= 10, "more than 10 contacts")
            previous = frame.timestamp.microseconds
        }
    } catch {
        let text = "\(error)"
        precondition(!text.isEmpty)
    }
}

/// Each line of `bytes`, fed after a header and one frame at t_us 1000: a line `feedFast` takes
/// gives, through `feed`, the same frame (the same bits in every coordinate) and no error.
func agreesWithTheGeneralPath(_ bytes: UnsafeBufferPointer<UInt8>) {
    var start = 0
    while start < bytes.count {
        var fast = TraceLineParser(name: "fuzz.jsonl")
        primed(&fast)
        var general = fast
        var frame = TouchFrame(timestamp: .zero)
        let newline = fast.feedFast(bytes, from: start, into: &frame)
        var end = start
        while end < bytes.count && bytes[end] != 0x0A { end += 1 }
        if let newline {
            precondition(newline == end, "the fast path ended the line elsewhere")
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            guard let expected = try? general.feed(line) else { preconditionFailure("fast path took a bad line") }
            precondition(expected == frame && expected.isCancel == frame.isCancel, "fast path frame differs")
            for i in 0..<frame.count {
                precondition(frame[i].position.x.bitPattern == expected[i].position.x.bitPattern, "x differs")
                precondition(frame[i].position.y.bitPattern == expected[i].position.y.bitPattern, "y differs")
                precondition(frame[i].pressure == expected[i].pressure && frame[i].area == expected[i].area)
            }
        }
        start = end + 1
    }
}

/// A parser that has read a header and a frame at t_us 1000.
func primed(_ parser: inout TraceLineParser) {
    let header = Array(#"{"touchwire_trace":1,"panel":{"width":240,"height":320}}"#.utf8)
    let frame = Array(#"{"t_us":1000,"contacts":[]}"#.utf8)
    header.withUnsafeBufferPointer { _ = try? parser.feed($0) }
    frame.withUnsafeBufferPointer { _ = try? parser.feed($0) }
}

// libFuzzer's entry points (FuzzSupport explains the two).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzz(fuzzInput(data, size))
    return 0
}

@_cdecl("FuzzTrace_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, testOneInput)
}
