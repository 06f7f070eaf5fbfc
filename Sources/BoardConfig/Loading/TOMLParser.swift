/// A TOML 1.0 parser in Swift, straight into `TOMLNode` values.
///
/// It replaces TOMLKit 0.6.0, which leaked the whole parsed tree on every parse (its `TOMLTable`
/// has no `deinit` and its C layer no function that deletes a table) plus a `malloc`ed copy of
/// every key list, string, integer and float it was asked for: about 12 KB per load of a
/// 60-line board, 1.9 MB for a 100 KB one, so every SIGHUP reload grew the service
/// (docs/RELIABILITY.md, class 4). Everything here is a Swift value, freed with the result.
///
/// The contract: `parse` returns the root table of a valid document, or throws one
/// `TOMLNode.SyntaxError` naming the first problem with its 1-based line and column. It reads the
/// whole TOML 1.0 grammar: bare, quoted and dotted keys; the four kinds of strings with their
/// escapes; decimal, hexadecimal, octal and binary integers (64-bit, an overflow is an error);
/// floats with `inf`/`nan` (a finite literal out of `Double`'s range is an error); booleans;
/// offset and local dates and times (kept as `.other` with their type name, since no board key
/// takes one); arrays, inline tables, `[table]` and `[[array of tables]]` headers, with the
/// spec's rules on defining a table twice. Nesting is bounded by `BoardInputBounds.maximumNesting`
/// and dotted keys by `maximumKeyParts`, so no input can exhaust the stack.
struct TOMLParser {
    private let s: [UInt8]
    private var i = 0

    /// How a table came to be, for the rules on defining it again.
    private enum Origin {
        /// Created as the parent of a header (`[a.b]` creates `a`): a later `[a]` may define it.
        case implicit
        /// Defined by its own `[header]`.
        case header
        /// Created by a dotted key (`a.b = 1` creates `a`): no header may define it.
        case dotted
    }

    /// The tree while it is built: tables remember their origin, arrays whether they are `[[…]]`;
    /// an inline table is a finished `.value(.table)`, so nothing can be added to it.
    private indirect enum Node {
        case table(Table)
        case arrayOfTables([Table])
        case value(TOMLNode)
    }

    private struct Table {
        var origin: Origin
        var entries: [String: Node] = [:]
    }

    /// Parses `text` (which must not contain a NUL byte; `TOMLNode.parse` checks that first).
    static func parse(_ text: String) throws(TOMLNode.SyntaxError) -> [String: TOMLNode] {
        var parser = TOMLParser(s: Array(text.utf8))
        return try parser.document()
    }

    private init(s: [UInt8]) { self.s = s }

    // MARK: - Errors

    private func error(_ message: String, at position: Int? = nil) -> TOMLNode.SyntaxError {
        let p = min(position ?? i, s.count)
        var line = 1
        var lineStart = 0
        for k in 0..<p where s[k] == 0x0A {
            line += 1
            lineStart = k + 1
        }
        // The column counts characters (UTF-8 lead bytes), 1-based.
        var column = 1
        for k in lineStart..<p where s[k] & 0xC0 != 0x80 { column += 1 }
        return TOMLNode.SyntaxError(message: "TOML syntax error: " + message, line: line, column: column)
    }

    /// The character at `p` for messages: `"x"`, or "the end of the file".
    private func describe(_ p: Int) -> String {
        guard p < s.count else { return "the end of the file" }
        let b = s[p]
        if b == 0x0A || b == 0x0D { return "the end of the line" }
        if b >= 0x20 && b < 0x7F { return "\"\(Character(Unicode.Scalar(b)))\"" }
        return "a byte 0x" + String(b, radix: 16)
    }

    // MARK: - Characters

    private var atEnd: Bool { i >= s.count }
    private func peek(_ offset: Int = 0) -> UInt8? { i + offset < s.count ? s[i + offset] : nil }

    private static func isBare(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F || b == 0x2D
    }
    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    private mutating func skipBlanks() {
        while let b = peek(), b == 0x20 || b == 0x09 { i += 1 }
    }

    /// Skips a comment up to (not including) the newline; control characters other than tab are refused.
    private mutating func skipComment() throws(TOMLNode.SyntaxError) {
        guard peek() == 0x23 else { return }
        while let b = peek(), b != 0x0A {
            if b == 0x0D && peek(1) == 0x0A { return }
            if (b < 0x20 && b != 0x09) || b == 0x7F { throw error("a control character in a comment") }
            i += 1
        }
    }

