import TouchCore

/// UISwipeGestureRecognizer: discrete (S2). Recognizes when `numberOfTouchesRequired` fingers
/// travel `minimumDistance` pixels along one of the permitted `direction`s at an average speed
/// of at least `minimumVelocity` px/s, within `maximumDuration`. Reports the direction and the
/// location where the swipe began (S12).
///
/// It fails as soon as success has become impossible — the fingers lift, go the wrong way, or
/// can no longer reach the distance at the required average speed (a timer at
/// `minimumDistance / minimumVelocity`) — so a pan that requires it to fail (S15) waits no
/// longer than that.
open class SwipeGestureRecognizer: GestureRecognizer {
    /// The swipe's own fields: its only `@exclusivity(unchecked)` stored property (`SwipeFields`;
    /// the contract is `RecognizerFields`'). The properties below forward to it.
    @exclusivity(unchecked) final var swipeFields: SwipeFields

    public final var direction: SwipeDirection {
        @inline(__always) get { swipeFields.direction }
        @inline(__always) set { swipeFields.direction = newValue }
    }
    public final var numberOfTouchesRequired: Int {
        @inline(__always) get { swipeFields.numberOfTouchesRequired }
        @inline(__always) set { swipeFields.numberOfTouchesRequired = newValue }
    }
    /// Pixels of travel along the swipe's axis.
    public final var minimumDistance: Double {
        @inline(__always) get { swipeFields.minimumDistance }
        @inline(__always) set { swipeFields.minimumDistance = newValue }
    }
    /// Pixels per second, averaged from the first finger down.
    public final var minimumVelocity: Double {
        @inline(__always) get { swipeFields.minimumVelocity }
        @inline(__always) set { swipeFields.minimumVelocity = newValue }
    }
    public final var maximumDurationMicroseconds: Int64 {
        @inline(__always) get { swipeFields.maximumDurationMicroseconds }
        @inline(__always) set { swipeFields.maximumDurationMicroseconds = newValue }
    }
    /// The off-axis travel allowed, as a fraction of the on-axis travel.
    public final var maximumDeviation: Double {
        @inline(__always) get { swipeFields.maximumDeviation }
        @inline(__always) set { swipeFields.maximumDeviation = newValue }
    }

    private var start: Point? {
        @inline(__always) get { swipeFields.start }
        @inline(__always) set { swipeFields.start = newValue }
    }
    private var startTime: Instant {
        @inline(__always) get { swipeFields.startTime }
        @inline(__always) set { swipeFields.startTime = newValue }
    }
    private var fingers: Int {
        @inline(__always) get { swipeFields.fingers }
        @inline(__always) set { swipeFields.fingers = newValue }
    }
    private var recognizedDirection: SwipeDirection {
        @inline(__always) get { swipeFields.recognizedDirection }
        @inline(__always) set { swipeFields.recognizedDirection = newValue }
    }

    public init(
        name: String, direction: SwipeDirection = .right, touches: Int = 1, minimumDistance: Double = 50,
        minimumVelocity: Double = 300, maximumDurationMilliseconds: Double = 500
    ) {
        swipeFields = SwipeFields(
            direction: direction, numberOfTouchesRequired: touches, minimumDistance: minimumDistance,
            minimumVelocity: minimumVelocity, maximumDurationMicroseconds: Int64(maximumDurationMilliseconds * 1000))
        super.init(name: name, kind: .swipe)
    }

    /// The swipe a board's `kind = "swipe"` builds: the same recognizer, of a final class, so that
    /// the engine may tell it only touch counts (`readsOnlyTouchCount`); no subclass can override
    /// the callbacks it then skips.
    public static func builtIn(
        name: String, direction: SwipeDirection = .right, touches: Int = 1, minimumDistance: Double = 50,
        minimumVelocity: Double = 300, maximumDurationMilliseconds: Double = 500
    ) -> SwipeGestureRecognizer {
        let r = BuiltInSwipeGestureRecognizer(
            name: name, direction: direction, touches: touches, minimumDistance: minimumDistance,
            minimumVelocity: minimumVelocity, maximumDurationMilliseconds: maximumDurationMilliseconds)
        r.readsOnlyTouchCount = true
        return r
    }

    open override func touchesBegan(_ touches: TouchSet) { began(count: touches.count) }
    open override func touchesMoved(_ touches: TouchSet) { moved() }
    open override func touchesEnded(_ touches: TouchSet) { ended(count: touches.count) }

    override func began(count: Int) {
        fingers += count
        if fingers > numberOfTouchesRequired {
            fail(because: "more fingers than touches required")
            return
        }
        if start == nil { startTime = now }
        start = location(in: nil)
        // The latest moment the distance can still be covered at the minimum average speed.
        let reachable =
            minimumVelocity > 0
            ? Int64(saturating: minimumDistance / minimumVelocity * 1e6) : maximumDurationMicroseconds
        setTimer(at: startTime.advanced(byMicroseconds: min(reachable, maximumDurationMicroseconds)))
    }

    override func moved() {
        guard let start, fingers == numberOfTouchesRequired else { return }
        let d = location(in: nil) - start
        let (major, minor) = abs(d.x) >= abs(d.y) ? (d.x, d.y) : (d.y, d.x)
        let travelled = abs(major)
        guard travelled >= minimumDistance else { return }
        let seen: SwipeDirection = abs(d.x) >= abs(d.y) ? (d.x > 0 ? .right : .left) : (d.y > 0 ? .down : .up)
        guard direction.contains(seen) else {
            fail(because: "moved \(seen.name), not a permitted direction")
            return
        }
        guard abs(minor) <= maximumDeviation * travelled else {
            fail(because: "strayed too far off the swipe's axis")
            return
        }
        let seconds = max(now.seconds(since: startTime), 1e-6)
        guard travelled / seconds >= minimumVelocity else {
            fail(because: "too slow for a swipe")
            return
        }
        recognizedDirection = seen
        cancelTimer()
        state = .recognized
    }

    override func ended(count: Int) {
        fingers -= count
        if state == .possible { fail(because: "lifted before travelling the swipe's distance") }
    }

    open override func timerFired() { fail(because: "could no longer reach the distance at the minimum speed") }

    open override func fillEvent(_ event: inout GestureEvent) {
        event.direction = recognizedDirection
        if let start { event.location = start }  // S12: where the swipe began
    }

    open override func reset() {
        start = nil
        fingers = 0
        recognizedDirection = []
    }
}

/// `SwipeGestureRecognizer.builtIn(…)`'s class: final, so its touch callbacks are the swipe's own.
final class BuiltInSwipeGestureRecognizer: SwipeGestureRecognizer {}

/// A swipe recognizer's own fields, settings and per-touch state, in one value held by its only
/// `@exclusivity(unchecked)` stored property (`SwipeGestureRecognizer.swipeFields`). The
/// contract is `RecognizerFields`' (Ownership.swift; docs/ARCHITECTURE.md, "Unchecked storage"):
/// only the thread holding the recognizer stage reads or writes them once the recognizer is
/// installed (before, only the thread building it).
struct SwipeFields {
    var direction: SwipeDirection
    var numberOfTouchesRequired: Int
    var minimumDistance: Double
    var minimumVelocity: Double
    var maximumDurationMicroseconds: Int64
    var maximumDeviation: Double = 0.6
    // Per touch sequence (`start`, `fingers` and `recognizedDirection` cleared by `reset`).
    var start: Point?
    var startTime = Instant.zero
    var fingers = 0
    var recognizedDirection: SwipeDirection = []
}
