import SystemPackage
import TouchCore

/// Streams a trace file (`formats.md` §1) frame by frame: the file is read in fixed chunks and
/// each line parsed as it completes, so memory stays flat whatever the trace's size (one chunk
/// plus the part of a line that straddles two chunks).
///
/// Contract: `init` opens the file and reads up to the header (`header`); `next()` returns the
/// frames in order, then nil at the end; every rule of `TraceLineParser` applies, and the first
/// violation throws a `TraceError` naming the file and line. Frames returned before an error
/// were valid — a caller that must not act on a bad trace validates it first (`validate`).
package final class TraceFileReader {
    /// Bytes read from the file at a time.
    package static let chunkSize = 1 << 20
    package let path: String
    /// The trace's header.
    package private(set) var header = TraceHeader(panelWidth: 1, panelHeight: 1)
    private let descriptor: FileDescriptor
    private var parser: TraceLineParser
    /// The unparsed bytes: `buffer[start..<end]` (allocated once: a chunk is longer than any valid line).
    private var buffer: UnsafeMutableBufferPointer<UInt8>
    private var start = 0
    private var end = 0
    private var atEOF = false

    /// Opens `path` and reads its header; errors name the file as `path` was given.
    package init(path: String) throws(TraceError) {
        self.path = path
        do {
            descriptor = try FileDescriptor.open(path, .readOnly, retryOnInterrupt: true)
        } catch {
            throw TraceError.io(file: path, message: "cannot read trace: \(error)")
        }
        parser = TraceLineParser(name: path)
        buffer = .allocate(capacity: TraceFileReader.chunkSize)
        while parser.header == nil, let line = try nextLine() { _ = try feed(line) }
        header = try parser.finish()
    }

    deinit {
        try? descriptor.close()
        buffer.deallocate()
    }

    /// The next frame, or nil at the end of the file.
    package func next() throws(TraceError) -> TouchFrame? {
        var frame = TouchFrame(timestamp: .zero)
        return try next(into: &frame) ? frame : nil
    }

    /// Puts the next frame in `frame` and returns true, or returns false at the end of the file
    /// (the replay loop's form: one frame value reused, no copy per layer).
    ///
    /// A line of the usual shape is parsed in place in the chunk (`TraceLineParser.feedFast`);
    /// any other line — and a line that straddles two chunks — goes through `TraceLineParser.feed`.
    package func next(into frame: inout TouchFrame) throws(TraceError) -> Bool {
        while true {
            if start < end,
                let newline = parser.feedFast(
                    UnsafeBufferPointer(start: buffer.baseAddress, count: end), from: start, into: &frame)
            {
                start = newline + 1
                return true
            }
            guard let line = try nextLine() else { return false }
            if let parsed = try feed(line) {
                frame = parsed
                return true
            }
        }
    }

    /// Reads the whole file, checking every line, without keeping the frames; returns how many there are.
    package static func validate(path: String) throws(TraceError) -> Int {
        let reader = try TraceFileReader(path: path)
        var frame = TouchFrame(timestamp: .zero)
        var n = 0
        while try reader.next(into: &frame) { n += 1 }
        return n
    }

    private func feed(_ line: Range<Int>) throws(TraceError) -> TouchFrame? {
        try parser.feed(UnsafeBufferPointer(rebasing: buffer[line]))
    }

    /// The byte range of the next complete line (without its `\n`) in `buffer`, or nil at the end.
    private func nextLine() throws(TraceError) -> Range<Int>? {
        while true {
            if let newline = findNewline() {
                let line = start..<newline
                start = newline + 1
                return line
            }
            if atEOF {
                guard start < end else { return nil }
                let line = start..<end
                start = end
                return line
            }
            try refill()
        }
    }

    private func findNewline() -> Int? {
        var i = start
        while i < end {
            if buffer[i] == 0x0A { return i }
            i += 1
        }
        return nil
    }

    /// Moves the partial line to the front and reads more.
    private func refill() throws(TraceError) {
        if start > 0 {
            let count = end - start
            if count > 0 { buffer.baseAddress!.update(from: buffer.baseAddress! + start, count: count) }
            start = 0
            end = count
        }
        if end == buffer.count {
            // The chunk holds more than a line may (`TraceReader.maximumLineBytes`): refuse it
            // here rather than grow the buffer without bound for a file with no newlines.
            throw TraceError.invalidLine(
                file: path, line: parser.lineNumber + 1,
                message: "line longer than the limit of \(TraceReader.maximumLineBytes) bytes")
        }
        let n: Int
        do {
            n = try descriptor.read(
                into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[end...]),
                retryOnInterrupt: true)
        } catch {
            throw TraceError.io(file: path, message: "cannot read trace: \(error)")
        }
        if n == 0 { atEOF = true }
        end += n
    }
}
