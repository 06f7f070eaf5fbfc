/// One thing wrong with a board file: where it is and what is wrong.
///
/// `description` is one line, `FILE[:LINE]: KEYPATH: MESSAGE`, e.g.
/// `boards/x.toml: recognizer[1] "double-tap".taps: must be ≥ 1, got 0`.
package struct BoardIssue: Sendable, Equatable, CustomStringConvertible {
    /// The board file as the caller named it (e.g. `boards/x.toml`).
    package var file: String
    /// Where in the document: `panel.width`, `recognizer[2] "tap".max_interval_ms`; empty for the whole file.
    package var keyPath: String
    /// The 1-based line, when known (TOML syntax errors).
    package var line: Int?
    /// The 1-based column, when known (TOML syntax errors).
    package var column: Int?
    /// What is wrong, in plain words.
    package var message: String

    package init(file: String, keyPath: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.keyPath = keyPath
        self.line = line
        self.column = column
        self.message = message
    }

    package var description: String {
        var s = file
        if let line {
            s += ":\(line)"
            if let column { s += ":\(column)" }
        }
        s += ": "
        if !keyPath.isEmpty { s += keyPath + ": " }
        return s + message
    }
}

/// Why a board file was rejected: every issue found, in document order, never just the first.
///
/// `description` prints one line per issue.
package struct BoardFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// At least one issue.
    package var issues: [BoardIssue]

    package init(issues: [BoardIssue]) { self.issues = issues }

    package var description: String { issues.map(\.description).joined(separator: "\n") }
}
