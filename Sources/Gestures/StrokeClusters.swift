/// Exact pruning for the nearest-template search: the templates grouped into small clusters
/// around one of them (the centre), made once when the set is prepared.
///
/// The search needs, per template `t` of a cluster with centre `c`, only the triangle inequality:
/// `distance(q, t) ≥ distance(q, c) − spread(c, t)`, where `spread` is the distance without the
/// rotation (the unrotated Protractor angle plus the box term, `StrokeShape.distance`'s two
/// metrics). It holds because the Protractor angle is a great-circle distance that a rotation
/// of both shapes leaves unchanged, and the box term is a sum of Euclidean distances:
/// `angle(q, R t) ≥ angle(q, R c) − angle(c, t)` for every allowed rotation `R`, so the best
/// rotation for `t` is no better than the best for `c` by more than `angle(c, t)`.
///
/// A second, cheaper bound (`Coarse`: the shapes summed over four runs of points) comes before any
/// full distance. `nearest` takes the coarse bound of every centre, searches the cluster with
/// the lowest first, then each other cluster whose bounds do not rule it out, lowest first; in a
/// cluster it computes a template's distance only when both bounds beat the best distance found
/// so far (by `tolerance`, for rounding), and abandons it as soon as it cannot win: the same
/// nearest template, tie for tie, as comparing every template in order (`nearestTemplateByFullSearch`).
package struct StrokeClusters: Sendable, Equatable {
    /// Most clusters a set has (the search keeps a distance per centre on the stack).
    static let maximumClusters = 256
    /// Templates per cluster aimed at (fewer for a small gesture; more when a set would need more
    /// than `maximumClusters`).
    static let clusterSize = 24
    /// Slack on every bound, far above the rounding error of a distance (`acos` near 1 turns an
    /// error of 1e-16 in a dot product into 1e-8) and far below the gap between two strokes.
    static let tolerance = 1e-5

    /// Each cluster's centre, a template index.
    package let centers: [Int]
    /// Each cluster's radius: the largest `spread` of one of its members from its centre.
    package let radius: [Double]
    /// The members of cluster `k` other than its centre are `members[start[k]..<start[k + 1]]`,
    /// largest `spread` first (so their bounds rise: the search stops at the first that fails).
    package let start: [Int]
    package let members: [Int]
    /// `spread(centre, member)`, parallel to `members`.
    package let spread: [Double]
    /// Each template's coarse form (`Coarse`), `Coarse.stride` doubles per template.
    package let coarse: [Double]

    static let empty = StrokeClusters(centers: [], radius: [], start: [0], members: [], spread: [], coarse: [])

    private init(centers: [Int], radius: [Double], start: [Int], members: [Int], spread: [Double], coarse: [Double]) {
        self.centers = centers
        self.radius = radius
        self.start = start
        self.members = members
        self.spread = spread
        self.coarse = coarse
    }

    /// A shape summed over `groups` runs of consecutive points, and a lower bound of
    /// `StrokeShape.distance` from two such sums at a fraction of its cost.
    ///
    /// With `m` points per run and `A_g`, `B_g` the sums of a run's points:
    /// - box term: `Σ_k |a_k − b_k| ≥ Σ_g |A_g − B_g|` (the triangle inequality);
    /// - angle: for every rotation `R`, `|a − R b|² ≥ Σ_g |A_g − R B_g|² / m` (Cauchy–Schwarz), so
    ///   the bounded best rotation of the sums bounds the chord `|a − R b|` of the best rotation
    ///   from below, and the angle is at least its chord.
    package enum Coarse {
        static let groups = 4
        static let perGroup = StrokeShape.sampleCount / groups
        /// Doubles per coarse form: the Protractor sums (x, y per run), the box sums, then
        /// `Σ_g |A_g|²` of the Protractor sums.
        package static let stride = 4 * groups + 1

        /// Writes the coarse form of the prepared shape `shape` into `out` (`stride` doubles).
        package static func make(_ shape: UnsafePointer<Double>, into out: UnsafeMutablePointer<Double>) {
            let n = StrokeShape.sampleCount
            var norm = 0.0
            for g in 0..<groups {
                var ax = 0.0
                var ay = 0.0
                var bx = 0.0
                var by = 0.0
                for k in (g * perGroup)..<((g + 1) * perGroup) {
                    ax += shape[2 * k]
                    ay += shape[2 * k + 1]
                    bx += shape[2 * n + 2 * k]
                    by += shape[2 * n + 2 * k + 1]
                }
                out[2 * g] = ax
                out[2 * g + 1] = ay
                out[2 * groups + 2 * g] = bx
                out[2 * groups + 2 * g + 1] = by
                norm += ax * ax + ay * ay
            }
            out[4 * groups] = norm
        }

        /// A lower bound of `StrokeShape.distance` between the shapes whose coarse forms these are.
        @inline(__always)
        package static func bound(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>) -> Double {
            var dot = 0.0
            var cross = 0.0
            var box = 0.0
            for g in 0..<groups {
                let ax = a[2 * g]
                let ay = a[2 * g + 1]
                let bx = b[2 * g]
                let by = b[2 * g + 1]
                dot += ax * bx + ay * by
                cross += ax * by - ay * bx
                let dx = a[2 * groups + 2 * g] - b[2 * groups + 2 * g]
                let dy = a[2 * groups + 2 * g + 1] - b[2 * groups + 2 * g + 1]
                box += (dx * dx + dy * dy).squareRoot()
            }
            let best =
                abs(cross) <= dot * StrokeShape.tanMaximumRotation
                ? (dot * dot + cross * cross).squareRoot()
                : dot * StrokeShape.cosMaximumRotation + abs(cross) * StrokeShape.sinMaximumRotation
            let chord = Swift.max(0, (a[4 * groups] + b[4 * groups] - 2 * best) / Double(perGroup)).squareRoot()
            return chord + StrokeShape.boxWeight * box / Double(StrokeShape.sampleCount)
        }
    }

    /// The distance of `StrokeShape.distance` without the rotation: the angle between the two
    /// Protractor vectors as they are, plus the box term. A metric (the triangle inequality holds).
    static func spread(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>) -> Double {
        let n = StrokeShape.sampleCount
        var dot = 0.0
        var box = 0.0
        for k in 0..<n {
            dot += a[2 * k] * b[2 * k] + a[2 * k + 1] * b[2 * k + 1]
            let dx = a[2 * n + 2 * k] - b[2 * n + 2 * k]
            let dy = a[2 * n + 2 * k + 1] - b[2 * n + 2 * k + 1]
            box += (dx * dx + dy * dy).squareRoot()
        }
        return CMath.acos(Swift.min(Swift.max(dot, -1), 1)) + StrokeShape.boxWeight * box / Double(n)
    }

    /// Clusters `gestures.count` prepared shapes (`StrokeShape.stride` doubles each), each gesture's
    /// templates apart: centres picked farthest first, every template assigned to its nearest
    /// centre, then each centre moved to the member whose farthest fellow member is nearest
    /// (a smaller radius) and the templates assigned again. About `clusterSize` × the templates'
    /// count spreads: cheap next to parsing the set.
    init(shapes: UnsafePointer<Double>, gestures: [Int]) {
        let count = gestures.count
        guard count > 0 else {
            self = .empty
            return
        }
        let stride = StrokeShape.stride
        func shape(_ t: Int) -> UnsafePointer<Double> { shapes + t * stride }
        // Groups: one per gesture, or gestures folded together when there are very many.
        let gestureCount = (gestures.max() ?? 0) + 1
        let groupCount = Swift.min(gestureCount, Self.maximumClusters / 2)
        var groups = [[Int]](repeating: [], count: groupCount)
        for t in 0..<count { groups[gestures[t] % groupCount].append(t) }
        // Σ ⌈group / size⌉ ≤ count / size + groups ≤ maximumClusters.
        let minimumSize = (count + Self.maximumClusters - groupCount - 1) / (Self.maximumClusters - groupCount)
        let size = Swift.max(Self.clusterSize, minimumSize)
        var centers: [Int] = []
        var radius: [Double] = []
        var start: [Int] = [0]
        var members: [Int] = []
        var spread: [Double] = []
        for group in groups where !group.isEmpty {
            let k = (group.count + size - 1) / size
            // Farthest-first centres.
            var chosen = [group[0]]
            var nearestSpread = group.map { Self.spread(shape(group[0]), shape($0)) }
            while chosen.count < k {
                var far = 0
                for i in group.indices where nearestSpread[i] > nearestSpread[far] { far = i }
                chosen.append(group[far])
                for i in group.indices {
                    nearestSpread[i] = Swift.min(nearestSpread[i], Self.spread(shape(group[far]), shape(group[i])))
                }
            }
            // Assign, move each centre to its cluster's 1-centre, assign again.
            for _ in 0..<2 {
                let assigned = Self.assign(group, to: chosen, shape: shape)
                for (c, cluster) in assigned.enumerated() where cluster.count > 1 {
                    var bestCenter = chosen[c]
                    var bestRadius = Double.infinity
                    for a in cluster {
                        var r = 0.0
                        for b in cluster where b != a { r = Swift.max(r, Self.spread(shape(a), shape(b))) }
                        if r < bestRadius {
                            bestRadius = r
                            bestCenter = a
                        }
                    }
                    chosen[c] = bestCenter
                }
            }
            for (c, cluster) in Self.assign(group, to: chosen, shape: shape).enumerated() {
                let center = chosen[c]
                var others: [(template: Int, spread: Double)] = []
                for t in cluster where t != center { others.append((t, Self.spread(shape(center), shape(t)))) }
                others.sort { a, b in a.spread > b.spread || (a.spread == b.spread && a.template < b.template) }
                centers.append(center)
                radius.append(others.first?.spread ?? 0)
                for o in others { members.append(o.template) }
                for o in others { spread.append(o.spread) }
                start.append(members.count)
            }
        }
        var coarse = [Double](repeating: 0, count: count * Coarse.stride)
        for t in 0..<count { Coarse.make(shape(t), into: &coarse[t * Coarse.stride]) }
        self.init(centers: centers, radius: radius, start: start, members: members, spread: spread, coarse: coarse)
    }

    /// `group`'s templates by nearest centre (a centre is always in its own cluster).
    private static func assign(_ group: [Int], to chosen: [Int], shape: (Int) -> UnsafePointer<Double>) -> [[Int]] {
        var clusters = [[Int]](repeating: [], count: chosen.count)
        for t in group {
            var best = 0
            var bestSpread = Double.infinity
            for (c, center) in chosen.enumerated() {
                let s = center == t ? -1 : Self.spread(shape(center), shape(t))
                if s < bestSpread {
                    bestSpread = s
                    best = c
                }
            }
            clusters[best].append(t)
        }
        return clusters
    }

    /// The nearest template to the prepared shape `q` among `shapes` (the shapes this was built
    /// on): the lowest-numbered template at the smallest distance, as comparing every template in
    /// order finds. Nil when there are none. Allocates nothing.
    ///
    /// Every centre's coarse bound first; the cluster whose centre has the lowest is searched
    /// first, then every other cluster that its bound does not rule out, lowest bound first.
    ///
    /// With `bound`, only templates nearer than it count: the search starts as if it had already
    /// found one at `bound` (so it prunes from the first cluster on), and returns nil when none is
    /// nearer (`StrokeTemplateSet.classify` asks whether any everyday shape beats the winner).
    func nearest(_ q: UnsafePointer<Double>, in shapes: UnsafePointer<Double>, below bound: Double = .infinity)
        -> (template: Int, distance: Double)?
    {
        let clusterCount = centers.count
        guard clusterCount > 0 else { return nil }
        var qCoarse = InlineArray<17, Double>(repeating: 0)  // Coarse.stride
        var qSpan = qCoarse.mutableSpan
        return qSpan.withUnsafeMutableBufferPointer { qc in
            Coarse.make(q, into: qc.baseAddress!)
            return coarse.withUnsafeBufferPointer { cc in
                var search = Search(q: q, shapes: shapes, qCoarse: qc.baseAddress!, coarse: cc.baseAddress!)
                search.bestDistance = bound
                // Each centre's bound.
                var lower = InlineArray<256, Double>(repeating: 0)
                var first = 0
                for k in 0..<clusterCount {
                    lower[k] = search.coarseBound(centers[k])
                    if lower[k] < lower[first] { first = k }
                }
                search.visit(self, cluster: first, bound: lower[first])
                // The clusters that may still hold a nearer template, lowest bound first.
                var order = InlineArray<256, Int>(repeating: 0)
                var ordered = 0
                for k in 0..<clusterCount
                where k != first && lower[k] - radius[k] <= search.bestDistance + Self.tolerance {
                    var i = ordered
                    while i > 0 && lower[order[i - 1]] > lower[k] {
                        order[i] = order[i - 1]
                        i -= 1
                    }
                    order[i] = k
                    ordered += 1
                }
                for i in 0..<ordered { search.visit(self, cluster: order[i], bound: lower[order[i]]) }
                return search.best < 0 ? nil : (search.best, search.bestDistance)
            }
        }
    }

    /// One search's best so far.
    private struct Search {
        let q: UnsafePointer<Double>
        let shapes: UnsafePointer<Double>
        let qCoarse: UnsafePointer<Double>
        let coarse: UnsafePointer<Double>
        var best = -1
        var bestDistance = Double.infinity

        init(
            q: UnsafePointer<Double>, shapes: UnsafePointer<Double>, qCoarse: UnsafePointer<Double>,
            coarse: UnsafePointer<Double>
        ) {
            self.q = q
            self.shapes = shapes
            self.qCoarse = qCoarse
            self.coarse = coarse
        }

        /// `Coarse.bound` between the query and `template`.
        @inline(__always)
        func coarseBound(_ template: Int) -> Double {
            Coarse.bound(qCoarse, coarse + template * Coarse.stride)
        }

        /// Offers `template` (abandoned at just above the best: a tie is computed exactly, and
        /// the lower-numbered template wins it). Returns its distance, or a lower bound of it
        /// above the best.
        @inline(__always)
        mutating func offer(_ template: Int, abandonAt bound: Double) -> Double {
            let d = StrokeShape.distance(q, shapes + template * StrokeShape.stride, unlessAtLeast: bound)
            if d < bestDistance || (d == bestDistance && best >= 0 && template < best) {
                bestDistance = d
                best = template
            }
            return d
        }

        /// Searches `cluster`, whose centre's distance is at least `bound`: its centre unless the
        /// bound rules the whole cluster out, then each member its centre's distance does not.
        mutating func visit(_ c: StrokeClusters, cluster k: Int, bound: Double) {
            let tolerance = StrokeClusters.tolerance
            let radius = c.radius[k]
            guard bound - radius <= bestDistance + tolerance else { return }
            // The centre's distance (or, abandoned, a bound that rules the cluster out).
            let centerDistance = offer(
                c.centers[k],
                abandonAt: Swift.max(
                    bestDistance.nextUp,
                    bestDistance + radius + tolerance))
            guard centerDistance - radius <= bestDistance + tolerance else { return }
            c.start.withUnsafeBufferPointer { start in
                c.members.withUnsafeBufferPointer { members in
                    c.spread.withUnsafeBufferPointer { spread in
                        var j = start[k]
                        while j < start[k + 1] && centerDistance - spread[j] <= bestDistance + tolerance {
                            let t = members[j]
                            if coarseBound(t) <= bestDistance + tolerance {
                                _ = offer(t, abandonAt: bestDistance.nextUp)
                            }
                            j += 1
                        }
                    }
                }
            }
        }
    }
}