    /// Consumes a newline (LF or CRLF) if one is next.
    private mutating func newline() -> Bool {
        if peek() == 0x0A {
            i += 1
            return true
        }
        if peek() == 0x0D && peek(1) == 0x0A {
            i += 2
            return true
        }
        return false
    }

    /// After a value or a header: blanks, an optional comment, then a newline or the end.
    private mutating func endOfLine(after what: String) throws(TOMLNode.SyntaxError) {
        skipBlanks()
        try skipComment()
        if atEnd || newline() { return }
        throw error("expected the end of the line after \(what), got \(describe(i))")
    }

    /// Blanks, comments and newlines (inside arrays).
    private mutating func skipBlanksCommentsAndNewlines() throws(TOMLNode.SyntaxError) {
        while true {
            skipBlanks()
            try skipComment()
            if !newline() { return }
        }
    }

    // MARK: - Document

    private mutating func document() throws(TOMLNode.SyntaxError) -> [String: TOMLNode] {
        var root = Table(origin: .header)
        /// The key path of the current table, and whether it is the last element of an array of tables.
        var current: [String] = []
        while !atEnd {
            skipBlanks()
            try skipComment()
            if atEnd { break }
            if newline() { continue }
            if peek() == 0x5B {  // [
                let start = i
                let isArray = peek(1) == 0x5B
                i += isArray ? 2 : 1
                skipBlanks()
                let path = try key()
                skipBlanks()
                if isArray {
                    guard peek() == 0x5D, peek(1) == 0x5D else {
                        throw error("expected \"]]\" to close the header, got \(describe(i))")
                    }
                    i += 2
                } else {
                    guard peek() == 0x5D else { throw error("expected \"]\" to close the header, got \(describe(i))") }
                    i += 1
                }
                try define(path, arrayOfTables: isArray, in: &root, at: start)
                current = path
                try endOfLine(after: "a table header")
                continue
            }
            let start = i
            let path = try key()
            skipBlanks()
            guard peek() == 0x3D else { throw error("expected \"=\" after a key, got \(describe(i))") }
            i += 1
            skipBlanks()
            let v = try value(depth: 0)
            try insert(v, at: path, under: current, in: &root, at: start)
            try endOfLine(after: "a value")
        }
        return Self.finish(root)
    }

    private static func finish(_ table: Table) -> [String: TOMLNode] {
        var out: [String: TOMLNode] = [:]
        out.reserveCapacity(table.entries.count)
        for (k, node) in table.entries { out[k] = finish(node) }
        return out
    }

    private static func finish(_ node: Node) -> TOMLNode {
        switch node {
        case .table(let t): .table(finish(t))
        case .arrayOfTables(let ts): .array(ts.map { .table(finish($0)) })
        case .value(let v): v
        }
    }

    // MARK: - Tables

    private func joined(_ path: [String]) -> String {
        path.map { $0.isEmpty || !$0.utf8.allSatisfy(Self.isBare) ? "\"\($0)\"" : $0 }.joined(separator: ".")
    }

    /// Walks `path` from `table`, creating what is missing as `origin` tables, and calls `body`
    /// with the table at its end. Arrays of tables lead into their last element.
    private func walk<R>(
        _ path: ArraySlice<String>, in table: inout Table, creating origin: Origin, full: [String], at start: Int,
        allowDotted: Bool, _ body: (inout Table) throws(TOMLNode.SyntaxError) -> R
    ) throws(TOMLNode.SyntaxError) -> R {
        guard let first = path.first else { return try body(&table) }
        let rest = path.dropFirst()
        switch table.entries[first] {
        case nil:
            var child = Table(origin: origin)
            let r = try walk(
                rest, in: &child, creating: origin, full: full, at: start, allowDotted: allowDotted, body)
            table.entries[first] = .table(child)
            return r
        case .table(var child):
            if !allowDotted && child.origin == .header && origin == .dotted {
                throw error("\(joined(full)): the table \(first) is defined by a header elsewhere", at: start)
            }
            table.entries[first] = nil  // keep `child` uniquely referenced while it is changed
            defer { table.entries[first] = .table(child) }
            return try walk(rest, in: &child, creating: origin, full: full, at: start, allowDotted: allowDotted, body)
        case .arrayOfTables(var tables):
            guard origin != .dotted, !tables.isEmpty else {
                throw error("\(joined(full)): \(first) is an array of tables", at: start)
            }
            table.entries[first] = nil
            defer { table.entries[first] = .arrayOfTables(tables) }
            return try walk(
                rest, in: &tables[tables.count - 1], creating: origin, full: full, at: start, allowDotted: allowDotted,
                body)
        case .value:
            throw error("\(joined(full)): \(first) is already a value, not a table", at: start)
        }
    }

