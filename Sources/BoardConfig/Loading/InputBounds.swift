import Gestures

/// The bounds every board file is held to before and while it is read, so that no input —
/// however large or deep — can exhaust the stack, take minutes to check, or flood the terminal.
///
/// Each bound is far above what a real board needs (a handful of regions, a dozen recognizers)
/// and is reported as one issue naming the limit. `docs/RELIABILITY.md` lists them.
package enum BoardInputBounds {
    /// The largest board file read, in bytes (1 MiB). Checked before the file is read.
    package static let maximumFileBytes = 1 << 20
    /// The most parts of one dotted key or table header (`a.b.c` has 3).
    package static let maximumKeyParts = 32
    /// The deepest nesting of arrays and inline tables (`[[[1]]]` is 3).
    package static let maximumNesting = 32
    /// The most `[[region]]`s.
    package static let maximumRegions = 1024
    /// The most `[[recognizer]]`s: the gesture engine's own limit (`GestureEngine.maximumRecognizers`).
    package static var maximumRecognizers: Int { GestureEngine.maximumRecognizers }
    /// The most `[[output]]`s.
    package static let maximumOutputs = 32
    /// The most `[[binding]]`s.
    package static let maximumBindings = 1024
    /// The most templates of one stroke template file (`docs/strokes.md`): above a real set (the
    /// built-in one has 1,436 templates of 16 gestures; every stroke of the three shipped people
    /// is 1,440), and checked before the templates are prepared (100,000 of them took 157 s to
    /// validate, before READY and again at every reload; 5,000 take about 1 s here).
    package static let maximumStrokeTemplates = 5000
    /// The largest stroke template file read, in bytes (4 MiB). Checked before the file is read.
    package static let maximumStrokeTemplateFileBytes = 4 << 20
    /// Longest text of a value, name or key path quoted back in an issue, in characters; longer
    /// text is cut in the middle so an issue stays one readable line.
    package static let maximumQuotedCharacters = 160

    /// Why a stroke template file's text is refused before it is parsed: more than
    /// `maximumStrokeTemplates` template lines (non-blank lines). Nil when it is within the bound.
    package static func strokeTemplateProblem(_ text: String, file: String) -> String? {
        var lines = 0
        for line in text.split(whereSeparator: \.isNewline)
        where !line.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            lines += 1
        }
        guard lines > maximumStrokeTemplates else { return nil }
        return "\(file): \(lines) templates, more than the limit of \(maximumStrokeTemplates)"
    }
}

/// `text` as one printable line of at most `limit` characters: control characters (newlines,
/// escape codes) are shown as `\u{…}` escapes, and a longer text keeps its start and end around
/// "…(N characters)…".
func clipped(_ text: String, limit: Int = BoardInputBounds.maximumQuotedCharacters) -> String {
    func printable<S: Sequence<Character>>(_ chars: S) -> String {
        var out = ""
        for c in chars {
            if c.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                for u in c.unicodeScalars { out += u.escaped(asASCII: true) }
            } else {
                out.append(c)
            }
        }
        return out
    }
    // Printable ASCII within the limit (nearly every key and value) is returned as it is, without
    // looking up each scalar's general category.
    if text.utf8.count <= limit && text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    guard text.utf8.count > limit || text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else { return text }
    let count = text.count
    guard count > limit else { return printable(text) }
    let keep = max(8, limit / 2 - 12)
    return printable(text.prefix(keep)) + "…(\(count - 2 * keep) characters)…" + printable(text.suffix(keep))
}
