import TouchCore

/// The trace format's line rules (`formats.md` §1) applied one line at a time, so that a trace
/// can be read whole (`TraceReader`) or streamed (`TraceFileReader`) with the same checks and
/// the same messages: the header first, `t_us` non-decreasing, blank lines only at the end, a
/// UTF-8 byte-order mark tolerated, a `\r` before the `\n` accepted.
///
/// A value: it holds the line number, the header once read, the previous frame's time and the
/// first blank line seen — nothing that grows with the trace.
package struct TraceLineParser: Sendable {
    /// The file name used in errors.
    package let name: String
    /// Lines fed so far (the number of the last one).
    package private(set) var lineNumber = 0
    /// The header, once its line has been fed.
    package private(set) var header: TraceHeader?
    private var previousTime: Int64?
    private var firstBlankLine: Int?

    package init(name: String) { self.name = name }

    /// Takes one line without its `\n`. Returns the frame it holds, or nil for the header or a
    /// blank line; throws the first violation, naming the file and line.
    package mutating func feed(_ raw: UnsafeBufferPointer<UInt8>) throws(TraceError) -> TouchFrame? {
        lineNumber += 1
        var start = 0
        var end = raw.count
        // A UTF-8 byte-order mark is tolerated (some editors add one).
        if lineNumber == 1, end >= 3, raw[0] == 0xEF, raw[1] == 0xBB, raw[2] == 0xBF { start = 3 }
        if end > start && raw[end - 1] == 0x0D { end -= 1 }
        let line = UnsafeBufferPointer(rebasing: raw[start..<end])
        if line.count > TraceReader.maximumLineBytes {
            throw TraceError.invalidLine(
                file: name, line: lineNumber,
                message: "line of \(line.count) bytes, longer than the limit of \(TraceReader.maximumLineBytes)")
        }
        if TraceReader.isBlank(line) {
            if firstBlankLine == nil { firstBlankLine = lineNumber }
            return nil
        }
        if let blank = firstBlankLine {
            throw TraceError.invalidLine(
                file: name, line: blank, message: "blank line (blank lines are allowed only at the end)")
        }
        do throws(LineError) {
            if header == nil {
                header = try TraceReader.parseHeader(line)
                return nil
            }
            let frame = try TraceReader.parseFrame(line, previousTime: previousTime)
            previousTime = frame.timestamp.microseconds
            return frame
        } catch {
            throw TraceError.invalidLine(file: name, line: lineNumber, message: error.message)
        }
    }

    /// Takes the frame line that begins at `bytes[start]` when it has the usual shape
    /// (`FrameLineFastPath`): fills `frame` and returns the index of the line's `\n`. Returns nil,
    /// having consumed nothing, for any other line (the header, a blank line, an unusual or bad
    /// line, a line not ended within `bytes`): the caller then feeds that line to `feed`, which
    /// gives the same frame or the exact error.
    package mutating func feedFast(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, into frame: inout TouchFrame
    ) -> Int? {
        guard header != nil, firstBlankLine == nil,
            let newline = FrameLineFastPath.parse(bytes, from: start, previousTime: previousTime, into: &frame)
        else { return nil }
        lineNumber += 1
        previousTime = frame.timestamp.microseconds
        return newline
    }

    /// The end of the text: the header, or the error of a trace without one.
    package func finish() throws(TraceError) -> TraceHeader {
        guard let header else {
            throw TraceError.invalidLine(
                file: name, line: 1,
                message: "empty trace: expected the header {\"touchwire_trace\":1,\"panel\":{…}} on the first line")
        }
        return header
    }
}