    /// A `[path]` or `[[path]]` header.
    private func define(_ path: [String], arrayOfTables: Bool, in root: inout Table, at start: Int)
        throws(TOMLNode.SyntaxError)
    {
        guard let last = path.last else { return }
        try walk(path.dropLast(), in: &root, creating: .implicit, full: path, at: start, allowDotted: true) {
            (parent: inout Table) throws(TOMLNode.SyntaxError) in
            switch parent.entries[last] {
            case nil:
                parent.entries[last] =
                    arrayOfTables ? .arrayOfTables([Table(origin: .header)]) : .table(Table(origin: .header))
            case .table(var t) where !arrayOfTables && t.origin == .implicit:
                t.origin = .header
                parent.entries[last] = .table(t)
            case .arrayOfTables(var tables) where arrayOfTables:
                parent.entries[last] = nil
                tables.append(Table(origin: .header))
                parent.entries[last] = .arrayOfTables(tables)
            case .arrayOfTables:
                throw self.error("[\(self.joined(path))] is already an array of tables ([[…]])", at: start)
            case .table:
                throw self.error("the table [\(self.joined(path))] is defined twice", at: start)
            case .value:
                throw self.error("\(self.joined(path)) is already a value, not a table", at: start)
            }
        }
    }

    /// A `key = value` line in the table at `current`.
    private func insert(_ v: TOMLNode, at key: [String], under current: [String], in root: inout Table, at start: Int)
        throws(TOMLNode.SyntaxError)
    {
        guard let last = key.last else { return }
        let full = current + key
        try walk(current[...], in: &root, creating: .implicit, full: full, at: start, allowDotted: true) {
            (table: inout Table) throws(TOMLNode.SyntaxError) in
            try self.walk(key.dropLast(), in: &table, creating: .dotted, full: full, at: start, allowDotted: false) {
                (parent: inout Table) throws(TOMLNode.SyntaxError) in
                guard parent.entries[last] == nil else {
                    throw self.error("the key \(self.joined(full)) is defined twice", at: start)
                }
                parent.entries[last] = .value(v)
            }
        }
    }

    // MARK: - Keys

    /// A dotted key: bare or quoted parts separated by `.`, with blanks around the dots.
    private mutating func key() throws(TOMLNode.SyntaxError) -> [String] {
        var parts: [String] = []
        while true {
            guard parts.count < BoardInputBounds.maximumKeyParts else {
                throw error("a key with more than \(BoardInputBounds.maximumKeyParts) dotted parts")
            }
            parts.append(try simpleKey())
            skipBlanks()
            guard peek() == 0x2E else { return parts }
            i += 1
            skipBlanks()
        }
    }

    private mutating func simpleKey() throws(TOMLNode.SyntaxError) -> String {
        switch peek() {
        case 0x22:
            if peek(1) == 0x22 && peek(2) == 0x22 { throw error("a key cannot be a multi-line string") }
            return try basicString()
        case 0x27:
            if peek(1) == 0x27 && peek(2) == 0x27 { throw error("a key cannot be a multi-line string") }
            return try literalString()
        case let b? where Self.isBare(b):
            let start = i
            while let c = peek(), Self.isBare(c) { i += 1 }
            return String(decoding: s[start..<i], as: UTF8.self)
        default:
            throw error("expected a key, got \(describe(i))")
        }
    }

    // MARK: - Values

    private mutating func value(depth: Int) throws(TOMLNode.SyntaxError) -> TOMLNode {
        guard depth < BoardInputBounds.maximumNesting else {
            throw error("arrays or inline tables nested deeper than \(BoardInputBounds.maximumNesting)")
        }
        guard let b = peek() else { throw error("expected a value, got the end of the file") }
        switch b {
        case 0x22:
            if peek(1) == 0x22 && peek(2) == 0x22 { return .string(try multilineBasicString()) }
            return .string(try basicString())
        case 0x27:
            if peek(1) == 0x27 && peek(2) == 0x27 { return .string(try multilineLiteralString()) }
            return .string(try literalString())
        case 0x5B: return try array(depth: depth)
        case 0x7B: return try inlineTable(depth: depth)
        default:
            return try scalar()
        }
    }

