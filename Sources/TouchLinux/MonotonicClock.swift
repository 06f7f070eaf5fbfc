import TouchCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The system's monotonic clock — the one place in the package where the real clock is read.
/// Everything downstream (recognizers, timers, encoders) receives `Instant`s from here or from a trace.
public enum MonotonicClock {
    /// Microseconds on `CLOCK_MONOTONIC` (since boot, not counting suspend).
    /// The corresponding C function is `clock_gettime(CLOCK_MONOTONIC, …)`.
    public static func now() -> Instant {
        var ts = timespec()
        // CLOCK_MONOTONIC cannot fail with a valid timespec pointer (EINVAL/EFAULT only).
        _ = clock_gettime(CLOCK_MONOTONIC, &ts)
        return Instant(microseconds: Int64(ts.tv_sec) &* 1_000_000 &+ Int64(ts.tv_nsec) / 1000)
    }
}
