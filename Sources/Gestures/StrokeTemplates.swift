import TouchCore

/// One example of a named stroke, as a template file line holds it: the points in the order drawn.
public struct StrokeTemplate: Sendable, Equatable {
    public var name: String
    public var points: [Point]

    public init(name: String, points: [Point]) {
        self.name = name
        self.points = points
    }
}

/// Templates prepared for matching (`StrokeShape`): done once, when the board loads.
///
/// A value type of flat arrays, shared by every recognizer built from it. `names` are the
/// distinct gesture names in the order they first appear; several templates may share a name
/// (several prototypes per gesture).
public struct StrokeTemplateSet: Sendable, Equatable {
    /// Distinct gesture names.
    public let names: [String]
    /// For each template, the index of its name in `names`.
    public let gestureOfTemplate: [Int]
    /// `count × StrokeShape.stride` doubles.
    package let shapes: [Double]
    /// The start-depth rules (`startDepthRules`) whose two gestures are both in `names`, by index.
    let depthRules: [ResolvedDepthRule]
    /// The templates in clusters, for the exact pruning of `nearest`.
    package let clusters: StrokeClusters
    /// By gesture index: whether its templates are lines (`StrokeRejection.lineLikeThinness`).
    public let lineLike: [Bool]
    /// The `StrokeRejection.turnRules` whose gesture is in `names`: (gesture index, rule).
    let turnRules: [(gesture: Int, rule: StrokeRejection.TurnRule)]
    /// The everyday shapes that reject a stroke (`StrokeRejection`).
    package let everyday: StrokeEverydaySet

    /// Two gestures that a template matcher confuses across people but that differ in where the
    /// stroke begins: when the nearest template is either, the stroke's start depth
    /// (`StrokeShape.startDepthOffset`) decides — `deeper` from `threshold` down, else `shallower`.
    public struct StartDepthRule: Sendable, Equatable {
        public var deeper: String
        public var shallower: String
        public var threshold: Double
    }

    /// A `check` begins with a short down leg (mid-height: UIKit's checkmark is a down-stroke then
    /// a longer up-stroke), a `v` at the top of its two equal legs. Measured on the shipped people
    /// (`docs/strokes.md`): a check begins 0.46–0.79 down its box, a v 0.00–0.45; the threshold
    /// leans towards the v side because a missed check costs more than a v taken for one (and a
    /// check with a long down leg, like S2's 100 px down then 240 px up, begins 0.375 down).
    public static let startDepthRules = [StartDepthRule(deeper: "check", shallower: "v", threshold: 0.35)]

    struct ResolvedDepthRule: Sendable, Equatable {
        var deeper: Int
        var shallower: Int
        var threshold: Double
    }

    public var count: Int { gestureOfTemplate.count }

    /// No templates: recognizes nothing.
    public static let empty = StrokeTemplateSet(names: [], gestureOfTemplate: [], shapes: [])

    private init(names: [String], gestureOfTemplate: [Int], shapes: [Double]) {
        self.names = names
        self.gestureOfTemplate = gestureOfTemplate
        self.shapes = shapes
        depthRules = Self.resolve(names)
        clusters = .empty
        lineLike = []
        turnRules = []
        everyday = .empty
    }

    public static func == (a: StrokeTemplateSet, b: StrokeTemplateSet) -> Bool {
        a.names == b.names && a.gestureOfTemplate == b.gestureOfTemplate && a.shapes == b.shapes
    }

    private static func resolve(_ names: [String]) -> [ResolvedDepthRule] {
        startDepthRules.compactMap { r in
            guard let d = names.firstIndex(of: r.deeper), let s = names.firstIndex(of: r.shallower) else { return nil }
            return ResolvedDepthRule(deeper: d, shallower: s, threshold: r.threshold)
        }
    }

    /// Why a template cannot be prepared.
    public struct EmptyStroke: Error, Sendable {
        /// Index of the template in the list given.
        public var index: Int
        public var name: String
    }

    /// Prepares `templates`. A template whose stroke has no length (a single point) is an error.
    public init(_ templates: [StrokeTemplate]) throws(EmptyStroke) {
        var names: [String] = []
        var indexOf: [String: Int] = [:]
        var gestures: [Int] = []
        var shapes = [Double](repeating: 0, count: templates.count * StrokeShape.stride)
        var scratch = [Double](repeating: 0, count: 2 * StrokeShape.sampleCount)
        for (i, t) in templates.enumerated() {
            let ok = t.points.withUnsafeBufferPointer { p in
                shapes.withUnsafeMutableBufferPointer { s in
                    scratch.withUnsafeMutableBufferPointer { sc in
                        let out = UnsafeMutableBufferPointer(rebasing: s[(i * StrokeShape.stride)...])
                        return StrokeShape.prepare(p, into: out, scratch: sc)
                    }
                }
            }
            guard ok else { throw EmptyStroke(index: i, name: t.name) }
            if let k = indexOf[t.name] {
                gestures.append(k)
            } else {
                indexOf[t.name] = names.count
                gestures.append(names.count)
                names.append(t.name)
            }
        }
        self.names = names
        self.gestureOfTemplate = gestures
        self.shapes = shapes
        depthRules = Self.resolve(names)
        let clusters =
            templates.isEmpty
            ? StrokeClusters.empty
            : shapes.withUnsafeBufferPointer { StrokeClusters(shapes: $0.baseAddress!, gestures: gestures) }
        self.clusters = clusters
        lineLike = names.indices.map { g in
            var thinness: [Double] = []
            for (t, gesture) in gestures.enumerated() where gesture == g {
                thinness.append(shapes[t * StrokeShape.stride + StrokeShape.Measure.thinness.offset])
            }
            thinness.sort()
            return thinness[thinness.count / 2] < StrokeRejection.lineLikeThinness
        }
        turnRules = StrokeRejection.turnRules.compactMap { r in names.firstIndex(of: r.gesture).map { ($0, r) } }
        everyday =
            templates.isEmpty
            ? StrokeEverydaySet(excluding: [], clusters: .empty)
            : shapes.withUnsafeBufferPointer { StrokeEverydaySet(excluding: $0.baseAddress!, clusters: clusters) }
    }