    private mutating func array(depth: Int) throws(TOMLNode.SyntaxError) -> TOMLNode {
        i += 1  // [
        var items: [TOMLNode] = []
        while true {
            try skipBlanksCommentsAndNewlines()
            if peek() == 0x5D {
                i += 1
                return .array(items)
            }
            items.append(try value(depth: depth + 1))
            try skipBlanksCommentsAndNewlines()
            if peek() == 0x2C {
                i += 1
                continue
            }
            guard peek() == 0x5D else { throw error("expected \",\" or \"]\" in an array, got \(describe(i))") }
            i += 1
            return .array(items)
        }
    }

    private mutating func inlineTable(depth: Int) throws(TOMLNode.SyntaxError) -> TOMLNode {
        i += 1  // {
        var table = Table(origin: .header)
        skipBlanks()
        if peek() == 0x7D {
            i += 1
            return .table([:])
        }
        while true {
            skipBlanks()
            let start = i
            let path = try key()
            skipBlanks()
            guard peek() == 0x3D else { throw error("expected \"=\" after a key, got \(describe(i))") }
            i += 1
            skipBlanks()
            let v = try value(depth: depth + 1)
            try insert(v, at: path, under: [], in: &table, at: start)
            skipBlanks()
            if peek() == 0x2C {
                i += 1
                continue
            }
            guard peek() == 0x7D else {
                throw error("expected \",\" or \"}\" in an inline table (on one line), got \(describe(i))")
            }
            i += 1
            return .table(Self.finish(table))
        }
    }

    /// Numbers, booleans, dates and times: the bytes up to a delimiter, then classified.
    private mutating func scalar() throws(TOMLNode.SyntaxError) -> TOMLNode {
        let start = i
        while let b = peek() {
            // A space may separate a date from its time (`1979-05-27 07:32:00`).
            if b == 0x20, i - start == 10, let next = peek(1), Self.isDigit(next), Self.looksLikeDate(s[start..<i]) {
                i += 1
                continue
            }
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x2C || b == 0x5D || b == 0x7D || b == 0x23 {
                break
            }
            i += 1
        }
        let token = s[start..<i]
        let text = String(decoding: token, as: UTF8.self)
        guard !token.isEmpty else { throw error("expected a value, got \(describe(i))") }
        if text == "true" { return .bool(true) }
        if text == "false" { return .bool(false) }
        if let kind = Self.dateTimeKind(token) { return .other(kind) }
        if let n = try integer(token, text: text, at: start) { return .integer(n) }
        if let d = try float(token, text: text, at: start) { return .double(d) }
        throw error("\(clipped(text)) is not a value (a string needs quotes)", at: start)
    }

    // MARK: - Numbers

    /// Digits of `radix` with single underscores between them; nil when that is not what `body` is.
    private static func digits(_ body: ArraySlice<UInt8>, radix: Int) -> String? {
        guard let first = body.first, let last = body.last, first != 0x5F, last != 0x5F else { return nil }
        var out = ""
        var previousUnderscore = false
        for b in body {
            if b == 0x5F {
                if previousUnderscore { return nil }
                previousUnderscore = true
                continue
            }
            previousUnderscore = false
            let c = Character(Unicode.Scalar(b))
            guard c.isASCII, c.isHexDigit, let v = c.hexDigitValue, v < radix else { return nil }
            out.append(c)
        }
        return out
    }

