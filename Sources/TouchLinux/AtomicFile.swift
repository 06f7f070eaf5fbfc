import Synchronization
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Replaces a file's contents atomically: a reader sees the old file or the new one, never a
/// part of either, and nothing is ever written through a symbolic link.
///
/// The bytes go to a new temporary file in the target's own directory, created with
/// `O_CREAT | O_EXCL | O_NOFOLLOW` (so neither a planted file nor a symlink at the temporary name is
/// opened), given `mode` with `fchmod(2)` (whatever the umask), flushed with `fsync(2)`, then
/// `rename(2)`d over the target. A symlink at the target itself is replaced, not followed. On
/// any failure the temporary file is removed and the target is untouched.
package enum AtomicFile {
    /// Writes `bytes` to `path` as described above; `mode` defaults to 0640 (owner writes, group reads).
    package static func write(_ bytes: some Collection<UInt8>, to path: String, mode: mode_t = 0o640) throws(Errno) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { throw .isDirectory }
        let temporary = (directory.isEmpty ? "" : directory + "/") + ".\(name).\(getpid()).\(nextSerial()).tmp"
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let fd: CInt
        switch system_open(temporary, flags, 0o600) {
        case .success(let opened): fd = opened
        case .failure(let error): throw error
        }
        var failure: Errno? = nil
        let data = Array(bytes)
        var written = 0
        while failure == nil && written < data.count {
            let result = data.withUnsafeBytes { raw in
                system_write(fd, UnsafeRawBufferPointer(rebasing: raw[written...]))
            }
            switch result {
            case .success(let n): written += n
            case .failure(let error): failure = error
            }
        }
        if failure == nil && fchmod(fd, mode) != 0 { failure = Errno(rawValue: errno) }
        if failure == nil && fsync(fd) != 0 { failure = Errno(rawValue: errno) }
        if case .failure(let error) = system_close(fd), failure == nil { failure = error }
        if failure == nil && rename(temporary, path) != 0 { failure = Errno(rawValue: errno) }
        if let failure {
            _ = unlink(temporary)
            throw failure
        }
    }

    /// The permission bits of the file at `path` (following no symlink), or nil if there is none.
    package static func permissions(of path: String) -> mode_t? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return st.st_mode & 0o7777
    }

    private static func nextSerial() -> Int {
        counter.withLock { value in
            value += 1
            return value
        }
    }
    private static let counter = Mutex<Int>(0)
}
