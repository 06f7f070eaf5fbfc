import FuzzSupport
import Gestures

/// The stroke template file (`[[recognizer]] templates`, `strokes learn -o`) on any text:
/// templates or one error, never a trap. What it accepts prepares into a template set (what a
/// board load does) and, written back by `StrokeTemplateFile.format`, reads again as the same
/// number of templates with the same names.
func fuzz(_ input: UnsafeRawBufferPointer) {
    let text = String(decoding: input, as: UTF8.self)
    do throws(StrokeTemplateFileError) {
        let templates = try StrokeTemplateFile.parse(text, file: "fuzz.strokes")
        _ = try? StrokeTemplateSet(templates)
        let again = try StrokeTemplateFile.parse(StrokeTemplateFile.format(templates), file: "written")
        precondition(again.map(\.name) == templates.map(\.name), "the written file reads differently")
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

@_cdecl("FuzzTemplates_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, testOneInput)
}
