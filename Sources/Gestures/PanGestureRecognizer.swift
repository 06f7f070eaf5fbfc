import TouchCore

/// UIPanGestureRecognizer: continuous (S3). Begins once the centroid of between
/// `minimumNumberOfTouches` and `maximumNumberOfTouches` fingers has moved `minimumDistance`
/// pixels; reports `translation` (settable, as `setTranslation`) and `velocity` (least squares
/// over the last 100 ms); ends when the fingers lift.
open class PanGestureRecognizer: GestureRecognizer {
    /// The pan's own fields: its only `@exclusivity(unchecked)` stored property (`PanFields`; the
    /// contract is `RecognizerFields`'). The properties below forward to it.
    @exclusivity(unchecked) final var panFields: PanFields

    public final var minimumNumberOfTouches: Int {
        @inline(__always) get { panFields.minimumNumberOfTouches }
        @inline(__always) set { panFields.minimumNumberOfTouches = newValue }
    }
    public final var maximumNumberOfTouches: Int {
        @inline(__always) get { panFields.maximumNumberOfTouches }
        @inline(__always) set { panFields.maximumNumberOfTouches = newValue }
    }
    /// Pixels the centroid must travel before the pan begins.
    public final var minimumDistance: Double {
        @inline(__always) get { panFields.minimumDistance }
        @inline(__always) set { panFields.minimumDistance = newValue }
    }

    private var origin: Point? {
        @inline(__always) get { panFields.origin }
        @inline(__always) set { panFields.origin = newValue }
    }
    private var touchCount: Int {
        @inline(__always) get { panFields.touchCount }
        @inline(__always) set { panFields.touchCount = newValue }
    }
    private var tracker: VelocityTracker {
        @inline(__always) get { panFields.tracker }
        @inline(__always) _modify { yield &panFields.tracker }
    }
    private var lastCentroid: Point {
        @inline(__always) get { panFields.lastCentroid }
        @inline(__always) set { panFields.lastCentroid = newValue }
    }

    public init(name: String, minimumTouches: Int = 1, maximumTouches: Int = .max, minimumDistance: Double = 10) {
        panFields = PanFields(
            minimumNumberOfTouches: minimumTouches, maximumNumberOfTouches: maximumTouches,
            minimumDistance: minimumDistance)
        super.init(name: name, kind: .pan)
    }

    /// The pan a board's `kind = "pan"` builds: the same recognizer, of a final class, so that
    /// the engine may tell it only touch counts (`readsOnlyTouchCount`); no subclass (such as
    /// `EdgePanGestureRecognizer`) can override the callbacks it then skips.
    public static func builtIn(
        name: String, minimumTouches: Int = 1, maximumTouches: Int = .max, minimumDistance: Double = 10
    ) -> PanGestureRecognizer {
        let r = BuiltInPanGestureRecognizer(
            name: name, minimumTouches: minimumTouches, maximumTouches: maximumTouches,
            minimumDistance: minimumDistance)
        r.readsOnlyTouchCount = true
        return r
    }

    open override var isContinuous: Bool { true }

    /// Translation of the centroid since the pan began (or since `setTranslation`).
    public var translation: Point {
        guard let origin else { return .zero }
        return location(in: nil) - origin
    }

    /// Moves the reference so that `translation` reads `value` now.
    public func setTranslation(_ value: Point) { origin = location(in: nil) - value }

    /// Pixels per second, as of `now`: zero once the fingers have rested 40 ms (a finger at rest
    /// has no velocity, so a drag that stops before lifting is not a fling).
    public var velocity: Point { tracker.velocityInPlace(at: now) }

    open override func touchesBegan(_ touches: TouchSet) { began(count: touches.count) }
    open override func touchesMoved(_ touches: TouchSet) { moved() }
    open override func touchesEnded(_ touches: TouchSet) { ended(count: touches.count) }

    override func began(count: Int) {
        touchCount += count
        rebase()
        if touchCount > maximumNumberOfTouches && state == .possible {
            fail(because: "\(touchCount) fingers, more than max_touches")
        }
    }

    override func moved() {
        let here = location(in: nil)
        tracker.add(here, at: now)
        switch state {
        case .possible:
            guard touchCount >= minimumNumberOfTouches, touchCount <= maximumNumberOfTouches, let origin else { return }
            if isWaitingForFailure || here.distance(to: origin) >= minimumDistance { state = .began }
        case .began, .changed:
            state = .changed
        default:
            break
        }
    }

    override func ended(count: Int) {
        touchCount -= count
        if touchCount > 0 {
            rebase()
            return
        }
        switch state {
        case .began, .changed: state = .ended
        case .possible:
            if isWaitingForFailure { state = .ended } else { fail(because: "lifted before moving min_distance") }
        default: break
        }
    }

    /// Keeps the translation continuous when fingers join or leave (the centroid jumps).
    private func rebase() {
        let current = currentTouchesCentroidExcludingEnded()
        if let o = origin {
            let t = lastCentroid - o
            origin = current - t
        } else {
            origin = current
        }
        lastCentroid = current
        tracker.reset()
        tracker.add(current, at: now)
    }

    private func currentTouchesCentroidExcludingEnded() -> Point {
        withEngine(nil) { $0.centroidOfTouchesDown(of: self) } ?? location(in: nil)
    }

    open override func fillEvent(_ event: inout GestureEvent) {
        lastCentroid = location(in: nil)
        event.translation = origin.map { lastCentroid - $0 } ?? .zero  // `translation`, without a second centroid
        event.velocity = velocity
    }

    open override func reset() {
        origin = nil
        touchCount = 0
        tracker.reset()
    }
}

/// `PanGestureRecognizer.builtIn(…)`'s class: final, so its touch callbacks are the pan's own.
final class BuiltInPanGestureRecognizer: PanGestureRecognizer {}

/// A pan recognizer's own fields, settings and per-touch state, in one value held by its only
/// `@exclusivity(unchecked)` stored property (`PanGestureRecognizer.panFields`). The contract is
/// `RecognizerFields`' (Ownership.swift; docs/ARCHITECTURE.md, "Unchecked storage"): only the
/// thread holding the recognizer stage reads or writes them once the recognizer is installed
/// (before, only the thread building it).
struct PanFields {
    var minimumNumberOfTouches: Int
    var maximumNumberOfTouches: Int
    var minimumDistance: Double
    // Per touch sequence (`origin`, `touchCount` and `tracker` cleared by `reset`).
    var origin: Point?
    var touchCount = 0
    var tracker = VelocityTracker()
    /// The centroid `origin` was last rebased on (or reported at).
    var lastCentroid: Point = .zero
}
