/// What every Swift fuzz target shares: libFuzzer's driver entry and the input as bytes.
///
/// A target defines its two C entry points itself — `LLVMFuzzerTestOneInput` (calling its own
/// `fuzz`, which libFuzzer's `main` calls directly) and SwiftPM's `{module}_main` — and hands both
/// to these. tools/fuzz links with --allow-multiple-definition, so whichever `main` the linker
/// keeps, libFuzzer's or the target's, runs the same driver on `LLVMFuzzerTestOneInput`.

/// libFuzzer's driver (compiler-rt `FuzzerDriver.cpp`), linked in by `-sanitize=fuzzer`.
// swift-format-ignore: AlwaysUseLowerCamelCase
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The bytes libFuzzer passes to `LLVMFuzzerTestOneInput` (empty when `data` is nil).
package func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
}

/// Runs libFuzzer's driver with the process's arguments on `testOneInput`: a target's `{module}_main`.
package func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, testOneInput)
}
