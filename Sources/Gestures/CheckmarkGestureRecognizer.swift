import TouchCore

/// UIKit's custom-recognizer example (the checkmark of the Event Handling Guide), a subclass as in UIKit: a
/// discrete, one-finger checkmark — a down-stroke to the right followed by a longer up-stroke to
/// the right. Reports `midPoint`, where the up-stroke begins, as its location.
///
/// The seed's rule ("every move goes down-right, then every move goes up-right") fails on a real
/// finger's jitter, so this one judges the stroke as a whole when the finger lifts: the lowest
/// point splits it into two legs, and each leg must be reasonably straight, in its direction, and
/// in proportion. Points go into a fixed buffer (thinned by half when full): no allocation.
/// Measured on the $1 unistroke logs — see README.
open class CheckmarkGestureRecognizer: GestureRecognizer {
    /// The shortest down leg, in pixels (rejects taps and specks).
    public var minimumLeg: Double
    /// Up leg over down leg, at least.
    public var minimumUpToDownRatio = 1.35
    /// How far the stroke must finish above where it started, as a fraction of the down leg
    /// (a check ends high; a "v" ends level).
    public var minimumFinishRise = 0.5
    /// Path length over straight distance, per leg, at most (rejects curls and loops).
    public var maximumCurvature = 1.45

    public private(set) var midPoint: Point = .zero
    private var points: InlineArray<128, Point> = InlineArray(repeating: .zero)
    private var count = 0
    private var stride = 1
    private var skipped = 0

    public init(name: String, minimumLeg: Double = 12) {
        self.minimumLeg = minimumLeg
        super.init(name: name, kind: .checkmark)
    }

    open override func touchesBegan(_ touches: TouchSet) {
        guard touches.count == 1, count == 0 else {
            fail(because: "a checkmark is drawn with one finger")
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
        if let reason = verdict() {
            fail(because: reason)
        } else {
            state = .recognized
        }
    }

    private func append(_ p: Point) {
        if count > 0 && points[count - 1] == p { return }
        skipped += 1
        guard skipped >= stride else { return }
        skipped = 0
        if count == 128 {
            // Thin to every other point and sample half as often from now on.
            var i = 0
            while i < 64 {
                points[i] = points[2 * i]
                i += 1
            }
            count = 64
            stride *= 2
        }
        points[count] = p
        count += 1
    }

    /// nil when the stroke is a checkmark, otherwise why not.
    private func verdict() -> String? {
        guard count >= 3 else { return "too few points for a stroke" }
        // The lowest point (largest y on a y-down panel) splits the stroke; ties go to the later point.
        var low = 0
        for i in 1..<count where points[i].y >= points[low].y { low = i }
        let start = points[0], bottom = points[low], end = points[count - 1]
        guard low > 0, low < count - 1 else { return "no down-stroke followed by an up-stroke" }
        let down = start.distance(to: bottom), up = bottom.distance(to: end)
        guard down >= minimumLeg else { return "down-stroke of \(Int(down)) px is too short" }
        // Directions: down leg goes down (and not far left), up leg goes up and to the right.
        let dDown = bottom - start, dUp = end - bottom
        guard dDown.y > 0.5 * down, dDown.x > -0.35 * down else { return "first leg does not go down" }
        guard dUp.x > 0.2 * up, -dUp.y > 0.35 * up else { return "second leg does not go up to the right" }
        guard up >= minimumUpToDownRatio * down else { return "up-stroke not longer than the down-stroke" }
        guard start.y - end.y >= minimumFinishRise * down else { return "ends too low for a checkmark (a v?)" }
        guard pathLength(0, low) <= maximumCurvature * down, pathLength(low, count - 1) <= maximumCurvature * up else {
            return "legs are not straight enough"
        }
        midPoint = bottom
        return nil
    }

    private func pathLength(_ from: Int, _ to: Int) -> Double {
        var sum = 0.0
        var i = from
        while i < to {
            sum += points[i].distance(to: points[i + 1])
            i += 1
        }
        return sum
    }

    open override func fillEvent(_ event: inout GestureEvent) {
        if state == .possible || state == .recognized { event.location = midPoint }
    }

    open override func reset() {
        count = 0
        stride = 1
        skipped = 0
        midPoint = .zero
    }
}
