/// Reads a `[[output]] type = "websocket"` table: `listen`, `allowed_origins`, `max_clients`,
/// `client_buffer` (docs/formats.md §4). The bridge `touchwire-web` applies the same rules to its
/// command-line flags (web/bridge/Sources/touchwire-web/Options.swift).
enum WebSocketOutputReader {
    static func read(_ r: inout TableReader, _ log: inout IssueLog) -> WebSocketOutputDescription? {
        var ok = true
        var ws = WebSocketOutputDescription()
        if let listen = r.string("listen", &log) {
            if let (host, port) = parseListen(listen) {
                ws.host = host
                ws.port = port
            } else {
                log.add(
                    r.keyPath("listen"),
                    "must be \"HOST:PORT\" or \"[IPv6]:PORT\" with a port 1…65535 (e.g. \"127.0.0.1:8787\"), "
                        + "got \"\(listen)\""
                )
                ok = false
            }
        } else if r.has("listen") {
            ok = false
        }
        if let origins = r.stringArray("allowed_origins", &log) {
            for (i, origin) in origins.enumerated() {
                if let normalized = normalizeOrigin(origin) {
                    ws.allowedOrigins.append(normalized)
                } else {
                    log.add(
                        r.keyPath("allowed_origins") + "[\(i)]",
                        "must be an origin as a browser sends it, scheme://host[:port] "
                            + "(e.g. \"http://127.0.0.1:8000\"), or \"null\" or \"*\"; got \"\(origin)\""
                    )
                    ok = false
                }
            }
        } else if r.has("allowed_origins") {
            ok = false
        }
        if r.has("max_clients") {
            if let n = r.integer("max_clients", in: 1...1024, &log) { ws.maxClients = n } else { ok = false }
        }
        if r.has("client_buffer") {
            if let n = r.integer("client_buffer", in: 1...65536, &log) { ws.clientBuffer = n } else { ok = false }
        }
        r.finish(&log, owner: OutputType.websocket.outputPhrase)
        return ok ? ws : nil
    }

    /// `HOST:PORT` or `[IPv6]:PORT`.
    static func parseListen(_ text: String) -> (String, Int)? {
        let host: Substring
        let port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return nil
            }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains(" "), let p = Int(port), (1...65535).contains(p) else { return nil }
        return (String(host), p)
    }

    /// Lower case without a trailing slash when `text` is `http(s)://host[:port]`, `null` or `*`.
    static func normalizeOrigin(_ text: String) -> String? {
        var o = text.lowercased()
        while o.hasSuffix("/") { o.removeLast() }
        if o == "null" || o == "*" { return o }
        let scheme: String
        if o.hasPrefix("http://") {
            scheme = "http://"
        } else if o.hasPrefix("https://") {
            scheme = "https://"
        } else {
            return nil
        }
        let rest = o.dropFirst(scheme.count)
        guard !rest.isEmpty, !rest.contains(where: { "/?#@ ".contains($0) }) else { return nil }
        if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
            guard let p = Int(rest[rest.index(after: colon)...]), (1...65535).contains(p) else { return nil }
            guard colon > rest.startIndex else { return nil }
        }
        return o
    }
}
