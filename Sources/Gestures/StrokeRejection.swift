import TouchCore

/// Open-set rejection: what makes a stroke *no* gesture although some template is always
/// nearest (`StrokeTemplateSet.classify`). Nearest-template matching answers "which shape is
/// this most like?", never "is this a shape at all?"; the touches people make all day without
/// meaning one — swipes, scrolls, gentle arcs, nudges — are most like a curly brace or a check.
/// Three independent tests, each measured on the everyday strokes of `data/everyday` and on the
/// held-out people of `data/unistroke` (`docs/strokes.md`):
///
/// 1. **Straight strokes** (`lineThinness`): a stroke whose points spread across their main axis
///    less than a tenth as much as along it is a line. It can only be a gesture whose own
///    templates are lines (`lineLikeThinness`: a taught "slash"); otherwise it is rejected.
/// 2. **Everyday shapes** (`everydayShapes`): lines, bowed lines and circular arcs of 30–150° in
///    every direction compete with the templates as negative templates; when one of them is
///    nearer than the winner by more than `everydayMargin`, the stroke is no gesture. Those
///    within `everydayExclusion` of one of the set's own templates are left out of that set, so a
///    taught line or arc is still recognized.
/// 3. **Structure** (`turnRules`): a gesture with a defining structure must have it. A `check`
///    turns once, downward then upward (UIKit's checkmark: a down-stroke, then an up-stroke).
public enum StrokeRejection {
    /// Below this thinness (`StrokeShape.Measure.thinness`) a stroke is straight. Straight swipes
    /// with a thumb's curve and jitter measure 0.00–0.13 (95 % below 0.10); the thinnest shapes
    /// of the sixteen, the curly braces and checks, 0.14 and 0.16 at their thinnest.
    public static let lineThinness = 0.1
    /// A gesture whose templates' median thinness is below this is line-like: straight strokes
    /// may be it (the sixteen built-in shapes have medians of 0.26 and more).
    public static let lineLikeThinness = 0.15
    /// How much nearer than the winning template an everyday shape must be to reject the stroke
    /// (ties and near-ties go to the gesture: a user's real shape is the costlier loss).
    public static let everydayMargin = 0.05
    /// An everyday shape this near (`StrokeShape.distance`) to one of a set's templates is left out
    /// of that set: the set teaches that shape (a line, an arc) as a gesture. The built-in
    /// sixteen shapes lie 0.16 and more from every everyday shape.
    public static let everydayExclusion = 0.12

    /// A gesture that turns once about its lowest point, downward then upward (in panel
    /// coordinates after the board's orientation: y grows downwards).
    public struct TurnRule: Sendable, Equatable {
        /// The gesture it applies to, by name.
        public var gesture: String
        /// The least down leg (`Measure.descent`) and up leg (`Measure.rise`), fractions of the height.
        public var minimumDescent: Double
        public var minimumRise: Double
        /// The least angle between the two legs, degrees (`Measure.turn`).
        public var minimumTurn: Double
        /// The range of the down leg's share of both legs (`Measure.downShare`).
        public var downShare: ClosedRange<Double>

        /// Whether the prepared `shape` has this structure.
        public func holds(for shape: UnsafePointer<Double>) -> Bool {
            shape[StrokeShape.Measure.descent.offset] >= minimumDescent
                && shape[StrokeShape.Measure.rise.offset] >= minimumRise
                && shape[StrokeShape.Measure.turn.offset] >= minimumTurn
                && downShare.contains(shape[StrokeShape.Measure.downShare.offset])
        }
    }

    /// A check: measured on the 90 checks of the three shipped people, the down leg is
    /// 0.20–0.53 of the height, the up leg 0.96–1.00, the legs 88–127° apart and the down leg
    /// 21–40 % of both; the rule leaves wide room for hands it has not seen. A straight swipe
    /// has no turn, an upward scroll no down leg, a gentle arc of 120° legs 60° apart.
    public static let turnRules = [
        TurnRule(gesture: "check", minimumDescent: 0.1, minimumRise: 0.75, minimumTurn: 60, downShare: 0.08...0.6)
    ]

    /// The everyday shapes that mean "no gesture", as templates of 24 points on a 100-unit path:
    /// straight and bowed lines (bow 0, ±4 %, ±8 % of the length) every 15°, and circular arcs
    /// of 30–150° (every 20°) with their chord every 22.5°, bending either way. Ideal shapes:
    /// the jitter and speed of a real hand are what the matching already ignores.
    public static func everydayShapes() -> [StrokeTemplate] {
        var points = [Point](repeating: .zero, count: everydayPointCount)
        return (0..<everydayShapeCount).map { i in
            points.withUnsafeMutableBufferPointer { everydayShape(i, into: $0) }
            return StrokeTemplate(name: everydayName, points: points)
        }
    }

