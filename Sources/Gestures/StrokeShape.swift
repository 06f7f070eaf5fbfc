import TouchCore

/// The normalised form of one stroke that templates and candidates are compared in, and the
/// distance between two of them. Pure functions on caller-owned buffers: nothing allocates.
///
/// A stroke is resampled to `sampleCount` points equally spaced along its path (arc length, so
/// drawing speed does not matter), then described twice:
/// - the Protractor vector (Li, CHI 2010): points about their centroid, scaled to unit length;
///   compared by the closed-form best rotation, bounded here to ±`maximumRotation` so that a
///   tilted `v` does not become a `check`;
/// - the box form: points about their bounding box's centre, each axis divided by its own extent,
///   an extent never less than `thinFraction` of the larger one (a line or a bracket keeps its
///   proportions instead of blowing its width up into noise); compared point by point.
///
/// `distance = protractorAngle + boxWeight × mean point distance`; `score = max(0, 1 − distance)`.
/// The shape also keeps a few measures of the stroke as drawn (`Measure`), which the distance
/// does not see: where it begins (tells a `check` from a `v`), how one-dimensional it is (a
/// straight swipe is no shape), and its two legs about its lowest point (a check turns once,
/// downward then upward). Chosen by leave-one-subject-out accuracy on the shipped $1 logs and by
/// the false alarms on the everyday strokes of `data/everyday` (`docs/strokes.md`).
public enum StrokeShape {
    /// Points per resampled stroke.
    public static let sampleCount = 32  // a multiple of 8 (`distance` sums the box form in eights)
    /// Doubles in one prepared shape: the Protractor vector then the box form, x and y interleaved,
    /// then the measures (`Measure`).
    public static let stride = 4 * sampleCount + Measure.allCases.count
    /// Offset of the start depth in a prepared shape (`Measure.startDepth`).
    public static let startDepthOffset = 4 * sampleCount

    /// What a prepared shape keeps of the stroke besides its two forms, each one double at
    /// `offset`. Measured on the resampled points as drawn (one scale for both axes, y down).
    public enum Measure: Int, CaseIterable, Sendable {
        /// How far down its bounding box the stroke begins, 0 (top edge; y grows downwards on a
        /// panel) to 1 (bottom edge).
        case startDepth
        /// How one-dimensional the stroke is: the spread of its points across their main axis
        /// (less the panel's `jitter`) over the spread along it (√ of the ratio of the
        /// covariance's eigenvalues), 0 for a straight line, 1 for a round blob. A straight swipe
        /// is below 0.1 (`StrokeRejection`).
        case thinness
        /// The down leg, from the first point to the lowest, as a fraction of the box's height
        /// (0 when the stroke begins at its lowest point).
        case descent
        /// The up leg, from the lowest point to the last, as a fraction of the box's height.
        case rise
        /// The angle between the two legs (the chords first → lowest and lowest → last), degrees:
        /// 0 when the stroke goes on straight through its lowest point.
        case turn
        /// The down leg's chord over the sum of both legs' chords.
        case downShare

        /// Where this measure lies in a prepared shape.
        public var offset: Int { StrokeShape.startDepthOffset + rawValue }
    }
    /// Largest rotation the Protractor comparison may apply, radians (45°).
    public static let maximumRotation = Double.pi / 4
    @usableFromInline static let tanMaximumRotation = CMath.tan(maximumRotation)
    @usableFromInline static let cosMaximumRotation = CMath.cos(maximumRotation)
    @usableFromInline static let sinMaximumRotation = CMath.sin(maximumRotation)
    /// Weight of the box-form distance.
    public static let boxWeight = 0.5
    /// The smaller box extent is taken as at least this fraction of the larger.
    public static let thinFraction = 0.2

    /// Writes the prepared shape of `points` (in order, any length) into `out` (`stride` doubles),
    /// using `scratch` (`2 × sampleCount` doubles). Returns false, leaving `out` undefined, when
    /// the stroke has no length (a tap, or fewer than two distinct points).
    public static func prepare(
        _ points: UnsafeBufferPointer<Point>, into out: UnsafeMutableBufferPointer<Double>,
        scratch: UnsafeMutableBufferPointer<Double>
    ) -> Bool {
        prepare(points, into: out, scratch: scratch, measures: true)
    }

