/// Reads `[panel]`: width and height in pixels, optional width_mm/height_mm given together.
enum PanelReader {
    static func read(_ table: [String: TOMLNode], _ log: inout IssueLog) -> PanelDescription? {
        var r = TableReader(table, path: "panel")
        let width = r.integer("width", in: 1...65_535, required: true, &log)
        let height = r.integer("height", in: 1...65_535, required: true, &log)
        let wmm = r.number("width_mm", in: 0.001...10_000, &log)
        let hmm = r.number("height_mm", in: 0.001...10_000, &log)
        if r.has("width_mm") != r.has("height_mm") {
            let absent = r.has("width_mm") ? "height_mm" : "width_mm"
            log.add(r.keyPath(absent), "width_mm and height_mm go together; give both or neither")
        }
        r.finish(&log, owner: "[panel]")
        guard let width, let height else { return nil }
        return PanelDescription(width: width, height: height, widthMillimetres: wmm, heightMillimetres: hmm)
    }
}
