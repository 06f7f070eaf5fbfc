import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Why a Unix stream socket could not be used.
package enum UnixConnectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing listens at the path (ENOENT, ECONNREFUSED): the service is not running with a socket output.
    case notListening(path: String, errno: Errno)
    /// The path is longer than `sockaddr_un.sun_path` allows (107 bytes).
    case pathTooLong(path: String)
    /// Anything else: what was attempted and the errno.
    case failed(path: String, operation: String, errno: Errno)

    package var description: String {
        switch self {
        case .notListening(let path, let e): "\(path): no service listening (\(e))"
        case .pathTooLong(let path): "\(path): longer than a Unix socket path may be (107 bytes)"
        case .failed(let path, let operation, let e): "\(path): \(operation) failed (\(e))"
        }
    }
}

/// The client end of a Unix-domain stream socket (unix(7)), such as the service's event stream:
/// owned, move-only, closed when dropped.
package struct UnixStreamConnection: ~Copyable, Sendable {
    /// The socket's path.
    package let path: String
    let handle: DescriptorHandle

    /// Connects to the listening socket at `path`.
    ///
    /// The corresponding C functions are `socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC)` and `connect`.
    package init(connectingTo path: String) throws(UnixConnectionError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity, !bytes.isEmpty else { throw .pathTooLong(path: path) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let fd: CInt
        switch valueOrErrno(
            retryOnInterrupt: true, { socket(AF_UNIX, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0) })
        {
        case .success(let s): fd = s
        case .failure(let e): throw .failed(path: path, operation: "socket", errno: e)
        }
        let handle = DescriptorHandle(adopting: fd)
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                valueOrErrno(retryOnInterrupt: true) { connect(fd, sa, length) }
            }
        }
        if case .failure(let e) = result {
            switch e {
            case .noSuchFileOrDirectory, .connectionRefused, .notDirectory: throw .notListening(path: path, errno: e)
            default: throw .failed(path: path, operation: "connect", errno: e)
            }
        }
        self.path = path
        self.handle = handle
    }

    /// Waits up to `timeoutMilliseconds` for bytes and reads what is there (at most
    /// `buffer.count`). Returns 0 on timeout; nil once the peer has closed the stream.
    ///
    /// The corresponding C functions are `poll` and `read`.
    package func read(into buffer: UnsafeMutableRawBufferPointer, timeoutMilliseconds: Int) throws(UnixConnectionError)
        -> Int?
    {
        let revents: Int16
        switch system_poll(handle.rawValue, events: Int16(POLLIN), timeoutMilliseconds: timeoutMilliseconds) {
        case .success(let r): revents = r
        case .failure(let e): throw .failed(path: path, operation: "poll", errno: e)
        }
        if revents == 0 { return 0 }
        switch system_read(handle.rawValue, buffer) {
        case .success(let n): return n == 0 ? nil : n
        case .failure(let e):
            switch e {
            case .resourceTemporarilyUnavailable, .wouldBlock: return 0
            case .connectionReset: return nil
            default: throw .failed(path: path, operation: "read", errno: e)
            }
        }
    }

    /// Writes all of `bytes` (a request line). A service that has gone gives EPIPE, never
    /// SIGPIPE, whatever the process does with that signal. The corresponding C function is
    /// `send` (`MSG_NOSIGNAL`).
    package func write(_ bytes: [UInt8]) throws(UnixConnectionError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.send(handle.rawValue, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n >= 0 {
                offset += n
            } else if errno != EINTR {
                throw .failed(path: path, operation: "write", errno: Errno(rawValue: errno))
            }
        }
    }
}
