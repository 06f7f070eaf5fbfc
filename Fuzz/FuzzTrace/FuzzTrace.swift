import FuzzSupport
import TouchCore
import TouchTrace

/// The trace reader on any bytes: a trace or one TraceError, never a trap; a trace that is
/// accepted has non-decreasing timestamps and at most 10 contacts a frame, and its error
/// message is one bounded line.
func fuzz(_ input: UnsafeRawBufferPointer) {
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
