import CLinux
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How a child process ended.
package enum ChildExit: Equatable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    package var description: String {
        switch self {
        case .exited(let s): "exited with status \(s)"
        case .signalled(let s): "killed by signal \(s)"
        }
    }
}

/// A program started with `posix_spawn` (never `fork` from a busy process): argv as given, no
/// shell, exactly the environment given, stdin and stdout on /dev/null, stderr on a pipe the
/// owner reads, and no other descriptor (every one from 3 up is closed in the child, even one
/// the service opened without FD_CLOEXEC). The one place of the package for `posix_spawn`,
/// `waitpid`, `kill` and `access`.
///
/// Owned by the spawner thread. Released before it is reaped, it is killed and reaped so no
/// zombie is left.
package final class ChildProcess {
    package let pid: pid_t
    private var stderrPipe: DescriptorHandle?
    package private(set) var exit: ChildExit?

    /// Starts `argv[0]` (an absolute path) with `argv` and `environment` ("NAME=value" strings).
    /// The corresponding C functions are `posix_spawn` (with file actions) and `pipe2`.
    package init(argv: [String], environment: [String]) throws(Errno) {
        precondition(!argv.isEmpty, "ChildProcess: empty argv")
        let pipe = try DescriptorPipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipe.writeEnd.rawValue, 2)
        let closing = tw_spawn_close_from(&actions, 3)
        guard closing == 0 else { throw Errno(rawValue: closing) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Default signal dispositions and an empty mask in the child, whatever the service set.
        var defaults = sigset_t()
        sigfillset(&defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup($0) } + [nil]
        defer {
            for p in cArgv { free(p) }
            for p in cEnv { free(p) }
        }
        var child: pid_t = 0
        let r = posix_spawn(&child, argv[0], &actions, &attributes, cArgv, cEnv)
        guard r == 0 else { throw Errno(rawValue: r) }
        pid = child
        // The pipe itself (both ends) closes when this initializer returns; the parent keeps a copy of the read end.
        let readEnd = DescriptorHandle(adopting: dup(pipe.readEnd.rawValue))
        _ = fcntl(readEnd.rawValue, F_SETFL, fcntl(readEnd.rawValue, F_GETFL) | O_NONBLOCK)
        _ = fcntl(readEnd.rawValue, F_SETFD, FD_CLOEXEC)
        stderrPipe = consume readEnd
    }

    deinit {
        if exit == nil {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
    }

    /// Reaps the child if it ended (`waitpid(WNOHANG)`); returns how it ended, nil while running.
    @discardableResult
    package func poll() -> ChildExit? {
        if let exit { return exit }
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        guard r == pid else { return nil }
        let e: ChildExit = (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
        exit = e
        return e
    }

    /// Sends `signal` to the child's process group (it was started as a group leader).
    package func signal(_ signal: Int32) { kill(-pid, signal) }

    /// Appends whatever the child wrote to stderr (non-blocking) to `text`, keeping at most `limit` bytes.
    package func readStderr(into text: inout [UInt8], limit: Int = 4096) {
        guard let fd = stderrPipe?.rawValue else { return }
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            let room = max(0, limit - text.count)
            text += buffer[0..<min(n, room)]
        }
    }

    /// Restricts the calling thread, which then starts every child: no ambient capabilities
    /// (`PR_CAP_AMBIENT_CLEAR_ALL`) and `PR_SET_NO_NEW_PRIVS`. Both are per thread and inherited
    /// by the programs it spawns (posix_spawn clones the calling thread), so the service's own
    /// CAP_SYS_NICE/CAP_IPC_LOCK (permitted/effective, other threads) stay as they are.
    package static func restrictSpawningThread() throws(Errno) {
        guard tw_restrict_spawning_thread() == 0 else { throw Errno(rawValue: errno) }
    }

    /// Whether process group `pgid` still has a member (`kill(-pgid, 0)` is not ESRCH).
    package static func groupExists(_ pgid: pid_t) -> Bool {
        kill(-pgid, 0) == 0 || errno != ESRCH
    }

    /// Sends `signal` to every process of group `pgid` (a child's, grandchildren included).
    package static func signalGroup(_ pgid: pid_t, _ signal: Int32) { kill(-pgid, signal) }

    /// Whether `path` names a file this process may execute (`access(X_OK)`) and is not a directory.
    package static func isExecutable(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) != S_IFDIR else { return false }
        return access(path, X_OK) == 0
    }

    /// Whether this process may change user and groups for a child (CAP_SETUID and CAP_SETGID
    /// in its effective set, read from /proc/self/status). False under the shipped unit.
    package static func canChangeUser() -> Bool {
        let fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 8192)
        let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return false }
        let text = String(decoding: bytes[0..<n], as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
            let mask = UInt64(String(line.dropFirst(7).filter { !$0.isWhitespace }), radix: 16)
        else { return false }
        let setgid: UInt64 = 1 << 6
        let setuid: UInt64 = 1 << 7
        return mask & (setuid | setgid) == setuid | setgid
    }

    /// Whether a user account `name` exists (`getpwnam_r`).
    package static func userExists(_ name: String) -> Bool { primaryGroupID(of: name) != nil }

    /// The primary group of user `name` (`pw_gid` of `getpwnam_r`), nil when there is no such
    /// user. A user's primary group need not carry the user's name (`nobody` is in `nogroup`).
    package static func primaryGroupID(of name: String) -> gid_t? {
        var pw = passwd()
        var result: UnsafeMutablePointer<passwd>? = nil
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r(name, &pw, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return pw.pw_gid
    }
}
