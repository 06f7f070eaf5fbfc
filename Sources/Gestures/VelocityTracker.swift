import TouchCore

/// Velocity from a least-squares line fit over the samples of the last `windowMicroseconds`
/// (100 ms by default, at most 16 samples), as Flutter's tracker does — robust to the jitter
/// of a single report, unlike the difference of the last two samples.
///
/// A finger at rest has no velocity: asked at an instant (`velocity(at:)`), the tracker answers
/// zero when its newest sample is older than `stopHorizonMicroseconds` (40 ms, Flutter's and
/// Android's "assume the pointer stopped" time), and a pause longer than that between two
/// samples ends the fit (samples before the pause do not count).
///
/// A fixed ring of samples: adding and estimating never allocate.
public struct VelocityTracker: Sendable {
    public static let sampleCapacity = 16  // a power of two: indices wrap with `& 15`
    public var windowMicroseconds: Int64 = 100_000
    /// A sample this old at the query instant, or a gap this long between samples, means the finger stopped.
    public static let stopHorizonMicroseconds: Int64 = 40_000
    private var times: InlineArray<16, Int64> = InlineArray(repeating: 0)
    private var xs: InlineArray<16, Double> = InlineArray(repeating: 0)
    private var ys: InlineArray<16, Double> = InlineArray(repeating: 0)
    private var next = 0
    private var stored = 0
    /// How many samples, newest first, the fit takes (back to the window's start or to a pause
    /// longer than `stopHorizonMicroseconds`), kept by `add` for the window `runWindow`: the
    /// fit then sums exactly those without testing each sample's age (the saving per sample is in
    /// docs/PERFORMANCE.md, "Figures moved out of comments").
    private var runCount = 0
    private var runWindow: Int64 = 100_000
    private var unordered = false

    public init() {}

    public mutating func reset() {
        next = 0
        stored = 0
        runCount = 0
        unordered = false
    }

    public mutating func add(_ p: Point, at t: Instant) {
        let time = t.microseconds
        if stored == 0 {
            runCount = 0
        } else {
            let previous = times[(next &+ 15) & 15]
            // A pause since the newest sample ends the run: the samples before it no longer count.
            if time &- previous > VelocityTracker.stopHorizonMicroseconds { runCount = 0 }
            // Samples out of time order (never from the engine: its clock only moves on): count
            // by testing every sample's age from now until `reset`.
            if time < previous { unordered = true }
        }
        times[next] = time
        xs[next] = p.x
        ys[next] = p.y
        next = (next &+ 1) & 15
        stored = min(stored + 1, VelocityTracker.sampleCapacity)
        let newest = (next &+ 15) & 15
        let window = windowMicroseconds
        if window != runWindow || unordered {  // a window changed since the last sample: count again
            runWindow = window
            let stored = self.stored
            let count = withSamples { times, _, _ in
                VelocityTracker.fitCount(times: times, newest: newest, stored: stored, window: window)
            }
            runCount = count
            return
        }
        // The run's oldest samples that left the window (times only grow: they never come back).
        var count = min(runCount &+ 1, stored)
        withSamples { times, _, _ in
            while count > 0 && time &- times[(newest &- (count &- 1)) & 15] > window { count &-= 1 }
        }
        runCount = count
    }

    /// The samples in the fit, newest first: back to the window's start or to a pause longer than
    /// `stopHorizonMicroseconds` (each sample's age tested).
    private static func fitCount(times: UnsafePointer<Int64>, newest: Int, stored: Int, window: Int64) -> Int {
        let tNewest = times[newest]
        var count = 0
        var later = tNewest
        while count < stored {
            let time = times[(newest &- count) & 15]
            if tNewest &- time > window || later &- time > VelocityTracker.stopHorizonMicroseconds { break }
            later = time
            count &+= 1
        }
        return count
    }

    /// Pixels per second along x and y as of `now`: zero when the newest sample is older than
    /// `stopHorizonMicroseconds` (the finger rests), or with fewer than two samples in the fit.
    public func velocity(at now: Instant) -> Point {
        var tracker = self
        return tracker.velocityInPlace(at: now)
    }

