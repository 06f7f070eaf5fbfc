import Gestures
import TouchCore
import TouchRing

/// The recognizer loop's sink in the service: pushes each action into a lock-free ring for
/// the output thread and pokes it. Never blocks, never allocates: when the ring is full the
/// event is counted as dropped (the output thread is stuck; recognition goes on).
public final class EventQueueSink: GestureEventSink, @unchecked Sendable {
    // @unchecked Sendable: `emit` runs on the recognizer thread only (the ring's single producer);
    // the ring and the wake-up are thread-safe by construction.

    public let ring: SPSCRing<GestureEvent>
    private let wake: Wakeup

    public init(capacity: Int, wake: Wakeup) {
        ring = SPSCRing(minimumCapacity: capacity)
        self.wake = wake
    }

    public func emit(_ event: GestureEvent) {
        ring.tryPush(event)
        wake.signal()
    }

    /// Events refused because the output thread had fallen behind by a whole ring.
    public var droppedEvents: Int { ring.refusedCount }
}
