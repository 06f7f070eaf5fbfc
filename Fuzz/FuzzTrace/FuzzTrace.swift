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

// libFuzzer's entry points. SwiftPM names an executable's entry `{module}_main`; tools/fuzz links
// with --allow-multiple-definition, so whichever `main` the linker keeps — libFuzzer's or this
// one — runs the same driver on `LLVMFuzzerTestOneInput`.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzz(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}

@_cdecl("FuzzTrace_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, testOneInput)
}
