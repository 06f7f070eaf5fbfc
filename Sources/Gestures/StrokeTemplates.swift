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
///
/// The prepared shapes live in one of two stores, with the same decisions to the bit:
/// - **prepared** (`init(_:)`, `builtIn`): every template prepared once into RAM (`shapes`,
///   134 doubles each), searched with exact pruning (`StrokeClusters`). Fast; 1.9 MB for the
///   built-in set. The host's store, and any template file's.
/// - **the built-in table** (`builtInTable`): nothing prepared in RAM; each lifted stroke is
///   compared with every template of the constant table (`BuiltInStrokeTable`, in flash on a
///   microcontroller), prepared one at a time on the stack, and with every everyday shape,
///   generated the same way. A few hundred bytes of RAM, 1,780 preparations per lift: the
///   firmware's store (docs/mcu.md). The full search finds what the pruning finds.
public struct StrokeTemplateSet: Sendable, Equatable {
    /// Distinct gesture names.
    public let names: [String]
    /// For each template, the index of its name in `names`. Empty in the table store
    /// (`builtInTable`), which keeps no per-template array.
    public let gestureOfTemplate: [Int]
    /// How many templates.
    public let count: Int
    /// `count × StrokeShape.stride` doubles (the prepared store; empty in the table store).
    package let shapes: [Double]
    /// Whether this is the table store (`builtInTable`).
    let fromTable: Bool
    /// The table store's full search (`searchTable`), nil in the prepared store. Reached through
    /// this value only, so that a firmware without `builtInTable` links neither the search nor
    /// the 199 KB table (ld.lld's `--gc-sections`: the stroke classes' vtables are linked in
    /// whenever a board names one of them).
    private let tableSearch:
        (@Sendable (UnsafePointer<Double>) -> (template: Int, name: UnsafeBufferPointer<UInt8>, distance: Double))?
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

    /// No templates: recognizes nothing.
    public static let empty = StrokeTemplateSet(names: [], gestureOfTemplate: [], shapes: [])

    private init(names: [String], gestureOfTemplate: [Int], shapes: [Double]) {
        self.names = names
        self.gestureOfTemplate = gestureOfTemplate
        count = gestureOfTemplate.count
        self.shapes = shapes
        fromTable = false
        tableSearch = nil
        depthRules = Self.resolve(names)
        clusters = .empty
        lineLike = []
        turnRules = []
        everyday = .empty
    }

    public static func == (a: StrokeTemplateSet, b: StrokeTemplateSet) -> Bool {
        a.fromTable == b.fromTable && a.names == b.names && a.gestureOfTemplate == b.gestureOfTemplate
            && a.shapes == b.shapes
    }

    /// The built-in templates (`builtIn`'s) in the table store: matched straight from the constant
    /// table, each prepared when compared, for a microcontroller's RAM (docs/mcu.md). Its
    /// decisions are `builtIn`'s to the bit (`StrokeTests`); a lift costs about 1,780 preparations
    /// instead of a few dozen distances.
    public static let builtInTable = StrokeTemplateSet(builtInTable: ())

    /// One pass over the table: the names, and each gesture's line-likeness (its median thinness
    /// below `lineLikeThinness` exactly when more than half its templates are).
    private init(builtInTable: Void) {
        precondition(
            StrokeShape.stride == 134 && StrokeShape.sampleCount == 32 && StrokeRejection.everydayPointCount == 24
                && BuiltInStrokeTable.pointsPerTemplate == 32,
            "StrokeTemplateSet.builtInTable: the stack buffers' sizes")
        var names: [String] = []
        var total: [Int] = []
        var thin: [Int] = []
        var count = 0
        Self.withPreparedTable(measures: true) { _, name, shape in
            var g = 0
            while g < names.count && !names[g].utf8.elementsEqual(name) { g += 1 }
            if g == names.count {
                names.append(String(decoding: name, as: UTF8.self))
                total.append(0)
                thin.append(0)
            }
            total[g] += 1
            if shape[StrokeShape.Measure.thinness.offset] < StrokeRejection.lineLikeThinness { thin[g] += 1 }
            count += 1
        }
        self.names = names
        gestureOfTemplate = []
        self.count = count
        shapes = []
        fromTable = true
        tableSearch = Self.searchTable
        depthRules = Self.resolve(names)
        clusters = .empty
        lineLike = names.indices.map { thin[$0] > total[$0] / 2 }
        turnRules = StrokeRejection.turnRules.compactMap { r in names.firstIndex(of: r.gesture).map { ($0, r) } }
        everyday = .empty
    }

    /// Calls `body` with each built-in template's index, name and prepared shape (prepared on the
    /// stack; with its measures only when `measures`). A template with no length is skipped.
    private static func withPreparedTable(
        measures: Bool, _ body: (Int, UnsafeBufferPointer<UInt8>, UnsafePointer<Double>) -> Void
    ) {
        var shape = InlineArray<134, Double>(repeating: 0)  // StrokeShape.stride
        var scratch = InlineArray<64, Double>(repeating: 0)  // 2 × StrokeShape.sampleCount
        var shapeSpan = shape.mutableSpan
        var scratchSpan = scratch.mutableSpan
        shapeSpan.withUnsafeMutableBufferPointer { out in
            scratchSpan.withUnsafeMutableBufferPointer { sc in
                BuiltInStrokeTable.forEachTemplate { t, name, points in
                    if StrokeShape.prepare(points, into: out, scratch: sc, measures: measures) {
                        body(t, name, UnsafePointer(out.baseAddress!))
                    }
                }
            }
        }
    }

