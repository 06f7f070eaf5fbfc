import Synchronization
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Which file a path names: its device and inode (`st_dev`, `st_ino`), as `stat(2)` reports them.
package struct FileIdentity: Equatable, Hashable, Sendable {
    package var device: UInt64
    package var inode: UInt64

    init(_ st: stat) {
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }
}

/// Why a file the user named as an output cannot be written. Each case names the path.
package enum OutputFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path is a directory: nothing is written into it, nothing is removed.
    case isDirectory(path: String)
    /// The path is a socket or a block device: neither a file to replace nor a stream to write.
    case unsupportedKind(path: String, kind: String)
    /// The output is one of the command's inputs (the same inode, through a link or not).
    case sameAsInput(path: String, input: String)
    /// A system call failed: which one and the errno.
    case failed(path: String, operation: String, errno: Errno)

    package var description: String {
        switch self {
        case .isDirectory(let p): return "\(p) is a directory; name a file to write"
        case .unsupportedKind(let p, let kind):
            return "\(p) is a \(kind); name a regular file, a character device or a FIFO"
        case .sameAsInput(let p, let input):
            return p == input
                ? "\(p) is also an input of this command; writing it would destroy what is read"
                : "\(p) is the same file as the input \(input); writing it would destroy what is read"
        case .failed(let p, let op, let e): return "\(p): \(op) failed (\(e))"
        }
    }

    /// The errno, when a system call failed.
    package var errno: Errno? {
        if case .failed(_, _, let e) = self { return e }
        return nil
    }
}

