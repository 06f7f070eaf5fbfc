/// A block of whole lines gathered for one write (replay's event output): bytes are appended
/// behind one bounds check, straight into memory the block owns, and the block grows (doubling)
/// only when a line would not fit, so once warm it never allocates. Move-only: it owns its
/// memory, which its `deinit` frees.
package struct LineBlock: ByteAppending, ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    /// Bytes held.
    package private(set) var count = 0
    /// Bytes it can hold before growing.
    package private(set) var capacity: Int

    /// An empty block with room for `capacity` bytes.
    package init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes held, borrowed for the duration of `body`.
    package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Empties the block (keeping its memory).
    package mutating func removeAll() { count = 0 }

    @inline(__always) package mutating func appendByte(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count &+= 1
    }

    @inline(__always) package mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) {
        let n = bytes.count
        if n > capacity - count { grow(to: count + n) }
        if n > 0 { UnsafeMutableRawPointer(base + count).copyMemory(from: bytes.baseAddress!, byteCount: n) }
        count &+= n
    }

    @inline(never) private mutating func grow(to minimum: Int) {
        let bigger = max(capacity * 2, minimum)
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        fresh.update(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity = bigger
    }
}
