import TouchCore

/// UIPanGestureRecognizer: continuous (S3). Begins once the centroid of between
/// `minimumNumberOfTouches` and `maximumNumberOfTouches` fingers has moved `minimumDistance`
/// pixels; reports `translation` (settable, as `setTranslation`) and `velocity` (least squares
/// over the last 100 ms); ends when the fingers lift.
open class PanGestureRecognizer: GestureRecognizer {
    @exclusivity(unchecked) public var minimumNumberOfTouches: Int
    @exclusivity(unchecked) public var maximumNumberOfTouches: Int
    /// Pixels the centroid must travel before the pan begins.
    @exclusivity(unchecked) public var minimumDistance: Double

    @exclusivity(unchecked) private var origin: Point?
    @exclusivity(unchecked) private var touchCount = 0
    @exclusivity(unchecked) private var tracker = VelocityTracker()

    public init(name: String, minimumTouches: Int = 1, maximumTouches: Int = .max, minimumDistance: Double = 10) {
        minimumNumberOfTouches = minimumTouches
        maximumNumberOfTouches = maximumTouches
        self.minimumDistance = minimumDistance
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

    @exclusivity(unchecked) private var lastCentroid: Point = .zero

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
