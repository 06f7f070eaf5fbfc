import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The reason an I/O error gives, in words: "No such file or directory" for a file that is not
/// there (`strerror` of the POSIX error under a `CocoaError`), or the error's own text otherwise.
///
/// The service links FoundationEssentials, not Foundation (whose `localizedDescription` would pull
/// Foundation and its ICU data into every binary: docs/PERFORMANCE.md, "Footprint").
package func ioErrorReason(_ error: any Error) -> String {
    if let cocoa = error as? CocoaError, let posix = cocoa.underlying as? POSIXError {
        return String(cString: strerror(posix.code.rawValue))
    }
    if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
    return "\(error)"
}
