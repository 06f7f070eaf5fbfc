import CLinux
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A pseudo-terminal pair: this value owns the main side; `subordinatePath` ("/dev/pts/N") is a
/// terminal that `SerialPort` can open as if it were a UART. For tests and the bench: bytes
/// written to the subordinate are read here, byte for byte.
///
/// The main side is put in raw mode at creation, so neither echo nor the line discipline
/// changes the bytes that pass (on Linux the main's termios is the subordinate's).
package struct PseudoTerminal: ~Copyable, Sendable {
    /// The subordinate device node.
    package let subordinatePath: String
    let main: DescriptorHandle

    /// The main side's descriptor (owned by this value).
    package var mainDescriptor: FileDescriptor { main.descriptor }

    /// Opens a new pair in raw mode, with the subordinate unlocked.
    ///
    /// The corresponding C functions are `posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)`,
    /// `grantpt`, `unlockpt`, `ptsname_r`, `cfmakeraw` and `tcsetattr`.
    package init() throws(SerialError) {
        let ptmx = "/dev/ptmx"
        let fd: CInt
        switch valueOrErrno(retryOnInterrupt: true, { tw_pty_open(O_RDWR | O_NOCTTY | O_CLOEXEC) }) {
        case .success(let opened): fd = opened
        case .failure(let e): throw .failed(path: ptmx, operation: "posix_openpt", errno: e)
        }
        let main = DescriptorHandle(adopting: fd)
        if case .failure(let e) = valueOrErrno(retryOnInterrupt: true, { tw_pty_grant(fd) }) {
            throw .failed(path: ptmx, operation: "grantpt", errno: e)
        }
        if case .failure(let e) = valueOrErrno(retryOnInterrupt: true, { tw_pty_unlock(fd) }) {
            throw .failed(path: ptmx, operation: "unlockpt", errno: e)
        }
        var name = [CChar](repeating: 0, count: 128)
        let rc = tw_pty_name(fd, &name, name.count)
        // ptsname_r returns the error number itself rather than setting errno.
        if rc != 0 { throw .failed(path: ptmx, operation: "ptsname_r", errno: Errno(rawValue: rc)) }
        let path = String(decoding: name.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)

        var attributes: termios
        switch Termios.get(fd) {
        case .success(let t): attributes = t
        case .failure(let e): throw .failed(path: ptmx, operation: "tcgetattr", errno: e)
        }
        Termios.makeRaw(&attributes)
        if case .failure(let e) = Termios.set(fd, attributes) {
            throw .failed(path: ptmx, operation: "tcsetattr raw", errno: e)
        }
        self.subordinatePath = path
        self.main = main
    }

    /// Opens a new pair; the same as `init()`.
    package static func open() throws(SerialError) -> PseudoTerminal { try PseudoTerminal() }

    /// Waits up to `timeoutMilliseconds` for bytes from the subordinate and reads what is there
    /// (at most `buffer.count`). Returns 0 on timeout, and also once the subordinate is closed
    /// and everything has been read (Linux reports EIO then).
    ///
    /// The corresponding C functions are `poll` and `read`.
    package func read(into buffer: UnsafeMutableRawBufferPointer, timeoutMilliseconds: Int) throws(SerialError) -> Int {
        let revents: Int16
        switch system_poll(main.rawValue, events: Int16(POLLIN), timeoutMilliseconds: timeoutMilliseconds) {
        case .success(let r): revents = r
        case .failure(let e): throw .failed(path: subordinatePath, operation: "poll", errno: e)
        }
        if revents == 0 { return 0 }
        switch system_read(main.rawValue, buffer) {
        case .success(let n): return n
        case .failure(let e):
            switch e {
            case .resourceTemporarilyUnavailable, .wouldBlock, .ioError: return 0
            default: throw .failed(path: subordinatePath, operation: "read", errno: e)
            }
        }
    }

    /// Reads until `count` bytes have arrived or no byte arrives for `timeoutMilliseconds`.
    /// Allocates; for tests.
    package func read(count: Int, timeoutMilliseconds: Int = 1000) throws(SerialError) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while out.count < count {
            let want = min(chunk.count, count - out.count)
            var failure: SerialError?
            let n = chunk.withUnsafeMutableBytes { raw -> Int in
                do throws(SerialError) {
                    return try read(
                        into: UnsafeMutableRawBufferPointer(rebasing: raw[..<want]),
                        timeoutMilliseconds: timeoutMilliseconds)
                } catch {
                    failure = error
                    return 0
                }
            }
            if let failure { throw failure }
            if n == 0 { break }
            out.append(contentsOf: chunk[..<n])
        }
        return out
    }

    /// Writes bytes towards the subordinate (what a peer on the wire would send). EINTR is retried.
    ///
    /// The corresponding C function is `write`.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int {
        switch system_write(main.rawValue, bytes) {
        case .success(let n): return n
        case .failure(let e): throw .failed(path: subordinatePath, operation: "write", errno: e)
        }
    }
}