/// A file a command writes at a path the user (or a board) named: `--status-file`,
/// `prometheus_file`, `--passthrough-trace`, `record -o`, `plot -o`, `strokes learn -o`,
/// `calibrate --write`. The one place that decides what may happen to such a path:
///
/// - absent, a regular file or a symlink: the bytes go to a new temporary file in the same
///   directory (`open(2)` with `O_CREAT | O_EXCL | O_NOFOLLOW`), which `commit()` gives its mode
///   (`fchmod(2)`), flushes (`fsync(2)`) and `rename(2)`s over the path, so a reader sees the old
///   file or the new one and a symlink at the path is replaced, never followed; `discard()` (or
///   releasing it uncommitted) unlinks the temporary file and leaves the path as it was;
/// - a character device or a FIFO (`/dev/null`, `/dev/full`, a pipe): written in place as a stream
///   (`open(2)` without `O_CREAT` or `O_TRUNC`; a FIFO without a reader is an error, not a wait),
///   never replaced, never unlinked;
/// - a directory, a socket or a block device: refused (`OutputFileError`);
/// - the same inode as one of `inputs` (`stat(2)`, links followed): refused, so a command never
///   truncates or replaces what it reads.
///
/// At exit, `remove(_:created:)` unlinks a path only while it is still the regular file this
/// process created (same device and inode): never a directory, a device or another's file.
/// Not thread-safe: one owner writes.
package final class OutputFile {
    /// The path as given.
    package let path: String
    /// Whether the path is written in place as a stream (a device or FIFO) rather than replaced.
    package let isStream: Bool
    private let temporary: String?
    private let mode: mode_t
    private var fd: CInt
    private var finished = false

    /// Opens the output at `path` as described above; `mode` is the new file's permission bits.
    package init(path: String, mode: mode_t = 0o644, inputs: [String] = []) throws(OutputFileError) {
        let kind = try Self.check(path, inputs: inputs)
        self.path = path
        self.mode = mode
        if kind == .stream {
            isStream = true
            temporary = nil
            let flags = O_WRONLY | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC
            switch system_open(path, flags) {
            case .success(let opened): fd = opened
            case .failure(let error): throw .failed(path: path, operation: "open", errno: error)
            }
            // What was opened is what was checked (a regular file swapped in meanwhile is not
            // written in place: it would keep a tail of its old contents).
            guard case .success(let st) = system_fstat(fd),
                st.st_mode & S_IFMT == S_IFCHR || st.st_mode & S_IFMT == S_IFIFO
            else {
                _ = system_close(fd)
                throw .unsupportedKind(path: path, kind: "file that changed while it was opened")
            }
            // Non-blocking only to open a FIFO without a reader (ENXIO instead of a wait).
            if case .success(let f) = system_getStatusFlags(fd) { _ = system_setStatusFlags(fd, f & ~O_NONBLOCK) }
            return
        }
        isStream = false
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { throw .isDirectory(path: path) }
        let temporary = (directory.isEmpty ? "" : directory + "/") + ".\(name).\(getpid()).\(Self.nextSerial()).tmp"
        self.temporary = temporary
        switch system_open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) {
        case .success(let opened): fd = opened
        case .failure(let error): throw .failed(path: path, operation: "create", errno: error)
        }
    }

    deinit { discard() }

    /// Writes all of `bytes` (`write(2)`, partial writes continued).
    package func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFileError) {
        var written = 0
        while written < bytes.count {
            switch system_write(fd, UnsafeRawBufferPointer(rebasing: bytes[written...])) {
            case .success(let n): written += n
            case .failure(let error): throw .failed(path: path, operation: "write", errno: error)
            }
        }
    }

    /// Writes all of `bytes`.
    package func write(_ bytes: some Collection<UInt8>) throws(OutputFileError) {
        let data = Array(bytes)
        var failure: OutputFileError? = nil
        data.withUnsafeBytes { raw in
            do throws(OutputFileError) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Finishes the output: a new file gets its mode, is flushed and renamed over the path (the
    /// path is checked again first: a directory or device that appeared meanwhile is not replaced);
    /// a stream is closed. Returns the identity of the file created (nil for a stream), which
    /// `remove(_:created:)` needs. On failure the temporary file is removed, the path untouched.
    @discardableResult
    package func commit() throws(OutputFileError) -> FileIdentity? {
        precondition(!finished, "OutputFile.commit: already committed or discarded")
        finished = true
        guard let temporary else {
            if case .failure(let error) = system_close(fd) {
                throw .failed(path: path, operation: "close", errno: error)
            }
            return nil
        }
        var failure: OutputFileError? = nil
        var identity: FileIdentity? = nil
        if case .failure(let e) = system_fchmod(fd, mode) {
            failure = .failed(path: path, operation: "fchmod", errno: e)
        }
        if failure == nil, case .failure(let e) = system_fsync(fd) {
            failure = .failed(path: path, operation: "fsync", errno: e)
        }
        if failure == nil, case .success(let st) = system_fstat(fd) { identity = FileIdentity(st) }
        if case .failure(let e) = system_close(fd), failure == nil {
            failure = .failed(path: path, operation: "close", errno: e)
        }
        if failure == nil {
            do throws(OutputFileError) {
                if try Self.kind(of: path) != .replace {
                    throw .unsupportedKind(
                        path: path, kind: "device or FIFO now (it changed while the file was written)")
                }
            } catch { failure = error }
        }
        if failure == nil, case .failure(let e) = system_rename(temporary, path) {
            failure = .failed(path: path, operation: "rename", errno: e)
        }
        if let failure {
            _ = system_unlink(temporary)
            throw failure
        }
        return identity
    }

    /// Abandons the output: a new file's temporary file is unlinked (the path keeps what it had);
    /// a stream is closed. Nothing at the path itself is ever removed. Idempotent.
    package func discard() {
        guard !finished else { return }
        finished = true
        _ = system_close(fd)
        if let temporary { _ = system_unlink(temporary) }
    }

    /// Writes `bytes` to `path` in one go (`init`, `write`, `commit`); the identity of the file
    /// created, or nil when the path is a stream.
    @discardableResult
    package static func write(
        _ bytes: some Collection<UInt8>, to path: String, mode: mode_t = 0o644, inputs: [String] = []
    ) throws(OutputFileError) -> FileIdentity? {
        let file = try OutputFile(path: path, mode: mode, inputs: inputs)
        try file.write(bytes)
        return try file.commit()
    }

    /// How a path would be written.
    package enum Kind: Equatable, Sendable {
        /// Absent, a regular file or a symlink: a new file renamed over it.
        case replace
        /// A character device or a FIFO: written in place.
        case stream
    }

    /// How `path` would be written, or why it cannot be: a directory, socket or block device, or
    /// the same file as one of `inputs`. For checking an output before any work is done.
    @discardableResult
    package static func check(_ path: String, inputs: [String] = []) throws(OutputFileError) -> Kind {
        let kind = try kind(of: path)
        if case .success(let target) = system_stat(path) {
            let output = FileIdentity(target)
            for input in inputs {
                if case .success(let st) = system_stat(input), FileIdentity(st) == output {
                    throw .sameAsInput(path: path, input: input)
                }
            }
        }
        return kind
    }

    private static func kind(of path: String) throws(OutputFileError) -> Kind {
        guard !path.isEmpty else { throw .failed(path: path, operation: "open", errno: .noSuchFileOrDirectory) }
        let st: stat
        switch system_lstat(path) {
        case .success(let found): st = found
        case .failure(.noSuchFileOrDirectory): return .replace
        case .failure(let error): throw .failed(path: path, operation: "lstat", errno: error)
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG, S_IFLNK: return .replace
        case S_IFCHR, S_IFIFO: return .stream
        case S_IFDIR: throw .isDirectory(path: path)
        case S_IFSOCK: throw .unsupportedKind(path: path, kind: "socket")
        case S_IFBLK: throw .unsupportedKind(path: path, kind: "block device")
        default: throw .unsupportedKind(path: path, kind: "special file")
        }
    }

    /// Unlinks `path` if it is still the regular file this process created (`created`, from
    /// `commit()`): same device and inode, checked with `lstat(2)` just before `unlink(2)`.
    /// Anything else there (a directory, a device, a symlink, a file another process put in
    /// its place) is left alone. Returns whether it removed the file.
    @discardableResult
    package static func remove(_ path: String, created: FileIdentity) -> Bool {
        guard case .success(let st) = system_lstat(path), st.st_mode & S_IFMT == S_IFREG,
            FileIdentity(st) == created
        else { return false }
        return (try? system_unlink(path).get()) != nil
    }

    private static func nextSerial() -> Int {
        counter.withLock { value in
            value += 1
            return value
        }
    }
    private static let counter = Mutex<Int>(0)
}
