import Gestures

// Kind parameters of `formats.md` §4. Lengths are in points as written in the board file;
// the engine converts them with `PanelDescription.pointsToPixels`. Times are in milliseconds.

/// `kind = "tap"` (UITapGestureRecognizer).
public struct TapParameters: Sendable, Equatable {
    /// `taps` (numberOfTapsRequired), ≥ 1.
    public var taps: Int = 1
    /// `touches` (numberOfTouchesRequired), 1…10.
    public var touches: Int = 1
    /// `max_movement`, pt: how far a touch may move while down.
    public var maxMovement: Double = 10
    /// `max_interval_ms`: from a lift to the next down.
    public var maxIntervalMilliseconds: Int = 300
    /// `max_tap_distance`, pt: between successive taps.
    public var maxTapDistance: Double = 45

    public init() {}
}

/// `kind = "long_press"` (UILongPressGestureRecognizer).
public struct LongPressParameters: Sendable, Equatable {
    /// `min_duration_ms` (minimumPressDuration).
    public var minDurationMilliseconds: Int = 500
    /// `allowable_movement`, pt.
    public var allowableMovement: Double = 10
    /// `touches` (numberOfTouchesRequired), 1…10.
    public var touches: Int = 1
    /// `taps` (numberOfTapsRequired) before the press, ≥ 0.
    public var taps: Int = 0

    public init() {}
}

/// `kind = "pan"` (UIPanGestureRecognizer).
public struct PanParameters: Sendable, Equatable {
    /// `min_touches` (minimumNumberOfTouches), ≥ 1.
    public var minTouches: Int = 1
    /// `max_touches` (maximumNumberOfTouches); `Int.max` when unlimited (absent).
    public var maxTouches: Int = .max
    /// `min_distance`, pt: movement before the pan begins.
    public var minDistance: Double = 10

    public init() {}
}

/// `kind = "swipe"` (UISwipeGestureRecognizer).
public struct SwipeParameters: Sendable, Equatable {
    /// `direction`: the permitted directions, never empty.
    public var direction: SwipeDirection = .right
    /// `touches` (numberOfTouchesRequired), 1…10.
    public var touches: Int = 1
    /// `min_distance`, pt.
    public var minDistance: Double = 50
    /// `min_velocity`, pt/s.
    public var minVelocity: Double = 300
    /// `max_duration_ms`.
    public var maxDurationMilliseconds: Int = 500

    public init() {}
}

/// `kind = "stroke"` (`StrokeGestureRecognizer`): templates are read and prepared when the board loads.
public struct StrokeParameters: Sendable, Equatable {
    /// `templates`: the template file, absolute (resolved against the board file's directory);
    /// nil for the built-in sixteen shapes of the $1 study.
    public var templatesPath: String? = nil
    /// The prepared templates of `templatesPath` (or the built-in set).
    public var templates: StrokeTemplateSet = .builtIn
    /// `gestures`: the template names it may report; nil for all.
    public var gestures: [String]? = nil
    /// `min_score`, 0…1: below it the stroke is rejected.
    public var minScore: Double = StrokeGestureRecognizer.defaultMinimumScore
    /// `min_length`, pt: the shortest path that can be a stroke.
    public var minLength: Double = 30

    public init() {}
}

/// A recognizer's kind with its kind-specific parameters.
public enum RecognizerParameters: Sendable, Equatable {
    case tap(TapParameters)
    case longPress(LongPressParameters)
    case pan(PanParameters)
    case swipe(SwipeParameters)
    /// Two touches; no keys.
    case pinch
    /// Two touches; no keys.
    case rotation
    /// One touch, down-stroke then up-stroke; no keys.
    case checkmark
    /// `kind = "edge_pan"` (UIScreenEdgePanGestureRecognizer); its events are pan events.
    case edgePan(EdgePanParameters)
    /// One touch, a drawn shape matched against templates.
    case stroke(StrokeParameters)

    public var kind: GestureKind {
        switch self {
        case .tap: .tap
        case .longPress: .longPress
        case .pan: .pan
        case .swipe: .swipe
        case .pinch: .pinch
        case .rotation: .rotation
        case .checkmark: .checkmark
        case .edgePan: .pan
        case .stroke: .stroke
        }
    }

    /// The fewest touches the recognizer needs.
    public var minimumTouches: Int {
        switch self {
        case .tap(let p): p.touches
        case .longPress(let p): p.touches
        case .pan(let p): p.minTouches
        case .swipe(let p): p.touches
        case .pinch, .rotation: 2
        case .checkmark, .stroke, .edgePan: 1
        }
    }
}

/// `kind = "edge_pan"` (UIScreenEdgePanGestureRecognizer): a one-finger pan that starts in an edge band.
public struct EdgePanParameters: Sendable, Equatable {
    /// `edges`: the edges a pan may start from, never empty (default bottom).
    public var edges: RegionEdges = .bottom
    /// `edge_band`, pt: how close to the edge the touch must land (default 20).
    public var edgeBand: Double = 20
    /// `min_distance`, pt: movement away from the edge before the pan begins (default 10).
    public var minDistance: Double = 10

    public init() {}
}
