import BoardConfig
import FuzzSupport

/// The board loader (the TOML crash screen, `TOMLParser`, validation) on any text: a board
/// or a list of issues, never a trap; every issue is one line without control characters.
func fuzz(_ input: UnsafeRawBufferPointer) {
    let text = String(decoding: input, as: UTF8.self)
    do throws(BoardFileError) {
        _ = try BoardLoader.parse(text, file: "fuzz.toml", directory: "/nonexistent")
    } catch {
        precondition(!error.issues.isEmpty, "an error without issues")
        for issue in error.issues {
            let line = issue.description
            precondition(!line.unicodeScalars.contains { $0.value < 0x20 }, "a control character in an issue")
            precondition(line.count < 2_000, "an issue echoing a long value")
        }
    }
}

// libFuzzer's entry points (FuzzSupport explains the two).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzz(fuzzInput(data, size))
    return 0
}

@_cdecl("FuzzBoard_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, testOneInput)
}