    /// Pixels per second along x and y as of the newest sample; zero with fewer than two samples in the window.
    public func velocity() -> Point {
        var tracker = self
        return tracker.fit(withY: true)
    }

    /// `velocity(at:)` for a tracker stored in a recognizer: `mutating` only so that the 400-byte
    /// tracker is read where it lies, not copied for the call. It changes nothing.
    mutating func velocityInPlace(at now: Instant) -> Point {
        guard stored >= 1 else { return .zero }
        let newest = (next &+ 15) & 15
        let newestTime = withSamples { times, _, _ in times[newest] }
        if now.microseconds - newestTime > VelocityTracker.stopHorizonMicroseconds { return .zero }
        return fit(withY: true)
    }

    /// `velocity(at:).x` alone, for a one-dimensional measure (pinch's scale, rotation's angle):
    /// the same arithmetic on x, without the y half of the fit.
    public func velocityX(at now: Instant) -> Double {
        var tracker = self
        return tracker.velocityXInPlace(at: now)
    }

    /// `velocityX(at:)`, read in place as `velocityInPlace(at:)`. It changes nothing.
    mutating func velocityXInPlace(at now: Instant) -> Double {
        guard stored >= 1 else { return 0 }
        let newest = (next &+ 15) & 15
        let newestTime = withSamples { times, _, _ in times[newest] }
        if now.microseconds - newestTime > VelocityTracker.stopHorizonMicroseconds { return 0 }
        return fit(withY: false).x
    }

    /// `body` with the sample ring read where it lies (an `InlineArray` subscript read copied
    /// the whole 400-byte tracker to the stack first); `mutating` only to get its address.
    @inline(__always) private mutating func withSamples<R>(
        _ body: (_ times: UnsafePointer<Int64>, _ xs: UnsafePointer<Double>, _ ys: UnsafePointer<Double>) -> R
    ) -> R {
        withUnsafeMutablePointer(to: &self) { me in
            let raw = UnsafeRawPointer(me)
            return body(
                (raw + MemoryLayout<VelocityTracker>.offset(of: \VelocityTracker.times)!).assumingMemoryBound(
                    to: Int64.self),
                (raw + MemoryLayout<VelocityTracker>.offset(of: \VelocityTracker.xs)!).assumingMemoryBound(
                    to: Double.self),
                (raw + MemoryLayout<VelocityTracker>.offset(of: \VelocityTracker.ys)!).assumingMemoryBound(
                    to: Double.self))
        }
    }

    /// The least-squares fit; y is left at zero when `withY` is false (the x arithmetic is the same).
    @inline(__always) private mutating func fit(withY: Bool) -> Point {
        guard stored >= 2 else { return .zero }
        let newest = (next &+ 15) & 15
        let stored = self.stored
        let window = windowMicroseconds
        let run = runCount
        let runWindow = self.runWindow
        return withSamples { times, xs, ys in
            let tNewest = times[newest]
            // Positions relative to the newest sample keep the sums small (no 1e-12 residue on a still axis).
            let x0 = xs[newest]
            let y0 = withY ? ys[newest] : 0
            // The samples in the fit, newest first (`runCount`, or found again if the window
            // changed since the last sample), then their sums in that order: the same arithmetic
            // as testing each sample's age in the loop, so the same result to the bit.
            let count =
                window == runWindow
                ? run : VelocityTracker.fitCount(times: times, newest: newest, stored: stored, window: window)
            var n = 0.0
            var st = 0.0
            var sx = 0.0
            var sy = 0.0
            var stt = 0.0
            var stx = 0.0
            var sty = 0.0
            for k in 0..<count {
                let i = (newest &- k) & 15
                let t = -Double(tNewest &- times[i]) / 1e6
                n += 1
                st += t
                let x = xs[i] - x0
                sx += x
                stt += t * t
                stx += t * x
                if withY {
                    let y = ys[i] - y0
                    sy += y
                    sty += t * y
                }
            }
            let denominator = n * stt - st * st
            guard n >= 2, denominator > 1e-12 else { return .zero }
            return Point(x: (n * stx - st * sx) / denominator, y: withY ? (n * sty - st * sy) / denominator : 0)
        }
    }
}
