#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--board FILE`: the bridge's settings from the board's `[[output]] type = "websocket"` and its
/// socket output. The board is read and validated by touchwire itself
/// (`touchwire validate --bridge-arguments FILE` prints the arguments, one per line), so there is one
/// board reader and one set of rules; flags given after `--board` override what it says.
enum BoardArguments {
    /// The arguments the board gives, or an error naming what went wrong (touchwire's own messages
    /// about the board are already on stderr).
    static func arguments(board: String, touchwire: String) throws(OptionError) -> [String] {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw OptionError("cannot make a pipe: errno \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        let argv = [touchwire, "validate", "--bridge-arguments", board]
        var cargs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, touchwire, &actions, nil, &cargs, environ)
        close(fds[1])
        guard spawned == 0 else {
            close(fds[0])
            throw OptionError(
                "--board needs touchwire to read the board, and \"\(touchwire)\" could not be started "
                    + "(\(String(cString: strerror(spawned)))); give its path with --touchwire PATH"
            )
        }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fds[0], &chunk, chunk.count)
            if n > 0 {
                output += chunk[0..<n]
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        close(fds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = (status & 0x7f) == 0
        let code = (status >> 8) & 0xff
        guard exited && code == 0 else {
            throw OptionError("the board \(board) gives no bridge settings (touchwire validate says why, above)")
        }
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// `touchwire` beside this executable (as installed by the Debian package), else on PATH.
    static func defaultTouchwire() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 {
            let me = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let slash = me.lastIndex(of: "/") {
                let sibling = String(me[..<slash]) + "/touchwire"
                if access(sibling, X_OK) == 0 { return sibling }
            }
        }
        return "touchwire"
    }
}