    /// What a stroke is, with open-set rejection (`StrokeRejection`).
    public enum Decision: Sendable, Equatable {
        /// The gesture (index in `names`) and the winning template's distance.
        case gesture(Int, distance: Double)
        /// No templates, or no shape.
        case noMatch
        /// Straight, and the nearest gesture (`nearest`) is not a line.
        case straight(nearest: Int)
        /// An everyday shape (a line, an arc) is nearer than the nearest gesture by the margin.
        case everyday(nearest: Int)
        /// The nearest gesture lacks its defining structure (`StrokeRejection.TurnRule`).
        case structure(nearest: Int)
    }

    /// `nearest`, then open-set rejection (`StrokeRejection`): the straight-stroke test, the
    /// gesture's structure, then the everyday shapes, cheapest first. When `reporting` (by
    /// gesture index) says the nearest gesture will not be reported, the rejection tests are
    /// skipped, so a recognizer pays for them only for a stroke it would otherwise report.
    /// Allocates nothing.
    public func classify(_ shape: UnsafePointer<Double>, reporting: [Bool]? = nil) -> Decision {
        guard let (gesture, distance) = nearest(shape) else { return .noMatch }
        if let reporting, !reporting[gesture] { return .gesture(gesture, distance: distance) }
        if shape[StrokeShape.Measure.thinness.offset] < StrokeRejection.lineThinness && !lineLike[gesture] {
            return .straight(nearest: gesture)
        }
        for r in turnRules where r.gesture == gesture && !r.rule.holds(for: shape) {
            return .structure(nearest: gesture)
        }
        if everyday.hasShape(nearerThan: distance - StrokeRejection.everydayMargin, to: shape) {
            return .everyday(nearest: gesture)
        }
        return .gesture(gesture, distance: distance)
    }

    /// The best template for a prepared shape: its gesture's index in `names` and the distance.
    /// The nearest template wins (`nearestTemplate`); when its gesture is one of a
    /// `startDepthRules` pair, the shape's start depth picks which of the two it is (the distance
    /// stays the winner's). Nil when the set is empty. Allocates nothing.
    public func nearest(_ shape: UnsafePointer<Double>) -> (gesture: Int, distance: Double)? {
        guard let (best, bestDistance) = nearestTemplate(shape) else { return nil }
        var gesture = gestureOfTemplate[best]
        for r in depthRules where gesture == r.deeper || gesture == r.shallower {
            gesture = shape[StrokeShape.startDepthOffset] >= r.threshold ? r.deeper : r.shallower
        }
        return (gesture, bestDistance)
    }

    /// The template nearest to a prepared shape (`StrokeShape.distance`), the lowest-numbered
    /// one at the smallest distance, and its distance; nil when the set is empty. Found with
    /// exact pruning (`StrokeClusters`): most templates are ruled out by a bound from their
    /// cluster's centre, and the rest abandoned as soon as they cannot beat the best so far; the
    /// result is what comparing every template finds. Allocates nothing.
    public func nearestTemplate(_ shape: UnsafePointer<Double>) -> (template: Int, distance: Double)? {
        shapes.withUnsafeBufferPointer { clusters.nearest(shape, in: $0.baseAddress!) }
    }

    /// `nearestTemplate` by comparing every template in order (early abandoning only): the
    /// reference that the pruned search must agree with. For tests and tools.
    public func nearestTemplateByFullSearch(_ shape: UnsafePointer<Double>) -> (template: Int, distance: Double)? {
        guard count > 0 else { return nil }
        return shapes.withUnsafeBufferPointer { s in
            var best = 0
            var bestDistance = Double.infinity
            for t in 0..<count {
                let d = StrokeShape.distance(
                    shape, s.baseAddress! + t * StrokeShape.stride, unlessAtLeast: bestDistance)
                if d < bestDistance {
                    bestDistance = d
                    best = t
                }
            }
            return (best, bestDistance)
        }
    }

    /// The index of gesture `name` in `names`.
    public func index(of name: String) -> Int? { names.firstIndex(of: name) }

    /// The template nearest to template `i` other than itself (the lowest-numbered at the
    /// smallest distance), or nil when `i` is alone. Linear in `count` (for tools).
    public func nearestOther(_ i: Int) -> Int? {
        shapes.withUnsafeBufferPointer { s in
            var best: Int? = nil
            var bestDistance = Double.infinity
            for j in 0..<count where j != i {
                let d = StrokeShape.distance(
                    s.baseAddress! + i * StrokeShape.stride, s.baseAddress! + j * StrokeShape.stride)
                if d < bestDistance {
                    bestDistance = d
                    best = j
                }
            }
            return best
        }
    }

    /// The gesture name of template `i`'s nearest other template ("" when it is alone). For tools.
    public func nearestOtherGesture(of i: Int) -> String {
        nearestOther(i).map { names[gestureOfTemplate[$0]] } ?? ""
    }

    /// Wilson's editing: the indices of the templates whose nearest other template belongs to
    /// another gesture — outliers that would pull strokes of their neighbours' gesture their way.
    /// Dropping them is what `strokes learn --edit` does. Quadratic in `count` (for tools).
    public func misfits() -> [Int] {
        (0..<count).filter { i in nearestOther(i).map { gestureOfTemplate[$0] != gestureOfTemplate[i] } ?? false }
    }
}
