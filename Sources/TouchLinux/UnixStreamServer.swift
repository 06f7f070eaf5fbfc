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
    /// Another process is listening on the path.
    case inUse(path: String)
    /// The path is longer than `sun_path` (107 bytes).
    case pathTooLong(path: String)
    /// No group with that name (`group = "…"`).
    case unknownGroup(String)
    /// Anything else: what was attempted and the errno.
    case failed(path: String, operation: String, errno: Int32)

    package var description: String {
        switch self {
        case .missingDirectory(let p): return "\(p): the directory does not exist"
        case .notASocket(let p): return "\(p) exists and is not a socket (not removed)"
        case .inUse(let p): return "\(p) is in use: another process listens on it"
        case .pathTooLong(let p): return "\(p): longer than a Unix socket path may be (107 bytes)"
        case .unknownGroup(let g): return "no group named \"\(g)\""
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
/// closed and the path unlinked when the server is released.
///
/// The one place of the package for `socket`, `bind`, `listen`, `accept4`, `send`, `connect`
/// (to detect a stale socket file), `chmod`, `chown` and `getgrnam_r` on sockets.
/// Single-threaded: used by the output thread only.
package final class UnixStreamServer {
    package let path: String
    private let listener: CInt
    /// Connected clients' descriptors (owned).
    package private(set) var clients: [CInt] = []
    /// Clients accepted so far.
    package private(set) var accepted = 0

    /// Creates the socket at `path` (a stale socket file nobody listens on is replaced),
    /// sets its mode and, when given, its group, and listens.
    package init(path: String, mode: mode_t, group: String?) throws(UnixSocketError) {
        guard path.utf8.count < 108 else { throw .pathTooLong(path: path) }
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else { throw .notASocket(path: path) }
            if Self.someoneListens(path) { throw .inUse(path: path) }
            unlink(path)
        }
        var gid: gid_t? = nil
        if let group {
            guard let g = Self.groupID(group) else { throw .unknownGroup(group) }
            gid = g
        }
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(AF_UNIX, type, 0)
        guard fd >= 0 else { throw .failed(path: path, operation: "socket", errno: errno) }
        var address = Self.address(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            let e = errno
            Glibc.close(fd)
            if e == ENOENT { throw .missingDirectory(path: path) }
            throw .failed(path: path, operation: "bind", errno: e)
        }
        if chmod(path, mode) != 0 || (gid.map { chown(path, uid_t.max, $0) != 0 } ?? false) {
            let e = errno
            Glibc.close(fd)
            unlink(path)
            throw .failed(path: path, operation: gid == nil ? "chmod" : "chown", errno: e)
        }
        guard listen(fd, 16) == 0 else {
            let e = errno
            Glibc.close(fd)
            unlink(path)
            throw .failed(path: path, operation: "listen", errno: e)
        }
        self.path = path
        self.listener = fd
        clients.reserveCapacity(64)
    }

    deinit { close() }

    /// True once `close()` ran: no descriptor is open and the path is not ours any more.
    package private(set) var isClosed = false

    /// Closes every client and the listener and unlinks the path, once (a later server may own
    /// the path by then: deinit must not unlink its socket). Afterwards nothing is accepted or sent.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        for c in clients { Glibc.close(c) }
        clients.removeAll()
        Glibc.close(listener)
        unlink(path)
    }

    private static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = b }
        }
        return address
    }

    /// Whether a process accepts connections on `path` (a stale file from a crash refuses them).
    private static func someoneListens(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        var address = address(path)
        let r = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return r == 0
    }

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
