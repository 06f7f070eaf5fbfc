internal import TOMLKit

/// A TOML document as plain Sendable values, copied out of TOMLKit's reference types at once
/// so that everything after parsing is pure.
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
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let line = error.source.begin.line
            let column = error.source.begin.column
            throw SyntaxError(
                message: "TOML syntax error: " + error.description, line: line > 0 ? line : nil,
                column: column > 0 ? column : nil)
        } catch {
            throw SyntaxError(message: "TOML syntax error: \(error)", line: nil, column: nil)
        }
        return convert(table)
    }

    private static func convert(_ table: TOMLTable) -> [String: TOMLNode] {
        var out: [String: TOMLNode] = [:]
        for key in table.keys {
            if let value = table[key] { out[key] = convert(value) }
        }
        return out
    }

    private static func convert(_ value: TOMLValueConvertible) -> TOMLNode {
        switch value.type {
        case .table:
            if let t = value.table { return .table(convert(t)) }
        case .array:
            if let a = value.array {
                var items: [TOMLNode] = []
                items.reserveCapacity(a.count)
                for i in 0..<a.count { items.append(convert(a[i])) }
                return .array(items)
            }
        case .string:
            if let s = value.string { return .string(s) }
        case .int:
            if let i = value.int { return .integer(i) }
        case .double:
            if let d = value.double { return .double(d) }
        case .bool:
            if let b = value.bool { return .bool(b) }
        case .date, .time, .dateTime:
            break
        }
        return .other(value.type.description)
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
