import TouchLinux
import TouchService

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

    /// The private directory of a service started by hand on a machine without
    /// `$XDG_RUNTIME_DIR`: `/tmp/touchwire-UID` (mode 0700, `RuntimeDirectory.makePrivate`).
    package static func privateDirectory(userID: UInt32 = RuntimeDirectory.userID) -> String {
        "/tmp/touchwire-\(userID)"
    }

    /// The directories a status file may be in, most specific first: `$RUNTIME_DIRECTORY` (the
    /// unit), `/run/touchwire` (the Debian package's service), `$XDG_RUNTIME_DIR` (a login
    /// session), then the private temporary directory. `touchwire status` looks in each in turn.
    package static func statusDirectories(_ environment: [String: String], userID: UInt32 = RuntimeDirectory.userID)
        -> [String]
    {
        var directories: [String] = []
        if let value = environment["RUNTIME_DIRECTORY"],
            let first = value.split(separator: ":").first, first.hasPrefix("/")
        {
            directories.append(String(first))
        }
        directories.append("/run/touchwire")
        if let xdg = environment["XDG_RUNTIME_DIR"], xdg.hasPrefix("/") {
            directories.append(xdg.hasSuffix("/") ? String(xdg.dropLast()) : xdg)
        }
        directories.append(privateDirectory(userID: userID))
        var seen = Set<String>()
        return directories.filter { seen.insert($0).inserted }
    }

    /// The status file `touchwire run` writes by default: `touchwire.status` in
    /// `$RUNTIME_DIRECTORY` when systemd set it; else in the first of `/run/touchwire` and
    /// `$XDG_RUNTIME_DIR` this user may write; else in the private temporary directory (which
    /// `run` creates). `isWritable` is asked of each directory (injectable for tests).
    package static func statusFile(
        _ environment: [String: String], userID: UInt32 = RuntimeDirectory.userID,
        isWritable: (String) -> Bool = RuntimeDirectory.isWritableDirectory
    ) -> String {
        let directories = statusDirectories(environment, userID: userID)
        if environment["RUNTIME_DIRECTORY"].map({ $0.hasPrefix("/") }) == true {
            return directories[0] + "/touchwire.status"
        }
        let chosen = directories.dropLast().first(where: isWritable) ?? privateDirectory(userID: userID)
        return chosen + "/touchwire.status"
    }

    /// The status file `touchwire status` reads by default: the first of `statusDirectories`
    /// holding a `touchwire.status` (whether or not it is readable, so a permission error is
    /// named), else the one `run` would write.
    package static func statusFileToRead(
        _ environment: [String: String], userID: UInt32 = RuntimeDirectory.userID,
        exists: (String) -> Bool = { RuntimeDirectory.readError($0) != .noSuchFileOrDirectory }
    ) -> String {
        for directory in statusDirectories(environment, userID: userID) {
            let path = directory + "/touchwire.status"
            if exists(path) { return path }
        }
        return statusFile(environment, userID: userID)
    }
}
