import FoundationEssentials
import SystemPackage
import TouchCore

/// Writes touch traces (`formats.md` §1) that `TraceReader` reads back to equal frames.
///
/// Output is one compact JSON object per line: the header, then one line per frame.
/// Integral coordinates are written without a fraction (`"x":401`), others with Swift's
/// shortest round-tripping form (`"x":401.5`); `p` and `area` only when non-zero; a
/// cancel frame as `{"t_us":…,"cancel":true}`. Non-finite coordinates (no driver produces
/// them) are written as 0 so the file always stays valid.
///
/// Timestamps must be non-decreasing for the file to read back; the writer does not
/// reorder frames.
package struct TraceWriter: Sendable {
    /// Everything written so far: the header line and one line per appended frame, each ending in `\n`.
    package private(set) var text: String

    /// Starts a trace with `header`.
    package init(header: TraceHeader) {
        text = Self.headerLine(header) + "\n"
    }

    /// Appends one frame line.
    package mutating func append(_ frame: TouchFrame) {
        text += Self.line(for: frame)
        text += "\n"
    }

    /// The whole of `trace` as text.
    package static func text(of trace: Trace) -> String {
        var writer = TraceWriter(header: trace.header)
        for frame in trace.frames { writer.append(frame) }
        return writer.text
    }

    /// Writes `trace` to `path` atomically (replacing any file there).
    package static func write(_ trace: Trace, toPath path: String) throws(TraceError) {
        do {
            try Data(text(of: trace).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw TraceError.io(file: path, message: "cannot write trace: \(ioErrorReason(error))")
        }
    }

    /// The header line, without the newline.
    package static func headerLine(_ header: TraceHeader) -> String {
        var s = "{\"touchwire_trace\":\(TraceHeader.formatVersion),\"panel\":{\"width\":\(header.panelWidth),"
        s += "\"height\":\(header.panelHeight)}"
        if !header.source.isEmpty {
            s += ",\"source\":"
            appendString(header.source, to: &s)
        }
        s += "}"
        return s
    }

    /// One frame line, without the newline.
    package static func line(for frame: TouchFrame) -> String {
        if frame.isCancel { return "{\"t_us\":\(frame.timestamp.microseconds),\"cancel\":true}" }
        var s = "{\"t_us\":\(frame.timestamp.microseconds),\"contacts\":["
        for i in 0..<frame.count {
            let c = frame[i]
            if i > 0 { s += "," }
            s += "{\"id\":\(c.id),\"x\":"
            appendNumber(c.position.x, to: &s)
            s += ",\"y\":"
            appendNumber(c.position.y, to: &s)
            if c.pressure != 0 { s += ",\"p\":\(c.pressure)" }
            if c.area != 0 { s += ",\"area\":\(c.area)" }
            s += "}"
        }
        s += "]}"
        return s
    }

    static func appendNumber(_ v: Double, to s: inout String) {
        guard v.isFinite else {
            s += "0"
            return
        }
        if v == v.rounded(), abs(v) < 1e15 {
            s += String(Int64(v))
        } else {
            s += v.description
        }
    }

    static func appendString(_ value: String, to s: inout String) {
        s += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": s += "\\\""
            case "\\": s += "\\\\"
            case "\n": s += "\\n"
            case "\r": s += "\\r"
            case "\t": s += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    s += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    s.unicodeScalars.append(scalar)
                }
            }
        }
        s += "\""
    }
}

/// Where a `TraceFileWriter` puts its bytes: called with each block of whole lines.
package typealias TraceOutput = (UnsafeRawBufferPointer) throws(TraceError) -> Void

/// Streams a trace to a file as frames arrive (for `touchwire record` and `replay
/// --passthrough-trace`).
///
/// Lines are buffered and written in blocks of about 64 KiB; call `close()` (or `flush()`)
/// to put everything out. Not thread-safe: one owner appends. Allocates; keep it off
/// the driver's per-frame path (feed it from a consumer of the ring). The commands write
/// through `TouchLinux.OutputFile` (`init(path:header:output:)`), which decides what may happen
/// to the path the user named; `init(path:header:)` only ever creates a new file.
package final class TraceFileWriter {
    private let handle: FileDescriptor?
    private let output: TraceOutput
    /// The path being written, as given.
    package let path: String
    private var buffer = ""
    private var closed = false
    private var lastTime: Int64?

    /// Writes the header line, then every block, to `output`; `path` names it in errors.
    package init(path: String, header: TraceHeader, output: @escaping TraceOutput) {
        self.path = path
        self.handle = nil
        self.output = output
        buffer = TraceWriter.headerLine(header) + "\n"
    }

    /// Creates `path`, which must not exist (`O_CREAT | O_EXCL`: nothing is truncated or
    /// replaced), and writes the header line.
    package init(path: String, header: TraceHeader) throws(TraceError) {
        self.path = path
        let handle: FileDescriptor
        do {
            handle = try FileDescriptor.open(
                path, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw TraceError.io(file: path, message: "cannot create trace file (\(ioErrorReason(error)))")
        }
        self.handle = handle
        output = { (bytes) throws(TraceError) in
            do { _ = try handle.writeAll(bytes) } catch {
                throw TraceError.io(file: path, message: "cannot write trace: \(ioErrorReason(error))")
            }
        }
        buffer = TraceWriter.headerLine(header) + "\n"
    }

    /// Appends a frame. A frame earlier than the previous one is written with the previous
    /// timestamp, so the file stays readable (timestamps must be non-decreasing).
    package func append(_ frame: TouchFrame) throws(TraceError) {
        var frame = frame
        if let lastTime, frame.timestamp.microseconds < lastTime { frame.timestamp = Instant(microseconds: lastTime) }
        lastTime = frame.timestamp.microseconds
        buffer += TraceWriter.line(for: frame)
        buffer += "\n"
        if buffer.utf8.count >= 64 * 1024 { try flush() }
    }

    /// Writes buffered lines to the file.
    package func flush() throws(TraceError) {
        guard !buffer.isEmpty, !closed else { return }
        var bytes = buffer
        var failure: TraceError? = nil
        bytes.withUTF8 { utf8 in
            do throws(TraceError) { try output(UnsafeRawBufferPointer(utf8)) } catch { failure = error }
        }
        if let failure { throw failure }
        buffer = ""
    }

    /// Flushes and closes the file. Further appends are ignored.
    package func close() throws(TraceError) {
        guard !closed else { return }
        try flush()
        closed = true
        do { try handle?.close() } catch {
            throw TraceError.io(file: path, message: "cannot close trace: \(ioErrorReason(error))")
        }
    }

    deinit { try? close() }
}
