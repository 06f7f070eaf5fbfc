import Synchronization
import TouchCore

/// Which thread runs the recognizer stage right now: the driver thread, straight after the read
/// that queued a frame, or the recognizer thread (timers, and frames the driver could not take).
///
/// The frame ring stays between the two: the driver always queues the frame first. Then, if no
/// one holds the stage, it runs the stage itself (`tryAcquire`): the frame is recognized and its
/// events written with no futex wake-up and no thread switch between read and write, on a CPU
/// whose caches still hold the frame. If the recognizer thread holds the stage, the driver wakes
/// it instead, as before, and never waits. The recognizer thread takes the stage for every pass
/// (`acquire`, waiting the few microseconds a driver's pass lasts), so a timer always fires.
///
/// A pass on the driver thread may arm an earlier timer than the one the sleeping recognizer
/// thread waits for (a touch that begins a long press): `mustWake(for:)` tells the driver to
/// wake it. Acquire/release ordering on the flag hands the engine's state from one thread to the
/// other, so the stage, the engine and their single-producer rings see one thread at a time.
package final class RecognizerTurns: Sendable {
    private let hold = StageHold()
    /// µs on the pipeline clock when the recognizer thread's sleep ends (`Int64.max`: awake).
    private let sleepEnd = Atomic<Int64>(Int64.max)

    package init() {}

    /// Takes the stage if free; never waits (the driver thread).
    package func tryAcquire() -> Bool { hold.tryAcquire() }

    /// Takes the stage, yielding the CPU while the other thread finishes its pass.
    package func acquire() { hold.acquire() }

    package func release() { hold.release() }

    /// The recognizer thread, holding the stage, is about to sleep until `end` (or a wake-up).
    package func recognizerWillSleep(until end: Instant) {
        sleepEnd.store(end.microseconds, ordering: .relaxed)
    }

    /// The recognizer thread is awake and will look at the engine's deadlines itself.
    package func recognizerAwoke() { sleepEnd.store(Int64.max, ordering: .relaxed) }

    /// After a pass on the driver thread: true when the engine's next timer is due before the
    /// recognizer thread's sleep ends, so it must be woken to fire it on time.
    package func mustWake(for deadline: Instant?) -> Bool {
        guard let deadline else { return false }
        let end = sleepEnd.load(ordering: .relaxed)
        return end != Int64.max && deadline.microseconds < end
    }
}