    /// The search of the built-in table: the lowest-numbered template at the smallest distance,
    /// its name and the distance, as comparing every template in order finds. Pruned by the coarse
    /// forms in flash (`BuiltInStrokeTable.coarseText`): one pass takes every template's coarse
    /// bound (less `coarseSlack`, so a true lower bound of its distance; kept floored to 1/128)
    /// and prepares the one with the lowest; a second prepares, in order, only the templates whose
    /// bound does not exceed the best distance so far (abandoned just above it, so a tie is
    /// computed exactly and the lower-numbered template wins it). Allocates nothing.
    private static func searchTable(_ q: UnsafePointer<Double>) -> (
        template: Int, name: UnsafeBufferPointer<UInt8>, distance: Double
    ) {
        var qCoarse = InlineArray<17, Double>(repeating: 0)  // StrokeClusters.Coarse.stride
        var tCoarse = InlineArray<17, Double>(repeating: 0)
        var points = InlineArray<32, Point>(repeating: .zero)  // BuiltInStrokeTable.pointsPerTemplate
        var shape = InlineArray<134, Double>(repeating: 0)  // StrokeShape.stride
        var scratch = InlineArray<64, Double>(repeating: 0)  // 2 × StrokeShape.sampleCount
        var qSpan = qCoarse.mutableSpan
        var tSpan = tCoarse.mutableSpan
        var pointSpan = points.mutableSpan
        var shapeSpan = shape.mutableSpan
        var scratchSpan = scratch.mutableSpan
        return qSpan.withUnsafeMutableBufferPointer { qc in
            tSpan.withUnsafeMutableBufferPointer { tc in
                pointSpan.withUnsafeMutableBufferPointer { p in
                    shapeSpan.withUnsafeMutableBufferPointer { out in
                        scratchSpan.withUnsafeMutableBufferPointer { sc in
                            StrokeClusters.Coarse.make(q, into: qc.baseAddress!)
                            let slack = BuiltInStrokeTable.coarseSlack
                            /// Template `t`'s coarse bound, at most its distance (0 without a stored form).
                            func bound(_ t: Int) -> Double {
                                guard
                                    BuiltInStrokeTable.decodeCoarse(
                                        t, of: BuiltInStrokeTable.coarseText, into: tc.baseAddress!)
                                else { return 0 }
                                return StrokeClusters.Coarse.bound(qc.baseAddress!, tc.baseAddress!) - slack
                            }
                            // Each template's bound, floored to 1/128 (a lower bound still), kept on
                            // the stack (1.5 KB) for the second pass; past 1,536 templates, computed
                            // again there.
                            var stored = InlineArray<1536, UInt8>(repeating: 0)
                            var first = -1
                            var firstBound = Double.infinity
                            BuiltInStrokeTable.forEachLine { i, _, _ in
                                let b = bound(i)
                                if i < 1536 {
                                    stored[i] = UInt8(Swift.min(255, Swift.max(0, (b * 128).rounded(.down))))
                                }
                                if first < 0 || b < firstBound {
                                    first = i
                                    firstBound = b
                                }
                            }
                            var best = -1
                            var bestDistance = Double.infinity
                            var bestName = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
                            func offer(
                                _ i: Int, _ name: UnsafeBufferPointer<UInt8>, _ codes: UnsafeBufferPointer<UInt8>
                            ) {
                                let n = BuiltInStrokeTable.decode(codes, into: p)
                                let points = UnsafeBufferPointer(rebasing: p[0..<n])
                                guard StrokeShape.prepare(points, into: out, scratch: sc, measures: false)
                                else { return }
                                let d = StrokeShape.distance(q, out.baseAddress!, unlessAtLeast: bestDistance.nextUp)
                                if d < bestDistance || (d == bestDistance && best >= 0 && i < best) {
                                    bestDistance = d
                                    best = i
                                    bestName = name
                                }
                            }
                            BuiltInStrokeTable.forEachLine { i, name, codes in
                                if i == first { offer(i, name, codes) }
                            }
                            BuiltInStrokeTable.forEachLine { i, name, codes in
                                guard i != first else { return }
                                if i < 1536 {
                                    // stored / 128 > best exactly when stored > ⌊best × 128⌋ (× 128 is exact).
                                    let limit = (bestDistance * 128).rounded(.down)
                                    guard limit >= 255 || Int(stored[i]) <= Int(limit) else { return }
                                } else {
                                    guard bound(i) <= bestDistance else { return }
                                }
                                offer(i, name, codes)
                            }
                            return (Swift.max(best, 0), bestName, bestDistance)
                        }
                    }
                }
            }
        }
    }

