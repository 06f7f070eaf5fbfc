import TouchCore

/// UIKit's custom-recognizer example (the checkmark of the Event Handling Guide), a subclass as in UIKit: a
/// discrete, one-finger checkmark — a down-stroke to the right followed by a longer up-stroke to
/// the right. Reports `midPoint`, where the up-stroke begins, as its location (the stroke's lowest point).
///
/// A checkmark is the stroke `check` of the built-in template set: the stroke is compared with
/// all sixteen shapes of the $1 study and is a checkmark only when `check` is the nearest
/// (`StrokeGestureRecognizer`), so a square root or a caret is not mistaken for one; between a
/// `check` and a `v`, where the stroke begins decides (`StrokeTemplateSet.startDepthRules`: a
/// check starts part-way down, a v at the top). Measured on held-out people of the $1 unistroke
/// logs — see `docs/strokes.md`.
open class CheckmarkGestureRecognizer: StrokeGestureRecognizer {
    /// Where the up-stroke begins, in panel pixels.
    public private(set) var midPoint: Point = .zero

    /// `minimumLeg`, px: the shortest down leg; the stroke's path must be at least three legs long.
    public init(name: String, minimumLeg: Double = 12, templates: StrokeTemplateSet = .builtIn) {
        super.init(
            name: name, kind: .checkmark, templates: templates, gestures: ["check"],
            minimumScore: StrokeGestureRecognizer.defaultMinimumScore, minimumLength: 3 * minimumLeg)
    }

    open override func strokeRecognized() {
        // The lowest point (largest y on a y-down panel); ties go to the later point.
        var low = 0
        var i = 1
        while i < count {
            if points[i].y >= points[low].y { low = i }
            i += 1
        }
        midPoint = points[low]
    }

    open override func fillEvent(_ event: inout GestureEvent) {
        if state == .possible || state == .recognized { event.location = midPoint }
    }

    open override func reset() {
        super.reset()
        midPoint = .zero
    }
}
