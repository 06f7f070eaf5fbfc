import Glibc
import Synchronization

/// A pipeline stage held by one thread at a time (the stages are single-threaded classes that
/// two threads take turns on: the recognizer stage, the output stage).
///
/// Threading contract (docs/ARCHITECTURE.md, "Threads"):
/// - `tryAcquire` never waits: a thread that must not block (the driver thread, the thread that
///   writes events right after recognizing) hands the work to the stage's own thread instead.
/// - `acquire` (the stage's own thread) yields the CPU a few times while the holder finishes
///   its pass of a few microseconds, then sleeps until the holder's `release` wakes it. It never
///   spins unboundedly, so it cannot livelock whatever the threads' priorities: under
///   `SCHED_FIFO` on one CPU, a waiter of higher priority than the holder sleeps and the holder
///   runs to its `release` (`StageHoldTests`).
/// - The acquire/release ordering on the flag hands the stage's state from one thread to the
///   next. A waiter announces itself (`waiters`) before its last try, and `release` looks for
///   waiters after clearing the flag, both sequentially consistent: one of the two always sees
///   the other, so no wake-up is lost (a 1 ms bound on the sleep backs that up).
package final class StageHold: Sendable {
    private let held = Atomic<Bool>(false)
    private let waiters = Atomic<Int>(0)
    private let wake = Wakeup()
    /// Yields before sleeping: enough for a holder on another CPU, or of equal priority on this one.
    static let yieldsBeforeSleeping = 16

    package init() {}

    /// Takes the stage if free; never waits.
    package func tryAcquire() -> Bool {
        held.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
    }

    /// Takes the stage: yields a few times, then sleeps until the holder releases it.
    package func acquire() {
        var yields = 0
        while !tryAcquire() {
            if yields < Self.yieldsBeforeSleeping {
                yields += 1
                sched_yield()
                continue
            }
            waiters.add(1, ordering: .sequentiallyConsistent)
            if tryAcquire() {
                waiters.subtract(1, ordering: .sequentiallyConsistent)
                return
            }
            wake.wait(microseconds: 1_000)
            waiters.subtract(1, ordering: .sequentiallyConsistent)
        }
    }

    /// Gives the stage back, waking a thread asleep in `acquire`.
    package func release() {
        held.store(false, ordering: .sequentiallyConsistent)
        if waiters.load(ordering: .sequentiallyConsistent) > 0 { wake.signal() }
    }
}
