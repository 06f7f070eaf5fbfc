import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Replaces a file's contents atomically: a reader sees the old file or the new one, never a
/// part of either, and nothing is ever written through a symbolic link.
///
/// `OutputFile` does the work: the bytes go to a new temporary file in the target's own directory,
/// created with `O_CREAT | O_EXCL | O_NOFOLLOW` (so neither a planted file nor a symlink at the
/// temporary name is opened), given `mode` with `fchmod(2)` (whatever the umask), flushed with
/// `fsync(2)`, then `rename(2)`d over the target. A symlink at the target itself is replaced, not
/// followed; a character device or FIFO there is written as a stream, never replaced; a directory,
/// socket or block device is refused. On any failure the temporary file is removed and the target
/// is untouched.
package enum AtomicFile {
    /// Writes `bytes` to `path` as described above; `mode` defaults to 0640 (owner writes, group
    /// reads). Returns the identity of the file created (nil when the path is a device or FIFO).
    @discardableResult
    package static func write(
        _ bytes: some Collection<UInt8>, to path: String, mode: mode_t = 0o640
    ) throws(OutputFileError) -> FileIdentity? {
        try OutputFile.write(bytes, to: path, mode: mode)
    }

    /// The permission bits of the file at `path` (following no symlink), or nil if there is none.
    package static func permissions(of path: String) -> mode_t? {
        guard case .success(let st) = system_lstat(path) else { return nil }
        return st.st_mode & 0o7777
    }
}
