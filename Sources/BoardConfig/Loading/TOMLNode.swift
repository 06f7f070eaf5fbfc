/// A TOML document as plain Sendable values (parsed by `TOMLParser`), so that everything after
/// parsing is pure.
enum TOMLNode: Sendable, Equatable {
    case table([String: TOMLNode])
    case array([TOMLNode])
    case string(String)
    case integer(Int)
    case double(Double)
    case bool(Bool)
    /// Dates and times, which no board key takes; the payload names the type.
    case other(String)

    /// A syntax error with its position.
    struct SyntaxError: Error, Sendable {
        var message: String
        var line: Int?
        var column: Int?
    }

    /// Parses a TOML document; the root is always a table.
    static func parse(_ text: String) throws(SyntaxError) -> [String: TOMLNode] {
        if text.utf8.contains(0) {
            throw SyntaxError(message: "the file contains a NUL byte", line: nil, column: nil)
        }
        if let crash = TOMLCrashScreen.check(text) {
            throw SyntaxError(message: crash.message, line: crash.line, column: nil)
        }
        return try TOMLParser.parse(text)
    }

    /// "an integer", "a string", … for type errors.
    var typeName: String {
        switch self {
        case .table: "a table"
        case .array: "an array"
        case .string: "a string"
        case .integer: "an integer"
        case .double: "a floating-point number"
        case .bool: "a boolean"
        case .other(let name): "a \(name)"
        }
    }

    /// The value as written, for messages: `0`, `"abc"`, `1.5`.
    var shortDescription: String {
        switch self {
        case .string(let s): "\"\(s)\""
        case .integer(let i): String(i)
        case .double(let d): String(d)
        case .bool(let b): String(b)
        default: typeName
        }
    }
}
