import FuzzSupport
import Gestures
import TouchComposition

/// The labels CSV of `touchwire strokes learn` and `strokes test` on any text: labels or one
/// error naming the file and a line of it, never a trap; every label has a name and start ≤ end.
func fuzz(_ input: UnsafeRawBufferPointer) {
    let text = String(decoding: input, as: UTF8.self)
    do throws(StrokeTemplateFileError) {
        let labels = try StrokeLearning.parseLabels(text, file: "fuzz.csv")
        for label in labels {
            precondition(!label.gesture.isEmpty, "a label without a gesture")
            precondition(label.start <= label.end, "a label that ends before it starts")
        }
    } catch {
        precondition(error.line >= 1, "an error without its line")
        precondition(error.description.hasPrefix("fuzz.csv"), "an error without its file")
    }
}

// libFuzzer's entry points (FuzzSupport explains the two).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzz(fuzzInput(data, size))
    return 0
}

@_cdecl("FuzzLabels_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, testOneInput)
}
