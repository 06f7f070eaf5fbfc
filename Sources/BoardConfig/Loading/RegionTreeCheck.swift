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

    /// Follows parent links from each region; a walk that revisits a name is a cycle, reported once.
    private static func reportCycles(
        _ regions: [Located<RegionDescription>], parentOf: [String: String], _ log: inout IssueLog
    ) {
        var reported: Set<String> = []
        for region in regions {
            var chain: [String] = [region.value.name]
            var current = region.value.name
            while let parent = parentOf[current] {
                if let start = chain.firstIndex(of: parent) {
                    let cycle = Array(chain[start...])
                    if cycle.contains(region.value.name), reported.isDisjoint(with: cycle) {
                        reported.formUnion(cycle)
                        let text = (cycle + [parent]).joined(separator: " → ")
                        log.add(joinPath(region.path, "parent"), "parent cycle: \(text)")
                    }
                    break
                }
                chain.append(parent)
                current = parent
            }
        }
    }
}