    /// How many everyday shapes there are (`everydayShapes`), and their points.
    static let everydayShapeCount = 24 * everydayBows.count + everydaySweeps * 16 * 2
    static let everydayPointCount = 24
    private static let everydayBows = [0, 0.04, -0.04, 0.08, -0.08]
    private static let everydaySweeps = 7  // 30° to 150° every 20°

    /// Writes the points of everyday shape `i` (`everydayShapes()[i]`) into `out`
    /// (`everydayPointCount`). Allocates nothing: the matching from the built-in table generates
    /// each shape when it compares it (`StrokeTemplateSet.builtInTable`).
    static func everydayShape(_ i: Int, into out: UnsafeMutableBufferPointer<Point>) {
        let n = everydayPointCount
        func rotated(_ x: Double, _ y: Double, by angle: Double) -> Point {
            Point(x: x * CMath.cos(angle) - y * CMath.sin(angle), y: x * CMath.sin(angle) + y * CMath.cos(angle))
        }
        let lines = 24 * everydayBows.count
        if i < lines {
            // Straight and bowed lines every 15°.
            let angle = Double(i / everydayBows.count) * 15 * Double.pi / 180
            let bow = everydayBows[i % everydayBows.count]
            for p in 0..<n {
                let s = Double(p) / Double(n - 1)
                out[p] = rotated(100 * s, bow * 100 * 4 * s * (1 - s), by: angle)
            }
        } else {
            // Circular arcs, their chord every 22.5°, bending either way.
            let j = i - lines
            let sweepDegrees = 30 + 20 * (j / 32)
            let sweep = Double(sweepDegrees) * Double.pi / 180
            let radius = 100 / sweep
            let chord = Double((j % 32) / 2) * 22.5 * Double.pi / 180
            let sense = j % 2 == 0 ? 1.0 : -1.0
            for p in 0..<n {
                let a = -sweep / 2 + sweep * Double(p) / Double(n - 1)
                let x = radius * CMath.sin(a)
                let y = sense * (radius * CMath.cos(a) - radius * CMath.cos(sweep / 2))
                out[p] = rotated(x, y, by: chord)
            }
        }
    }

    /// The name the everyday shapes carry (never a gesture's: a template file name cannot be empty).
    public static let everydayName = ""

    /// `everydayShapes()` prepared once (`StrokeShape`), for every set to pick from.
    static let preparedEverydayShapes: [Double] = {
        let shapes = everydayShapes()
        var out = [Double](repeating: 0, count: shapes.count * StrokeShape.stride)
        var scratch = [Double](repeating: 0, count: 2 * StrokeShape.sampleCount)
        for (i, t) in shapes.enumerated() {
            _ = t.points.withUnsafeBufferPointer { p in
                out.withUnsafeMutableBufferPointer { o in
                    scratch.withUnsafeMutableBufferPointer { sc in
                        StrokeShape.prepare(
                            p, into: UnsafeMutableBufferPointer(rebasing: o[(i * StrokeShape.stride)...]), scratch: sc)
                    }
                }
            }
        }
        return out
    }()
}

/// The everyday shapes one template set rejects with (`StrokeRejection`): those not within
/// `everydayExclusion` of any of its templates, prepared and clustered for the same exact search.
package struct StrokeEverydaySet: Sendable, Equatable {
    /// `count × StrokeShape.stride` doubles.
    package let shapes: [Double]
    package let clusters: StrokeClusters

    static let empty = StrokeEverydaySet(shapes: [], clusters: .empty)

    private init(shapes: [Double], clusters: StrokeClusters) {
        self.shapes = shapes
        self.clusters = clusters
    }

    /// The everyday shapes that no template of `positives` (searched through `clusters`) lies
    /// within `StrokeRejection.everydayExclusion` of.
    init(excluding positives: UnsafePointer<Double>, clusters positiveClusters: StrokeClusters) {
        let all = StrokeRejection.preparedEverydayShapes
        let stride = StrokeShape.stride
        var kept: [Double] = []
        all.withUnsafeBufferPointer { a in
            for i in 0..<(a.count / stride) {
                let shape = a.baseAddress! + i * stride
                if positiveClusters.nearest(shape, in: positives, below: StrokeRejection.everydayExclusion) == nil {
                    kept.append(contentsOf: a[(i * stride)..<((i + 1) * stride)])
                }
            }
        }
        let count = kept.count / stride
        shapes = kept
        clusters =
            count == 0
            ? .empty
            : kept.withUnsafeBufferPointer {
                StrokeClusters(shapes: $0.baseAddress!, gestures: [Int](repeating: 0, count: count))
            }
    }

    package var count: Int { shapes.count / StrokeShape.stride }

    /// Whether an everyday shape lies nearer than `bound` to the prepared `shape`. Allocates nothing.
    func hasShape(nearerThan bound: Double, to shape: UnsafePointer<Double>) -> Bool {
        guard bound > 0, !shapes.isEmpty else { return false }
        return shapes.withUnsafeBufferPointer { clusters.nearest(shape, in: $0.baseAddress!, below: bound) } != nil
    }
}
