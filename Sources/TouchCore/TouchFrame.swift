/// One finger as a controller reports it in one frame.
public struct Contact: Hashable, Sendable, BitwiseCopyable {
    /// The controller's tracking id (0…9 on the supported chips; reused after a lift).
    public var id: UInt8
    /// Position in panel pixels, after orientation and calibration.
    public var position: Point
    /// Touch weight / pressure as the chip reports it; 0 when the chip gives none.
    public var pressure: UInt16
    /// Contact area as the chip reports it; 0 when the chip gives none.
    public var area: UInt16

    @inlinable public init(id: UInt8, position: Point, pressure: UInt16 = 0, area: UInt16 = 0) {
        self.id = id
        self.position = position
        self.pressure = pressure
        self.area = area
    }

    @inlinable public init(id: UInt8, x: Double, y: Double) { self.init(id: id, position: Point(x: x, y: y)) }
}

/// A complete snapshot of the contacts that are down at one instant — one controller
/// report, or one line of a trace (`formats.md` §1).
///
/// Fixed capacity, no references: a frame is a plain value that crosses the ring by
/// copy and never touches the heap. An empty frame means every finger is up; a frame
/// with `isCancel` is a system cancel (S9): every touch in progress is cancelled.
public struct TouchFrame: Sendable, BitwiseCopyable {
    /// The most contacts any supported controller reports (FT5x06 and GT911: 10).
    public static let capacity = 10

    /// When the frame was read: the INT edge, or the end of the I2C read, or the trace's `t_us`.
    public var timestamp: Instant
    /// True for a system cancel; `count` is then 0.
    public var isCancel: Bool
    /// Number of contacts held.
    public var count: Int { _count }
    @usableFromInline var _count: Int
    @usableFromInline var storage: InlineArray<10, Contact>

    @inlinable public init(timestamp: Instant, isCancel: Bool = false) {
        self.timestamp = timestamp
        self.isCancel = isCancel
        self._count = 0
        self.storage = InlineArray(repeating: Contact(id: 0, x: 0, y: 0))
    }

    /// A frame holding `contacts` (at most `capacity`; extra contacts are a programming error).
    public init(timestamp: Instant, contacts: [Contact]) {
        self.init(timestamp: timestamp)
        for c in contacts { append(c) }
    }

    /// A system-cancel frame (S9).
    @inlinable public static func cancel(at timestamp: Instant) -> TouchFrame {
        TouchFrame(timestamp: timestamp, isCancel: true)
    }

    @inlinable public var isEmpty: Bool { count == 0 }
    @inlinable public var isFull: Bool { count == TouchFrame.capacity }

    /// Adds a contact. Returns false (and changes nothing) when the frame is full.
    @inlinable @discardableResult public mutating func append(_ contact: Contact) -> Bool {
        guard count < TouchFrame.capacity else { return false }
        storage[count] = contact
        _count += 1
        return true
    }

    @inlinable public subscript(index: Int) -> Contact {
        get {
            precondition(index >= 0 && index < count, "TouchFrame index \(index) out of 0..<\(count)")
            return storage[index]
        }
        set {
            precondition(index >= 0 && index < count, "TouchFrame index \(index) out of 0..<\(count)")
            storage[index] = newValue
        }
    }

    /// The contact with tracking id `id`, if present.
    @inlinable public func contact(withID id: UInt8) -> Contact? {
        var i = 0
        while i < count {
            if storage[i].id == id { return storage[i] }
            i += 1
        }
        return nil
    }

    /// Same contacts (ids and positions, in order) as `other`, ignoring the timestamp.
    @inlinable public func hasSameContacts(as other: TouchFrame) -> Bool {
        guard count == other.count, isCancel == other.isCancel else { return false }
        var i = 0
        while i < count {
            if storage[i] != other.storage[i] { return false }
            i += 1
        }
        return true
    }

    /// Writes the frame at `source` into `destination`, an initialized frame, copying only the
    /// contacts held (a frame's storage has room for `capacity`): what the frame ring does per
    /// frame, in place, without a copy of the whole. The slots past `count` keep what they held,
    /// which no reader sees.
    @inlinable public static func copyHeldContacts(
        from source: UnsafePointer<TouchFrame>, to destination: UnsafeMutablePointer<TouchFrame>
    ) {
        let n = min(max(source.pointee._count, 0), capacity)
        destination.pointee.timestamp = source.pointee.timestamp
        destination.pointee.isCancel = source.pointee.isCancel
        destination.pointee._count = n
        let offset = MemoryLayout<TouchFrame>.offset(of: \TouchFrame.storage)!  // a constant once optimized
        (UnsafeMutableRawPointer(destination) + offset).copyMemory(
            from: UnsafeRawPointer(source) + offset, byteCount: n * MemoryLayout<Contact>.stride)
    }

    /// The contacts as an array (allocates: for tests and tools, not the hot path).
    public var contacts: [Contact] { (0..<count).map { storage[$0] } }
}

extension TouchFrame: Equatable {
    public static func == (a: TouchFrame, b: TouchFrame) -> Bool {
        a.timestamp == b.timestamp && a.hasSameContacts(as: b)
    }
}

extension TouchFrame: CustomStringConvertible {
    public var description: String {
        if isCancel { return "TouchFrame(\(timestamp.microseconds)µs, cancel)" }
        let list = contacts.map { "#\($0.id)@\($0.position.x),\($0.position.y)" }.joined(separator: " ")
        return "TouchFrame(\(timestamp.microseconds)µs, [\(list)])"
    }
}
