/// Why a board file could not be edited.
package struct BoardEditError: Error, Equatable, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Text-level edits of a board file that keep everything else byte for byte: comments, blank
/// lines, key order, spacing and line endings.
package enum BoardFileEditor {
    /// `text` with `[controller]`'s `calibration` set to `array` (TOML text such as
    /// `[1, 0, 0, 0, 1, 0, 1]`).
    ///
    /// - An existing `calibration = …` line in `[controller]` keeps its indentation, the spacing
    ///   around `=` and any comment after the value; only the `[…]` value (which may span several
    ///   lines) is replaced. Commented-out lines (`# calibration = …`) are left alone.
    /// - Without one, `calibration = …` is added on its own line after the section's last
    ///   key/value line (before the blank lines and comments that lead into the next section).
    ///
    /// Fails when there is no `[controller]` table header, or the existing value is not an array.
    package static func settingCalibration(_ array: String, in text: String) throws(BoardEditError) -> String {
        let newline = text.contains(Character("\r\n")) ? "\r\n" : "\n"
        var lines = splitLines(text)
        guard let header = lines.firstIndex(where: { tableHeader($0.content) == "controller" }) else {
            throw BoardEditError("no [controller] table: add one (chip, bus) before calibrating")
        }
        var end = lines.count
        var i = header + 1
        while i < lines.count {
            if tableHeader(lines[i].content) != nil {
                end = i
                break
            }
            i += 1
        }
        // An existing key: replace its array value.
        var lastKeyLine = header
        i = header + 1
        while i < end {
            let content = lines[i].content
            let trimmed = content.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.isEmpty || trimmed.hasPrefix("#") {
                i += 1
                continue
            }
            if key(of: trimmed) == "calibration" {
                return try replaceValue(lines: &lines, from: i, end: end)
            }
            // A multi-line array continues until its brackets balance.
            i = endOfValue(lines: lines, from: i, end: end)
            lastKeyLine = i
            i += 1
        }
        var line = Line(content: "calibration = " + array, terminator: newline)
        if lines[lastKeyLine].terminator.isEmpty {
            lines[lastKeyLine].terminator = newline
            line.terminator = ""
        }
        lines.insert(line, at: lastKeyLine + 1)
        return join(lines)

        func replaceValue(lines: inout [Line], from start: Int, end: Int) throws(BoardEditError) -> String {
            let content = lines[start].content
            guard let eq = content.firstIndex(of: "=") else { throw BoardEditError("calibration: no '='") }
            let afterEq = content[content.index(after: eq)...]
            guard let open = afterEq.firstIndex(where: { $0 != " " && $0 != "\t" }), content[open] == "[" else {
                throw BoardEditError("[controller] calibration: the existing value is not an array; fix it by hand")
            }
            // Find the matching `]`, across lines, skipping comments.
            var depth = 0
            var row = start
            var from = open
            while row < end {
                let text = lines[row].content
                var idx = from
                while idx < text.endIndex {
                    let ch = text[idx]
                    if ch == "#" { break }
                    if ch == "[" { depth += 1 }
                    if ch == "]" {
                        depth -= 1
                        if depth == 0 {
                            let prefix = content[..<open]
                            let suffix = text[text.index(after: idx)...]
                            lines[start].content = String(prefix) + array + String(suffix)
                            lines[start].terminator = lines[row].terminator
                            if row > start { lines.removeSubrange((start + 1)...row) }
                            return join(lines)
                        }
                    }
                    idx = text.index(after: idx)
                }
                row += 1
                if row < end { from = lines[row].content.startIndex }
            }
            throw BoardEditError("[controller] calibration: the existing array is not closed; fix it by hand")
        }
    }

    struct Line {
        var content: String
        /// "\n", "\r\n" or "" (the last line without a newline).
        var terminator: String
    }

    static func splitLines(_ text: String) -> [Line] {
        var out: [Line] = []
        var current = ""
        for ch in text {
            // Swift treats "\r\n" as one Character.
            if ch == "\n" || ch == "\r\n" {
                out.append(Line(content: current, terminator: String(ch)))
                current = ""
            } else {
                current.append(ch)
            }
        }
        if !current.isEmpty || out.isEmpty { out.append(Line(content: current, terminator: "")) }
        return out
    }

    static func join(_ lines: [Line]) -> String { lines.map { $0.content + $0.terminator }.joined() }

    /// The table name of a `[name]` or `[[name]]` header line (comments allowed after it), else nil.
    static func tableHeader(_ line: String) -> String? {
        var s = Substring(line).drop(while: { $0 == " " || $0 == "\t" })
        guard s.hasPrefix("[") else { return nil }
        let double = s.hasPrefix("[[")
        s = s.dropFirst(double ? 2 : 1)
        guard let close = s.firstIndex(of: "]") else { return nil }
        let name = s[..<close].trimmingSpaces
        var rest = s[s.index(after: close)...]
        if double {
            guard rest.hasPrefix("]") else { return nil }
            rest = rest.dropFirst()
        }
        let tail = rest.trimmingSpaces
        guard tail.isEmpty || tail.hasPrefix("#") else { return nil }
        guard !name.isEmpty,
            name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." || $0 == "\"" })
        else { return nil }
        return double ? "[\(name)]" : String(name)
    }

    /// The bare key of a `key = value` line, else nil.
    static func key(of line: Substring) -> String? {
        guard let eq = line.firstIndex(of: "=") else { return nil }
        let k = line[..<eq].trimmingSpaces
        return k.isEmpty ? nil : String(k)
    }

    /// The last line of the value starting on line `start` (multi-line arrays and inline tables).
    static func endOfValue(lines: [Line], from start: Int, end: Int) -> Int {
        var depth = 0
        var row = start
        var inString = false
        while row < end {
            for ch in lines[row].content {
                if ch == "\"" { inString.toggle() }
                if inString { continue }
                if ch == "#" { break }
                if ch == "[" || ch == "{" { depth += 1 }
                if ch == "]" || ch == "}" { depth -= 1 }
            }
            if depth <= 0 { return row }
            row += 1
        }
        return start
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return s
    }
}
