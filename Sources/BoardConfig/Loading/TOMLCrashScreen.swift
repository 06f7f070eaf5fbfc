/// Finds inputs on which TOMLKit's bundled toml++ 3.4.0 (the parser before `TOMLParser`) tripped
/// its own debug assertions (`TOML_ASSERT_ASSUME` in `parse_key` and `parse_value`) and aborted
/// the process instead of reporting a parse error. Every such input is invalid TOML; this screen
/// still reports it first, with the messages and lines the tests and users know, and `TOMLParser`
/// would refuse it too.
///
/// Two shapes, both found by differential fuzzing against toml++:
/// - a table header whose key starts with anything but a bare-key character, a quote or `]`
///   (`[=]`, `[[[`, `[.a]`, `[` at the end of a line);
/// - a `}` where an array expects a value or `]` (`a = [}`, `a = [1, }`).
///
/// It also bounds the depth of the document (`BoardInputBounds`): the conversion of the parsed
/// tree recurses once per level, and a dotted key or header of tens of thousands of parts
/// (`a.a.a.…`) or deeply nested arrays would overflow the stack. So a key or table header with
/// more than `maximumKeyParts` parts, or arrays and inline tables nested deeper than
/// `maximumNesting`, are reported with the line where they occur.
///
/// A light lexer skips strings and comments and tracks `[`/`{` nesting, so the text of
/// strings and nested multi-line arrays is never mistaken for a header.
enum TOMLCrashScreen {
    /// The 1-based line and a message when `text` has one of the two shapes, else nil.
    static func check(_ text: String) -> (line: Int, message: String)? {
        let s = Array(text.unicodeScalars)
        let n = s.count
        var i = 0
        var line = 1
        var stack: [Unicode.Scalar] = []
        var atLineStart = true
        var inKey = false
        var keyParts = 1
        let tooManyParts =
            "a key with more than \(BoardInputBounds.maximumKeyParts) dotted parts (BoardInputBounds.maximumKeyParts)"

        /// True when `q` (ASCII) starts at `k`; compares in place, without allocating.
        func starts(_ q: StaticString, at k: Int) -> Bool {
            let count = q.utf8CodeUnitCount
            guard k + count <= n else { return false }
            return q.withUTF8Buffer { bytes in
                for j in 0..<count where s[k + j].value != UInt32(bytes[j]) { return false }
                return true
            }
        }
        func isBlank(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" }
        func isBareKey(_ c: Unicode.Scalar) -> Bool {
            c.isASCII
                && (("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_"
                    || c == "-")
        }

        while i < n {
            let c = s[i]
            if c == "\n" {
                inKey = false
                line += 1
                atLineStart = true
                i += 1
                continue
            }
            if isBlank(c) {
                i += 1
                continue
            }
            if c == "#" {
                while i < n && s[i] != "\n" { i += 1 }
                continue
            }
            if atLineStart && stack.isEmpty && c != "[" {
                inKey = true
                keyParts = 1
            }
            if starts("\"\"\"", at: i) || starts("'''", at: i) {
                let quote: StaticString = c == "\"" ? "\"\"\"" : "'''"
                i += 3
                while i < n && !starts(quote, at: i) {
                    if s[i] == "\n" { line += 1 }
                    if c == "\"" && s[i] == "\\" { i += 1 }
                    i += 1
                }
                i += 3
                atLineStart = false
                continue
            }
            if c == "\"" || c == "'" {
                i += 1
                while i < n && s[i] != c && s[i] != "\n" {
                    if c == "\"" && s[i] == "\\" { i += 1 }
                    i += 1
                }
                i += 1
                atLineStart = false
                continue
            }
            if c == "[" && atLineStart && stack.isEmpty {
                var j = i + 1
                var blank = false
                while j < n && isBlank(s[j]) {
                    j += 1
                    blank = true
                }
                if j < n && s[j] == "[" && !blank {
                    j += 1
                    while j < n && isBlank(s[j]) { j += 1 }
                }
                guard j < n else { return nil }
                let d = s[j]
                if !(d == "]" || d == "\"" || d == "'" || isBareKey(d) || (d == "[" && blank)) {
                    return (
                        line,
                        "TOML syntax error: a table header must start with a key, got \"\(d.escaped(asASCII: true))\""
                    )
                }
                var parts = 1
                var k = j
                while k < n && s[k] != "]" && s[k] != "\n" {
                    if s[k] == "\"" || s[k] == "'" {
                        let q = s[k]
                        k += 1
                        while k < n && s[k] != q && s[k] != "\n" {
                            if q == "\"" && s[k] == "\\" { k += 1 }
                            k += 1
                        }
                    } else if s[k] == "." {
                        parts += 1
                        if parts > BoardInputBounds.maximumKeyParts {
                            return (line, "TOML: a table header " + tooManyParts)
                        }
                    }
                    k += 1
                }
                atLineStart = false
                i = j
                continue
            }
            if inKey {
                if c == "." {
                    keyParts += 1
                    if keyParts > BoardInputBounds.maximumKeyParts { return (line, "TOML: " + tooManyParts) }
                } else if c == "=" {
                    inKey = false
                }
            }
            if c == "[" || c == "{" {
                stack.append(c)
                if stack.count > BoardInputBounds.maximumNesting {
                    return (
                        line,
                        "TOML: arrays and inline tables nested more than \(BoardInputBounds.maximumNesting) deep"
                            + " (BoardInputBounds.maximumNesting)"
                    )
                }
                if c == "{" {
                    inKey = true
                    keyParts = 1
                }
            } else if c == "," && stack.last == "{" {
                inKey = true
                keyParts = 1
            } else if c == "}" && stack.last == "[" {
                return (line, "TOML syntax error: \"}\" inside an array; expected a value or \"]\"")
            } else if c == "]" || c == "}" {
                _ = stack.popLast()
            }
            atLineStart = false
            i += 1
        }
        return nil
    }
}