    /// The table store's search (`searchTable`) and the winner's gesture. Allocates nothing.
    private func nearestInTable(_ q: UnsafePointer<Double>) -> (template: Int, gesture: Int, distance: Double)? {
        guard count > 0, let tableSearch else { return nil }
        let (best, bestName, bestDistance) = tableSearch(q)
        var g = 0
        while g < names.count && !names[g].utf8.elementsEqual(bestName) { g += 1 }
        return g < names.count ? (best, g, bestDistance) : nil
    }

    /// Whether an everyday shape that the set keeps lies nearer than `bound` to the prepared
    /// `shape` (`StrokeEverydaySet.hasShape`; the table store generates and prepares each one on
    /// the stack). Allocates nothing.
    func hasEverydayShape(nearerThan bound: Double, to shape: UnsafePointer<Double>) -> Bool {
        guard fromTable else { return everyday.hasShape(nearerThan: bound, to: shape) }
        guard bound > 0 else { return false }
        var points = InlineArray<24, Point>(repeating: .zero)  // StrokeRejection.everydayPointCount
        var everydayShape = InlineArray<134, Double>(repeating: 0)  // StrokeShape.stride
        var scratch = InlineArray<64, Double>(repeating: 0)  // 2 × StrokeShape.sampleCount
        var pointSpan = points.mutableSpan
        var shapeSpan = everydayShape.mutableSpan
        var scratchSpan = scratch.mutableSpan
        return pointSpan.withUnsafeMutableBufferPointer { p in
            shapeSpan.withUnsafeMutableBufferPointer { out in
                scratchSpan.withUnsafeMutableBufferPointer { sc in
                    var qCoarse = InlineArray<17, Double>(repeating: 0)  // StrokeClusters.Coarse.stride
                    var eCoarse = InlineArray<17, Double>(repeating: 0)
                    var qSpan = qCoarse.mutableSpan
                    var eSpan = eCoarse.mutableSpan
                    return qSpan.withUnsafeMutableBufferPointer { qc in
                        eSpan.withUnsafeMutableBufferPointer { ec in
                            StrokeClusters.Coarse.make(shape, into: qc.baseAddress!)
                            for i in 0..<StrokeRejection.everydayShapeCount
                            where !BuiltInStrokeTable.excludedEverydayShapes.contains(i) {
                                // The stored coarse bound (less its slack) rules most shapes out.
                                if BuiltInStrokeTable.decodeCoarse(
                                    i, of: BuiltInStrokeTable.everydayCoarseText, into: ec.baseAddress!),
                                    StrokeClusters.Coarse.bound(qc.baseAddress!, ec.baseAddress!)
                                        - BuiltInStrokeTable.coarseSlack >= bound
                                {
                                    continue
                                }
                                StrokeRejection.everydayShape(i, into: p)
                                guard
                                    StrokeShape.prepare(UnsafeBufferPointer(p), into: out, scratch: sc, measures: false)
                                else { continue }
                                if StrokeShape.distance(shape, out.baseAddress!, unlessAtLeast: bound) < bound {
                                    return true
                                }
                            }
                            return false
                        }
                    }
                }
            }
        }
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
        count = gestures.count
        self.shapes = shapes
        fromTable = false
        tableSearch = nil
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
        if hasEverydayShape(nearerThan: distance - StrokeRejection.everydayMargin, to: shape) {
            return .everyday(nearest: gesture)
        }
        return .gesture(gesture, distance: distance)
    }

    /// The best template for a prepared shape: its gesture's index in `names` and the distance.
    /// The nearest template wins (`nearestTemplate`); when its gesture is one of a
    /// `startDepthRules` pair, the shape's start depth picks which of the two it is (the distance
    /// stays the winner's). Nil when the set is empty. Allocates nothing.
    public func nearest(_ shape: UnsafePointer<Double>) -> (gesture: Int, distance: Double)? {
        var gesture: Int
        let bestDistance: Double
        if fromTable {
            guard let (_, g, d) = nearestInTable(shape) else { return nil }
            (gesture, bestDistance) = (g, d)
        } else {
            guard let (best, d) = nearestTemplate(shape) else { return nil }
            (gesture, bestDistance) = (gestureOfTemplate[best], d)
        }
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
        if fromTable { return nearestInTable(shape).map { ($0.template, $0.distance) } }
        return shapes.withUnsafeBufferPointer { clusters.nearest(shape, in: $0.baseAddress!) }
    }

    /// `nearestTemplate` by comparing every template in order (early abandoning only): the
    /// reference that the pruned search must agree with. For tests and tools.
    public func nearestTemplateByFullSearch(_ shape: UnsafePointer<Double>) -> (template: Int, distance: Double)? {
        guard count > 0 else { return nil }
        if fromTable { return nearestInTable(shape).map { ($0.template, $0.distance) } }
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
    /// smallest distance), or nil when `i` is alone or the set is the table store. Linear in
    /// `count` (for tools).
    public func nearestOther(_ i: Int) -> Int? {
        guard !fromTable else { return nil }
        return shapes.withUnsafeBufferPointer { s in
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
