/// Checks that regions form one tree: unique names, parents that exist, exactly one root
/// (the first region without a parent), no parent cycles.
enum RegionTreeCheck {
    static func check(_ regions: [Located<RegionDescription>], _ log: inout IssueLog) {
        var firstPath: [String: String] = [:]
        for region in regions {
            if let first = firstPath[region.value.name] {
                log.add(joinPath(region.path, "name"), "duplicate region name (first defined at \(first))")
            } else {
                firstPath[region.value.name] = region.path
            }
        }
        var parentOf: [String: String] = [:]
        var root: Located<RegionDescription>? = nil
        for region in regions {
            guard let parent = region.value.parent else {
                if let root {
                    log.add(
                        region.path,
                        "has no parent, but only the root region may omit it; the root is \"\(root.value.name)\""
                            + " (add parent = \"\(root.value.name)\")")
                } else {
                    root = region
                }
                continue
            }
            if parent == region.value.name {
                log.add(joinPath(region.path, "parent"), "a region cannot be its own parent")
            } else if firstPath[parent] == nil {
                var message = "no region named \"\(parent)\""
                if let s = closestMatch(to: parent, in: regions.map(\.value.name)) {
                    message += " (did you mean \"\(s)\"?)"
                }
                log.add(joinPath(region.path, "parent"), message)
            } else if parentOf[region.value.name] == nil {
                parentOf[region.value.name] = parent
            }
        }
        if root == nil && !regions.isEmpty {
            log.add("region", "no root region: exactly one region must have no parent")
        }
        reportCycles(regions, parentOf: parentOf, &log)
    }

    /// A region must lie on the panel (`0…width` × `0…height` px): a frame reaching past it would
    /// take touches that can never come, and usually means a board copied from a larger panel.
    static func checkWithinPanel(
        _ regions: [Located<RegionDescription>], _ panel: PanelDescription, _ log: inout IssueLog
    ) {
        let (width, height) = (Double(panel.width), Double(panel.height))
        for region in regions {
            let f = region.value.frame
            guard f.x < 0 || f.y < 0 || f.x + f.width > width || f.y + f.height > height else { continue }
            log.add(
                joinPath(region.path, "frame"),
                "[\(number(f.x)), \(number(f.y)), \(number(f.width)), \(number(f.height))] reaches outside the "
                    + "\(panel.width)×\(panel.height) px panel "
                    + "(x + width ≤ \(panel.width), y + height ≤ \(panel.height))"
            )
        }
    }

    private static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }

    /// Follows parent links from each region, never walking a region twice (linear in the number
    /// of regions): a walk that meets its own trail has found a cycle, reported once at its first
    /// member in file order as `a → b → a`; a walk that meets an earlier walk's trail stops there.
    private static func reportCycles(
        _ regions: [Located<RegionDescription>], parentOf: [String: String], _ log: inout IssueLog
    ) {
        var order: [String: Int] = [:]
        for (i, region) in regions.enumerated() where order[region.value.name] == nil { order[region.value.name] = i }
        var walkOf: [String: Int] = [:]
        for (w, region) in regions.enumerated() where walkOf[region.value.name] == nil {
            var trail: [String] = []
            var position: [String: Int] = [:]
            var current = region.value.name
            while true {
                if let seen = walkOf[current] {
                    if seen == w, let start = position[current] {
                        let cycle = Array(trail[start...])
                        let first = cycle.indices.min { (order[cycle[$0]] ?? 0) < (order[cycle[$1]] ?? 0) } ?? 0
                        let rotated = Array(cycle[first...] + cycle[..<first])
                        let text = (rotated + [rotated[0]]).joined(separator: " → ")
                        let at = regions[order[rotated[0]] ?? w]
                        log.add(joinPath(at.path, "parent"), "parent cycle: \(text)")
                    }
                    break
                }
                walkOf[current] = w
                position[current] = trail.count
                trail.append(current)
                guard let parent = parentOf[current] else { break }
                current = parent
            }
        }
    }
}
