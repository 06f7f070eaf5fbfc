/// A minimal SVG 1.1 writer: elements, attributes and text appended in call order.
///
/// Deterministic by construction: numbers go through `SVGWriter.number(_:)` (fixed point,
/// one decimal, built from integers — no locale, no `printf`, no shortest-round-trip digits),
/// attributes are written in the order given, and nothing depends on the clock or the machine.
/// The document is self-contained: no scripts, no external references, generic font families.
package struct SVGWriter: Sendable {
    /// The text written so far.
    package private(set) var text: String = ""
    private var openTags: [String] = []

    /// Starts a document `width` × `height` user units large (1 unit = 1 CSS px).
    package init(width: Double, height: Double, title: String) {
        text.reserveCapacity(64 * 1024)
        text += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let w = SVGWriter.number(width)
        let h = SVGWriter.number(height)
        open(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"), ("version", "1.1"), ("width", w), ("height", h),
                ("viewBox", "0 0 \(w) \(h)"), ("font-family", "sans-serif"), ("font-size", "11"),
            ])
        element("title", [], text: title)
        element("rect", [("x", "0"), ("y", "0"), ("width", w), ("height", h), ("fill", "#ffffff")])
    }

    /// Opens `<tag …>`; close it with `close()`.
    package mutating func open(_ tag: String, _ attributes: [(String, String)]) {
        text += "<" + tag
        appendAttributes(attributes)
        text += ">\n"
        openTags.append(tag)
    }

    /// Closes the innermost open element.
    package mutating func close() {
        guard let tag = openTags.popLast() else { return }
        text += "</" + tag + ">\n"
    }

    /// One element; with `text`, it holds that (escaped) text, otherwise it is empty (`<tag …/>`).
    package mutating func element(_ tag: String, _ attributes: [(String, String)], text content: String? = nil) {
        text += "<" + tag
        appendAttributes(attributes)
        if let content {
            text += ">" + SVGWriter.escape(content) + "</" + tag + ">\n"
        } else {
            text += "/>\n"
        }
    }

    /// A text label at (`x`, `y`) (the baseline's start unless `attributes` say otherwise).
    package mutating func label(_ content: String, x: Double, y: Double, _ attributes: [(String, String)] = []) {
        element("text", [("x", SVGWriter.number(x)), ("y", SVGWriter.number(y))] + attributes, text: content)
    }

    /// A straight line.
    package mutating func line(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double = 1,
        _ extra: [(String, String)] = []
    ) {
        element(
            "line",
            [
                ("x1", SVGWriter.number(x1)), ("y1", SVGWriter.number(y1)), ("x2", SVGWriter.number(x2)),
                ("y2", SVGWriter.number(y2)), ("stroke", stroke), ("stroke-width", SVGWriter.number(width)),
            ] + extra)
    }

    /// A rectangle.
    package mutating func rect(
        x: Double, y: Double, width: Double, height: Double, fill: String, stroke: String = "none",
        _ extra: [(String, String)] = []
    ) {
        element(
            "rect",
            [
                ("x", SVGWriter.number(x)), ("y", SVGWriter.number(y)), ("width", SVGWriter.number(max(width, 0))),
                ("height", SVGWriter.number(max(height, 0))), ("fill", fill), ("stroke", stroke),
            ] + extra)
    }

    /// A circle.
    package mutating func circle(
        x: Double, y: Double, r: Double, fill: String, stroke: String = "none", _ extra: [(String, String)] = []
    ) {
        element(
            "circle",
            [
                ("cx", SVGWriter.number(x)), ("cy", SVGWriter.number(y)), ("r", SVGWriter.number(r)),
                ("fill", fill), ("stroke", stroke),
            ] + extra)
    }

    /// A closed polygon through `points`.
    package mutating func polygon(_ points: [(Double, Double)], fill: String, stroke: String = "none") {
        element("polygon", [("points", SVGWriter.points(points)), ("fill", fill), ("stroke", stroke)])
    }

    /// An arrow from (`x1`, `y1`) to (`x2`, `y2`): a line and a filled head of `head` units.
    package mutating func arrow(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, colour: String, width: Double = 1.5, head: Double = 6
    ) {
        let dx = x2 - x1
        let dy = y2 - y1
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0.5 else { return }
        let ux = dx / length
        let uy = dy / length
        let bx = x2 - ux * head
        let by = y2 - uy * head
        line(x1, y1, bx, by, stroke: colour, width: width)
        polygon(
            [(x2, y2), (bx - uy * head / 2, by + ux * head / 2), (bx + uy * head / 2, by - ux * head / 2)],
            fill: colour)
    }

    /// The finished document (closes whatever is still open).
    package mutating func finish() -> String {
        while !openTags.isEmpty { close() }
        return text
    }

    private mutating func appendAttributes(_ attributes: [(String, String)]) {
        for (name, value) in attributes {
            text += " " + name + "=\"" + SVGWriter.escape(value) + "\""
        }
    }

    /// `value` with one decimal at most ("12", "12.5", "-0.3"), rounded half away from zero;
    /// NaN and infinities are written as 0 and magnitudes are clamped to 10⁹.
    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let clamped = min(max(value, -1e9), 1e9)
        let tenths = Int64((clamped * 10).rounded(.toNearestOrAwayFromZero))
        let magnitude = tenths < 0 ? -tenths : tenths
        var s = tenths < 0 ? "-" : ""
        s += String(magnitude / 10)
        if magnitude % 10 != 0 { s += "." + String(magnitude % 10) }
        return s
    }

    /// A `points` attribute: "x,y x,y …".
    package static func points(_ points: [(Double, Double)]) -> String {
        var s = ""
        for (i, p) in points.enumerated() {
            if i > 0 { s += " " }
            s += number(p.0) + "," + number(p.1)
        }
        return s
    }

    /// `s` with the five XML special characters escaped and the characters XML 1.0 forbids
    /// (controls other than tab and LF, U+FFFE, U+FFFF) replaced by U+FFFD.
    package static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // XML 1.0 allows tab, LF, CR, U+0020…U+D7FF, U+E000…U+FFFD and above U+FFFF:
                // the other controls and the noncharacters U+FFFE and U+FFFF make the file not XML.
                if scalar.value < 0x20 && scalar != "\t" && scalar != "\n" || scalar.value == 0xFFFE
                    || scalar.value == 0xFFFF
                {
                    out.unicodeScalars.append("\u{FFFD}")
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Microseconds as seconds with three decimals ("1.000 s" is written "1.000").
    package static func seconds(_ microseconds: Int64) -> String {
        let negative = microseconds < 0
        let ms = microseconds.magnitude / 1000  // Int64.min has no negation: its magnitude is a UInt64
        let fraction = String(ms % 1000)
        return (negative ? "-" : "") + String(ms / 1000) + "." + String(repeating: "0", count: 3 - fraction.count)
            + fraction
    }
}
