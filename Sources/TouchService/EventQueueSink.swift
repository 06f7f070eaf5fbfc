import Gestures
import Synchronization
import TouchCore
import TouchRing

/// The recognizer loop's sink in the service: pushes each action into a lock-free ring for
/// the output thread and pokes it. Never blocks, never allocates (the stash is allocated at init).
///
/// Backpressure (the output thread has fallen behind): the last `reserve` free slots of the ring
/// are kept for `began`, `ended`, `recognized`, `cancelled` and control actions. A `changed`
/// event that finds the ring that full waits in a one-slot stash per recognizer, where a newer
/// `changed` of the same recognizer replaces it (counted in `coalescedEvents`). The stash is
/// pushed before that recognizer's next event, and whenever room returns, so each recognizer's
/// events keep their order and the output sees its latest position. Only when even the reserve
/// is full is an event lost (`droppedEvents`).
package final class EventQueueSink: GestureEventSink, @unchecked Sendable {
    // @unchecked Sendable: `emit` and the stash run only on the thread holding the recognizer
    // stage (the ring's single producer, one thread at a time: docs/ARCHITECTURE.md, "Threads");
    // the ring, the counters (atomics) and the wake-up are thread-safe.

    package let ring: SPSCRing<GestureEvent>
    /// Free ring slots that only non-`changed` events may use.
    package let reserve: Int
    private let wake: Wakeup
    private let stashSlots: Int
    private let stash: UnsafeMutablePointer<GestureEvent>
    private let stashed: UnsafeMutablePointer<Bool>
    @exclusivity(unchecked) private var stashCount = 0  // the recognizer stage's holder only
    private let coalesced = Atomic<Int>(0)
    private let lost = Atomic<Int>(0)

    /// A ring of at least `capacity` events; `recognizerSlots` recognizers can coalesce (the
    /// engine's recognizer count; events of other indices are never stashed).
    package init(capacity: Int, wake: Wakeup, recognizerSlots: Int = 64) {
        ring = SPSCRing(minimumCapacity: capacity)
        reserve = max(1, ring.capacity / 4)
        self.wake = wake
        stashSlots = max(0, recognizerSlots)
        stash = .allocate(capacity: max(1, stashSlots))
        stashed = .allocate(capacity: max(1, stashSlots))
        stashed.initialize(repeating: false, count: max(1, stashSlots))
    }

    deinit {
        stash.deallocate()
        stashed.deallocate()
    }

    package func emit(_ event: GestureEvent) { withUnsafePointer(to: event) { emit(eventAt: $0) } }

    /// The engine's call: the event is copied once, from the engine's queue into the ring.
    package func emit(eventAt event: UnsafePointer<GestureEvent>) {
        let kind = event.pointee.kind
        let index = event.pointee.recognizer
        let r = kind != .control && index >= 0 && index < stashSlots ? index : -1
        if stashCount > 0 { pushStashes() }
        if event.pointee.state == .changed && r >= 0 {
            if stashed[r] {
                stash[r] = event.pointee
                coalesced.wrappingAdd(1, ordering: .relaxed)
            } else if ring.hasMoreFreeSlots(than: reserve) {
                ring.tryPush(from: event)
            } else {
                stash[r] = event.pointee
                stashed[r] = true
                stashCount += 1
            }
        } else {
            if r >= 0 && stashed[r] {
                if !ring.tryPush(stash[r]) { lost.wrappingAdd(1, ordering: .relaxed) }
                stashed[r] = false
                stashCount -= 1
            }
            if !ring.tryPush(from: event) { lost.wrappingAdd(1, ordering: .relaxed) }
        }
        wake.signal()
    }

    /// Region deliveries are not queued (the output thread writes actions only).
    package var takesRegionDeliveries: Bool { false }

    /// Moves stashed `changed` events into the ring while it has more than `reserve` free slots.
    private func pushStashes() {
        var i = 0
        while i < stashSlots && stashCount > 0 && ring.freeSlotsForProducer > reserve {
            if stashed[i] {
                ring.tryPush(stash[i])
                stashed[i] = false
                stashCount -= 1
            }
            i += 1
        }
    }

    /// Events lost because the ring was full up to its reserve (the output thread is stuck).
    package var droppedEvents: Int { lost.load(ordering: .relaxed) }

    /// `changed` events replaced by a newer one of the same recognizer before the output thread saw them.
    package var coalescedEvents: Int { coalesced.load(ordering: .relaxed) }
}
