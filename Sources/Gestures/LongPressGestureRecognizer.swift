import TouchCore

/// UILongPressGestureRecognizer: continuous (S3). Begins when `numberOfTouchesRequired`
/// fingers have stayed within `allowableMovement` for `minimumPressDuration` (after
/// `numberOfTapsRequired` preceding taps); then `changed` on every move (its location follows
/// the finger, without a movement limit), `ended` on lift. Fails if the fingers move too far
/// or lift before the duration.
open class LongPressGestureRecognizer: GestureRecognizer {
    /// The long press's own fields: its only `@exclusivity(unchecked)` stored property
    /// (`LongPressFields`; the contract is `RecognizerFields`'). The properties below forward to it.
    @exclusivity(unchecked) final var pressFields: LongPressFields

    public final var minimumPressDurationMicroseconds: Int64 {
        @inline(__always) get { pressFields.minimumPressDurationMicroseconds }
        @inline(__always) set { pressFields.minimumPressDurationMicroseconds = newValue }
    }
    /// Pixels the fingers may move before the press begins.
    public final var allowableMovement: Double {
        @inline(__always) get { pressFields.allowableMovement }
        @inline(__always) set { pressFields.allowableMovement = newValue }
    }
    public final var numberOfTouchesRequired: Int {
        @inline(__always) get { pressFields.numberOfTouchesRequired }
        @inline(__always) set { pressFields.numberOfTouchesRequired = newValue }
    }
    public final var numberOfTapsRequired: Int {
        @inline(__always) get { pressFields.numberOfTapsRequired }
        @inline(__always) set { pressFields.numberOfTapsRequired = newValue }
    }

    private var fingersDown: Int {
        @inline(__always) get { pressFields.fingersDown }
        @inline(__always) set { pressFields.fingersDown = newValue }
    }
    private var tapsSeen: Int {
        @inline(__always) get { pressFields.tapsSeen }
        @inline(__always) set { pressFields.tapsSeen = newValue }
    }
    private var anchor: Point? {
        @inline(__always) get { pressFields.anchor }
        @inline(__always) set { pressFields.anchor = newValue }
    }

    public init(
        name: String, minimumPressDurationMilliseconds: Double = 500, allowableMovement: Double = 10,
        touches: Int = 1, taps: Int = 0
    ) {
        pressFields = LongPressFields(
            minimumPressDurationMicroseconds: Int64(minimumPressDurationMilliseconds * 1000),
            allowableMovement: allowableMovement, numberOfTouchesRequired: touches, numberOfTapsRequired: taps)
        super.init(name: name, kind: .longPress)
    }

    /// The long press a board's `kind = "long_press"` builds: the same recognizer, of a final
    /// class, so that the engine may tell it only touch counts (`readsOnlyTouchCount`); no
    /// subclass can override the callbacks it then skips.
    public static func builtIn(
        name: String, minimumPressDurationMilliseconds: Double = 500, allowableMovement: Double = 10,
        touches: Int = 1, taps: Int = 0
    ) -> LongPressGestureRecognizer {
        let r = BuiltInLongPressGestureRecognizer(
            name: name, minimumPressDurationMilliseconds: minimumPressDurationMilliseconds,
            allowableMovement: allowableMovement, touches: touches, taps: taps)
        r.readsOnlyTouchCount = true
        return r
    }

    open override var isContinuous: Bool { true }

    open override func touchesBegan(_ touches: TouchSet) { began(count: touches.count) }
    open override func touchesMoved(_ touches: TouchSet) { moved() }
    open override func touchesEnded(_ touches: TouchSet) { ended(count: touches.count) }

    override func began(count: Int) {
        fingersDown += count
        if state != .possible { return }
        if fingersDown > numberOfTouchesRequired {
            fail(because: "\(fingersDown) fingers, but \(numberOfTouchesRequired) required")
        } else if fingersDown == numberOfTouchesRequired && tapsSeen >= numberOfTapsRequired {
            anchor = location(in: nil)
            setTimer(at: now.advanced(byMicroseconds: minimumPressDurationMicroseconds))
        }
    }

    override func moved() {
        switch state {
        case .began, .changed:
            state = .changed
        case .possible:
            if let anchor, location(in: nil).distance(to: anchor) > allowableMovement {
                fail(because: "moved more than allowable_movement before min_duration_ms")
            }
        default:
            break
        }
    }

    override func ended(count: Int) {
        fingersDown -= count
        switch state {
        case .began, .changed:
            state = .ended
        case .possible:
            if isWaitingForFailure {
                state = .ended
            } else if tapsSeen < numberOfTapsRequired && fingersDown == 0 {
                tapsSeen += 1  // a preceding tap of a tap-and-hold
                cancelTimer()
                setTimer(at: now.advanced(byMicroseconds: 300_000))
            } else {
                fail(because: "lifted before min_duration_ms")
            }
        default:
            break
        }
    }

    open override func timerFired() {
        if anchor != nil && fingersDown == numberOfTouchesRequired {
            state = .began
        } else {
            fail(because: "the next tap of a tap-and-hold did not come")
        }
    }

    open override func reset() {
        fingersDown = 0
        tapsSeen = 0
        anchor = nil
    }
}

/// `LongPressGestureRecognizer.builtIn(…)`'s class: final, so its touch callbacks are the long press's own.
final class BuiltInLongPressGestureRecognizer: LongPressGestureRecognizer {}

/// A long press recognizer's own fields, settings and per-touch state, in one value held by its
/// only `@exclusivity(unchecked)` stored property (`LongPressGestureRecognizer.pressFields`). The
/// contract is `RecognizerFields`' (Ownership.swift; docs/ARCHITECTURE.md, "Unchecked storage"):
/// only the thread holding the recognizer stage reads or writes them once the recognizer is
/// installed (before, only the thread building it).
struct LongPressFields {
    var minimumPressDurationMicroseconds: Int64
    var allowableMovement: Double
    var numberOfTouchesRequired: Int
    var numberOfTapsRequired: Int
    // Per touch sequence (cleared by `reset`).
    var fingersDown = 0
    var tapsSeen = 0
    var anchor: Point?
}
