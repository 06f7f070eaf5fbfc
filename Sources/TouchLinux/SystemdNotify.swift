import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The service manager's notification protocol, `sd_notify(3)`, without libsystemd: one
/// `AF_UNIX` datagram of newline-separated `KEY=VALUE` assignments to the socket named by
/// `$NOTIFY_SOCKET` — a path (`/run/systemd/notify`) or, starting with `@`, a name in the
/// abstract namespace (the `@` becomes the leading NUL byte of `sun_path`).
///
/// With `Type=notify` systemd waits for `READY=1`; with `WatchdogSec=` it expects `WATCHDOG=1`
/// at least every `$WATCHDOG_USEC` microseconds and kills the service otherwise
/// (`sd_watchdog_enabled(3)`). The socket (`socket(2)`, `SOCK_DGRAM | SOCK_CLOEXEC`) is opened
/// once, closed on deinit; `send` is one `sendto(2)`.
package struct SystemdNotifier: ~Copyable, Sendable {
    /// The `$NOTIFY_SOCKET` value this notifier sends to.
    package let address: String
    private let fd: CInt
    private var socketAddress: sockaddr_un
    private let socketAddressLength: socklen_t

    /// Opens a datagram socket for `address` (`$NOTIFY_SOCKET`). Throws `.invalidArgument` for an
    /// empty address, one that is neither absolute nor abstract, or one longer than `sun_path`.
    package init(address: String) throws(Errno) {
        var bytes = Array(address.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "/") || first == UInt8(ascii: "@") else {
            throw .invalidArgument
        }
        if first == UInt8(ascii: "@") { bytes[0] = 0 }
        var sa = sockaddr_un()
        sa.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: sa.sun_path)
        // A path needs room for its terminating NUL; an abstract name does not have one.
        guard bytes.count < capacity || (first == UInt8(ascii: "@") && bytes.count <= capacity) else {
            throw .invalidArgument
        }
        withUnsafeMutableBytes(of: &sa.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path) ?? 2
        let kind = CInt(SOCK_DGRAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue)
        let made = socket(AF_UNIX, kind, 0)
        guard made >= 0 else { throw Errno(rawValue: errno) }
        socketAddressLength = socklen_t(pathOffset + bytes.count + (first == UInt8(ascii: "@") ? 0 : 1))
        socketAddress = sa
        self.address = address
        fd = made
    }

    /// The notifier for `$NOTIFY_SOCKET` in `environment`, or nil when the variable is unset or
    /// empty (not started by systemd with `Type=notify`) or names no usable socket.
    package static func fromEnvironment(_ environment: [String: String]) -> SystemdNotifier? {
        guard let address = environment["NOTIFY_SOCKET"], !address.isEmpty else { return nil }
        return try? SystemdNotifier(address: address)
    }

    /// Sends `state` (e.g. `"READY=1\nSTATUS=running"`) as one datagram. The corresponding C
    /// function is `sendto`; EINTR is retried.
    package func send(_ state: String) throws(Errno) {
        var message = Array(state.utf8)
        var sa = socketAddress
        let length = socketAddressLength
        let result = message.withUnsafeMutableBytes { bytes in
            withUnsafePointer(to: &sa) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    valueOrErrno(retryOnInterrupt: true) {
                        sendto(fd, bytes.baseAddress, bytes.count, CInt(MSG_NOSIGNAL), generic, length)
                    }
                }
            }
        }
        if case .failure(let error) = result { throw error }
    }

    deinit { _ = system_close(fd) }

    /// The watchdog period systemd expects (`$WATCHDOG_USEC`), when it applies to this process:
    /// nil if unset, not a positive number, or `$WATCHDOG_PID` names another process.
    package static func watchdogMicroseconds(_ environment: [String: String], pid: Int32 = getpid()) -> Int64? {
        guard let text = environment["WATCHDOG_USEC"], let usec = Int64(text), usec > 0 else { return nil }
        if let owner = environment["WATCHDOG_PID"], let ownerPID = Int32(owner), ownerPID != pid { return nil }
        return usec
    }
}
