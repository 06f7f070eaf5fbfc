import CLinux
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A detached POSIX thread with a name, for the service's long-lived threads (driver, recognizer,
/// output, metrics, spawner).
///
/// `pthread_create` with `PTHREAD_CREATE_DETACHED`, then `prctl(PR_SET_NAME)` on the new thread (the kernel shows at
/// most 15 bytes of the name in `/proc/PID/task/TID/comm`, `top -H`, `ps -L`). It replaces
/// Foundation's `Thread`, so the service does not link Foundation (docs/PERFORMANCE.md,
/// "Footprint"). The thread runs `body` once and ends; whoever needs to know when waits on its
/// own signal (a `DispatchGroup`, a semaphore).
package enum NamedThread {
    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Starts `body` on a new detached thread named `name`. Throws the `pthread_create` error
    /// (`EAGAIN`: no resources or the thread limit) without running `body`.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(Errno) {
        let start = Unmanaged.passRetained(Start(name: name, body: body))
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, CInt(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, &attributes,
            { context in
                guard let context else { return nil }
                let start = Unmanaged<Start>.fromOpaque(context).takeRetainedValue()
                _ = start.name.withCString { tw_set_thread_name($0) }
                start.body()
                return nil
            }, start.toOpaque())
        if rc != 0 {
            start.release()
            throw Errno(rawValue: rc)
        }
    }
}
