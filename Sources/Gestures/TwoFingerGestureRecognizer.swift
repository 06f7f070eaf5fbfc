import TouchCore

/// The common part of pinch and rotation: exactly two fingers, a measure of the pair (distance
/// or angle) compared with its value when the second finger landed, `began` once it has
/// changed by `threshold`, then `changed` with every move and `ended` when a finger lifts.
/// Velocity is a least-squares fit over the last 100 ms, zero once the fingers rest (`VelocityTracker`).
open class TwoFingerGestureRecognizer: GestureRecognizer {
    /// The pair recognizer's own fields: its only `@exclusivity(unchecked)` stored property
    /// (`TwoFingerFields`; the contract is `RecognizerFields`'). The properties below forward to it.
    @exclusivity(unchecked) final var pairFields: TwoFingerFields

    /// How far the measure must move from its initial value before the gesture begins.
    public final var threshold: Double {
        @inline(__always) get { pairFields.threshold }
        @inline(__always) set { pairFields.threshold = newValue }
    }
    private var initial: Double? {
        @inline(__always) get { pairFields.initial }
        @inline(__always) set { pairFields.initial = newValue }
    }
    private var fingers: Int {
        @inline(__always) get { pairFields.fingers }
        set {
            pairFields.fingers = newValue
            ignoresMoves = pairFields.movesNeedTwoFingers && newValue != 2
        }
    }
    private var tracker: VelocityTracker {
        @inline(__always) get { pairFields.tracker }
        @inline(__always) _modify { yield &pairFields.tracker }
    }
    private var lastValue: Double {
        @inline(__always) get { pairFields.lastValue }
        @inline(__always) set { pairFields.lastValue = newValue }
    }

    init(name: String, kind: GestureKind, threshold: Double) {
        pairFields = TwoFingerFields(threshold: threshold)
        super.init(name: name, kind: kind)
    }

    /// Marks a built-in final instance: its one-finger moves are skipped and it is told only touch
    /// counts (`ignoresMoves`, `readsOnlyTouchCount`). Called before it receives any touch.
    fileprivate func markBuiltIn() {
        pairFields.movesNeedTwoFingers = true
        ignoresMoves = fingers != 2
        readsOnlyTouchCount = true
    }

    open override var isContinuous: Bool { true }

    /// The pair's measure (distance in px, or angle in radians).
    func measure(_ a: Point, _ b: Point) -> Double { 0 }
    /// The reported value for a measure (scale, or rotation since the start).
    func value(current: Double, initial: Double) -> Double { current - initial }

    private func currentMeasure() -> Double? {
        guard let points = withEngine(nil, { $0.downPair(of: self) }) else { return nil }
        return measure(points.0, points.1)
    }

    open override func touchesBegan(_ touches: TouchSet) { began(count: touches.count) }
    open override func touchesMoved(_ touches: TouchSet) { moved() }
    open override func touchesEnded(_ touches: TouchSet) { ended(count: touches.count) }

    override func began(count: Int) {
        fingers += count
        if fingers > 2 {
            switch state {
            case .possible: fail(because: "more than two fingers")
            default: break  // a third finger during the gesture is ignored
            }
            return
        }
        if fingers == 2, let m = currentMeasure() {
            initial = m
            tracker.reset()
        }
    }

    override func moved() {
        guard fingers == 2, let initial, let m = currentMeasure() else { return }
        lastValue = value(current: m, initial: initial)
        tracker.add(Point(x: lastValue, y: 0), at: now)
        switch state {
        case .possible:
            if isWaitingForFailure || abs(progress(current: m, initial: initial)) >= threshold { state = .began }
        case .began, .changed:
            state = .changed
        default:
            break
        }
    }

    /// How far the gesture has gone, in the units of `threshold`.
    func progress(current: Double, initial: Double) -> Double { current - initial }

    override func ended(count: Int) {
        fingers -= count
        switch state {
        case .began, .changed: state = .ended
        case .possible:
            if isWaitingForFailure {
                state = .ended
            } else if fingers == 0 {
                fail(because: "fingers lifted before the gesture began")
            }
        default: break
        }
    }

    /// Current value: scale or rotation.
    public var currentValue: Double { lastValue }
    /// Per second.
    public var currentVelocity: Double { tracker.velocityXInPlace(at: now) }

    open override func fillEvent(_ event: inout GestureEvent) {
        event.value = lastValue
        event.scalarVelocity = tracker.velocityXInPlace(at: now)
    }

