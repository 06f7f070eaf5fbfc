/// Reads a `[[output]] type = "socket"` table: `path`, `mode`, `group`.
enum SocketOutputReader {
    static func read(_ r: inout TableReader, _ log: inout IssueLog) -> SocketOutputDescription? {
        var ok = true
        let path = r.string("path", &log) ?? SocketOutputDescription.defaultPath
        if !path.hasPrefix("/") {
            log.add(
                r.keyPath("path"), "must be an absolute path such as \"/run/touchwire/events.sock\", got \"\(path)\"")
            ok = false
        } else if path.utf8.count >= 108 {
            log.add(r.keyPath("path"), "is longer than a Unix socket path may be (107 bytes)")
            ok = false
        }
        var mode = 0o660
        if let node = r.value("mode") {
            switch node {
            case .string(let text) where !text.isEmpty && text.allSatisfy({ ("0"..."7").contains($0) }):
                mode = Int(text, radix: 8) ?? -1
            case .integer(let v): mode = Int(v)
            default: mode = -1
            }
            if !(0...0o777).contains(mode) {
                log.add(
                    r.keyPath("mode"),
                    "must be permission bits such as \"0660\" or 0o660, got \(node.shortDescription)")
                ok = false
            }
        }
        let group = r.string("group", &log)
        r.finish(&log, owner: OutputType.socket.outputPhrase)
        guard ok else { return nil }
        return SocketOutputDescription(path: path, mode: mode, group: group)
    }
}
