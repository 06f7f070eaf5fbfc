import TouchCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The system's monotonic clock — the one place in the package where the real clock is read.
/// Everything downstream (recognizers, timers, encoders) receives `Instant`s from here or from a trace.
package enum MonotonicClock {
    /// Microseconds on `CLOCK_MONOTONIC` (since boot, not counting suspend).
    /// The corresponding C function is `clock_gettime(CLOCK_MONOTONIC, …)`.
    package static func now() -> Instant {
        var ts = timespec()
        // CLOCK_MONOTONIC cannot fail with a valid timespec pointer (EINVAL/EFAULT only).
        _ = clock_gettime(CLOCK_MONOTONIC, &ts)
        return Instant(microseconds: Int64(ts.tv_sec) &* 1_000_000 &+ Int64(ts.tv_nsec) / 1000)
    }

    /// Sleeps the calling thread for `microseconds` (nothing for 0 or less), resuming after a signal
    /// for the time that was left. The corresponding C function is `nanosleep`.
    package static func sleep(microseconds: Int64) {
        guard microseconds > 0 else { return }
        var ts = timespec(tv_sec: Int(microseconds / 1_000_000), tv_nsec: Int(microseconds % 1_000_000) * 1000)
        var rest = timespec()
        while nanosleep(&ts, &rest) != 0 && errno == EINTR { ts = rest }
    }
}

/// The real `TouchClock`: `CLOCK_MONOTONIC` and `nanosleep` (`MonotonicClock`). The composition
/// root hands `SystemClock.shared` to whatever reads or waits on time in `run`.
package final class SystemClock: TouchClock {
    package static let shared = SystemClock()
    private init() {}
    package var now: Instant { MonotonicClock.now() }
    package func sleep(microseconds: Int64) { MonotonicClock.sleep(microseconds: microseconds) }
}