    /// An integer, nil when `token` is not one; an overflow throws.
    private func integer(_ token: ArraySlice<UInt8>, text: String, at start: Int) throws(TOMLNode.SyntaxError) -> Int? {
        var body = token
        var negative = false
        if let f = body.first, f == 0x2B || f == 0x2D {
            negative = f == 0x2D
            body = body.dropFirst()
        }
        var radix = 10
        if body.count > 2, body.first == 0x30, token.first != 0x2B && token.first != 0x2D {
            switch body[body.startIndex + 1] {
            case 0x78: radix = 16
            case 0x6F: radix = 8
            case 0x62: radix = 2
            default: break
            }
            if radix != 10 { body = body.dropFirst(2) }
        }
        guard let digits = Self.digits(body, radix: radix) else { return nil }
        if radix == 10 && digits.count > 1 && digits.first == "0" { return nil }  // no leading zeros
        guard let magnitude = UInt64(digits, radix: radix) else {
            throw error("the integer \(clipped(text)) does not fit in 64 bits", at: start)
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else {
                throw error("the integer \(clipped(text)) does not fit in 64 bits", at: start)
            }
            return magnitude == UInt64(Int64.max) + 1 ? Int(Int64.min) : -Int(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else {
            throw error("the integer \(clipped(text)) does not fit in 64 bits", at: start)
        }
        return Int(magnitude)
    }

    /// A float, nil when `token` is not one; a finite literal out of range throws.
    private func float(_ token: ArraySlice<UInt8>, text: String, at start: Int) throws(TOMLNode.SyntaxError) -> Double?
    {
        var body = token
        var sign = ""
        if let f = body.first, f == 0x2B || f == 0x2D {
            sign = f == 0x2D ? "-" : ""
            body = body.dropFirst()
        }
        if body.elementsEqual("inf".utf8) { return sign == "-" ? -.infinity : .infinity }
        if body.elementsEqual("nan".utf8) { return .nan }
        // integer part, then "." fraction and/or exponent
        let exponentAt = body.firstIndex { $0 == 0x65 || $0 == 0x45 }
        let mantissa = body[body.startIndex..<(exponentAt ?? body.endIndex)]
        let dot = mantissa.firstIndex(of: 0x2E)
        let integerPart = mantissa[mantissa.startIndex..<(dot ?? mantissa.endIndex)]
        guard let whole = Self.digits(integerPart, radix: 10), whole.count == 1 || whole.first != "0" else {
            return nil
        }
        var literal = sign + whole
        if let dot {
            guard let fraction = Self.digits(mantissa[(dot + 1)...], radix: 10) else { return nil }
            literal += "." + fraction
        }
        if let exponentAt {
            var exponent = body[(exponentAt + 1)...]
            var exponentSign = ""
            if let f = exponent.first, f == 0x2B || f == 0x2D {
                exponentSign = f == 0x2D ? "-" : "+"
                exponent = exponent.dropFirst()
            }
            guard let e = Self.digits(exponent, radix: 10) else { return nil }
            literal += "e" + exponentSign + e
        }
        guard dot != nil || exponentAt != nil, let d = Double(literal) else { return nil }
        guard d.isFinite else { throw error("the number \(clipped(text)) is out of range", at: start) }
        return d
    }

    // MARK: - Dates and times

    private static func looksLikeDate(_ t: ArraySlice<UInt8>) -> Bool {
        let b = Array(t)
        return b.count == 10 && b[4] == 0x2D && b[7] == 0x2D
            && [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy { isDigit(b[$0]) }
    }

    private static func looksLikeTime(_ b: [UInt8]) -> Bool {
        // HH:MM:SS, optionally .fraction
        guard b.count >= 8, b[2] == 0x3A, b[5] == 0x3A, [0, 1, 3, 4, 6, 7].allSatisfy({ isDigit(b[$0]) }) else {
            return false
        }
        if b.count == 8 { return true }
        return b[8] == 0x2E && b.count > 9 && b[9...].allSatisfy(isDigit)
    }

    /// "date", "time" or "date-time" (TOMLKit's type names) when `token` is one, else nil.
    private static func dateTimeKind(_ token: ArraySlice<UInt8>) -> String? {
        let b = Array(token)
        if b.count >= 8, looksLikeTime(b) { return "time" }
        guard b.count >= 10, looksLikeDate(token.prefix(10)) else { return nil }
        if b.count == 10 { return "date" }
        guard b[10] == 0x54 || b[10] == 0x74 || b[10] == 0x20 else { return nil }
        var rest = Array(b[11...])
        // An offset: Z, or ±HH:MM.
        if let last = rest.last, last == 0x5A || last == 0x7A {
            rest.removeLast()
        } else if rest.count > 6, rest[rest.count - 6] == 0x2B || rest[rest.count - 6] == 0x2D {
            let offset = rest[(rest.count - 5)...]
            let o = Array(offset)
            guard o[2] == 0x3A, [0, 1, 3, 4].allSatisfy({ isDigit(o[$0]) }) else { return nil }
            rest.removeLast(6)
        }
        return looksLikeTime(rest) ? "date-time" : nil
    }

    // MARK: - Strings

    /// Appends the scalar of a character that is allowed in a string, or throws on a control character.
    private func checkStringByte(_ b: UInt8, multiline: Bool) throws(TOMLNode.SyntaxError) {
        if b == 0x7F || (b < 0x20 && b != 0x09 && !(multiline && (b == 0x0A || b == 0x0D))) {
            throw error("a control character (0x\(String(b, radix: 16))) in a string; write it as an escape")
        }
    }

    private mutating func basicString() throws(TOMLNode.SyntaxError) -> String {
        i += 1  // "
        var out: [UInt8] = []
        while true {
            guard let b = peek(), b != 0x0A else { throw error("a string without its closing quote") }
            if b == 0x22 {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b == 0x5C {
                try escape(into: &out)
                continue
            }
            try checkStringByte(b, multiline: false)
            out.append(b)
            i += 1
        }
    }

    private mutating func multilineBasicString() throws(TOMLNode.SyntaxError) -> String {
        i += 3
        _ = newline()  // a newline right after the opening quotes is trimmed
        var out: [UInt8] = []
        while true {
            guard let b = peek() else { throw error("a multi-line string without its closing quotes") }
            if b == 0x22 && peek(1) == 0x22 && peek(2) == 0x22 {
                // Up to two quotes may stand right before the closing three.
                var extra = 0
                while extra < 2, peek(3 + extra) == 0x22 { extra += 1 }
                out.append(contentsOf: repeatElement(0x22, count: extra))
                i += 3 + extra
                return String(decoding: out, as: UTF8.self)
            }
            if b == 0x5C {
                // A line-ending backslash trims the newline and the whitespace after it.
                var k = i + 1
                while k < s.count, s[k] == 0x20 || s[k] == 0x09 { k += 1 }
                if k < s.count, s[k] == 0x0A || (s[k] == 0x0D && k + 1 < s.count && s[k + 1] == 0x0A) {
                    i = k
                    while let c = peek(), c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
                        if c == 0x0D && peek(1) != 0x0A { throw error("a carriage return without a line feed") }
                        i += 1
                    }
                    continue
                }
                try escape(into: &out)
                continue
            }
            if b == 0x0D && peek(1) != 0x0A { throw error("a carriage return without a line feed") }
            try checkStringByte(b, multiline: true)
            out.append(b)
            i += 1
        }
    }

    private mutating func escape(into out: inout [UInt8]) throws(TOMLNode.SyntaxError) {
        let start = i
        i += 1  // backslash
        guard let e = peek() else { throw error("a string without its closing quote") }
        i += 1
        switch e {
        case 0x62: out.append(0x08)
        case 0x74: out.append(0x09)
        case 0x6E: out.append(0x0A)
        case 0x66: out.append(0x0C)
        case 0x72: out.append(0x0D)
        case 0x22: out.append(0x22)
        case 0x5C: out.append(0x5C)
        case 0x75, 0x55:
            let count = e == 0x75 ? 4 : 8
            guard i + count <= s.count,
                let v = UInt32(String(decoding: s[i..<(i + count)], as: UTF8.self), radix: 16),
                s[i..<(i + count)].allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit })
            else {
                throw error("\\\(Character(Unicode.Scalar(e))) needs \(count) hexadecimal digits", at: start)
            }
            guard let scalar = Unicode.Scalar(v) else {
                throw error("\\\(Character(Unicode.Scalar(e))) names no Unicode scalar value", at: start)
            }
            i += count
            out.append(contentsOf: String(Character(scalar)).utf8)
        default:
            throw error("an unknown escape \\\(describe(i - 1))", at: start)
        }
    }

    private mutating func literalString() throws(TOMLNode.SyntaxError) -> String {
        i += 1
        let start = i
        while true {
            guard let b = peek(), b != 0x0A else { throw error("a string without its closing quote") }
            if b == 0x27 {
                i += 1
                return String(decoding: s[start..<(i - 1)], as: UTF8.self)
            }
            try checkStringByte(b, multiline: false)
            i += 1
        }
    }

    private mutating func multilineLiteralString() throws(TOMLNode.SyntaxError) -> String {
        i += 3
        _ = newline()
        let start = i
        while true {
            guard let b = peek() else { throw error("a multi-line string without its closing quotes") }
            if b == 0x27 && peek(1) == 0x27 && peek(2) == 0x27 {
                var extra = 0
                while extra < 2, peek(3 + extra) == 0x27 { extra += 1 }
                let end = i + extra
                i += 3 + extra
                return String(decoding: s[start..<end], as: UTF8.self)
            }
            if b == 0x0D && peek(1) != 0x0A { throw error("a carriage return without a line feed") }
            try checkStringByte(b, multiline: true)
            i += 1
        }
    }
}
