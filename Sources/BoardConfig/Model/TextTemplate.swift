/// A line template for text outputs: literal text with `{field}` placeholders naming event
/// fields of `formats.md` §2. `{{` and `}}` stand for literal braces.
///
/// A placeholder for a field the event does not carry (e.g. `{taps}` on a pan) is the
/// output's business; the template only guarantees every name is a §2 field.
package struct TextTemplate: Sendable, Equatable, CustomStringConvertible {
    /// A piece of the template.
    package enum Segment: Sendable, Equatable {
        case literal(String)
        /// A field name from `TextTemplate.fieldNames`.
        case field(String)
    }

    /// The template as written.
    package let source: String
    /// Literals and fields in order; adjacent literals are merged.
    package let segments: [Segment]

    /// The event field names of `formats.md` §2 (common, then kind-specific).
    package static let fieldNames: [String] = [
        "t_us", "recognizer", "kind", "state", "region", "x", "y", "touches", "taps", "direction", "translation_x",
        "translation_y", "velocity_x", "velocity_y", "scale", "velocity", "rotation",
    ]

    /// The template used when a text output gives none.
    package static let `default` = TextTemplate(
        source: "{recognizer} {state} {x} {y}",
        segments: [
            .field("recognizer"), .literal(" "), .field("state"), .literal(" "), .field("x"), .literal(" "),
            .field("y"),
        ])

    private init(source: String, segments: [Segment]) {
        self.source = source
        self.segments = segments
    }

    /// Why a template was rejected.
    package enum ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        case unknownField(String)
        case unterminatedPlaceholder
        case unmatchedClosingBrace
        case emptyPlaceholder

        package var description: String {
            switch self {
            case .unknownField(let name):
                "unknown placeholder {\(name)}; known: " + TextTemplate.fieldNames.joined(separator: ", ")
            case .unterminatedPlaceholder: "a placeholder is missing its closing \"}\""
            case .unmatchedClosingBrace: "a \"}\" closes nothing (write \"}}\" for a literal brace)"
            case .emptyPlaceholder: "an empty placeholder {} (write \"{{\" for a literal brace)"
            }
        }
    }

    /// Parses `source`, checking every placeholder against `fieldNames`.
    package init(parsing source: String) throws(ParseError) {
        var segments: [Segment] = []
        var literal = ""
        var chars = source.makeIterator()
        var pending: Character? = nil
        func next() -> Character? {
            if let p = pending {
                pending = nil
                return p
            }
            return chars.next()
        }
        while let c = next() {
            if c == "{" {
                guard let d = next() else { throw .unterminatedPlaceholder }
                if d == "{" {
                    literal.append("{")
                    continue
                }
                var name = ""
                var current: Character? = d
                while let ch = current, ch != "}" {
                    if ch == "{" { throw .unterminatedPlaceholder }
                    name.append(ch)
                    current = next()
                }
                guard current == "}" else { throw .unterminatedPlaceholder }
                guard !name.isEmpty else { throw .emptyPlaceholder }
                guard TextTemplate.fieldNames.contains(name) else { throw .unknownField(name) }
                if !literal.isEmpty {
                    segments.append(.literal(literal))
                    literal = ""
                }
                segments.append(.field(name))
            } else if c == "}" {
                guard let d = next(), d == "}" else { throw .unmatchedClosingBrace }
                literal.append("}")
            } else {
                literal.append(c)
            }
        }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        self.init(source: source, segments: segments)
    }

    package var description: String { source }
}
