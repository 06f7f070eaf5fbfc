/// Which pages may subscribe: the browser's `Origin` header against `allowed_origins`.
///
/// Browsers always send `Origin` on a WebSocket handshake, and a page cannot forge it. A request
/// without one is not from a browser page (a local tool such as `curl`); it is let through, since
/// the listening address (loopback by default) is what keeps other machines out.
///
/// Public (as `Hub` and `LineSplitter` are) for the unit tests, which import this executable's
/// module without `@testable` so that they build in the release configuration the bridge ships in.
public struct OriginPolicy: Sendable {
    /// Normalized allowed origins; empty means "any loopback origin".
    public var allowed: [String]

    public init(allowed: [String]) { self.allowed = allowed }

    public func permits(_ origin: String?) -> Bool {
        guard let origin else { return true }
        let o = Self.normalize(origin)
        if allowed.isEmpty {
            return Self.loopbackOrigin(o)
        }
        return allowed.contains("*") || allowed.contains(o)
    }

    /// Lower case, no trailing slash.
    static func normalize(_ origin: String) -> String {
        var o = origin.trimmingSpaces().lowercased()
        while o.hasSuffix("/") { o.removeLast() }
        return o
    }

    /// Checks an `--allow-origin` / `allowed_origins` entry: `scheme://host[:port]`, `null` or `*`.
    public static func normalizeAllowed(_ text: String) throws(OptionError) -> String {
        let o = normalize(text)
        if o == "null" || o == "*" { return o }
        guard let parts = split(o), parts.scheme == "http" || parts.scheme == "https", !parts.host.isEmpty else {
            throw OptionError(
                "allowed origin must be scheme://host[:port] as a browser sends it (e.g. http://127.0.0.1:8000), "
                    + "\"null\" or \"*\"; got \"\(text)\""
            )
        }
        if let port = parts.port, !(1...65535).contains(port) {
            throw OptionError("allowed origin \"\(text)\" has a port outside 1...65535")
        }
        return o
    }

    /// An origin whose host is loopback: `http://localhost:8000`, `http://127.0.0.1`, `http://[::1]:9`.
    static func loopbackOrigin(_ origin: String) -> Bool {
        guard let parts = split(origin), parts.scheme == "http" || parts.scheme == "https" else { return false }
        return isLoopbackHost(parts.host)
    }

    static func isLoopbackHost(_ host: String) -> Bool {
        let h = host.lowercased()
        if h == "localhost" || h == "::1" || h == "[::1]" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// `scheme://host[:port]` with no path, query or user info; nil otherwise.
    private static func split(_ origin: String) -> (scheme: String, host: String, port: Int?)? {
        guard let colon = origin.firstIndex(of: ":"), origin[colon...].hasPrefix("://") else { return nil }
        let scheme = String(origin[..<colon])
        let rest = origin[origin.index(colon, offsetBy: 3)...]
        if rest.contains("/") || rest.contains("@") || rest.contains("?") || rest.contains("#") { return nil }
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            let host = String(rest[...close])
            let after = rest[rest.index(after: close)...]
            if after.isEmpty { return (scheme, host, nil) }
            guard after.hasPrefix(":"), let port = Int(after.dropFirst()) else { return nil }
            return (scheme, host, port)
        }
        if let colon = rest.firstIndex(of: ":") {
            guard let port = Int(rest[rest.index(after: colon)...]) else { return nil }
            return (scheme, String(rest[..<colon]), port)
        }
        return (scheme, String(rest), nil)
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }
}
