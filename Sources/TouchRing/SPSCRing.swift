import Synchronization

/// A bounded, lock-free, single-producer / single-consumer ring of plain values.
///
/// Allocated once at `init`; `tryPush` and `tryPop` never allocate, lock or block.
/// The capacity is rounded up to a power of two and the indices run free (masked on
/// access), as in Linux `kfifo` and rigtorp's `SPSCQueue`: each side writes only its own
/// index with release ordering, reads the other's with acquire ordering, and keeps a
/// cached copy of the other's index so that most operations touch one shared cache line.
///
/// Exactly one thread may call the producer methods (`tryPush`) and exactly one thread
/// the consumer methods (`tryPop`, `popAll`); the counters may be read from anywhere.
///
/// `public` (the module is in no product, so this exposes nothing outside the package) with its
/// hot methods `@inlinable`: the compiler inlines and specializes an `@inlinable` member of a
/// `package` class in another module only when the class is `public` (Swift 6.3), and an
/// unspecialized push of a `GestureEvent` costs several times a specialized one (measured in
/// docs/PERFORMANCE.md, "Figures moved out of comments").
public final class SPSCRing<Element: BitwiseCopyable>: @unchecked Sendable {
    // @unchecked Sendable: `slots` is written only by the producer at indices the consumer
    // has released (acquire on `head`) and read only by the consumer at indices the
    // producer has published (release on `tail`); the cached indices are each owned by one side.

    /// Number of elements the ring can hold.
    public let capacity: Int
    @usableFromInline let mask: Int
    @usableFromInline let slots: UnsafeMutablePointer<Element>

