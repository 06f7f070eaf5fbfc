import TouchCore

/// One pass over the bytes of a frame line of the usual shape — what `TraceWriter`, `record`
/// and the data sets write:
///
///     {"t_us": 1013000, "contacts": [{"id": 0, "x": 67, "y": 228, "p": 12}]}
///
/// It finds the line's end as it goes (no separate newline scan), builds no String, boxes
/// nothing and allocates nothing. It only *accepts*: anything it does not recognise — a key
/// other than `t_us`/`contacts` (or `id`/`x`/`y`/`p`/`area` in a contact), a repeated key, an
/// escape in a key, `cancel`, `null`, an exponent, a number it cannot convert exactly, more than
/// ten contacts, a repeated id, time going back, a line over the length limit, the end of the
/// bytes before a `\n` — makes it answer nil, and the caller parses the same line with the
/// general scanner (`TraceReader.parseFrame`), which gives the same frame or the one exact error
/// message. So the fast path changes speed only, never what is accepted or what an error says;
/// `FrameLineFastPathTests` and the trace fuzz target check that it agrees with the general path.
///
/// Numbers are converted exactly as the general path converts them: an integer token of at
/// most 18 characters through `Int64` (so `-0` is 0.0), a decimal with at most 15 digits and no
/// exponent as `Double(m) / 10^k` — both operands exact, one correctly rounded division, the
/// same Double as `strtod` (Clinger's fast path). Other numbers go to the general path.
enum FrameLineFastPath {
    /// The longest digit run kept in an Int64 (as `JSONLineScanner.parseNumber`).
    static let maximumIntegerToken = 18
    /// 10^0 … 10^15, exact in a Double.
    static let powers: InlineArray<16, Double> = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ]

    /// Parses the frame line that begins at `bytes[start]` and ends at the first `\n` before
    /// `bytes.count`, into `frame`. Returns the index of that `\n`, or nil when the line is not
    /// of the usual shape (then `frame` holds garbage and the caller takes the general path).
    /// `previousTime`: the previous frame's `t_us`, for the non-decreasing rule.
    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, previousTime: Int64?, into frame: inout TouchFrame
    ) -> Int? {
        var s = Cursor(bytes: bytes, position: start)
        guard s.take(UInt8(ascii: "{")) else { return nil }
        var time: Int64?
        var sawContacts = false
        var first = true
        while true {
            s.skipSpace()
            if s.take(UInt8(ascii: "}")) { break }
            if !first {
                guard s.take(UInt8(ascii: ",")) else { return nil }
                s.skipSpace()
            }
            first = false
            guard let key = s.key() else { return nil }
            switch key {
            case .tUs:
                guard time == nil, let t = s.integer() else { return nil }
                time = t
            case .contacts:
                guard !sawContacts, s.contacts(into: &frame) else { return nil }
                sawContacts = true
            default:
                return nil
            }
        }
        s.skipSpace()
        guard s.position < bytes.count, bytes[s.position] == 0x0A else { return nil }
        guard let time, sawContacts, s.position - start <= TraceReader.maximumLineBytes else { return nil }
        if let previousTime, time < previousTime { return nil }
        frame.timestamp = Instant(microseconds: time)
        return s.position
    }

    /// The scanner state: bounds-checked reads of `bytes` from `position`.
    struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var position: Int

        /// Skips JSON whitespace other than `\n` (the line's end).
        @inline(__always) mutating func skipSpace() {
            while position < bytes.count {
                let b = bytes[position]
                guard b == 0x20 || b == 0x09 || b == 0x0D else { return }
                position += 1
            }
        }

        /// Consumes `byte` after whitespace; false (nothing consumed but the whitespace) otherwise.
        @inline(__always) mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// One of the frame's keys, written plainly, and its `:`; nil for any other key (an
        /// unknown key, an escape: the general path's business). Matched on its bytes in place.
        mutating func key() -> JSONLineScanner.FrameKey? {
            guard take(UInt8(ascii: "\"")), position < bytes.count else { return nil }
            let key: JSONLineScanner.FrameKey
            switch bytes[position] {
            case UInt8(ascii: "x"): key = .x
            case UInt8(ascii: "y"): key = .y
            case UInt8(ascii: "p"): key = .p
            case UInt8(ascii: "i"): key = rest("d\"") ? .id : .other
            case UInt8(ascii: "t"): key = rest("_us\"") ? .tUs : .other
            case UInt8(ascii: "c"): key = rest("ontacts\"") ? .contacts : .other
            case UInt8(ascii: "a"): key = rest("rea\"") ? .area : .other
            default: return nil
            }
            if key == .other { return nil }
            if key == .x || key == .y || key == .p {
                guard position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "\"") else { return nil }
                position += 2
            }
            guard take(UInt8(ascii: ":")) else { return nil }
            return key
        }

        /// The bytes after the key's first byte are `literal` (closing quote included): consumes
        /// the key and its quote and returns true; otherwise consumes nothing.
        @inline(__always) mutating func rest(_ literal: StaticString) -> Bool {
            let n = literal.utf8CodeUnitCount
            guard position + 1 + n <= bytes.count else { return false }
            let p = literal.utf8Start
            var i = 0
            while i < n {
                if bytes[position + 1 + i] != p[i] { return false }
                i += 1
            }
            position += 1 + n
            return true
        }

        /// An integer token of at most 18 characters, exactly; nil for anything else.
        mutating func integer() -> Int64? {
            skipSpace()
            let tokenStart = position
            let negative = position < bytes.count && bytes[position] == UInt8(ascii: "-")
            if negative { position += 1 }
            let digitsStart = position
            var v: Int64 = 0
            while position < bytes.count {
                let d = bytes[position] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                v = v &* 10 &+ Int64(d)
                position += 1
            }
            let digits = position - digitsStart
            guard digits > 0, position - tokenStart <= FrameLineFastPath.maximumIntegerToken else { return nil }
            // A leading zero, a fraction or an exponent: the general path's grammar and conversion.
            if digits > 1 && bytes[digitsStart] == UInt8(ascii: "0") { return nil }
            if position < bytes.count {
                let b = bytes[position]
                if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") { return nil }
            }
            return negative ? -v : v
        }

        /// A number converted exactly as the general path converts it; nil when it is not one
        /// of the two exact forms (see the type's documentation).
        mutating func number() -> Double? {
            skipSpace()
            let tokenStart = position
            let negative = position < bytes.count && bytes[position] == UInt8(ascii: "-")
            if negative { position += 1 }
            let digitsStart = position
            var m: Int64 = 0
            while position < bytes.count {
                let d = bytes[position] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                m = m &* 10 &+ Int64(d)
                position += 1
            }
            let intDigits = position - digitsStart
            guard intDigits > 0 else { return nil }
            if intDigits > 1 && bytes[digitsStart] == UInt8(ascii: "0") { return nil }
            var fraction = 0
            if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
                position += 1
                let fractionStart = position
                while position < bytes.count {
                    let d = bytes[position] &- UInt8(ascii: "0")
                    guard d < 10 else { break }
                    m = m &* 10 &+ Int64(d)
                    position += 1
                }
                fraction = position - fractionStart
                guard fraction > 0 else { return nil }
            }
            if position < bytes.count && (bytes[position] | 0x20) == UInt8(ascii: "e") { return nil }
            if fraction == 0 {
                // As `parseNumber`: an integer token goes through Int64 (so "-0" is +0.0).
                guard position - tokenStart <= FrameLineFastPath.maximumIntegerToken else { return nil }
                return Double(negative ? -m : m)
            }
            guard intDigits + fraction <= 15 else { return nil }
            let v = Double(m) / FrameLineFastPath.powers[fraction]
            return negative ? -v : v
        }

        /// `[` contacts `]` into `frame` (emptied first); false on anything unusual.
        mutating func contacts(into frame: inout TouchFrame) -> Bool {
            frame = TouchFrame(timestamp: .zero)
            guard take(UInt8(ascii: "[")) else { return false }
            var first = true
            while true {
                skipSpace()
                if take(UInt8(ascii: "]")) { return true }
                if !first {
                    guard take(UInt8(ascii: ",")) else { return false }
                }
                first = false
                guard !frame.isFull, let contact = contact(), frame.contact(withID: contact.id) == nil else {
                    return false
                }
                frame.append(contact)
            }
        }

        /// One `{id, x, y, p?, area?}` object; nil on anything unusual.
        mutating func contact() -> Contact? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var id: Int64 = -1
            var x = Double.nan
            var y = Double.nan
            var pressure: Int = -1
            var area: Int = -1
            var first = true
            while true {
                skipSpace()
                if take(UInt8(ascii: "}")) { break }
                if !first {
                    guard take(UInt8(ascii: ",")) else { return nil }
                    skipSpace()
                }
                first = false
                guard let key = key() else { return nil }
                switch key {
                case .id:
                    guard id < 0, let v = integer(), v >= 0, v <= 9 else { return nil }
                    id = v
                case .x:
                    guard x.isNaN, let v = number() else { return nil }
                    x = v
                case .y:
                    guard y.isNaN, let v = number() else { return nil }
                    y = v
                case .p, .area:
                    guard let v = number(), v >= 0, v <= 65_535 else { return nil }
                    let rounded = Int(v.rounded())
                    if key == .p {
                        guard pressure < 0 else { return nil }
                        pressure = rounded
                    } else {
                        guard area < 0 else { return nil }
                        area = rounded
                    }
                default:
                    return nil
                }
            }
            guard id >= 0, !x.isNaN, !y.isNaN else { return nil }
            return Contact(
                id: UInt8(id), position: Point(x: x, y: y), pressure: UInt16(max(pressure, 0)),
                area: UInt16(max(area, 0)))
        }
    }
}
