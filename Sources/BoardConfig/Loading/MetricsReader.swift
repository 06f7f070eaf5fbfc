/// Reads `[metrics]`: `prometheus_file`.
enum MetricsReader {
    static func read(_ table: [String: TOMLNode], _ log: inout IssueLog) -> MetricsDescription {
        var r = TableReader(table, path: "metrics")
        var d = MetricsDescription()
        if let path = r.string("prometheus_file", &log) {
            if !path.hasPrefix("/") {
                log.add(r.keyPath("prometheus_file"), "must be an absolute path, got \"\(path)\"")
            } else if !path.hasSuffix(".prom") || path.hasSuffix("/.prom") {
                log.add(
                    r.keyPath("prometheus_file"),
                    "must name a file ending in .prom (node_exporter's textfile collector reads only those), "
                        + "got \"\(path)\"")
            } else {
                d.prometheusFile = path
            }
        }
        r.finish(&log, owner: "[metrics]")
        return d
    }
}
