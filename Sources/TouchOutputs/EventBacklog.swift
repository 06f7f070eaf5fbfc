import Gestures
import TouchCore

/// A bounded FIFO of events waiting for a slow sink, that coalesces instead of growing.
///
/// - A `changed` event replaces the same recognizer's queued `changed` event when nothing of
///   that recognizer follows it (counted in `coalescedCount`): the peer gets the latest position,
///   in the place of the first one it missed.
/// - `began`, `ended`, `recognized`, `cancelled` (and control actions) are never coalesced.
/// - Full: an incoming `changed` is dropped; an incoming other event evicts the oldest queued
///   event. Both count in `droppedCount`. With coalescing this needs `capacity` discrete events
///   queued at once — a peer that has stopped reading for a long time.
///
/// Storage is allocated once at `init`; `push` and `popFirst` never allocate. Not thread-safe:
/// the output thread owns it.
package final class EventBacklog {
    package let capacity: Int
    private let slots: UnsafeMutablePointer<GestureEvent>
    /// Per recognizer index: the absolute position of its coalescable `changed` event, or -1.
    private let lastChanged: UnsafeMutablePointer<Int>
    private let recognizerSlots: Int
    /// Absolute positions: `start` is the oldest queued event, `end` the next free one.
    private var start = 0
    private var end = 0
    /// `changed` events merged into a queued one.
    package private(set) var coalescedCount = 0
    /// Events lost because the backlog was full.
    package private(set) var droppedCount = 0

    /// A backlog of `capacity` events for recognizer indices `0..<recognizerSlots` (events of
    /// other indices queue normally but never coalesce).
    package init(capacity: Int, recognizerSlots: Int) {
        precondition(capacity > 0, "EventBacklog(capacity:) needs a positive capacity")
        self.capacity = capacity
        self.recognizerSlots = max(0, recognizerSlots)
        slots = .allocate(capacity: capacity)
        lastChanged = .allocate(capacity: max(1, recognizerSlots))
        lastChanged.initialize(repeating: -1, count: max(1, recognizerSlots))
    }

    deinit {
        slots.deallocate()
        lastChanged.deallocate()
    }

    package var count: Int { end - start }
    package var isEmpty: Bool { end == start }

    @inline(__always) private func slotIndex(_ event: GestureEvent) -> Int? {
        guard event.kind != .control, event.recognizer >= 0, event.recognizer < recognizerSlots else { return nil }
        return event.recognizer
    }

    /// Queues `event`, coalescing or dropping as described above.
    package func push(_ event: GestureEvent) {
        let slot = slotIndex(event)
        if event.state == .changed, let r = slot, lastChanged[r] >= start {
            slots[lastChanged[r] % capacity] = event
            coalescedCount += 1
            return
        }
        if count == capacity {
            droppedCount += 1
            if event.state == .changed { return }
            _ = popFirst()
        }
        (slots + end % capacity).initialize(to: event)
        if let r = slot { lastChanged[r] = event.state == .changed ? end : -1 }
        end += 1
    }

    /// The oldest queued event, or nil.
    package func popFirst() -> GestureEvent? {
        guard start < end else { return nil }
        let e = slots[start % capacity]
        start += 1
        return e
    }

    /// Forgets every queued event (they count as dropped).
    package func removeAll() {
        droppedCount += count
        start = end
    }
}