    open override func reset() {
        initial = nil
        fingers = 0
        tracker.reset()
        lastValue = 0
        resetValue()
    }

    func resetValue() {}
}

/// UIPinchGestureRecognizer: continuous, two fingers. `scale` is the fingers' distance over
/// their distance when the second finger landed; `velocity` is scale per second. Begins once the
/// distance has changed by `threshold` pixels (8 pt by default).
open class PinchGestureRecognizer: TwoFingerGestureRecognizer {
    public init(name: String, thresholdPixels: Double = 8) {
        super.init(name: name, kind: .pinch, threshold: thresholdPixels)
    }

    /// The pinch a board's `kind = "pinch"` builds: the same recognizer, of a final class, so that
    /// the engine may skip its one-finger moves; no subclass can override the callbacks it skips.
    public static func builtIn(name: String, thresholdPixels: Double = 8) -> PinchGestureRecognizer {
        let r = BuiltInPinchGestureRecognizer(name: name, thresholdPixels: thresholdPixels)
        r.markBuiltIn()
        return r
    }
    override func measure(_ a: Point, _ b: Point) -> Double { a.distance(to: b) }
    override func value(current: Double, initial: Double) -> Double { initial > 0 ? current / initial : 1 }
    override func progress(current: Double, initial: Double) -> Double { current - initial }
    /// Scale since the fingers landed.
    public var scale: Double { currentValue == 0 ? 1 : currentValue }
}

/// UIRotationGestureRecognizer: continuous, two fingers. `rotation` is the angle, in radians,
/// the line through the fingers has turned since the second finger landed (clockwise positive on
/// a y-down panel); `velocity` is radians per second. Begins after `threshold` radians (0.1).
open class RotationGestureRecognizer: TwoFingerGestureRecognizer {
    public init(name: String, thresholdRadians: Double = 0.1) {
        super.init(name: name, kind: .rotation, threshold: thresholdRadians)
    }

    /// The rotation a board's `kind = "rotation"` builds: the same recognizer, of a final class, so
    /// that the engine may skip its one-finger moves; no subclass can override the callbacks it skips.
    public static func builtIn(name: String, thresholdRadians: Double = 0.1) -> RotationGestureRecognizer {
        let r = BuiltInRotationGestureRecognizer(name: name, thresholdRadians: thresholdRadians)
        r.markBuiltIn()
        return r
    }
    override func measure(_ a: Point, _ b: Point) -> Double { atan2Approx(b.y - a.y, b.x - a.x) }
    override func value(current: Double, initial: Double) -> Double { wrapAngle(current - initial) }
    override func progress(current: Double, initial: Double) -> Double { wrapAngle(current - initial) }
    public var rotation: Double { currentValue }
}

/// Angle of (x, y) in radians, in (-π, π].
@inlinable func atan2Approx(_ y: Double, _ x: Double) -> Double {
    CMath.atan2(y, x)
}

/// The equivalent angle in (-π, π].
@inlinable func wrapAngle(_ a: Double) -> Double {
    var v = a
    while v > Double.pi { v -= 2 * Double.pi }
    while v <= -Double.pi { v += 2 * Double.pi }
    return v
}

/// A pinch or rotation recognizer's own fields, settings and per-touch state, in one value held by
/// its only `@exclusivity(unchecked)` stored property (`TwoFingerGestureRecognizer.pairFields`).
/// The contract is `RecognizerFields`' (Ownership.swift; docs/ARCHITECTURE.md, "Unchecked
/// storage"): only the thread holding the recognizer stage reads or writes them once the
/// recognizer is installed (before, only the thread building it).
struct TwoFingerFields {
    var threshold: Double
    /// True for the final built-in pinch and rotation (`builtIn(…)`; never for a subclass, which
    /// may override `touchesMoved`): their moves do nothing without two fingers.
    var movesNeedTwoFingers = false
    // Per touch sequence (cleared by `reset`).
    var initial: Double?
    var fingers = 0
    var tracker = VelocityTracker()
    var lastValue = 0.0
}

/// `PinchGestureRecognizer.builtIn(…)`'s class: final, so its touch callbacks are the pinch's own.
final class BuiltInPinchGestureRecognizer: PinchGestureRecognizer {}

/// `RotationGestureRecognizer.builtIn(…)`'s class: final, so its touch callbacks are the rotation's own.
final class BuiltInRotationGestureRecognizer: RotationGestureRecognizer {}
