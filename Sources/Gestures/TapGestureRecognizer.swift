import TouchCore

/// UITapGestureRecognizer: discrete (S2). Recognizes `numberOfTapsRequired` taps of
/// `numberOfTouchesRequired` fingers; fails when a finger moves more than `maximumMovement`,
/// a press lasts longer than `maximumPressDuration`, the gap from a lift to the next tap's
/// first finger exceeds `maximumInterval`, or a tap lands farther than `maximumTapDistance`
/// from the first. Reports the centroid where it was recognized (S12) and `taps`.
///
/// All lengths are in panel pixels (board files give points; the builder converts).
open class TapGestureRecognizer: GestureRecognizer {
    /// The tap's own fields: its only `@exclusivity(unchecked)` stored property (`TapFields`; the
    /// contract is `RecognizerFields`'). The properties below forward to it.
    @exclusivity(unchecked) final var tapFields: TapFields

    public final var numberOfTapsRequired: Int {
        @inline(__always) get { tapFields.numberOfTapsRequired }
        @inline(__always) set { tapFields.numberOfTapsRequired = newValue }
    }
    public final var numberOfTouchesRequired: Int {
        @inline(__always) get { tapFields.numberOfTouchesRequired }
        @inline(__always) set { tapFields.numberOfTouchesRequired = newValue }
    }
    /// Pixels a finger may move from where it went down.
    public final var maximumMovement: Double {
        @inline(__always) get { tapFields.maximumMovement }
        @inline(__always) set { tapFields.maximumMovement = newValue }
    }
    /// Microseconds from a lift to the next tap's first finger.
    public final var maximumIntervalMicroseconds: Int64 {
        @inline(__always) get { tapFields.maximumIntervalMicroseconds }
        @inline(__always) set { tapFields.maximumIntervalMicroseconds = newValue }
    }
    /// Pixels between the first tap and any later one.
    public final var maximumTapDistance: Double {
        @inline(__always) get { tapFields.maximumTapDistance }
        @inline(__always) set { tapFields.maximumTapDistance = newValue }
    }
    /// Microseconds a single tap may be held down.
    public final var maximumPressDurationMicroseconds: Int64 {
        @inline(__always) get { tapFields.maximumPressDurationMicroseconds }
        @inline(__always) set { tapFields.maximumPressDurationMicroseconds = newValue }
    }

    private var tapsCompleted: Int {
        @inline(__always) get { tapFields.tapsCompleted }
        @inline(__always) set { tapFields.tapsCompleted = newValue }
    }
    private var fingersDown: Int {
        @inline(__always) get { tapFields.fingersDown }
        @inline(__always) set { tapFields.fingersDown = newValue }
    }
    private var fingersInThisTap: Int {
        @inline(__always) get { tapFields.fingersInThisTap }
        @inline(__always) set { tapFields.fingersInThisTap = newValue }
    }
    private var firstTapLocation: Point? {
        @inline(__always) get { tapFields.firstTapLocation }
        @inline(__always) set { tapFields.firstTapLocation = newValue }
    }
    private var recognizedLocation: Point {
        @inline(__always) get { tapFields.recognizedLocation }
        @inline(__always) set { tapFields.recognizedLocation = newValue }
    }

    public init(
        name: String, taps: Int = 1, touches: Int = 1, maximumMovement: Double = 10,
        maximumIntervalMilliseconds: Double = 300, maximumTapDistance: Double = 45
    ) {
        precondition(taps >= 1 && touches >= 1, "TapGestureRecognizer needs at least one tap of one touch")
        tapFields = TapFields(
            numberOfTapsRequired: taps, numberOfTouchesRequired: touches, maximumMovement: maximumMovement,
            maximumIntervalMicroseconds: Int64(maximumIntervalMilliseconds * 1000),
            maximumTapDistance: maximumTapDistance)
        super.init(name: name, kind: .tap)
    }

    /// The tap a board's `kind = "tap"` builds: the same recognizer, of a final class, so that
    /// the engine may tell it only touch counts (`readsOnlyTouchCount`); no subclass can override
    /// the callbacks it then skips.
    public static func builtIn(
        name: String, taps: Int = 1, touches: Int = 1, maximumMovement: Double = 10,
        maximumIntervalMilliseconds: Double = 300, maximumTapDistance: Double = 45
    ) -> TapGestureRecognizer {
        let r = BuiltInTapGestureRecognizer(
            name: name, taps: taps, touches: touches, maximumMovement: maximumMovement,
            maximumIntervalMilliseconds: maximumIntervalMilliseconds, maximumTapDistance: maximumTapDistance)
        r.readsOnlyTouchCount = true
        return r
    }

    open override func touchesBegan(_ touches: TouchSet) { began(count: touches.count) }
    open override func touchesEnded(_ touches: TouchSet) { ended(count: touches.count) }

