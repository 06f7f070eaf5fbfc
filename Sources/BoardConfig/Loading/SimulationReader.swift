#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads `[simulation]`; a trace script is resolved against the board file's directory and must be readable.
enum SimulationReader {
    static func read(_ table: [String: TOMLNode], directory: String, _ log: inout IssueLog) -> SimulationDescription? {
        var r = TableReader(table, path: "simulation")
        var script: SimulationScript? = .demo
        if let s = r.string("script", &log) {
            if s == "demo" {
                script = .demo
            } else if s == "calibration" {
                script = .calibration
            } else {
                let path = absolutePath(s, relativeTo: directory)
                if let problem = unreadableReason(path) {
                    log.add(r.keyPath("script"), "trace file \(path) \(problem)")
                    script = nil
                } else {
                    script = .trace(path)
                }
            }
        } else if r.has("script") {
            script = nil
        }
        let rate = r.integer("report_rate_hz", in: 1...1000, &log) ?? 100
        let loop = r.bool("loop", &log) ?? false
        r.finish(&log, owner: "[simulation]")
        guard let script else { return nil }
        return SimulationDescription(script: script, reportRateHz: rate, loop: loop)
    }

    /// Why `path` cannot be read as a file, or nil when it can.
    static func unreadableReason(_ path: String) -> String? {
        var isDirectory: Bool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "does not exist" }
        if isDirectory { return "is a directory" }
        // A device or FIFO (/dev/zero, /dev/stdin) would be read without end: only regular files.
        if let type = try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType,
            type != .typeRegular
        {
            return "is not a regular file (a device, FIFO or socket)"
        }
        guard FileManager.default.isReadableFile(atPath: path) else { return "is not readable (permissions)" }
        return nil
    }
}

/// `path` made absolute against `directory` (itself made absolute against the working directory), then
/// normalised lexically (`.` and `..` removed).
func absolutePath(_ path: String, relativeTo directory: String) -> String {
    var full = path
    if !path.hasPrefix("/") {
        var base = directory.isEmpty ? "." : directory
        if !base.hasPrefix("/") { base = FileManager.default.currentDirectoryPath + "/" + base }
        full = base + "/" + path
    }
    var parts: [Substring] = []
    for component in full.split(separator: "/", omittingEmptySubsequences: true) {
        if component == "." { continue }
        if component == ".." {
            if !parts.isEmpty { parts.removeLast() }
            continue
        }
        parts.append(component)
    }
    return "/" + parts.joined(separator: "/")
}
