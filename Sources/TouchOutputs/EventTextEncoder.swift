import Gestures
import TouchCore

/// Gesture events as one line of text each, from a template such as
/// `"{recognizer} {state} {x} {y}"` — for UART peers that want something simpler than JSON.
///
/// Placeholders are the JSON field names of `formats.md` §2: `t_us`, `recognizer`, `kind`,
/// `state`, `region`, `x`, `y`, `touches`, `taps`, `direction`, `translation_x`,
/// `translation_y`, `velocity_x`, `velocity_y`, `scale`, `rotation`, `velocity`. A field that
/// the event's kind does not have (`{taps}` on a pan) is replaced by nothing. Numbers are
/// formatted as in the JSON lines; names are written as they are. Text outside placeholders,
/// and any `{…}` that is not a known field, is copied literally (`validate(template:)`
/// reports the latter). Every line ends in "\n".
package struct EventTextEncoder: Sendable {
    /// The fields a template can name.
    package enum Field: String, Sendable, CaseIterable {
        case tUs = "t_us"
        case recognizer, kind, state, region, x, y, touches, taps, direction
        case translationX = "translation_x"
        case translationY = "translation_y"
        case velocityX = "velocity_x"
        case velocityY = "velocity_y"
        case scale, rotation, velocity
    }

    enum Segment: Sendable {
        case literal([UInt8])
        case field(Field)
    }

    /// "{recognizer} {state} {x} {y}".
    package static let defaultTemplate = "{recognizer} {state} {x} {y}"

    package let template: String
    package let names: EventNames
    let segments: [Segment]

    package init(template: String = EventTextEncoder.defaultTemplate, names: EventNames) {
        self.template = template
        self.names = names
        var segments: [Segment] = []
        for piece in EventTextEncoder.parse(template) {
            switch piece {
            case .text(let t), .unknown(let t):
                if case .literal(let previous)? = segments.last {
                    segments[segments.count - 1] = .literal(previous + Array(t.utf8))
                } else {
                    segments.append(.literal(Array(t.utf8)))
                }
            case .field(let f): segments.append(.field(f))
            }
        }
        self.segments = segments
    }

    /// The placeholders in `template` that name no field, in order of first appearance
    /// (empty when the template is valid).
    package static func validate(template: String) -> [String] {
        var unknown: [String] = []
        for piece in parse(template) {
            if case .unknown(let t) = piece {
                let name = String(t.dropFirst().dropLast())
                if !unknown.contains(name) { unknown.append(name) }
            }
        }
        return unknown
    }

    /// Appends the event's line to `out`.
    package func encode(_ event: GestureEvent, into out: inout [UInt8]) {
        for segment in segments {
            switch segment {
            case .literal(let bytes): out.append(contentsOf: bytes)
            case .field(let field): append(field, of: event, to: &out)
            }
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// The event's line as a String (allocates; for tests and tools).
    package func line(for event: GestureEvent) -> String {
        var out: [UInt8] = []
        encode(event, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func append(_ field: Field, of e: GestureEvent, to out: inout [UInt8]) {
        switch field {
        case .tUs: out.appendInteger(e.time.microseconds)
        case .recognizer: names.appendRecognizerText(for: e, to: &out)
        case .kind: out.append(contentsOf: e.kind.description.utf8)
        case .state: out.append(contentsOf: e.state.description.utf8)
        case .region: names.appendRegionText(e.region, to: &out)
        case .x: out.appendDouble(e.location.x)
        case .y: out.appendDouble(e.location.y)
        case .touches: out.appendInteger(e.touches)
        case .taps: if e.kind == .tap { out.appendInteger(e.taps) }
        case .direction: if e.kind == .swipe { out.append(contentsOf: e.direction.name.utf8) }
        case .translationX: if e.kind == .pan { out.appendDouble(e.translation.x) }
        case .translationY: if e.kind == .pan { out.appendDouble(e.translation.y) }
        case .velocityX: if e.kind == .pan { out.appendDouble(e.velocity.x) }
        case .velocityY: if e.kind == .pan { out.appendDouble(e.velocity.y) }
        case .scale: if e.kind == .pinch { out.appendDouble(e.value) }
        case .rotation: if e.kind == .rotation { out.appendDouble(e.value) }
        case .velocity: if e.kind == .pinch || e.kind == .rotation { out.appendDouble(e.scalarVelocity) }
        }
    }

    enum Piece {
        case text(Substring)
        /// A `{name}` naming no field, braces included.
        case unknown(Substring)
        case field(Field)
    }

    /// Splits a template into literal text and `{name}` placeholders. A `{` without a later `}`
    /// is literal text.
    static func parse(_ template: String) -> [Piece] {
        var pieces: [Piece] = []
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            // A second "{" before the "}" starts the placeholder afresh: "{{x}" is "{" then {x}.
            let start = rest[open..<close].lastIndex(of: "{") ?? open
            if start > rest.startIndex { pieces.append(.text(rest[rest.startIndex..<start])) }
            let name = rest[rest.index(after: start)..<close]
            if let field = Field(rawValue: String(name)) {
                pieces.append(.field(field))
            } else {
                pieces.append(.unknown(rest[start...close]))
            }
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.text(rest)) }
        return pieces
    }
}
