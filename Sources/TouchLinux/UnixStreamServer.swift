import CLinux
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Why a Unix socket could not be set up. Each case names the path.
package enum UnixSocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The directory for the socket does not exist (`/run/touchwire`: systemd's `RuntimeDirectory=`).
    case missingDirectory(path: String)
    /// Something that is not a socket is at the path; it is left alone.
    case notASocket(path: String)
    /// Another process is listening on the path (also when its backlog is full).
    case inUse(path: String)
    /// The path is longer than `sun_path` (107 bytes; the private directory it is made in needs
    /// 11 bytes more than the directory's own name).
    case pathTooLong(path: String)
    /// No group with that name (`group = "…"`).
    case unknownGroup(String)
    /// Anyone may write the socket's directory and it has no sticky bit: another user could
    /// replace the socket, or remove it.
    case unsafeDirectory(path: String, directory: String)
    /// A socket file is there, and whether a process listens on it cannot be told (the connect
    /// probe failed with something other than "refused": EACCES, EPERM, …); it is left alone.
    case cannotProbe(path: String, errno: Int32)
    /// Anything else: what was attempted and the errno.
    case failed(path: String, operation: String, errno: Int32)

    package var description: String {
        switch self {
        case .missingDirectory(let p): return "\(p): the directory does not exist"
        case .notASocket(let p): return "\(p) exists and is not a socket (not removed)"
        case .inUse(let p): return "\(p) is in use: another process listens on it"
        case .pathTooLong(let p): return "\(p): longer than a Unix socket path may be (107 bytes)"
        case .unknownGroup(let g): return "no group named \"\(g)\""
        case .unsafeDirectory(let p, let d):
            return "\(p): the directory \(d) is writable by anyone and has no sticky bit;"
                + " use a directory only the service (or a group) may write, such as /run/touchwire"
        case .cannotProbe(let p, let e):
            return "\(p): a socket file is there and checking whether it is in use failed"
                + " (\(Errno(rawValue: e))); not removed — remove it if it is stale"
        case .failed(let p, let op, let e): return "\(p): \(op) failed (errno \(e))"
        }
    }
}

/// What one `send` to a client did.
package enum SocketSendResult: Equatable, Sendable {
    /// The whole message went into the client's socket buffer.
    case sent
    /// The buffer could not take the whole message (EAGAIN or a partial send): the client does not read.
    case full
    /// The client went away (EPIPE, ECONNRESET) or another error.
    case closed
}

