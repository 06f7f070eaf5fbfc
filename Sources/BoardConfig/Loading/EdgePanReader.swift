import Gestures

/// The keys of `kind = "edge_pan"`: `edges`, `edge_band`, `min_distance`.
enum EdgePanReader {
    static func read(_ r: inout TableReader, _ log: inout IssueLog) -> RecognizerParameters? {
        var p = EdgePanParameters()
        if let node = r.value("edges") {
            var items: [TOMLNode] = []
            switch node {
            case .array(let a): items = a
            case .string: items = [node]
            default: break
            }
            var set: RegionEdges = []
            var ok = !items.isEmpty
            for item in items {
                guard case .string(let s) = item, let e = RegionEdges(name: s) else {
                    ok = false
                    break
                }
                set.insert(e)
            }
            if ok {
                p.edges = set
            } else {
                log.add(
                    r.keyPath("edges"),
                    "expected a non-empty array of top, left, bottom, right, got \(node.shortDescription)")
            }
        }
        p.edgeBand = r.number("edge_band", in: 1...RecognizerReader.maxLength, &log) ?? p.edgeBand
        p.minDistance = r.number("min_distance", in: 0...RecognizerReader.maxLength, &log) ?? p.minDistance
        return .edgePan(p)
    }
}
