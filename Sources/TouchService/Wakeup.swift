import Dispatch
import TouchCore

/// Wakes a loop that sleeps until work arrives or a deadline passes.
///
/// `signal` is a single atomic increment unless the other thread is asleep (then one futex
/// wake): cheap enough for the recognizer loop, and it never blocks the caller.
package final class Wakeup: @unchecked Sendable {
    // @unchecked Sendable: DispatchSemaphore is thread-safe.
    private let semaphore = DispatchSemaphore(value: 0)
    private let inert: Bool

    /// `inert`: `signal` does nothing (for a producer whose consumer does not sleep on it: the
    /// event ring when the recognizer thread writes the outputs itself).
    package init(inert: Bool = false) { self.inert = inert }

    package func signal() { if !inert { semaphore.signal() } }

    /// Sleeps until signalled or until `microseconds` pass (nil: until signalled).
    package func wait(microseconds: Int64?) {
        if let microseconds {
            guard microseconds > 0 else { return }
            _ = semaphore.wait(timeout: .now() + .microseconds(Int(min(microseconds, 3_600_000_000))))
        } else {
            semaphore.wait()
        }
    }
}
