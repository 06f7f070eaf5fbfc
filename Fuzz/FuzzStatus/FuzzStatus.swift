import Foundation
import FuzzSupport
import TouchComposition
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

// libFuzzer's entry points (FuzzSupport explains the two).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzz(fuzzInput(data, size))
    return 0
}

@_cdecl("FuzzStatus_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, testOneInput)
}
