import CLinux
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// The choke points: every plain file-descriptor system call of the package is made here,
// once, with `errno` read immediately after the call and EINTR retried where asked.
// The ioctl-based interfaces have their own files (`LinuxI2CBus.swift`, `Termios.swift`,
// `PseudoTerminal.swift`), which use these for open/close/read/write/poll.

extension Errno {
    /// The calling thread's `errno`, read right after a failed call.
    @inline(__always) static var lastError: Errno { Errno(rawValue: errno) }
}

/// Runs `body` until it returns something other than -1 with EINTR. A -1 result becomes the `Errno`.
@inline(__always)
func valueOrErrno<I: FixedWidthInteger>(retryOnInterrupt: Bool, _ body: () -> I) -> Result<I, Errno> {
    while true {
        let value = body()
        if value != -1 { return .success(value) }
        let error = Errno.lastError
        if retryOnInterrupt && error == .interrupted { continue }
        return .failure(error)
    }
}

/// open(2). The corresponding C function is `open`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_open(_ path: String, _ flags: CInt, _ mode: mode_t = 0) -> Result<CInt, Errno> {
    valueOrErrno(retryOnInterrupt: true) { open(path, flags, mode) }
}

/// close(2), never retried (Linux releases the descriptor even when close reports EINTR).
/// The corresponding C function is `close`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_close(_ fd: CInt) -> Result<Void, Errno> {
    valueOrErrno(retryOnInterrupt: false) { close(fd) }.map { _ in () }
}

/// read(2). The corresponding C function is `read`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_read(
    _ fd: CInt, _ buffer: UnsafeMutableRawBufferPointer, retryOnInterrupt: Bool = true
) -> Result<Int, Errno> {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return .success(0) }
    return valueOrErrno(retryOnInterrupt: retryOnInterrupt) { read(fd, base, buffer.count) }
}

/// pread(2): reads at `offset` without moving the file position. The corresponding C function
/// is `pread`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_pread(_ fd: CInt, _ buffer: UnsafeMutableRawBufferPointer, offset: Int64) -> Result<Int, Errno> {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return .success(0) }
    return valueOrErrno(retryOnInterrupt: true) { pread(fd, base, buffer.count, off_t(offset)) }
}

/// write(2). The corresponding C function is `write`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_write(_ fd: CInt, _ bytes: UnsafeRawBufferPointer, retryOnInterrupt: Bool = true) -> Result<Int, Errno> {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return .success(0) }
    return valueOrErrno(retryOnInterrupt: retryOnInterrupt) { write(fd, base, bytes.count) }
}

/// poll(2) on one descriptor; returns the revents (0 on timeout). EINTR is retried with the
/// full timeout again (callers use short timeouts). The corresponding C function is `poll`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_poll(_ fd: CInt, events: Int16, timeoutMilliseconds: Int) -> Result<Int16, Errno> {
    var pfd = pollfd(fd: fd, events: events, revents: 0)
    let timeout = CInt(clamping: timeoutMilliseconds)
    return valueOrErrno(retryOnInterrupt: true) { poll(&pfd, 1, timeout) }.map { n in n == 0 ? 0 : pfd.revents }
}

/// fcntl(2) F_GETFL: the file status flags (`O_NONBLOCK`, `O_APPEND`, …) of the open file
/// description behind `fd`. The corresponding C function is `fcntl`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_getStatusFlags(_ fd: CInt) -> Result<CInt, Errno> {
    valueOrErrno(retryOnInterrupt: true) { tw_fcntl_getfl(fd) }
}

/// fcntl(2) F_SETFL. The corresponding C function is `fcntl`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_setStatusFlags(_ fd: CInt, _ flags: CInt) -> Result<Void, Errno> {
    valueOrErrno(retryOnInterrupt: true) { tw_fcntl_setfl(fd, flags) }.map { _ in () }
}

/// pipe2(2) with O_CLOEXEC: (read end, write end). The corresponding C function is `pipe2`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_pipe() -> Result<(CInt, CInt), Errno> {
    var fds: [CInt] = [-1, -1]
    return valueOrErrno(retryOnInterrupt: false) { tw_pipe_cloexec(&fds) }.map { (_: CInt) in (fds[0], fds[1]) }
}

/// The names in directory `path` (without "." and ".."), unsorted; empty when it cannot be read.
/// The corresponding C functions are `opendir`, `readdir` and `closedir`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_listDirectory(_ path: String) -> [String] {
    guard let dir = opendir(path) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> String in
            let bytes = raw.bindMemory(to: UInt8.self)
            let length = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<length]), as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

/// lstat(2): what `path` itself is (a symlink is not followed). The corresponding C function is `lstat`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_lstat(_ path: String) -> Result<stat, Errno> {
    var st = stat()
    return valueOrErrno(retryOnInterrupt: true) { lstat(path, &st) }.map { _ in st }
}

/// stat(2): what `path` leads to, symlinks followed. The corresponding C function is `stat`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_stat(_ path: String) -> Result<stat, Errno> {
    var st = stat()
    return valueOrErrno(retryOnInterrupt: true) { stat(path, &st) }.map { _ in st }
}

/// fstat(2). The corresponding C function is `fstat`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_fstat(_ fd: CInt) -> Result<stat, Errno> {
    var st = stat()
    return valueOrErrno(retryOnInterrupt: true) { fstat(fd, &st) }.map { _ in st }
}

/// fchmod(2): the permission bits of an open file, whatever the umask. The C function is `fchmod`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_fchmod(_ fd: CInt, _ mode: mode_t) -> Result<Void, Errno> {
    valueOrErrno(retryOnInterrupt: true) { fchmod(fd, mode) }.map { _ in () }
}

/// fchown(2) (-1 leaves that id as it is). The corresponding C function is `fchown`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_fchown(_ fd: CInt, _ owner: uid_t, _ group: gid_t) -> Result<Void, Errno> {
    valueOrErrno(retryOnInterrupt: true) { fchown(fd, owner, group) }.map { _ in () }
}

/// fsync(2). The corresponding C function is `fsync`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_fsync(_ fd: CInt) -> Result<Void, Errno> {
    valueOrErrno(retryOnInterrupt: true) { fsync(fd) }.map { _ in () }
}

/// rename(2): `from` replaces `to` atomically (a symlink at `to` is replaced, not followed).
/// The corresponding C function is `rename`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_rename(_ from: String, _ to: String) -> Result<Void, Errno> {
    valueOrErrno(retryOnInterrupt: true) { rename(from, to) }.map { _ in () }
}

/// unlink(2): removes a name (never a directory). The corresponding C function is `unlink`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_unlink(_ path: String) -> Result<Void, Errno> {
    valueOrErrno(retryOnInterrupt: true) { unlink(path) }.map { _ in () }
}

/// mkdir(2). The corresponding C function is `mkdir`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_mkdir(_ path: String, _ mode: mode_t) -> Result<Void, Errno> {
    valueOrErrno(retryOnInterrupt: true) { mkdir(path, mode) }.map { _ in () }
}

/// access(2) with the real user and group ids. The corresponding C function is `access`.
// swift-format-ignore: AlwaysUseLowerCamelCase
func system_access(_ path: String, _ mode: CInt) -> Result<Void, Errno> {
    valueOrErrno(retryOnInterrupt: true) { access(path, mode) }.map { _ in () }
}
