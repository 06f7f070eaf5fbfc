/// Why a trace could not be read or written.
///
/// Every case renders as one line that names the file and, for content errors, the
/// 1-based line number and what is wrong — `trace.jsonl:17: "x" must be a number` —
/// so a user can open the file at that line.
package enum TraceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Line `line` of `file` is not a valid trace line; `message` says what is wrong.
    case invalidLine(file: String, line: Int, message: String)
    /// The file could not be opened, read or written; `message` names the operation.
    case io(file: String, message: String)

    /// The 1-based line number of a content error, nil for I/O errors.
    package var line: Int? {
        if case .invalidLine(_, let line, _) = self { return line }
        return nil
    }

    /// `file:line: message` or `file: message`.
    package var description: String {
        switch self {
        case .invalidLine(let file, let line, let message): return "\(file):\(line): \(message)"
        case .io(let file, let message): return "\(file): \(message)"
        }
    }
}
