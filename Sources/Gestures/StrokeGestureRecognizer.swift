import TouchCore

/// A discrete, one-finger recognizer of drawn shapes: the stroke is compared, when the finger
/// lifts, with every template of a `StrokeTemplateSet` (`StrokeShape`), and the nearest one
/// names it. Written against the public subclassing surface, as UIKit's custom recognizers are.
///
/// - Recognized: one finger, a path of at least `minimumLength` px spanning at least half of
///   it, the nearest template's gesture is in `reportable`, its score is at least
///   `minimumScore`, and open-set rejection (`StrokeRejection`) finds it no everyday stroke: not
///   straight unless the gesture is a line, not nearer to a line or an arc than to the gesture,
///   and with the gesture's structure (a check turns once, down then up). S2: otherwise it fails.
/// - Failed, at once: a second finger; otherwise at the lift. It never waits past the lift (no
///   timer), so a stroke holds back recognizers that require it to fail no longer than it lasts.
///
/// Points go into a fixed buffer (thinned by half when full) and the shape into buffers made
/// at init: recognizing allocates nothing.
open class StrokeGestureRecognizer: GestureRecognizer {
    /// The prepared templates (every one competes, reportable or not).
    public let templates: StrokeTemplateSet
    /// Below this score (`StrokeShape.score`) the stroke is rejected.
    public var minimumScore: Double
    /// The shortest path that can be a stroke, px (rejects taps and short drags).
    public var minimumLength: Double
    /// By gesture index: whether a win by that gesture is reported.
    private let reportable: [Bool]

    /// The recognized gesture's index in `templates.names`, or -1.
    public private(set) var recognizedGesture = -1
    /// The recognized stroke's score, 0…1.
    public private(set) var score = 0.0

    /// The template set's gesture names: what `recognizedGesture`, and so its events' `stroke`, index.
    open override var strokeNames: [String] { templates.names }

    /// The recognized gesture's name.
    public var recognizedName: String? {
        templates.names.indices.contains(recognizedGesture) ? templates.names[recognizedGesture] : nil
    }

    public static let capacity = 128
    var points: InlineArray<128, Point> = InlineArray(repeating: .zero)
    var count = 0
    private var stride = 1
    private var skipped = 0
    private var matcher = StrokeMatcher()

    /// `gestures`: the names it may report (nil: all); names not in `templates` are ignored here
    /// (the board loader reports them).
    public init(
        name: String, kind: GestureKind = .stroke, templates: StrokeTemplateSet, gestures: [String]? = nil,
        minimumScore: Double = StrokeGestureRecognizer.defaultMinimumScore, minimumLength: Double = 30
    ) {
        self.templates = templates
        self.minimumScore = minimumScore
        self.minimumLength = minimumLength
        reportable = templates.names.map { gestures?.contains($0) ?? true }
        super.init(name: name, kind: kind)
    }

    /// `min_score`'s default.
    public static let defaultMinimumScore = 0.5

    open override func touchesBegan(_ touches: TouchSet) {
        guard touches.count == 1, count == 0 else {
            fail(because: "a stroke is drawn with one finger")
            return
        }
        append(touches[0].location)
    }

    open override func touchesMoved(_ touches: TouchSet) {
        guard touches.count == 1 else { return }
        append(touches[0].location)
    }

    open override func touchesEnded(_ touches: TouchSet) {
        guard state == .possible else { return }
        if touches.count == 1 { append(touches[0].location) }
        if let rejection = verdict() {
            fail(because: describe(rejection))
        } else {
            state = .recognized
        }
    }

    private func append(_ p: Point) {
        if count > 0 && points[count - 1] == p { return }
        skipped += 1
        guard skipped >= stride else { return }
        skipped = 0
        if count == Self.capacity {
            // Thin to every other point and sample half as often from now on.
            var i = 0
            while i < Self.capacity / 2 {
                points[i] = points[2 * i]
                i += 1
            }
            count = Self.capacity / 2
            stride *= 2
        }
        points[count] = p
        count += 1
    }

    /// Why a stroke was rejected: plain values, so that rejecting allocates nothing (the text is
    /// only built when the engine's diagnostics are listening).
    enum Rejection {
        case tooShort(Double)
        case tooSmall(Double)
        case noMatch
        case notReportable(Int)
        case lowScore(Double)
        case straight(Int)
        case everyday(Int)
        case structure(Int)
    }

    private func describe(_ r: Rejection) -> String {
        switch r {
        case .tooShort(let length):
            "a path of \(pointsDescription(length)) is shorter than min_length "
                + "(\(pointsDescription(minimumLength)))"
        case .tooSmall(let extent):
            "the stroke spans \(pointsDescription(extent)), less than half of min_length "
                + "(\(pointsDescription(minimumLength))): no shape"
        case .noMatch: "no templates, or a stroke with no shape"
        case .notReportable(let g): "the nearest template is \(templates.names[g]), which it does not report"
        case .lowScore(let s): "score \(s) is below min_score \(minimumScore)"
        case .straight(let g): "a straight stroke, and the nearest shape (\(templates.names[g])) is not a line"
        case .everyday(let g): "nearer to a line or an arc than to \(templates.names[g]): an everyday stroke"
        case .structure(let g): "not shaped as \(templates.names[g]) is (a check turns once, down then up)"
        }
    }

    /// Classifies the buffered stroke: nil when recognized, otherwise why not.
    private func verdict() -> Rejection? {
        guard count > 0 else { return .tooShort(0) }
        var length = 0.0
        var low = points[0]
        var high = points[0]
        var i = 1
        while i < count {
            length += points[i - 1].distance(to: points[i])
            low = Point(x: min(low.x, points[i].x), y: min(low.y, points[i].y))
            high = Point(x: max(high.x, points[i].x), y: max(high.y, points[i].y))
            i += 1
        }
        guard length >= minimumLength else { return .tooShort(length) }
        // A finger wobbling in place draws a long path in a small box: no shape.
        let extent = max(high.x - low.x, high.y - low.y)
        guard extent >= minimumLength / 2 else { return .tooSmall(extent) }
        let n = count
        let decision = points.span.withUnsafeBufferPointer { p in
            matcher.classify(UnsafeBufferPointer(rebasing: p[0..<n]), in: templates, reporting: reportable)
        }
        let gesture: Int
        let distance: Double
        switch decision {
        case .noMatch: return .noMatch
        case .straight(let g): return .straight(g)
        case .everyday(let g): return .everyday(g)
        case .structure(let g): return .structure(g)
        case .gesture(let g, let d):
            gesture = g
            distance = d
        }
        let s = StrokeShape.score(distance: distance)
        guard reportable[gesture] else { return .notReportable(gesture) }
        guard s >= minimumScore else { return .lowScore(s) }
        recognizedGesture = gesture
        score = s
        strokeRecognized()
        return nil
    }

    /// Called when a stroke has been recognized, before the transition (subclasses note where).
    open func strokeRecognized() {}

    open override func fillEvent(_ event: inout GestureEvent) {
        event.stroke = recognizedGesture
        event.value = score
    }

    open override func reset() {
        count = 0
        stride = 1
        skipped = 0
        recognizedGesture = -1
        score = 0
    }
}
