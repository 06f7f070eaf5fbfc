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
///
/// `public` for the same reason as `SPSCRing`: so that `first()` and `removeFirst()` inline into
/// the recognizer loop (the module is in no product).
public final class FrameQueue: @unchecked Sendable {
    // @unchecked Sendable: `pending` and `overflowed` are touched only by the producer thread;
    // everything shared lives in the SPSCRing and Atomics.

    public let ring: SPSCRing<TouchFrame>
    // Producer-only state (`@exclusivity(unchecked)`: one thread, no dynamic check per offer).
    @exclusivity(unchecked) private var pending = TouchFrame(timestamp: .zero)
    /// Whether `pending` holds a frame (a flag, not an optional: no 350-byte payload to clear).
    @exclusivity(unchecked) private var hasPendingFrame = false
    @exclusivity(unchecked) private var overflowed = false
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
        withUnsafePointer(to: frame) { offer(frameAt: $0) }
    }

    /// `offer(_:)` of a frame read where it lies: only its held contacts are copied, into the ring.
    @discardableResult
    package func offer(frameAt frame: UnsafePointer<TouchFrame>) -> Bool {
        if hasPendingFrame || overflowed {
            if hasPendingFrame { dropped.wrappingAdd(1, ordering: .relaxed) }
            keep(frame)
            flush()
            return false
        }
        if let slot = ring.nextFreeSlot() {
            TouchFrame.copyHeldContacts(from: frame, to: slot)
            ring.commitPush()
            return true
        }
        overflowed = true
        overflows.wrappingAdd(1, ordering: .relaxed)
        keep(frame)
        return false
    }

    private func keep(_ frame: UnsafePointer<TouchFrame>) {
        withUnsafeMutablePointer(to: &pending) { TouchFrame.copyHeldContacts(from: frame, to: $0) }
        hasPendingFrame = true
    }

    /// Producer: delivers the kept frame (preceded by a system cancel) once there is room for both.
    package func flush() {
        guard overflowed, hasPendingFrame else { return }
        guard ring.freeSlotsForProducer >= 2 else { return }
        ring.tryPush(TouchFrame.cancel(at: pending.timestamp))
        if !pending.isCancel, let slot = ring.nextFreeSlot() {
            withUnsafeMutablePointer(to: &pending) { TouchFrame.copyHeldContacts(from: $0, to: slot) }
            ring.commitPush()
        }
        hasPendingFrame = false
        overflowed = false
    }

    /// Producer: true while a frame is kept aside waiting for room.
    package var hasPending: Bool { hasPendingFrame }

    /// Consumer: the oldest frame, or nil.
    @inline(__always) package func poll() -> TouchFrame? { ring.tryPop() }

    /// Consumer: the oldest frame where it lies in the ring (no copy of the frame), or nil when
    /// the ring is empty; it stays valid until `removeFirst()`. The recognizer loop's per-frame path.
    @inlinable @inline(__always) public func first() -> UnsafePointer<TouchFrame>? { ring.first() }

    /// Consumer: removes the frame returned by `first()` (only after `first()` returned one).
    @inlinable @inline(__always) public func removeFirst() { ring.removeFirst() }

    /// Frames replaced while the ring was full (never delivered).
    package var droppedFrames: Int { dropped.load(ordering: .relaxed) }
    /// Times the ring filled up (each one costs the touches in progress a cancel).
    package var overflowCount: Int { overflows.load(ordering: .relaxed) }
    package var highWaterMark: Int { ring.highWaterMark }
}
