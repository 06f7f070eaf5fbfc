/// Collects the issues of one board file as validation goes on.
struct IssueLog: Sendable {
    let file: String
    private(set) var issues: [BoardIssue] = []

    init(file: String) { self.file = file }

    /// Adds one issue. The key path and message are `clipped`: one line, never megabytes of a bad value.
    mutating func add(_ keyPath: String, _ message: String, line: Int? = nil, column: Int? = nil) {
        issues.append(
            BoardIssue(
                file: file, keyPath: clipped(keyPath), line: line, column: column,
                message: clipped(message, limit: 4 * BoardInputBounds.maximumQuotedCharacters)))
    }

    var isEmpty: Bool { issues.isEmpty }
}

/// Joins a key path and a key: `join("panel", "width")` → `panel.width`.
func joinPath(_ base: String, _ key: String) -> String { base.isEmpty ? key : base + "." + key }

/// `region[2]`, or `region[2] "button"` when the name is known.
func itemPath(_ section: String, _ index: Int, name: String?) -> String {
    guard let name, !name.isEmpty else { return "\(section)[\(index)]" }
    return "\(section)[\(index)] \"\(name)\""
}
