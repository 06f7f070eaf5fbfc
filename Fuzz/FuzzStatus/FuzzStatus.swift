import Foundation
import TouchService

/// The status-file reader on any bytes: a snapshot or one error, never a trap; a snapshot it
/// accepts renders (every number formats) and prints no control character but its newlines.
func fuzz(_ input: UnsafeRawBufferPointer) {
    let data = Data(input)
    do throws(StatusFileError) {
        let snap = try StatusFileReader.decode(data, file: "fuzz.status")
        let text = snap.render(now: 1_700_000_000)
        precondition(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "a control character")
        _ = snap.staleness(now: 1_700_000_000, alive: true)
    } catch {
        precondition(!error.description.isEmpty)
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

@_cdecl("FuzzStatus_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, testOneInput)
}
