import TouchCore

/// A value read from the file together with its key path, for cross-reference messages.
struct Located<Value: Sendable>: Sendable {
    var value: Value
    var path: String
}

/// Reads `[[region]]` tables one by one; references are checked by `RegionTreeCheck`.
enum RegionReader {
    static func read(_ index: Int, _ table: [String: TOMLNode], _ log: inout IssueLog) -> Located<RegionDescription>? {
        var r = TableReader(table, path: itemPath("region", index, name: nil))
        let name = r.string("name", required: true, &log)
        r.path = itemPath("region", index, name: name)
        let frame = readFrame(&r, &log)
        let parent = r.string("parent", &log)
        let control = r.bool("control", &log) ?? false
        let multipleTouch = r.bool("multiple_touch", &log) ?? false
        let passthrough = r.bool("passthrough", &log) ?? true
        r.finish(&log, owner: "a region")
        guard let name, let frame else { return nil }
        if r.has("parent") && parent == nil { return nil }
        var region = RegionDescription(
            name: name, frame: frame, parent: parent, control: control, multipleTouch: multipleTouch)
        region.passthrough = passthrough
        return Located(value: region, path: r.path)
    }

    /// `frame = [x, y, width, height]` in pixels; width and height > 0.
    private static func readFrame(_ r: inout TableReader, _ log: inout IssueLog) -> Rect? {
        guard let node = r.value("frame") else {
            log.add(r.keyPath("frame"), "missing required key")
            return nil
        }
        let usage = "expected [x, y, width, height] in pixels"
        guard case .array(let items) = node, items.count == 4 else {
            log.add(r.keyPath("frame"), "\(usage), got \(node.typeName)" + arrayCount(node))
            return nil
        }
        var numbers: [Double] = []
        for (i, item) in items.enumerated() {
            switch item {
            case .integer(let v): numbers.append(Double(v))
            case .double(let v) where v.isFinite: numbers.append(v)
            default:
                log.add(r.keyPath("frame") + "[\(i)]", "expected a number, got \(item.shortDescription)")
            }
        }
        guard numbers.count == 4 else { return nil }
        var ok = true
        if numbers[2] <= 0 {
            log.add(r.keyPath("frame"), "width must be > 0, got \(items[2].shortDescription)")
            ok = false
        }
        if numbers[3] <= 0 {
            log.add(r.keyPath("frame"), "height must be > 0, got \(items[3].shortDescription)")
            ok = false
        }
        guard ok else { return nil }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    private static func arrayCount(_ node: TOMLNode) -> String {
        if case .array(let items) = node { return " of \(items.count) elements" }
        return ""
    }
}