    /// Next index the consumer will read. Written by the consumer only.
    @usableFromInline let head = Atomic<Int>(0)
    private let _padA: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)
    /// Next index the producer will write. Written by the producer only.
    @usableFromInline let tail = Atomic<Int>(0)
    private let _padB: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)
    /// The producer's last view of `head`. (`@exclusivity(unchecked)`, as `consumerCachedTail`:
    /// each is touched by one thread only, so no dynamic exclusivity check is needed per push or pop.)
    @usableFromInline @exclusivity(unchecked) var producerCachedHead = 0
    private let _padC: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)
    /// The consumer's last view of `tail`.
    @usableFromInline @exclusivity(unchecked) var consumerCachedTail = 0

    /// Pushes refused because the ring was full (written by the producer).
    @usableFromInline let refused = Atomic<Int>(0)
    /// The most elements ever held at once (written by the producer).
    @usableFromInline let highWater = Atomic<Int>(0)

    /// Allocates storage for at least `minimumCapacity` elements (rounded up to a power of two, at least 2).
    package init(minimumCapacity: Int) {
        precondition(minimumCapacity > 0, "SPSCRing(minimumCapacity:) needs a positive capacity")
        var c = 2
        while c < minimumCapacity { c <<= 1 }
        capacity = c
        mask = c - 1
        slots = .allocate(capacity: c)
        // Zeroed, so that every slot holds a value from the start: `tryPush(writing:)` may then
        // write only part of one (a frame's held contacts).
        let raw = UnsafeMutableRawPointer(slots)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: c * MemoryLayout<Element>.stride)
        _ = raw.bindMemory(to: Element.self, capacity: c)  // bound to Element again
    }

    deinit { slots.deallocate() }

    /// Producer: appends `element` if there is room. Returns false (and counts a refusal) when full.
    @inlinable @inline(__always) @discardableResult
    public func tryPush(_ element: Element) -> Bool {
        guard let slot = nextFreeSlot() else { return false }
        slot.initialize(to: element)
        commitPush()
        return true
    }

    /// Producer: `tryPush(element.pointee)` with the element copied once, straight from where it
    /// lies into the ring (a plain value: a byte copy).
    @inlinable @inline(__always) @discardableResult
    public func tryPush(from element: UnsafePointer<Element>) -> Bool {
        guard let slot = nextFreeSlot() else { return false }
        UnsafeMutableRawPointer(slot).copyMemory(from: element, byteCount: MemoryLayout<Element>.size)
        commitPush()
        return true
    }

    /// Producer: the slot the next push fills, or nil when the ring is full (counting a
    /// refusal, as `tryPush`). The slot holds an older element (or zero bytes), so a large element
    /// can be written in part, in place — no copy of the whole; `commitPush()` then publishes it.
    @inlinable @inline(__always)
    public func nextFreeSlot() -> UnsafeMutablePointer<Element>? {
        let t = tail.load(ordering: .relaxed)
        if t &- producerCachedHead >= capacity {
            producerCachedHead = head.load(ordering: .acquiring)
            if t &- producerCachedHead >= capacity {
                refused.wrappingAdd(1, ordering: .relaxed)
                return nil
            }
        }
        return slots + (t & mask)
    }

    /// Producer: publishes the slot returned by the last `nextFreeSlot()`.
    @inlinable @inline(__always)
    public func commitPush() { publish(tail.load(ordering: .relaxed)) }

    /// Producer: makes the element written at index `t` visible and keeps the high-water mark.
    @inlinable @inline(__always) func publish(_ t: Int) {
        tail.store(t &+ 1, ordering: .releasing)
        // The cached head may be stale, so `t + 1 - cachedHead` only bounds the occupancy from
        // above. When that bound would raise the mark, refresh the head and record the true
        // occupancy instead: otherwise the mark would count pushes since the last refresh.
        let bound = t &+ 1 &- producerCachedHead
        let mark = highWater.load(ordering: .relaxed)
        if bound > mark {
            producerCachedHead = head.load(ordering: .acquiring)
            let used = t &+ 1 &- producerCachedHead
            if used > mark { highWater.store(used, ordering: .relaxed) }
        }
    }

    /// Producer: whether more than `n` slots are free — `freeSlotsForProducer > n`, reading the
    /// consumer's index only when the producer's last view of it does not already show enough.
    @inlinable public func hasMoreFreeSlots(than n: Int) -> Bool {
        let t = tail.load(ordering: .relaxed)
        if capacity - (t &- producerCachedHead) > n { return true }
        producerCachedHead = head.load(ordering: .acquiring)
        return capacity - (t &- producerCachedHead) > n
    }

    /// Producer: free slots as seen now (may grow concurrently as the consumer pops).
    @inlinable public var freeSlotsForProducer: Int {
        producerCachedHead = head.load(ordering: .acquiring)
        return capacity - (tail.load(ordering: .relaxed) &- producerCachedHead)
    }

    /// Consumer: removes and returns the oldest element, or nil when empty.
    @inlinable @inline(__always)
    public func tryPop() -> Element? {
        let h = head.load(ordering: .relaxed)
        if h == consumerCachedTail {
            consumerCachedTail = tail.load(ordering: .acquiring)
            if h == consumerCachedTail { return nil }
        }
        let element = (slots + (h & mask)).pointee
        head.store(h &+ 1, ordering: .releasing)
        return element
    }

    /// Consumer: the oldest element where it lies in the ring (no copy), or nil when empty. It
    /// stays the consumer's until `removeFirst()`, which hands the slot back to the producer.
    @inlinable @inline(__always)
    public func first() -> UnsafePointer<Element>? {
        let h = head.load(ordering: .relaxed)
        if h == consumerCachedTail {
            consumerCachedTail = tail.load(ordering: .acquiring)
            if h == consumerCachedTail { return nil }
        }
        return UnsafePointer(slots + (h & mask))
    }

    /// Consumer: removes the element returned by `first()` (call it only after `first()` returned
    /// an element: on an empty ring it would skip past the producer).
    @inlinable @inline(__always)
    public func removeFirst() { head.store(head.load(ordering: .relaxed) &+ 1, ordering: .releasing) }

    /// Elements currently held (exact on either side only when the other side is idle).
    package var count: Int { tail.load(ordering: .acquiring) &- head.load(ordering: .acquiring) }

    /// Total pushes refused because the ring was full.
    package var refusedCount: Int { refused.load(ordering: .relaxed) }

    /// The most elements ever held at once, as seen by the producer right after a push (the
    /// consumer may have popped since the cached head was read, never the other way round).
    package var highWaterMark: Int { highWater.load(ordering: .relaxed) }
}
