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
    // @unchecked Sendable: `producer` is touched only by the producer thread; everything shared
    // lives in the SPSCRing and Atomics.

    public let ring: SPSCRing<TouchFrame>
    /// The producer's own state: the queue's only `@exclusivity(unchecked)` stored property
    /// (`FrameQueueProducer`: one thread, no dynamic exclusivity check per offer).
    @exclusivity(unchecked) private var producer = FrameQueueProducer()
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
        if producer.hasPendingFrame || producer.overflowed {
            if producer.hasPendingFrame { dropped.wrappingAdd(1, ordering: .relaxed) }
            keep(frame)
            flush()
            return false
        }
        if let slot = ring.nextFreeSlot() {
            TouchFrame.copyHeldContacts(from: frame, to: slot)
            ring.commitPush()
            return true
        }
        producer.overflowed = true
        overflows.wrappingAdd(1, ordering: .relaxed)
        keep(frame)
        return false
    }

    private func keep(_ frame: UnsafePointer<TouchFrame>) {
        withUnsafeMutablePointer(to: &producer.pending) { TouchFrame.copyHeldContacts(from: frame, to: $0) }
        producer.hasPendingFrame = true
    }

    /// Producer: delivers the kept frame (preceded by a system cancel) once there is room for both.
    package func flush() {
        guard producer.overflowed, producer.hasPendingFrame else { return }
        guard ring.freeSlotsForProducer >= 2 else { return }
        ring.tryPush(TouchFrame.cancel(at: producer.pending.timestamp))
        if !producer.pending.isCancel, let slot = ring.nextFreeSlot() {
            withUnsafeMutablePointer(to: &producer.pending) { TouchFrame.copyHeldContacts(from: $0, to: slot) }
            ring.commitPush()
        }
        producer.hasPendingFrame = false
        producer.overflowed = false
    }

    /// Producer: true while a frame is kept aside waiting for room.
    package var hasPending: Bool { producer.hasPendingFrame }

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

/// `FrameQueue`'s producer-side state, in one value held by the queue's only
/// `@exclusivity(unchecked)` stored property.
///
/// Contract: only the producer thread (the one calling `offer` and `flush`: the driver thread in
/// `touchwire run`) reads or writes it, so no two accesses overlap and the runtime's dynamic
/// exclusivity check is left out (docs/ARCHITECTURE.md, "Unchecked storage"). The consumer sees
/// the kept frame only once `flush` has pushed it through the ring, whose release/acquire orders
/// the copy (`FrameQueueInPlaceTests`, clean under `tools/sanitize thread`).
struct FrameQueueProducer {
    /// The newest frame kept aside while the ring is full.
    var pending = TouchFrame(timestamp: .zero)
    /// Whether `pending` holds a frame (a flag, not an optional: no 350-byte payload to clear).
    var hasPendingFrame = false
    /// Set when a frame found the ring full, until the cancel and the kept frame are pushed.
    var overflowed = false
}
