import Glibc
import Synchronization

/// A pipeline stage held by one thread at a time (the stages are single-threaded classes that
/// two threads take turns on: the recognizer stage, the output stage).
///
/// `tryAcquire` never waits: a thread that must not block (the driver thread, the thread that
/// writes events right after recognizing) hands the work to the stage's own thread instead.
/// `acquire` yields the CPU while the holder finishes its pass of a few microseconds. The
/// acquire/release ordering on the flag hands the stage's state from one thread to the next.
package final class StageHold: Sendable {
    private let held = Atomic<Bool>(false)

    package init() {}

    /// Takes the stage if free; never waits.
    package func tryAcquire() -> Bool {
        held.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
    }

    /// Takes the stage, yielding the CPU while the other thread finishes its pass.
    package func acquire() {
        while !tryAcquire() { sched_yield() }
    }

    package func release() { held.store(false, ordering: .releasing) }
}
