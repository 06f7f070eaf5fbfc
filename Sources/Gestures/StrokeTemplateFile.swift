import TouchCore

/// A line of a template file that cannot be read: names the file and the 1-based line.
public struct StrokeTemplateFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// The stroke template file (`docs/strokes.md`): JSON lines, one template per line,
/// `{"name": "check", "points": [[x, y], [x, y], …]}` in panel pixels, in the order drawn.
/// Blank lines are skipped; other keys are ignored (the format may grow). At least two points
/// per template and one template per file.
public enum StrokeTemplateFile {
    /// Parses the text of a template file; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(StrokeTemplateFileError) -> [StrokeTemplate] {
        var templates: [StrokeTemplate] = []
        var lineNumber = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline }) {
            lineNumber += 1
            let bytes = Array(line.utf8)
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            do throws(MiniJSON.Failure) {
                templates.append(try template(bytes))
            } catch {
                throw StrokeTemplateFileError(file: file, line: lineNumber, message: error.message)
            }
        }
        guard !templates.isEmpty else { throw StrokeTemplateFileError(file: file, line: 0, message: "no templates") }
        return templates
    }

    /// The file's text for `templates`: one line each, coordinates with at most one decimal.
    public static func format(_ templates: [StrokeTemplate]) -> String {
        var out = ""
        for t in templates {
            out += "{\"name\":"
            out += MiniJSON.quoted(t.name)
            out += ",\"points\":["
            for (i, p) in t.points.enumerated() {
                if i > 0 { out += "," }
                out += "[\(number(p.x)),\(number(p.y))]"
            }
            out += "]}\n"
        }
        return out
    }

    private static func number(_ v: Double) -> String {
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    private static func template(_ bytes: [UInt8]) throws(MiniJSON.Failure) -> StrokeTemplate {
        var parser = MiniJSON(bytes: bytes)
        let value = try parser.document()
        guard case .object(let fields) = value else { throw MiniJSON.Failure("a template line must be a JSON object") }
        guard let nameValue = fields.first(where: { $0.0 == "name" })?.1 else {
            throw MiniJSON.Failure("missing \"name\"")
        }
        guard case .string(let name) = nameValue, !name.isEmpty else {
            throw MiniJSON.Failure("\"name\" must be a non-empty string")
        }
        guard let pointsValue = fields.first(where: { $0.0 == "points" })?.1 else {
            throw MiniJSON.Failure("missing \"points\"")
        }
        guard case .array(let items) = pointsValue else {
            throw MiniJSON.Failure("\"points\" must be an array of [x, y] pairs")
        }
        var points: [Point] = []
        points.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard case .array(let xy) = item, xy.count == 2, case .number(let x) = xy[0], case .number(let y) = xy[1],
                x.isFinite, y.isFinite, abs(x) <= 1e6, abs(y) <= 1e6
            else {
                throw MiniJSON.Failure("point \(i) of \"\(name)\" must be [x, y] with two numbers of at most 1e6")
            }
            points.append(Point(x: x, y: y))
        }
        guard points.count >= 2 else { throw MiniJSON.Failure("\"\(name)\" needs at least two points") }
        var length = 0.0
        for i in 1..<points.count { length += points[i - 1].distance(to: points[i]) }
        guard length > 0 else { throw MiniJSON.Failure("\"\(name)\" has no length (all its points are the same)") }
        return StrokeTemplate(name: name, points: points)
    }
}

/// A small JSON reader for one template line (a tree; used only when templates load).
/// Never traps: every access is bounds-checked and nesting is limited.
struct MiniJSON {
    indirect enum Value {
        case object([(String, Value)])
        case array([Value])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    struct Failure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    let bytes: [UInt8]
    var position = 0
    var depth = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func document() throws(Failure) -> Value {
        let v = try value()
        skipSpace()
        guard position == bytes.count else { throw malformed("end of line") }
        return v
    }

    private func malformed(_ expected: String) -> Failure {
        let found: String
        if position < bytes.count, bytes[position] >= 0x20, bytes[position] < 0x7F {
            found = "'\(Character(Unicode.Scalar(bytes[position])))'"
        } else {
            found = position < bytes.count ? "byte \(bytes[position])" : "end of line"
        }
        return Failure("malformed JSON: expected \(expected) at column \(position + 1), found \(found)")
    }

    private mutating func skipSpace() {
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 || bytes[position] == 0x0D {
            position += 1
        }
    }

    private mutating func value() throws(Failure) -> Value {
        skipSpace()
        guard position < bytes.count else { throw malformed("a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            depth += 1
            defer { depth -= 1 }
            guard depth <= 8 else { throw Failure("JSON nested too deeply at column \(position + 1)") }
            position += 1
            var fields: [(String, Value)] = []
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(fields)
            }
            while true {
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw malformed("a key") }
                let key = try string()
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw malformed("':'") }
                position += 1
                fields.append((key, try value()))
                skipSpace()
                guard position < bytes.count else { throw malformed("',' or '}'") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    return .object(fields)
                } else {
                    throw malformed("',' or '}'")
                }
            }
        case UInt8(ascii: "["):
            depth += 1
            defer { depth -= 1 }
            guard depth <= 8 else { throw Failure("JSON nested too deeply at column \(position + 1)") }
            position += 1
            var items: [Value] = []
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(items)
            }
            while true {
                items.append(try value())
                skipSpace()
                guard position < bytes.count else { throw malformed("',' or ']'") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    return .array(items)
                } else {
                    throw malformed("',' or ']'")
                }
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            for (word, v) in [("true", Value.bool(true)), ("false", .bool(false)), ("null", .null)] {
                let w = Array(word.utf8)
                if position + w.count <= bytes.count, Array(bytes[position..<(position + w.count)]) == w {
                    position += w.count
                    return v
                }
            }
            throw malformed("a value")
        default:
            return .number(try number())
        }
    }

    private mutating func string() throws(Failure) -> String {
        position += 1  // opening quote
        var out: [UInt8] = []
        while position < bytes.count {
            let b = bytes[position]
            position += 1
            switch b {
            case UInt8(ascii: "\""):
                guard let s = String(validating: out, as: UTF8.self) else { throw Failure("string is not valid UTF-8") }
                return s
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw malformed("an escape") }
                let e = bytes[position]
                position += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    guard position + 4 <= bytes.count,
                        let code = UInt32(String(decoding: bytes[position..<(position + 4)], as: UTF8.self), radix: 16),
                        let scalar = Unicode.Scalar(code)
                    else { throw Failure("bad \\u escape at column \(position + 1)") }
                    position += 4
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: throw Failure("bad escape at column \(position)")
                }
            default:
                guard b >= 0x20 else { throw Failure("control character in a string at column \(position)") }
                out.append(b)
            }
        }
        throw malformed("'\"'")
    }

    private mutating func number() throws(Failure) -> Double {
        let start = position
        while position < bytes.count, Self.isNumberByte(bytes[position]) { position += 1 }
        guard position > start, let v = Double(String(decoding: bytes[start..<position], as: UTF8.self)) else {
            position = start
            throw malformed("a value")
        }
        return v
    }

    private static func isNumberByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
            || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
    }

    /// `s` as a JSON string literal.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
