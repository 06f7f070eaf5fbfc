/// What is wrong with one line; the reader adds the file name and line number.
struct LineError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// The JSON type of the value at the scanner's position, for "must be a …" messages.
enum JSONKind {
    case object, array, string, number, bool, null, invalid
}

/// A small JSON scanner over the UTF-8 bytes of one trace line.
///
/// A trace line is a flat object with one nested array of small objects, so the reader
/// walks it directly instead of building a tree: keys it knows are decoded in place,
/// any other value is validated and skipped. This is what keeps a 100k-line trace fast
/// (no `Any` boxing, no per-value allocation; keys and numbers fit in small strings).
/// Any byte sequence ends in a value or a `LineError`, never a crash: every access is
/// bounds-checked and nesting is limited to `maxDepth`.
struct JSONLineScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position = 0
    /// Deeper nesting in an ignored value is rejected rather than recursed into.
    static let maxDepth = 32

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private var column: Int { position + 1 }

    private func peekByte() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "end of line" }
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    func malformed(_ expected: String) -> LineError {
        LineError("malformed JSON: expected \(expected) at column \(column), found \(describe(peekByte()))")
    }

    mutating func expect(_ byte: UInt8, _ name: String) throws(LineError) {
        skipWhitespace()
        guard peekByte() == byte else { throw malformed(name) }
        position += 1
    }

    /// The kind of the next value (after whitespace), without consuming it.
    mutating func peekKind() -> JSONKind {
        skipWhitespace()
        guard let b = peekByte() else { return .invalid }
        switch b {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: return .invalid
        }
    }

    /// Requires that only whitespace is left on the line.
    mutating func expectEnd() throws(LineError) {
        skipWhitespace()
        guard position == bytes.count else { throw malformed("end of line after the object") }
    }

    // MARK: Objects and arrays

    /// Consumes `{`.
    mutating func beginObject() throws(LineError) { try expect(UInt8(ascii: "{"), "'{'") }

    /// The next key of the current object, or nil after consuming its `}`.
    /// `first` is true before the first key and is cleared by the call.
    mutating func nextKey(first: inout Bool) throws(LineError) -> String? {
        skipWhitespace()
        if peekByte() == UInt8(ascii: "}") {
            // A trailing comma never gets here: after ',' a key string is required.
            position += 1
            return nil
        }
        if !first {
            guard peekByte() == UInt8(ascii: ",") else { throw malformed("',' or '}'") }
            position += 1
            skipWhitespace()
        }
        first = false
        guard peekByte() == UInt8(ascii: "\"") else { throw malformed("a key string") }
        let key = try parseString()
        try expect(UInt8(ascii: ":"), "':'")
        return key
    }

    /// Consumes `[`.
    mutating func beginArray() throws(LineError) { try expect(UInt8(ascii: "["), "'['") }

    /// True when another element follows (its separator consumed); false after consuming `]`.
    mutating func nextElement(first: inout Bool) throws(LineError) -> Bool {
        skipWhitespace()
        if peekByte() == UInt8(ascii: "]") {
            position += 1
            return false
        }
        if !first {
            guard peekByte() == UInt8(ascii: ",") else { throw malformed("',' or ']'") }
            position += 1
        }
        first = false
        return true
    }

    // MARK: Scalars

    /// Parses a JSON string (escapes included) starting at `"`.
    /// The keys of a frame line, matched on the key's bytes: no String is built per key.
    enum FrameKey { case tUs, contacts, cancel, id, x, y, p, area, other }

    /// `nextKey`, classified as a frame key (a key written with escapes is decoded, then classified).
    mutating func nextFrameKey(first: inout Bool) throws(LineError) -> FrameKey? {
        skipWhitespace()
        if peekByte() == UInt8(ascii: "}") {
            position += 1
            return nil
        }
        if !first {
            guard peekByte() == UInt8(ascii: ",") else { throw malformed("',' or '}'") }
            position += 1
            skipWhitespace()
        }
        first = false
        guard peekByte() == UInt8(ascii: "\"") else { throw malformed("a key string") }
        let saved = position
        try expect(UInt8(ascii: "\""), "'\"'")
        let start = position
        var key = FrameKey.other
        while let b = peekByte(), b != UInt8(ascii: "\""), b != UInt8(ascii: "\\"), b >= 0x20 { position += 1 }
        if peekByte() == UInt8(ascii: "\"") {
            key = Self.classify(UnsafeBufferPointer(rebasing: bytes[start..<position]))
            position += 1
        } else {
            // An escape, a control character or the end of the line: the general path (and its errors).
            position = saved
            let text = try parseString()
            var copy = text
            key = copy.withUTF8 { Self.classify($0) }
        }
        try expect(UInt8(ascii: ":"), "':'")
        return key
    }

    /// The frame key a key's raw bytes name (`.other` for any other key): compared byte by byte,
    /// by length first (no String, no generic sequence comparison).
    static func classify(_ k: UnsafeBufferPointer<UInt8>) -> FrameKey {
        switch k.count {
        case 1:
            switch k[0] {
            case UInt8(ascii: "x"): return .x
            case UInt8(ascii: "y"): return .y
            case UInt8(ascii: "p"): return .p
            default: return .other
            }
        case 2: return k[0] == UInt8(ascii: "i") && k[1] == UInt8(ascii: "d") ? .id : .other
        case 4:
            if k[0] == UInt8(ascii: "t") && k[1] == UInt8(ascii: "_") && k[2] == UInt8(ascii: "u")
                && k[3] == UInt8(ascii: "s")
            {
                return .tUs
            }
            if k[0] == UInt8(ascii: "a") && k[1] == UInt8(ascii: "r") && k[2] == UInt8(ascii: "e")
                && k[3] == UInt8(ascii: "a")
            {
                return .area
            }
            return .other
        case 6: return matches(k, "cancel") ? .cancel : .other
        case 8: return matches(k, "contacts") ? .contacts : .other
        default: return .other
        }
    }

    /// `k` holds exactly the bytes of `literal` (same length checked by the caller).
    private static func matches(_ k: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        let p = literal.utf8Start
        var i = 0
        while i < k.count {
            if k[i] != p[i] { return false }
            i += 1
        }
        return true
    }

    mutating func parseString() throws(LineError) -> String {
        try expect(UInt8(ascii: "\""), "'\"'")
        let start = position
        var hasEscape = false
        while true {
            guard let b = peekByte() else { throw LineError("malformed JSON: unterminated string") }
            if b == UInt8(ascii: "\"") { break }
            if b < 0x20 { throw LineError("malformed JSON: control character in string at column \(column)") }
            if b == UInt8(ascii: "\\") {
                hasEscape = true
                position += 1
                guard peekByte() != nil else { throw LineError("malformed JSON: unterminated string") }
            }
            position += 1
        }
        let end = position
        position += 1  // closing quote
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if !hasEscape { return String(decoding: raw, as: UTF8.self) }
        return try Self.unescape(raw, column: start + 1)
    }

    private static func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private static func unescape(_ raw: UnsafeBufferPointer<UInt8>, column: Int) throws(LineError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= raw.count else { return nil }
            var v: UInt32 = 0
            for k in at..<(at + 4) {
                guard let h = hexValue(raw[k]) else { return nil }
                v = v << 4 | h
            }
            return v
        }
        while i < raw.count {
            let b = raw[i]
            guard b == UInt8(ascii: "\\"), i + 1 < raw.count else {
                out.append(b)
                i += 1
                continue
            }
            let e = raw[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(i) else {
                    throw LineError("malformed JSON: bad \\u escape in string at column \(column + i)")
                }
                i += 4
                if scalar >= 0xD800 && scalar < 0xDC00, i + 6 <= raw.count, raw[i] == UInt8(ascii: "\\"),
                    raw[i + 1] == UInt8(ascii: "u"), let low = hex4(i + 2), low >= 0xDC00 && low < 0xE000
                {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                let s = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(s)).utf8))
            default:
                throw LineError("malformed JSON: bad escape in string at column \(column + i - 1)")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A parsed JSON number: its value, and its exact integer value when it has one.
    struct Number {
        var value: Double
        /// Set when the number is integral and fits in Int64.
        var integer: Int64?
    }

    /// Parses a JSON number (strict grammar: no leading `+`, no leading zeros, no `.5`).
    mutating func parseNumber() throws(LineError) -> Number {
        skipWhitespace()
        let start = position
        func isDigit(_ b: UInt8?) -> Bool {
            guard let b else { return false }
            return b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")
        }
        if peekByte() == UInt8(ascii: "-") { position += 1 }
        guard isDigit(peekByte()) else { throw malformed("a number") }
        if peekByte() == UInt8(ascii: "0") {
            position += 1
        } else {
            while isDigit(peekByte()) { position += 1 }
        }
        var integral = true
        if peekByte() == UInt8(ascii: ".") {
            integral = false
            position += 1
            guard isDigit(peekByte()) else { throw malformed("a digit after '.'") }
            while isDigit(peekByte()) { position += 1 }
        }
        if peekByte() == UInt8(ascii: "e") || peekByte() == UInt8(ascii: "E") {
            integral = false
            position += 1
            if peekByte() == UInt8(ascii: "+") || peekByte() == UInt8(ascii: "-") { position += 1 }
            guard isDigit(peekByte()) else { throw malformed("a digit in the exponent") }
            while isDigit(peekByte()) { position += 1 }
        }
        let token = UnsafeBufferPointer(rebasing: bytes[start..<position])
        if integral && token.count <= 18 {
            // Exact and fast: at most 18 digits cannot overflow Int64.
            var v: Int64 = 0
            var negative = false
            for b in token {
                if b == UInt8(ascii: "-") { negative = true } else { v = v * 10 + Int64(b - UInt8(ascii: "0")) }
            }
            if negative { v = -v }
            return Number(value: Double(v), integer: v)
        }
        guard let d = Double(String(decoding: token, as: UTF8.self)), d.isFinite else {
            throw LineError("number out of range at column \(start + 1)")
        }
        var integer: Int64?
        if d == d.rounded(), abs(d) < 9.2e18 { integer = Int64(d) }
        return Number(value: d, integer: integer)
    }

    /// Parses `true` or `false`.
    mutating func parseBool() throws(LineError) -> Bool {
        if matchLiteral("true") { return true }
        if matchLiteral("false") { return false }
        throw malformed("true or false")
    }

    private mutating func matchLiteral(_ literal: StaticString) -> Bool {
        skipWhitespace()
        let n = literal.utf8CodeUnitCount
        guard position + n <= bytes.count else { return false }
        let p = literal.utf8Start
        for k in 0..<n where bytes[position + k] != p[k] { return false }
        position += n
        return true
    }

    /// Validates and skips any value (used for unknown keys).
    mutating func skipValue(depth: Int = 0) throws(LineError) {
        guard depth < Self.maxDepth else { throw LineError("JSON nested too deeply at column \(column)") }
        switch peekKind() {
        case .object:
            try beginObject()
            var first = true
            while try nextKey(first: &first) != nil { try skipValue(depth: depth + 1) }
        case .array:
            try beginArray()
            var first = true
            while try nextElement(first: &first) { try skipValue(depth: depth + 1) }
        case .string: _ = try parseString()
        case .number: _ = try parseNumber()
        case .bool: _ = try parseBool()
        case .null:
            guard matchLiteral("null") else { throw malformed("null") }
        case .invalid: throw malformed("a value")
        }
    }

    /// Consumes `null` if it is next; returns whether it did.
    mutating func skipNull() -> Bool {
        guard peekKind() == .null else { return false }
        return matchLiteral("null")
    }
}
