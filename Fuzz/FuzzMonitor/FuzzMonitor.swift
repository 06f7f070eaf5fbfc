import FuzzSupport
import TouchCore
import TouchPlot

/// `touchwire monitor`'s stream reader on any bytes, fed in chunks whose sizes come from the
/// input's first byte, with a line bound from its second (16 B to 4 KiB, so that libFuzzer's
/// inputs reach it): the lines it hands out are exactly the input's newline-separated lines
/// (whatever the chunking), none is longer than the bound, it stops with an error once an
/// unfinished line passes the bound, and every line goes through `MonitorEvent.parse`, the
/// last-gestures list and the monitor's screen without a trap or a control character.
func fuzz(_ input: UnsafeRawBufferPointer) {
    guard input.count >= 2 else { return }
    let bytes = Array(input.dropFirst(2))
    let chunk = Int(input[0] % 64) + 1
    let limit = 16 << Int(input[1] % 9)
    var reader = MonitorLineReader(limit: limit)
    var recent: [MonitorEvent] = []
    var lines: [Substring] = []
    var fed = 0
    var bounded = true
    while fed < bytes.count && bounded {
        let end = min(bytes.count, fed + chunk * (fed % 3 + 1))
        bounded = reader.feed(bytes[fed..<end]) { line in
            lines.append(line)
            if let event = MonitorEvent.parse(line) { MonitorEvent.append(event, to: &recent) }
            return true
        }
        fed = end
    }
    // What was handed out is the input's lines, in order, each within the bound.
    let expected = bytes[..<fed].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast()
    precondition(lines.count == expected.count, "lines lost or invented")
    for (line, bytes) in zip(lines, expected) {
        precondition(line == String(decoding: bytes, as: UTF8.self)[...], "a line changed")
        precondition(bytes.count <= limit + 192, "a line over the bound")
    }
    precondition(bounded == (reader.pendingCount <= limit), "the bound misreported")
    precondition(recent.count <= 8, "the last-gestures list grew")
    let screen = MonitorScreen(title: "fuzz", panel: [], figures: "", gestures: recent.map(\.summary))
    let text = screen.render()
    // The screen's own clear-screen sequence is the only escape it writes.
    let body = text.hasPrefix(MonitorScreen.clear) ? text.dropFirst(MonitorScreen.clear.count) : text[...]
    for scalar in body.unicodeScalars where scalar != "\r" && scalar != "\n" {  // lines end in "\r\n"
        precondition(
            scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value), "a control character reached the terminal")
    }
}

// libFuzzer's entry points (FuzzSupport explains the two).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzz(fuzzInput(data, size))
    return 0
}

@_cdecl("FuzzMonitor_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, testOneInput)
}
