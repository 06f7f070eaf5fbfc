import Synchronization
import TouchCore

/// The driver → recognizer link: an `SPSCRing` of `TouchFrame`s with an overflow policy
/// that never leaves a touch without an end.
///
/// Frames are snapshots, so the newest frame subsumes the ones before it. When the ring
/// is full the producer keeps the newest frame aside (counting every frame it replaces as
/// dropped) and marks an overflow. When room returns it first pushes a system cancel
/// (S9: "ring overflow" is one of its causes) and then the kept snapshot, so every touch
/// in progress is cancelled rather than left hanging or finished with stale
/// coordinates, and fingers still down begin again from the newest snapshot. A lift that
/// happened during the overflow therefore ends its touch (as cancelled), never lost.
///
/// `offer` and `flush` are producer-side and allocation-free; call `flush` on every
/// driver wake-up so a kept frame is delivered even when the panel goes quiet.
package final class FrameQueue: @unchecked Sendable {
    // @unchecked Sendable: `pending` and `overflowed` are touched only by the producer thread;
    // everything shared lives in the SPSCRing and Atomics.

    package let ring: SPSCRing<TouchFrame>
    private var pending: TouchFrame? = nil
    private var overflowed = false
    private let dropped = Atomic<Int>(0)
    private let overflows = Atomic<Int>(0)

    /// A queue holding at least `capacity` frames (at least 4: room for a cancel and a snapshot).
    package init(capacity: Int) {
        ring = SPSCRing(minimumCapacity: max(4, capacity))
    }

    /// Producer: hands a frame to the consumer, or keeps it aside if the ring is full.
    /// Returns true when the frame went straight into the ring.
    @discardableResult
    package func offer(_ frame: TouchFrame) -> Bool {
        if pending != nil || overflowed {
            if pending != nil { dropped.wrappingAdd(1, ordering: .relaxed) }
            pending = frame
            flush()
            return false
        }
        if ring.tryPush(frame) { return true }
        overflowed = true
        overflows.wrappingAdd(1, ordering: .relaxed)
        pending = frame
        return false
    }

    /// Producer: delivers the kept frame (preceded by a system cancel) once there is room for both.
    package func flush() {
        guard overflowed, let frame = pending else { return }
        guard ring.freeSlotsForProducer >= 2 else { return }
        ring.tryPush(TouchFrame.cancel(at: frame.timestamp))
        if !frame.isCancel { ring.tryPush(frame) }
        pending = nil
        overflowed = false
    }

    /// Producer: true while a frame is kept aside waiting for room.
    package var hasPending: Bool { pending != nil }

    /// Consumer: the oldest frame, or nil.
    @inline(__always) package func poll() -> TouchFrame? { ring.tryPop() }

    /// Frames replaced while the ring was full (never delivered).
    package var droppedFrames: Int { dropped.load(ordering: .relaxed) }
    /// Times the ring filled up (each one costs the touches in progress a cancel).
    package var overflowCount: Int { overflows.load(ordering: .relaxed) }
    package var highWaterMark: Int { ring.highWaterMark }
}
