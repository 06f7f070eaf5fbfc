#if !hasFeature(Embedded)
    import Synchronization

    /// The one clock type of touchwire: the monotonic time, and a wait on it.
    ///
    /// Injected everywhere time is read or waited for; nothing below the composition root reads a
    /// clock of its own. `run`, `bench`, `record` and a live `monitor` pass the real one
    /// (`TouchLinux.SystemClock`: `CLOCK_MONOTONIC`, `nanosleep`); tests and simulated runs pass a
    /// `ManualClock`, which a wait moves forward instead of waiting, so no verdict depends on the
    /// machine's speed. The drivers see it through `DriverTiming(clock:)`.
    package protocol TouchClock: AnyObject, Sendable {
        /// The current instant (monotonic: never goes back).
        var now: Instant { get }
        /// Waits `microseconds` (≤ 0: returns at once). A manual clock advances by it instead.
        func sleep(microseconds: Int64)
    }

    /// A clock that stands at one instant: a sleep returns at once and does not move it. For
    /// parts that have nothing to wait for (`DriverTiming.immediate`, a simulated chip model not
    /// yet connected to its world).
    package final class StandingClock: TouchClock {
        package let now: Instant
        package init(_ now: Instant = .zero) { self.now = now }
        package func sleep(microseconds: Int64) {}
    }

    /// A clock moved by hand: `now` is whatever was last set, and `sleep` advances it. Safe to read
    /// and set from any thread (an atomic), so a test may move it while a spawner thread reads it.
    package final class ManualClock: TouchClock {
        private let microseconds: Atomic<Int64>

        package init(_ start: Instant = .zero) { microseconds = Atomic(start.microseconds) }

        package var now: Instant {
            get { Instant(microseconds: microseconds.load(ordering: .sequentiallyConsistent)) }
            set { microseconds.store(newValue.microseconds, ordering: .sequentiallyConsistent) }
        }

        package func sleep(microseconds delta: Int64) {
            guard delta > 0 else { return }
            microseconds.wrappingAdd(delta, ordering: .sequentiallyConsistent)
        }

        /// Moves the clock forward by `delta` µs.
        package func advance(byMicroseconds delta: Int64) { sleep(microseconds: delta) }
    }
#endif
