import Gestures

/// The registry of gesture kinds a board file can name (`[[recognizer]] kind`, `formats.md` §4).
///
/// Each kind is declared here once, and everything else is derived from it or checked against
/// it: the board reader finds a kind by `boardName` and reads its parameters by an exhaustive
/// switch (`RecognizerReader`), `validate`'s messages list `allCases`, the engine builder switches
/// exhaustively over `RecognizerParameters` (whose `recognizerKind` maps back here), the events
/// carry `eventKind` (the wire name of `formats.md` §2), and `RegistryTests` checks that every
/// kind loads, builds, and has its row and keys in `formats.md`. Adding a kind: CONTRIBUTING.md,
/// "Adding a gesture kind".
package enum RecognizerKind: Sendable, CaseIterable, Hashable, CustomStringConvertible {
    case tap, longPress, pan, swipe, pinch, rotation, checkmark, stroke, edgePan

    /// The name written in a board file (`kind = "long_press"`): the name its events carry
    /// (`eventKind`, formats.md §2), but for a kind that reports as another one.
    package var boardName: String {
        switch self {
        case .edgePan: "edge_pan"
        default: eventKind.description
        }
    }

    package var description: String { boardName }

    /// The kind its events carry (`"kind"` of `formats.md` §2; the binary frame's kind byte). An
    /// edge pan reports pan events, as UIScreenEdgePanGestureRecognizer is a UIPanGestureRecognizer.
    package var eventKind: GestureKind {
        switch self {
        case .tap: .tap
        case .longPress: .longPress
        case .pan: .pan
        case .swipe: .swipe
        case .pinch: .pinch
        case .rotation: .rotation
        case .checkmark: .checkmark
        case .stroke: .stroke
        case .edgePan: .pan
        }
    }

    /// True for kinds that go began → changed → ended/cancelled; false for discrete kinds that
    /// only say `recognized` (S2, S3). Decides a binding's default `state` and whether `hold` applies.
    package var isContinuous: Bool {
        switch self {
        case .longPress, .pan, .pinch, .rotation, .edgePan: true
        case .tap, .swipe, .checkmark, .stroke: false
        }
    }

    /// The keys of the kind beyond the common ones (`formats.md` §4); any other key is unknown.
    package var keys: [String] {
        switch self {
        case .tap: ["taps", "touches", "max_movement", "max_interval_ms", "max_tap_distance"]
        case .longPress: ["min_duration_ms", "allowable_movement", "touches", "taps"]
        case .pan: ["min_touches", "max_touches", "min_distance"]
        case .swipe: ["direction", "touches", "min_distance", "min_velocity", "max_duration_ms"]
        case .pinch, .rotation, .checkmark: []
        case .stroke: ["templates", "gestures", "min_score", "min_length"]
        case .edgePan: ["edges", "edge_band", "min_distance"]
        }
    }

    /// "a tap recognizer", "an edge_pan recognizer": how messages name a recognizer of this kind.
    package var recognizerPhrase: String {
        let vowel = boardName.first.map { "aeiou".contains($0) } ?? false
        return (vowel ? "an " : "a ") + boardName + " recognizer"
    }

    /// The kind named `name` in a board file.
    package init?(boardName name: String) {
        guard let kind = Self.allCases.first(where: { $0.boardName == name }) else { return nil }
        self = kind
    }

    /// Every board name, in declaration order (for "supported: …" messages).
    package static var boardNames: [String] { allCases.map(\.boardName) }

    /// Every key some kind has (a recognizer whose kind is unknown is judged against these).
    package static var allKeys: [String] {
        var keys: [String] = []
        for kind in allCases { for key in kind.keys where !keys.contains(key) { keys.append(key) } }
        return keys
    }
}
