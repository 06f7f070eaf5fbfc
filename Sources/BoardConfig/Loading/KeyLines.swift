/// Finds the line of a board file an issue's key path names, so every issue reads
/// `FILE:LINE: KEYPATH: MESSAGE` (formats.md §4): the line of the key itself when the file
/// spells it out (`max_interval_ms = 3000`), else of its table's header (`[[recognizer]]`, for a
/// missing required key), else none (a section missing from the file).
struct KeyLines {
    /// Each line with its leading blanks removed.
    private let lines: [Substring]
    /// The lines (0-based) of each `[[name]]` header, in order, and of each `[name]` header.
    private var arrayHeaders: [Substring: [Int]] = [:]
    private var tableHeaders: [Substring: Int] = [:]
    /// Where the root table ends (the first header).
    private var firstHeader: Int

    /// Reads `text` once; `line(of:)` is then linear in one table's length at most.
    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.drop(while: { $0 == " " || $0 == "\t" })
        }
        firstHeader = lines.count
        for (n, line) in lines.enumerated() {
            guard let (name, array) = Self.header(line) else { continue }
            firstHeader = min(firstHeader, n)
            if array {
                arrayHeaders[name, default: []].append(n)
            } else if tableHeaders[name] == nil {
                tableHeaders[name] = n
            }
        }
    }

    /// The 1-based line of `keyPath` (`recognizer[2] "tap".max_interval_ms`, `panel.width`,
    /// `output[0].group`, `name`), or nil.
    func line(of keyPath: String) -> Int? {
        guard !keyPath.isEmpty else { return nil }
        // The head: `section`, `section[i]`, then an optional quoted name, then `.rest`.
        var rest = Substring(keyPath)
        let head = rest.prefix { $0 != "." && $0 != "[" && $0 != " " }
        rest = rest.dropFirst(head.count)
        var index: Int? = nil
        if rest.first == "[", let close = rest.firstIndex(of: "]") {
            index = Int(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
        }
        if rest.hasPrefix(" \"") {
            rest = rest.dropFirst(2)
            while let c = rest.first, c != "\"" { rest = rest.dropFirst(c == "\\" ? 2 : 1) }
            rest = rest.dropFirst()
        }
        let key = rest.hasPrefix(".") ? rest.dropFirst().prefix { $0 != "." && $0 != "[" } : nil
        let start: Int
        if let index {
            guard let headers = arrayHeaders[head], index >= 0, index < headers.count else { return nil }
            start = headers[index]
        } else if let n = tableHeaders[head] {
            start = n
        } else {
            // A key of the root table (`name`), before the first header.
            guard key == nil, let n = (0..<firstHeader).first(where: { Self.assigns(lines[$0], head) }) else {
                return nil
            }
            return n + 1
        }
        if let key, !key.isEmpty {
            var n = start + 1
            while n < lines.count, Self.header(lines[n]) == nil {
                if Self.assigns(lines[n], key) { return n + 1 }
                n += 1
            }
        }
        return start + 1
    }

    /// The table a header line opens (`[panel]`, `[[recognizer]]`) and whether it is an array
    /// of tables; nil for any other line, such as `[` or `[=]` inside a multi-line array or string.
    private static func header(_ line: Substring) -> (Substring, Bool)? {
        guard line.hasPrefix("[") else { return nil }
        let array = line.hasPrefix("[[")
        let inner = line.dropFirst(array ? 2 : 1).prefix { $0 != "]" }
        let name = inner.trimmed
        let allowed = { (c: Character) in c.isLetter || c.isNumber || "_-.\" ".contains(c) }
        guard !name.isEmpty, name.allSatisfy(allowed) else { return nil }
        let after = line.dropFirst((array ? 2 : 1) + inner.count)
        guard after.hasPrefix(array ? "]]" : "]") else { return nil }
        let tail = after.dropFirst(array ? 2 : 1).drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard tail.isEmpty || tail.hasPrefix("#") else { return nil }
        return (name, array)
    }

    private static func assigns(_ line: Substring, _ key: Substring) -> Bool {
        var rest = line
        if rest.hasPrefix("\"") {
            rest = rest.dropFirst()
            guard rest.hasPrefix(key), rest.dropFirst(key.count).hasPrefix("\"") else { return false }
            rest = rest.dropFirst(key.count + 1)
        } else {
            guard rest.hasPrefix(key) else { return false }
            rest = rest.dropFirst(key.count)
        }
        let after = rest.drop(while: { $0 == " " || $0 == "\t" })
        return after.hasPrefix("=") || after.hasPrefix(".")
    }
}

extension Substring {
    /// Without leading and trailing blanks.
    fileprivate var trimmed: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }
}
