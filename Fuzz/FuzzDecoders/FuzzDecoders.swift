import FuzzSupport
import TouchCore
import TouchDrivers

/// Every controller decoder on any bytes: never trap, never more contacts than asked for (the
/// ICN8318's: its 5), never a contact off the panel. Byte 0 picks the panel size and point limit.
func fuzz(_ input: UnsafeRawBufferPointer) {
    guard let selector = input.first else { return }
    let bytes = UnsafeRawBufferPointer(rebasing: input.dropFirst())
    let width = 1 + Int(selector & 0x0F) * 64
    let height = 1 + Int(selector >> 4) * 40
    let maxPoints = 1 + Int(selector % 10)
    let f = FocalTechDecoder.decode(bytes, at: .zero, maxPoints: maxPoints, panelWidth: width, panelHeight: height)
    let g = GT911Decoder.decode(bytes, at: .zero, maxPoints: maxPoints, panelWidth: width, panelHeight: height)
    let c = CST816Decoder.decode(bytes, at: .zero, panelWidth: width, panelHeight: height)
    let i = ICN8318Decoder.decode(bytes, at: .zero, panelWidth: width, panelHeight: height)
    precondition(i.frame.count <= ICN8318Registers.maxPoints, "more contacts than an ICN8318 reports")
    for (frame, limit) in [(f.frame, maxPoints), (g.frame, maxPoints), (c.frame, maxPoints), (i.frame, 5)] {
        precondition(frame.count <= limit, "more contacts than maxPoints")
        for contact in frame.contacts {
            precondition(
                contact.position.x >= 0 && contact.position.x < Double(width) && contact.position.y >= 0
                    && contact.position.y < Double(height), "a contact off the panel")
        }
    }
}

// libFuzzer's entry points (FuzzSupport explains the two).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzz(fuzzInput(data, size))
    return 0
}

@_cdecl("FuzzDecoders_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, testOneInput)
}
