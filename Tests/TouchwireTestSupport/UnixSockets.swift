import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Calls `body` with the `sockaddr_un` of the Unix socket path `path` and its length, for
/// `bind(2)` or `connect(2)` on a raw descriptor (tests talk to the code under test through
/// plain sockets of their own); returns what `body` returns.
package func withUnixSocketAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (i, b) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = b }
    }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}

/// A test client: a connected, blocking Unix stream socket.
package final class SocketTestClient {
    package let fd: CInt

    package init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let r = withUnixSocketAddress(path) { connect(fd, $0, $1) }
        if r != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit { close(fd) }

    /// Reads until `count` bytes or end of stream (a 5 s receive timeout guards a broken test).
    package func read(count: Int) -> [UInt8] {
        var tv = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while out.count < count {
            let n = recv(fd, &buffer, min(buffer.count, count - out.count), 0)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }

    /// True when the server closed the connection (after the queued bytes are read).
    package func isClosedByServer() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var tv = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
        }
    }
}