    /// `prepare`, with the measures (`Measure`, the doubles from `startDepthOffset` on) written
    /// only when `measures`: `distance` reads only the two forms, which are the same either way.
    static func prepare(
        _ points: UnsafeBufferPointer<Point>, into out: UnsafeMutableBufferPointer<Double>,
        scratch: UnsafeMutableBufferPointer<Double>, measures: Bool
    ) -> Bool {
        let n = sampleCount
        precondition(out.count >= stride && scratch.count >= 2 * n, "StrokeShape.prepare: buffers too small")
        guard resample(points, count: n, into: scratch) else { return false }
        // Protractor vector.
        var cx = 0.0
        var cy = 0.0
        var minX = Double.infinity
        var maxX = -Double.infinity
        var minY = Double.infinity
        var maxY = -Double.infinity
        for k in 0..<n {
            let x = scratch[2 * k]
            let y = scratch[2 * k + 1]
            cx += x
            cy += y
            minX = min(minX, x)
            maxX = max(maxX, x)
            minY = min(minY, y)
            maxY = max(maxY, y)
        }
        cx /= Double(n)
        cy /= Double(n)
        var norm = 0.0
        for k in 0..<n {
            let x = scratch[2 * k] - cx
            let y = scratch[2 * k + 1] - cy
            out[2 * k] = x
            out[2 * k + 1] = y
            norm += x * x + y * y
        }
        norm = norm.squareRoot()
        guard norm > 0 else { return false }
        for k in 0..<(2 * n) { out[k] /= norm }
        // Box form.
        let larger = max(maxX - minX, maxY - minY)
        let w = max(maxX - minX, thinFraction * larger)
        let h = max(maxY - minY, thinFraction * larger)
        let mx = (minX + maxX) / 2
        let my = (minY + maxY) / 2
        for k in 0..<n {
            out[2 * n + 2 * k] = (scratch[2 * k] - mx) / w
            out[2 * n + 2 * k + 1] = (scratch[2 * k + 1] - my) / h
        }
        guard measures else { return true }
        out[startDepthOffset] = maxY > minY ? (scratch[1] - minY) / (maxY - minY) : 0.5
        measure(scratch, centroid: (cx, cy), height: maxY - minY, into: out)
        return true
    }

    /// The position noise of a touch panel, px (one standard deviation): taken out of the spread
    /// across a stroke's main axis before its thinness is measured, so that a short swipe's
    /// jitter does not make it a shape.
    public static let jitter = 1.0

    /// Writes the measures after the start depth (`Measure`) of the resampled points in `r`.
    private static func measure(
        _ r: UnsafeMutableBufferPointer<Double>, centroid: (x: Double, y: Double), height: Double,
        into out: UnsafeMutableBufferPointer<Double>
    ) {
        let n = sampleCount
        // Thinness: the 2 × 2 covariance's eigenvalues, closed form.
        var sxx = 0.0
        var syy = 0.0
        var sxy = 0.0
        var low = 0
        for k in 0..<n {
            let x = r[2 * k] - centroid.x
            let y = r[2 * k + 1] - centroid.y
            sxx += x * x
            syy += y * y
            sxy += x * y
            if r[2 * k + 1] >= r[2 * low + 1] { low = k }  // the lowest point; ties go to the later
        }
        let half = (sxx + syy) / 2
        let root = ((sxx - syy) * (sxx - syy) / 4 + sxy * sxy).squareRoot()
        let major = half + root
        // A panel's jitter is no width: the minor spread less `jitter`² a point.
        let minor = Swift.max(0, half - root - Double(n) * jitter * jitter)
        out[Measure.thinness.offset] = major > 0 ? (minor / major).squareRoot() : 0
        // The two legs about the lowest point.
        let downX = r[2 * low] - r[0]
        let downY = r[2 * low + 1] - r[1]
        let upX = r[2 * (n - 1)] - r[2 * low]
        let upY = r[2 * (n - 1) + 1] - r[2 * low + 1]
        let down = (downX * downX + downY * downY).squareRoot()
        let up = (upX * upX + upY * upY).squareRoot()
        out[Measure.descent.offset] = height > 0 ? downY / height : 0
        out[Measure.rise.offset] = height > 0 ? -upY / height : 0
        let cosine = down > 0 && up > 0 ? (downX * upX + downY * upY) / (down * up) : 1
        out[Measure.turn.offset] = CMath.acos(Swift.min(Swift.max(cosine, -1), 1)) * 180 / Double.pi
        out[Measure.downShare.offset] = down + up > 0 ? down / (down + up) : 0
    }

