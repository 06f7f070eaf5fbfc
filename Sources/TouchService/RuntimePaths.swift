/// Where a running service keeps its files by default.
package enum RuntimePaths {
    /// The runtime directory: the first entry of `$RUNTIME_DIRECTORY` (systemd sets it from the
    /// unit's `RuntimeDirectory=touchwire`), else `/run/touchwire`.
    package static func runtimeDirectory(_ environment: [String: String]) -> String {
        if let value = environment["RUNTIME_DIRECTORY"],
            let first = value.split(separator: ":").first, first.hasPrefix("/")
        {
            return String(first)
        }
        return "/run/touchwire"
    }

    /// The default status file of `touchwire run` and `touchwire status`: `touchwire.status` in
    /// the runtime directory.
    package static func statusFile(_ environment: [String: String]) -> String {
        runtimeDirectory(environment) + "/touchwire.status"
    }
}
