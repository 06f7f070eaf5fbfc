import Gestures

// Kind parameters of `formats.md` §4. Lengths are in points as written in the board file;
// the engine converts them with `PanelDescription.pointsToPixels`. Times are in milliseconds.

/// `kind = "tap"` (UITapGestureRecognizer).
package struct TapParameters: Sendable, Equatable {
    /// `taps` (numberOfTapsRequired), ≥ 1.
    package var taps: Int = 1
    /// `touches` (numberOfTouchesRequired), 1…10.
    package var touches: Int = 1
    /// `max_movement`, pt: how far a touch may move while down.
    package var maxMovement: Double = 10
    /// `max_interval_ms`: from a lift to the next down.
    package var maxIntervalMilliseconds: Int = 300
    /// `max_tap_distance`, pt: between successive taps.
    package var maxTapDistance: Double = 45

    package init() {}
}

/// `kind = "long_press"` (UILongPressGestureRecognizer).
package struct LongPressParameters: Sendable, Equatable {
    /// `min_duration_ms` (minimumPressDuration).
    package var minDurationMilliseconds: Int = 500
    /// `allowable_movement`, pt.
    package var allowableMovement: Double = 10
    /// `touches` (numberOfTouchesRequired), 1…10.
    package var touches: Int = 1
    /// `taps` (numberOfTapsRequired) before the press, ≥ 0.
    package var taps: Int = 0

    package init() {}
}

/// `kind = "pan"` (UIPanGestureRecognizer).
package struct PanParameters: Sendable, Equatable {
    /// `min_touches` (minimumNumberOfTouches), ≥ 1.
    package var minTouches: Int = 1
    /// `max_touches` (maximumNumberOfTouches); `Int.max` when unlimited (absent).
    package var maxTouches: Int = .max
    /// `min_distance`, pt: movement before the pan begins.
    package var minDistance: Double = 10

    package init() {}
}

/// `kind = "swipe"` (UISwipeGestureRecognizer).
package struct SwipeParameters: Sendable, Equatable {
    /// `direction`: the permitted directions, never empty.
    package var direction: SwipeDirection = .right
    /// `touches` (numberOfTouchesRequired), 1…10.
    package var touches: Int = 1
    /// `min_distance`, pt.
    package var minDistance: Double = 50
    /// `min_velocity`, pt/s.
    package var minVelocity: Double = 300
    /// `max_duration_ms`.
    package var maxDurationMilliseconds: Int = 500

    package init() {}
}

/// `kind = "stroke"` (`StrokeGestureRecognizer`): templates are read and prepared when the board loads.
package struct StrokeParameters: Sendable, Equatable {
    /// `templates`: the template file, absolute (resolved against the board file's directory);
    /// nil for the built-in sixteen shapes of the $1 study.
    package var templatesPath: String? = nil
    /// The prepared templates of `templatesPath` (or the built-in set).
    package var templates: StrokeTemplateSet = .builtIn
    /// `gestures`: the template names it may report; nil for all.
    package var gestures: [String]? = nil
    /// `min_score`, 0…1: below it the stroke is rejected.
    package var minScore: Double = StrokeGestureRecognizer.defaultMinimumScore
    /// `min_length`, pt: the shortest path that can be a stroke.
    package var minLength: Double = 30

    package init() {}
}

/// A recognizer's kind with its kind-specific parameters.
package enum RecognizerParameters: Sendable, Equatable {
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
    /// `kind = "edge_pan"` (UIScreenEdgePanGestureRecognizer), a kind of its own whose events are pan events.
    case edgePan(EdgePanParameters)
    /// One touch, a drawn shape matched against templates.
    case stroke(StrokeParameters)

    /// Its entry in the registry of gesture kinds.
    package var recognizerKind: RecognizerKind {
        switch self {
        case .tap: .tap
        case .longPress: .longPress
        case .pan: .pan
        case .swipe: .swipe
        case .pinch: .pinch
        case .rotation: .rotation
        case .checkmark: .checkmark
        case .edgePan: .edgePan
        case .stroke: .stroke
        }
    }

    /// The kind its events carry (`RecognizerKind.eventKind`): an edge pan's are pan events.
    package var kind: GestureKind { recognizerKind.eventKind }

    /// The fewest touches the recognizer needs.
    package var minimumTouches: Int {
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
package struct EdgePanParameters: Sendable, Equatable {
    /// `edges`: the edges a pan may start from, never empty (default bottom).
    package var edges: RegionEdges = .bottom
    /// `edge_band`, pt: how close to the edge the touch must land (default 20).
    package var edgeBand: Double = 20
    /// `min_distance`, pt: movement away from the edge before the pan begins (default 10).
    package var minDistance: Double = 10

    package init() {}
}
