/// Text from outside (a file, a board, a socket stream) made safe to print on a terminal: an
/// escape sequence (OSC, CSI) written raw would retitle, clear or reprogram the user's terminal.
/// Every command that prints such text goes through here (issue 30, class 5).
package enum TerminalText {
    /// Whether `scalar` must not reach a terminal raw: a control character (C0, DEL, C1: ESC,
    /// CSI, BEL, CR, newlines) or a format character (bidirectional overrides, U+2028/2029),
    /// except the zero-width joiner of emoji sequences.
    @inlinable
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let category = scalar.properties.generalCategory
        return category == .control || category == .lineSeparator || category == .paragraphSeparator
            || category == .format && scalar.value != 0x200D
    }

    /// `text` with every unsafe scalar shown as a visible `\u{1B}` escape, cut to `limit` characters.
    package static func sanitized(_ text: String, limit: Int = 200) -> String {
        var out = ""
        var n = 0
        for scalar in text.unicodeScalars {
            if n >= limit {
                out += "…"
                break
            }
            if isUnsafe(scalar) {
                out += scalar.escaped(asASCII: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
            n += 1
        }
        return out
    }

    /// `text` with every unsafe scalar replaced by `?`: one cell for one, for text laid out on a
    /// grid (region names drawn into the monitor's panel).
    package static func masked(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars { out.unicodeScalars.append(isUnsafe(scalar) ? "?" : scalar) }
        return out
    }
}