    /// Writes `count` points equally spaced along the path of `points` into `out` (x, y
    /// interleaved; `2 × count` doubles): the first and last points are kept. False, leaving `out`
    /// undefined, when the path has no length.
    public static func resample(
        _ points: UnsafeBufferPointer<Point>, count n: Int, into out: UnsafeMutableBufferPointer<Double>
    ) -> Bool {
        precondition(n >= 2 && out.count >= 2 * n, "StrokeShape.resample: buffer too small")
        guard points.count >= 2 else { return false }
        var length = 0.0
        for i in 1..<points.count { length += points[i - 1].distance(to: points[i]) }
        guard length > 0, length.isFinite else { return false }
        // The k-th sample lies k·L/(n−1) along the path.
        let step = length / Double(n - 1)
        out[0] = points[0].x
        out[1] = points[0].y
        var written = 1
        var travelled = 0.0  // path length up to points[i-1]
        var i = 1
        while i < points.count && written < n - 1 {
            let a = points[i - 1]
            let b = points[i]
            let segment = a.distance(to: b)
            while written < n - 1 && segment > 0 && Double(written) * step <= travelled + segment {
                let t = (Double(written) * step - travelled) / segment
                out[2 * written] = a.x + t * (b.x - a.x)
                out[2 * written + 1] = a.y + t * (b.y - a.y)
                written += 1
            }
            travelled += segment
            i += 1
        }
        while written < n {
            out[2 * written] = points[points.count - 1].x
            out[2 * written + 1] = points[points.count - 1].y
            written += 1
        }
        return true
    }

    /// `points` resampled to `count` points along their path (allocates; for tools), or nil.
    public static func resampled(_ points: [Point], count: Int) -> [Point]? {
        var out = [Double](repeating: 0, count: 2 * max(count, 2))
        let ok = points.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { resample(p, count: max(count, 2), into: $0) }
        }
        guard ok else { return nil }
        return (0..<max(count, 2)).map { Point(x: out[2 * $0], y: out[2 * $0 + 1]) }
    }

    /// The distance between two prepared shapes (0 for identical ones).
    @inlinable
    public static func distance(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>) -> Double {
        distance(a, b, unlessAtLeast: .infinity)
    }

    /// The distance between two prepared shapes, or any value ≥ `bound` as soon as the distance
    /// is known to reach `bound` (early abandoning: a template that cannot beat the best so far
    /// costs the Protractor sum and part of the box sum).
    ///
    /// The bounded best rotation needs no trigonometry: with unit vectors, `dot` and `cross`,
    /// the best unbounded rotation gives `cos = √(dot² + cross²)`; when that rotation exceeds
    /// `maximumRotation` (`|cross| > dot × tan max`), the bound gives `cos = dot cos max + |cross| sin max`.
    @inlinable
    public static func distance(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, unlessAtLeast bound: Double)
        -> Double
    {
        let n = sampleCount
        var dot = 0.0
        var cross = 0.0
        for k in 0..<n {
            let ax = a[2 * k]
            let ay = a[2 * k + 1]
            let bx = b[2 * k]
            let by = b[2 * k + 1]
            dot += ax * bx + ay * by
            cross += ax * by - ay * bx
        }
        let c0 =
            abs(cross) <= dot * tanMaximumRotation
            ? (dot * dot + cross * cross).squareRoot() : dot * cosMaximumRotation + abs(cross) * sinMaximumRotation
        let angle = CMath.acos(Swift.min(Swift.max(c0, -1), 1))
        if angle >= bound { return angle }
        // The box sum may stop once it alone reaches what the bound leaves.
        let limit = (bound - angle) * Double(n) / boxWeight
        var box = 0.0
        var k = n
        while k < 2 * n {
            for j in k..<(k + 8) {
                let dx = a[2 * j] - b[2 * j]
                let dy = a[2 * j + 1] - b[2 * j + 1]
                box += (dx * dx + dy * dy).squareRoot()
            }
            if box >= limit { return bound }
            k += 8
        }
        return angle + boxWeight * box / Double(n)
    }

    /// The score reported for a distance: 1 for a perfect match, falling to 0.
    @inlinable
    public static func score(distance: Double) -> Double { Swift.max(0, 1 - distance) }
}
