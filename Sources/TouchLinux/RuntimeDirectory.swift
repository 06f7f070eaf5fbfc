import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The directories a service run by hand keeps its runtime files in, and why a file there cannot be
/// read: the questions `touchwire run` and `touchwire status` ask of the file system, with the errno.
package enum RuntimeDirectory {
    /// Whether `path` is a directory this process may create files in (`access(2)`, W_OK | X_OK).
    package static func isWritableDirectory(_ path: String) -> Bool {
        guard case .success(let st) = system_stat(path), st.st_mode & S_IFMT == S_IFDIR else { return false }
        if case .success = system_access(path, W_OK | X_OK) { return true }
        return false
    }

    /// The real user id of this process.
    package static var userID: UInt32 { UInt32(getuid()) }

    /// Creates `path` as a directory only this user may enter (mode 0700), or accepts it when it
    /// already is one: a directory owned by this user, not a symlink, with no group or other
    /// access. Anything else at the path (another user's directory in /tmp) is refused.
    package static func makePrivate(_ path: String) throws(OutputFileError) {
        switch system_mkdir(path, 0o700) {
        case .success, .failure(.fileExists): break
        case .failure(let error): throw .failed(path: path, operation: "mkdir", errno: error)
        }
        switch system_lstat(path) {
        case .success(let st):
            guard st.st_mode & S_IFMT == S_IFDIR, st.st_uid == getuid(), st.st_mode & 0o077 == 0 else {
                throw .failed(path: path, operation: "use as a private directory", errno: .permissionDenied)
            }
        case .failure(let error): throw .failed(path: path, operation: "lstat", errno: error)
        }
    }

    /// Why the file at `path` cannot be opened for reading, or nil when it can:
    /// `stat(2)` then `access(2)` R_OK (ENOENT for a missing file, EACCES for a 0640 file in a
    /// 0750 directory the user is not a member of).
    package static func readError(_ path: String) -> Errno? {
        if case .failure(let error) = system_stat(path) { return error }
        if case .failure(let error) = system_access(path, R_OK) { return error }
        return nil
    }
}
