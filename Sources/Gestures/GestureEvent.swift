import TouchCore

/// The state of a gesture recognizer (UIGestureRecognizer.State). S1–S3.
public enum GestureState: UInt8, Sendable, BitwiseCopyable, CustomStringConvertible {
    case possible, began, changed, ended, cancelled, failed
    /// Discrete recognizers' success. Same state as `ended` in UIKit (S3); kept apart so that
    /// events can say "recognized" for discrete and "ended" for continuous recognizers.
    case recognized

    /// The name used in events (`formats.md` §2).
    public var description: String {
        switch self {
        case .possible: "possible"
        case .began: "began"
        case .changed: "changed"
        case .ended: "ended"
        case .cancelled: "cancelled"
        case .failed: "failed"
        case .recognized: "recognized"
        }
    }

    /// `recognized`/`ended`, `cancelled` and `failed` end a recognizer's sequence (S6).
    @inlinable public var isTerminal: Bool {
        switch self {
        case .ended, .recognized, .cancelled, .failed: true
        default: false
        }
    }
}

/// The kinds of event (`"kind"` of `formats.md` §2; the wire names): the built-in recognizers'
/// kinds, plus `control` (S28) and `custom`. The kinds a board file can name are another list,
/// `BoardConfig.RecognizerKind`, each mapped to the event kind it reports (`edge_pan` → `pan`).
public enum GestureKind: UInt8, Sendable, BitwiseCopyable, CaseIterable, CustomStringConvertible {
    case tap, longPress, pan, swipe, pinch, rotation, checkmark, control, custom, stroke

    public var description: String {
        switch self {
        case .tap: "tap"
        case .longPress: "long_press"
        case .pan: "pan"
        case .swipe: "swipe"
        case .pinch: "pinch"
        case .rotation: "rotation"
        case .checkmark: "checkmark"
        case .control: "control"
        case .custom: "custom"
        case .stroke: "stroke"
        }
    }

    /// The event kind whose name is `name`, if a recognizer of the board can report it under that
    /// name (not `control` or `custom`). Board files name kinds through `BoardConfig.RecognizerKind`.
    public init?(boardName name: String) {
        guard let k = GestureKind.allCases.first(where: { $0.description == name && $0 != .control && $0 != .custom })
        else { return nil }
        self = k
    }
}

/// Swipe directions (UISwipeGestureRecognizer.Direction), as an option set.
public struct SwipeDirection: OptionSet, Sendable, BitwiseCopyable, Hashable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let right = SwipeDirection(rawValue: 1)
    public static let left = SwipeDirection(rawValue: 2)
    public static let up = SwipeDirection(rawValue: 4)
    public static let down = SwipeDirection(rawValue: 8)

    /// The name of a single direction in events and board files.
    public var name: String {
        switch self {
        case .right: "right"
        case .left: "left"
        case .up: "up"
        case .down: "down"
        default: "none"
        }
    }

    public init?(name: String) {
        switch name {
        case "right": self = .right
        case "left": self = .left
        case "up": self = .up
        case "down": self = .down
        default: return nil
        }
    }
}

/// One action (S4): a recognizer's transition into began, changed, ended/recognized or cancelled.
///
/// A plain value with no references, so it crosses the output queue by copy. Names are
/// indices into the engine's tables (`GestureEngine.recognizerName(_:)`, `regionName(_:)`).
public struct GestureEvent: Sendable, BitwiseCopyable, Equatable {
    /// The instant of the transition: the frame's timestamp, or a timer's deadline.
    public var time: Instant
    /// Index of the recognizer in the engine's table. For `.control` it is the control region's
    /// index, as before `control` existed (kept for existing consumers; read `control` instead).
    public var recognizer: Int
    public var kind: GestureKind
    public var state: GestureState
    /// Index of the region the recognizer is attached to.
    public var region: Int
    /// S12: centroid of the recognizer's touches (tap: where recognized; swipe: where it began).
    public var location: Point
    /// numberOfTouches.
    public var touches: Int
    /// Tap: the number of taps.
    public var taps: Int = 0
    /// Swipe: the direction recognized.
    public var direction: SwipeDirection = []
    /// Pan: translation since began, px.
    public var translation: Point = .zero
    /// Pan: velocity, px/s.
    public var velocity: Point = .zero
    /// Pinch: scale since began; rotation: radians since began; stroke and checkmark: the score.
    public var value: Double = 0
    /// Stroke: the recognized gesture's index in the recognizer's template names (-1: none).
    public var stroke: Int = -1
    /// Pinch: scale/s; rotation: rad/s.
    public var scalarVelocity: Double = 0
    /// A control's own action (S28): the control region's index in the engine's region table;
    /// -1 for every recognizer's action. Consumers tell the two apart by this field alone.
    public var control: Int = -1
    /// Whether this is a control region's own action (`control` names the region).
    public var isControlAction: Bool { control >= 0 }

    public init(
        time: Instant, recognizer: Int, kind: GestureKind, state: GestureState, region: Int, location: Point,
        touches: Int
    ) {
        self.time = time
        self.recognizer = recognizer
        self.kind = kind
        self.state = state
        self.region = region
        self.location = location
        self.touches = touches
    }
}

/// What a region (UIView) receives for one touch (S22–S27), printed by `replay --delivery`.
public enum DeliveryPhase: UInt8, Sendable, BitwiseCopyable, CustomStringConvertible {
    case began, moved, ended, cancelled
    public var description: String {
        switch self {
        case .began: "began"
        case .moved: "moved"
        case .ended: "ended"
        case .cancelled: "cancelled"
        }
    }
}

/// One delivery of one touch to a region.
public struct RegionDelivery: Sendable, BitwiseCopyable, Equatable {
    /// When the region receives it (for a withheld delivery, when it is released).
    public var time: Instant
    /// Index of the region in the engine's table.
    public var region: Int
    public var phase: DeliveryPhase
    /// The touch's tracking id as the controller reported it (reused by the next finger, possibly
    /// while this touch's `ended` is still withheld, S24).
    public var touch: UInt8
    public var location: Point
    /// The touch's serial (`Touch.serial`): one physical touch, never reused.
    public var serial: UInt32

    public init(time: Instant, region: Int, phase: DeliveryPhase, touch: UInt8, location: Point, serial: UInt32 = 0) {
        self.time = time
        self.region = region
        self.phase = phase
        self.touch = touch
        self.location = location
        self.serial = serial
    }
}