    override func began(count: Int) {
        if fingersDown == 0 {
            // A new tap starts: the gap since the last lift was short enough (the timer would have failed us).
            fingersInThisTap = 0
            setTimer(at: now.advanced(byMicroseconds: maximumPressDurationMicroseconds))
        }
        fingersDown += count
        fingersInThisTap += count
        if fingersInThisTap > numberOfTouchesRequired {
            fail(because: "\(fingersInThisTap) fingers, but \(numberOfTouchesRequired) required")
            return
        }
        // max_tap_distance bounds the distance between taps, not between the fingers of one tap
        // (which often land in different frames): a tap's place is the centroid of its fingers
        // once all of them are down.
        guard fingersInThisTap == numberOfTouchesRequired else { return }
        let here = centroidOfFingersDown()
        if let first = firstTapLocation {
            let d = first.distance(to: here)
            if d > maximumTapDistance {
                fail(
                    because:
                        "tap \(tapsCompleted + 1) landed \(pointsDescription(d)) from "
                        + "the first, more than max_tap_distance \(pointsDescription(maximumTapDistance))"
                )
            }
        } else {
            firstTapLocation = here
        }
    }

    /// The centroid of the recognizer's fingers that are down (not those lifted in this frame).
    private func centroidOfFingersDown() -> Point {
        withEngine(nil) { $0.centroidOfTouchesDown(of: self) } ?? location(in: nil)
    }

    open override func touchesMoved(_ touches: TouchSet) {
        for t in touches where t.location.distance(to: t.startLocation) > maximumMovement {
            fail(
                because:
                    "finger moved \(pointsDescription(t.location.distance(to: t.startLocation))), "
                    + "more than max_movement \(pointsDescription(maximumMovement))"
            )
            return
        }
    }

    /// `touchesMoved` reading the moved touches where they lie (the same touches, in the same order).
    override func moved() {
        guard let t = withEngine(nil, { $0.firstMovedTouch(of: self, fartherThan: maximumMovement) }) else { return }
        fail(
            because:
                "finger moved \(pointsDescription(t.location.distance(to: t.startLocation))), "
                + "more than max_movement \(pointsDescription(maximumMovement))"
        )
    }

    override func ended(count: Int) {
        if fingersDown == fingersInThisTap { recognizedLocation = location(in: nil) }
        fingersDown -= count
        guard fingersDown <= 0 else { return }
        fingersDown = 0
        guard fingersInThisTap == numberOfTouchesRequired else {
            fail(because: "\(fingersInThisTap) fingers, but \(numberOfTouchesRequired) required")
            return
        }
        tapsCompleted += 1
        if tapsCompleted >= numberOfTapsRequired {
            cancelTimer()
            state = .recognized
        } else {
            setTimer(at: now.advanced(byMicroseconds: maximumIntervalMicroseconds))
        }
    }

    /// The press lasted too long, or the next tap did not come in time.
    open override func timerFired() {
        fail(
            because: fingersDown > 0
                ? "held down too long for a tap" : "the next tap did not come within max_interval_ms")
    }

    open override func reset() {
        tapsCompleted = 0
        fingersDown = 0
        fingersInThisTap = 0
        firstTapLocation = nil
    }

    open override func fillEvent(_ event: inout GestureEvent) {
        event.taps = max(tapsCompleted, 1)
        if tapsCompleted >= numberOfTapsRequired {
            event.location = recognizedLocation
            event.touches = numberOfTouchesRequired
        }
    }

    /// S18: a tap never prevents a tap that needs more taps (so single and double tap both report, S16).
    open override func canPrevent(_ other: GestureRecognizer) -> Bool {
        if let tap = other as? TapGestureRecognizer, tap.numberOfTapsRequired > numberOfTapsRequired { return false }
        return true
    }

    /// S28: a tap attached to an ancestor does not fire for touches on a control.
    open override func gestureShouldBegin() -> Bool {
        withEngine(true) { !$0.touchesAreOnControl(below: self) }
    }
}

/// `TapGestureRecognizer.builtIn(…)`'s class: final, so its touch callbacks are the tap's own.
final class BuiltInTapGestureRecognizer: TapGestureRecognizer {}

/// A tap recognizer's own fields, settings and per-touch state, in one value held by its only
/// `@exclusivity(unchecked)` stored property (`TapGestureRecognizer.tapFields`). The contract is
/// `RecognizerFields`' (Ownership.swift; docs/ARCHITECTURE.md, "Unchecked storage"): only the
/// thread holding the recognizer stage reads or writes them once the recognizer is installed
/// (before, only the thread building it).
struct TapFields {
    var numberOfTapsRequired: Int
    var numberOfTouchesRequired: Int
    var maximumMovement: Double
    var maximumIntervalMicroseconds: Int64
    var maximumTapDistance: Double
    var maximumPressDurationMicroseconds: Int64 = 1_500_000
    // Per touch sequence (cleared by `reset`).
    var tapsCompleted = 0
    var fingersDown = 0
    var fingersInThisTap = 0
    var firstTapLocation: Point?
    var recognizedLocation: Point = .zero
}