/// A listening Unix stream socket (`AF_UNIX`, `SOCK_STREAM`) and its connected clients, all
/// non-blocking. Owns every descriptor and the socket file: the listener and the clients are
/// closed and the path unlinked when the server is released (only while the path is still
/// this server's socket: same device and inode).
///
/// The one place of the package for `socket`, `bind`, `listen`, `accept4`, `send`, `connect`
/// (to detect a stale socket file), `chmod`, `chown`, `mkdtemp`, `link`, `rmdir` and
/// `getgrnam_r` on sockets. Single-threaded: used by the output thread only.
package final class UnixStreamServer {
    package let path: String
    private let listener: CInt
    /// The socket file this server made (to unlink it only while it is still ours).
    private let identity: FileIdentity?
    /// Connected clients' descriptors (owned).
    package private(set) var clients: [CInt] = []
    /// Clients accepted so far.
    package private(set) var accepted = 0

    /// Creates the socket at `path`, with `mode` and, when given, `group`, and listens.
    ///
    /// - The directory must exist, and must not be writable by anyone without the sticky bit.
    /// - A socket file already there is probed with a non-blocking `connect(2)` that never waits:
    ///   success or EAGAIN (a listener whose backlog is full) is `inUse`; only ECONNREFUSED means
    ///   stale, and only then is the file unlinked; any other error (EACCES on another user's
    ///   socket, …) is `cannotProbe` and the file is left alone.
    /// - The socket is bound in a new private directory (`mkdtemp(3)`, 0700, next to the path),
    ///   given its mode and group there by path (`chmod(2)`, `chown(2)`: nobody else can swap a
    ///   symlink in), then `link(2)`ed to `path` (which fails rather than replace anything put
    ///   there meanwhile) and the private name and directory removed.
    package init(path: String, mode: mode_t, group: String?) throws(UnixSocketError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let privateTemplate = (directory.isEmpty ? "" : directory + "/") + ".twXXXXXX"
        guard path.utf8.count < 108, privateTemplate.utf8.count + 2 < 108 else { throw .pathTooLong(path: path) }
        switch system_stat(directory.isEmpty ? "/" : directory) {
        case .success(let st):
            if st.st_mode & S_IWOTH != 0 && st.st_mode & S_ISVTX == 0 {
                throw .unsafeDirectory(path: path, directory: directory.isEmpty ? "/" : directory)
            }
        case .failure(.noSuchFileOrDirectory), .failure(.notDirectory): throw .missingDirectory(path: path)
        case .failure(let e): throw .failed(path: path, operation: "stat", errno: e.rawValue)
        }
        if case .success(let st) = system_lstat(path) {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else { throw .notASocket(path: path) }
            switch Self.probe(path) {
            case .listening: throw .inUse(path: path)
            case .stale:
                if case .failure(let e) = system_unlink(path), e != .noSuchFileOrDirectory {
                    throw .failed(path: path, operation: "unlink of the stale socket", errno: e.rawValue)
                }
            case .unknown(let e): throw .cannotProbe(path: path, errno: e)
            }
        }
        var gid: gid_t? = nil
        if let group {
            guard let g = Self.groupID(group) else { throw .unknownGroup(group) }
            gid = g
        }
        var template = Array(privateTemplate.utf8CString)
        guard
            let privateDirectory = template.withUnsafeMutableBufferPointer({ buffer in
                mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
            })
        else { throw .failed(path: path, operation: "mkdtemp", errno: errno) }
        let privatePath = privateDirectory + "/s"
        defer {
            _ = system_unlink(privatePath)
            _ = rmdir(privateDirectory)
        }
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(AF_UNIX, type, 0)
        guard fd >= 0 else { throw .failed(path: path, operation: "socket", errno: errno) }
        var failure: UnixSocketError? = nil
        var address = Self.address(privatePath)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if bound != 0 {
            failure = .failed(path: path, operation: "bind", errno: errno)
        } else if chmod(privatePath, mode) != 0 {
            failure = .failed(path: path, operation: "chmod", errno: errno)
        } else if let gid, chown(privatePath, uid_t.max, gid) != 0 {
            failure = .failed(path: path, operation: "chown", errno: errno)
        } else if listen(fd, 16) != 0 {
            failure = .failed(path: path, operation: "listen", errno: errno)
        } else if link(privatePath, path) != 0 {
            failure = errno == EEXIST ? .inUse(path: path) : .failed(path: path, operation: "link", errno: errno)
        }
        if let failure {
            Glibc.close(fd)
            throw failure
        }
        identity = (try? system_lstat(path).get()).map(FileIdentity.init)
        self.path = path
        self.listener = fd
        clients.reserveCapacity(64)
    }

    deinit { close() }

    /// True once `close()` ran: no descriptor is open and the path is not ours any more.
    package private(set) var isClosed = false

    /// Closes every client and the listener and unlinks the path, once, and only while it is
    /// still this server's socket file (a later server, or another process, may own the path
    /// by then). Afterwards nothing is accepted or sent.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        for c in clients { Glibc.close(c) }
        clients.removeAll()
        Glibc.close(listener)
        if let identity, case .success(let st) = system_lstat(path), st.st_mode & S_IFMT == S_IFSOCK,
            FileIdentity(st) == identity
        {
            _ = system_unlink(path)
        }
    }

    private static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = b }
        }
        return address
    }

    private enum Probe {
        case listening, stale
        case unknown(Int32)
    }

    /// Whether a process accepts connections on `path`, by a non-blocking `connect(2)` that
    /// never waits: connected, or EAGAIN/EINPROGRESS (the listener's backlog is full), is a
    /// listener; ECONNREFUSED (a file left by a crash) is stale; anything else is unknown.
    private static func probe(_ path: String) -> Probe {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(AF_UNIX, type, 0)
        guard fd >= 0 else { return .unknown(errno) }
        defer { Glibc.close(fd) }
        var address = address(path)
        while true {
            let r = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if r == 0 { return .listening }
            switch errno {
            case EINTR: continue
            case EAGAIN, EINPROGRESS: return .listening
            case ECONNREFUSED, ENOENT: return .stale
            case let e: return .unknown(e)
            }
        }
    }

    /// Whether a group `name` exists (`getgrnam_r`): what `init` needs of `group`.
    package static func groupExists(_ name: String) -> Bool { groupID(name) != nil }

    private static func groupID(_ name: String) -> gid_t? {
        var group = Glibc.group()
        var result: UnsafeMutablePointer<Glibc.group>? = nil
        var buffer = [CChar](repeating: 0, count: 4096)
        let r = getgrnam_r(name, &group, &buffer, buffer.count, &result)
        guard r == 0, result != nil else { return nil }
        return group.gr_gid
    }

    /// Accepts every pending connection (non-blocking). With `limit` clients already, new ones are
    /// closed at once; returns how many were turned away.
    @discardableResult
    package func acceptPending(limit: Int) -> Int {
        guard !isClosed else { return 0 }
        var refused = 0
        while true {
            let fd = tw_accept_nonblocking(listener)
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return refused
            }
            if clients.count >= limit {
                Glibc.close(fd)
                refused += 1
            } else {
                clients.append(fd)
                accepted += 1
            }
        }
    }

    /// Sends `bytes` to client `index` without waiting (`MSG_DONTWAIT | MSG_NOSIGNAL`: a client
    /// that left gives EPIPE, never SIGPIPE).
    package func send(_ bytes: UnsafeRawBufferPointer, toClient index: Int) -> SocketSendResult {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return .sent }
        while true {
            let n = Glibc.send(clients[index], base, bytes.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
            if n == bytes.count { return .sent }
            if n >= 0 { return .full }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .full : .closed
        }
    }

    /// Closes client `index` and removes it (the last client takes its place).
    package func disconnect(client index: Int) {
        Glibc.close(clients[index])
        clients.swapAt(index, clients.count - 1)
        clients.removeLast()
    }

    /// Closes clients that hung up (reading nothing is not hanging up).
    package func dropHungUp() -> Int {
        var gone = 0
        var i = 0
        while i < clients.count {
            var p = pollfd(fd: clients[i], events: 0, revents: 0)
            if poll(&p, 1, 0) > 0 && (p.revents & Int16(POLLHUP | POLLERR)) != 0 {
                disconnect(client: i)
                gone += 1
            } else {
                i += 1
            }
        }
        return gone
    }

    /// Sets the kernel send buffer of client `index` (`SO_SNDBUF`); for tests of a client that does not read.
    package func setSendBuffer(client index: Int, bytes: Int) {
        var size = CInt(bytes)
        _ = setsockopt(clients[index], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<CInt>.size))
    }

    /// Reads what client `index` has sent, without waiting (`MSG_DONTWAIT`), into `buffer`:
    /// the byte count, 0 when nothing is waiting, nil when the client closed or failed.
    /// The corresponding C function is `recv`.
    package func receive(fromClient index: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let n = recv(clients[index], base, buffer.count, Int32(MSG_DONTWAIT))
            if n > 0 { return n }
            if n == 0 { return nil }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : nil
        }
    }
}
