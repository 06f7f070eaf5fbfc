import FoundationEssentials
import TouchCore

/// Reads and validates touch traces (`formats.md` §1).
///
/// Contract:
/// - The first line is the header with `"touchwire_trace": 1` and
///   `"panel": {"width": W, "height": H}` (positive integers); `"source"` is optional.
/// - Every following line is one frame: `"t_us"` an integer, non-decreasing from line to
///   line; `"contacts"` an array of at most 10 objects `{id, x, y, p?, area?}` with `id` an
///   integer 0…9 unique within the frame, `x`/`y` finite numbers, `p`/`area` numbers
///   0…65535 (rounded); or `"cancel": true`, which makes a `TouchFrame.cancel(at:)`.
/// - Unknown keys are ignored (their values must still be valid JSON). Blank lines are
///   allowed only at the end of the file. A `\r` before the `\n` is accepted.
/// - A line is at most `maximumLineBytes` long (a frame of ten contacts is about 400 bytes):
///   a longer one is an error naming the line, whatever it holds.
/// - The whole file is parsed before anything is returned: the first error throws a
///   `TraceError` naming the file and line, and no partial trace escapes.
///
/// A hand-written scanner walks each line in place (no `JSONSerialization`, no `Any`),
/// so a 100k-line trace reads in well under a second in release builds.
package enum TraceReader {
    /// The longest line accepted, in bytes (without its newline): 64 KiB.
    package static let maximumLineBytes = 65_536

    /// Reads the trace at `path`; errors name the file as `path` was given.
    package static func read(path: String) throws(TraceError) -> Trace {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw TraceError.io(file: path, message: "cannot read trace: \(ioErrorReason(error))")
        }
        let result = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<Trace, TraceError> in
            do throws(TraceError) { return .success(try parse(bytes: raw, name: path)) } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses trace text; `name` is used in error messages in place of a file name.
    package static func parse(text: String, name: String = "<trace>") throws(TraceError) -> Trace {
        var text = text
        let result = text.withUTF8 { (utf8: UnsafeBufferPointer<UInt8>) -> Result<Trace, TraceError> in
            do throws(TraceError) {
                return .success(try parse(bytes: UnsafeRawBufferPointer(utf8), name: name))
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses trace bytes (UTF-8); `name` is used in error messages.
    package static func parse(bytes raw: UnsafeRawBufferPointer, name: String) throws(TraceError) -> Trace {
        let bytes = raw.bindMemory(to: UInt8.self)
        var parser = TraceLineParser(name: name)
        var frames: [TouchFrame] = []
        frames.reserveCapacity(max(16, bytes.count / 48))
        var start = 0
        var frame = TouchFrame(timestamp: .zero)
        while start < bytes.count {
            if let newline = parser.feedFast(bytes, from: start, into: &frame) {
                frames.append(frame)
                start = newline + 1
                continue
            }
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            if let frame = try parser.feed(UnsafeBufferPointer(rebasing: bytes[start..<end])) { frames.append(frame) }
            start = end + 1
        }
        return Trace(header: try parser.finish(), frames: frames)
    }

    /// Parses one frame line on its own (no ordering check); `line` is used in errors.
    package static func parseRecord(line text: String, name: String = "<trace>", line: Int = 1) throws(TraceError)
        -> TraceRecord
    {
        var text = text
        let result = text.withUTF8 { (utf8: UnsafeBufferPointer<UInt8>) -> Result<TraceRecord, TraceError> in
            do throws(LineError) {
                return .success(TraceRecord(frame: try parseFrame(utf8, previousTime: nil), line: line))
            } catch {
                return .failure(TraceError.invalidLine(file: name, line: line, message: error.message))
            }
        }
        return try result.get()
    }

    // MARK: - Lines

    static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in line where b != 0x20 && b != 0x09 { return false }
        return true
    }

    static func parseHeader(_ line: UnsafeBufferPointer<UInt8>) throws(LineError) -> TraceHeader {
        var s = JSONLineScanner(line)
        guard s.peekKind() == .object else {
            throw LineError("expected the trace header {\"touchwire_trace\":1,\"panel\":{…}} on the first line")
        }
        try s.beginObject()
        var version: Int64?
        var panel: (Int, Int)?
        var source = ""
        var first = true
        while let key = try s.nextKey(first: &first) {
            switch key {
            case "touchwire_trace":
                guard s.peekKind() == .number, let v = try s.parseNumber().integer else {
                    throw LineError("\"touchwire_trace\" must be the integer 1")
                }
                version = v
            case "panel":
                panel = try parsePanel(&s)
            case "source":
                if s.skipNull() { break }
                guard s.peekKind() == .string else { throw LineError("\"source\" must be a string") }
                source = try s.parseString()
            default:
                try s.skipValue()
            }
        }
        try s.expectEnd()
        guard let version else {
            throw LineError(
                "not a touchwire trace: the header lacks \"touchwire_trace\":1 (the first line must be the header)")
        }
        guard version == Int64(TraceHeader.formatVersion) else {
            throw LineError(
                "unsupported trace version \(version) (this reader knows version \(TraceHeader.formatVersion))")
        }
        guard let panel else { throw LineError("the header lacks \"panel\":{\"width\":…,\"height\":…}") }
        return TraceHeader(panelWidth: panel.0, panelHeight: panel.1, source: source)
    }

    private static func parsePanel(_ s: inout JSONLineScanner) throws(LineError) -> (Int, Int) {
        guard s.peekKind() == .object else {
            throw LineError("\"panel\" must be an object {\"width\":…,\"height\":…}")
        }
        try s.beginObject()
        var width: Int?
        var height: Int?
        var first = true
        while let key = try s.nextKey(first: &first) {
            switch key {
            case "width", "height":
                guard s.peekKind() == .number, let v = try s.parseNumber().integer, v > 0, v <= 65_535 else {
                    throw LineError("panel \"\(key)\" must be a positive integer")
                }
                if key == "width" { width = Int(v) } else { height = Int(v) }
            default:
                try s.skipValue(depth: 1)
            }
        }
        guard let width else { throw LineError("panel lacks \"width\"") }
        guard let height else { throw LineError("panel lacks \"height\"") }
        return (width, height)
    }

    static func parseFrame(_ line: UnsafeBufferPointer<UInt8>, previousTime: Int64?) throws(LineError)
        -> TouchFrame
    {
        var s = JSONLineScanner(line)
        guard s.peekKind() == .object else {
            throw LineError("a frame must be a JSON object {\"t_us\":…,\"contacts\":[…]}")
        }
        try s.beginObject()
        var time: Int64?
        var cancel = false
        var frame = TouchFrame(timestamp: .zero)
        var sawContacts = false
        var first = true
        while let key = try s.nextFrameKey(first: &first) {
            switch key {
            case .tUs:
                guard s.peekKind() == .number else { throw LineError("\"t_us\" must be an integer") }
                let n = try s.parseNumber()
                guard let t = n.integer else {
                    if n.value == n.value.rounded() {
                        throw LineError("\"t_us\" is out of range: at most 9200000000000000000 µs, got \(n.value)")
                    }
                    throw LineError("\"t_us\" must be an integer")
                }
                time = t
            case .cancel:
                guard s.peekKind() == .bool else { throw LineError("\"cancel\" must be true or false") }
                cancel = try s.parseBool()
            case .contacts:
                sawContacts = true
                try parseContacts(&s, into: &frame)
            default:
                try s.skipValue()
            }
        }
        try s.expectEnd()
        guard let time else { throw LineError("missing \"t_us\"") }
        if let previousTime, time < previousTime {
            throw LineError(
                "\"t_us\" \(time) is earlier than the previous frame's \(previousTime) (must be non-decreasing)")
        }
        if cancel { return .cancel(at: Instant(microseconds: time)) }
        guard sawContacts else { throw LineError("missing \"contacts\" (use [] when every finger is up)") }
        frame.timestamp = Instant(microseconds: time)
        return frame
    }

    private static func parseContacts(_ s: inout JSONLineScanner, into frame: inout TouchFrame) throws(LineError) {
        guard s.peekKind() == .array else { throw LineError("\"contacts\" must be an array") }
        try s.beginArray()
        var first = true
        var index = 0
        while try s.nextElement(first: &first) {
            guard s.peekKind() == .object else {
                throw LineError("contact \(index) must be an object {\"id\":…,\"x\":…,\"y\":…}")
            }
            guard !frame.isFull else { throw LineError("more than \(TouchFrame.capacity) contacts in one frame") }
            let contact = try parseContact(&s, index: index)
            if frame.contact(withID: contact.id) != nil {
                throw LineError("duplicate contact id \(contact.id) in one frame")
            }
            frame.append(contact)
            index += 1
        }
    }

    private static func parseContact(_ s: inout JSONLineScanner, index: Int) throws(LineError) -> Contact {
        try s.beginObject()
        var id: UInt8?
        var x: Double?
        var y: Double?
        var pressure: UInt16 = 0
        var area: UInt16 = 0
        var first = true
        while let key = try s.nextFrameKey(first: &first) {
            switch key {
            case .id:
                guard s.peekKind() == .number, let v = try s.parseNumber().integer, v >= 0, v <= 9 else {
                    throw LineError("\"id\" must be an integer 0…9")
                }
                id = UInt8(v)
            case .x, .y:
                let name = key == .x ? "x" : "y"
                guard s.peekKind() == .number else { throw LineError("\"\(name)\" must be a number") }
                let v = try s.parseNumber().value
                if key == .x { x = v } else { y = v }
            case .p, .area:
                let name = key == .p ? "p" : "area"
                if s.skipNull() { break }
                guard s.peekKind() == .number else { throw LineError("\"\(name)\" must be a number") }
                let v = try s.parseNumber().value
                guard v >= 0, v <= 65_535 else { throw LineError("\"\(name)\" must be between 0 and 65535") }
                if key == .p { pressure = UInt16(v.rounded()) } else { area = UInt16(v.rounded()) }
            default:
                try s.skipValue(depth: 2)
            }
        }
        guard let id else { throw LineError("contact \(index) lacks \"id\"") }
        guard let x else { throw LineError("contact \(index) lacks \"x\"") }
        guard let y else { throw LineError("contact \(index) lacks \"y\"") }
        return Contact(id: id, position: Point(x: x, y: y), pressure: pressure, area: area)
    }
}
