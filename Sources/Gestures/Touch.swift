import TouchCore

/// The phase of a touch in one frame (UITouch.Phase).
public enum TouchPhase: UInt8, Sendable, BitwiseCopyable {
    case began, moved, stationary, ended, cancelled
}

/// One finger from down to up, as a recognizer sees it in a callback (UITouch). S13.
///
/// A value copied out of the engine's touch table for the duration of a callback.
public struct Touch: Sendable, BitwiseCopyable, Equatable {
    /// Unique for the engine's lifetime (controller ids are reused; serials are not).
    public var serial: UInt32
    /// The controller's tracking id.
    public var id: UInt8
    public var phase: TouchPhase
    /// Position in panel pixels.
    public var location: Point
    /// Position in the previous frame that reported this touch.
    public var previousLocation: Point
    /// Where the finger went down.
    public var startLocation: Point
    /// When the finger went down.
    public var beganAt: Instant
    /// The frame's instant.
    public var timestamp: Instant
    /// 1 for a first tap, 2 when it follows a nearby quick tap, and so on.
    public var tapCount: Int
    /// Index of the region the touch was hit-tested to.
    public var region: Int

    /// The location relative to `region`'s origin, or in panel pixels when `region` is nil.
    public func location(in region: Region?) -> Point {
        guard let region else { return location }
        return Point(x: location.x - region.frame.x, y: location.y - region.frame.y)
    }
}

/// A fixed-capacity set of touches handed to `touchesBegan/Moved/Ended/Cancelled`.
/// No heap storage: built and passed by value on the recognizer loop.
public struct TouchSet: Sendable, BitwiseCopyable, Sequence {
    public static let capacity = TouchFrame.capacity
    public private(set) var count: Int = 0
    @usableFromInline var storage: InlineArray<10, Touch>

    /// Blank storage, built once: an empty set is a copy of it (cheaper than filling ten slots).
    private static let blank = InlineArray<10, Touch>(
        repeating: Touch(
            serial: 0, id: 0, phase: .began, location: .zero, previousLocation: .zero, startLocation: .zero,
            beganAt: .zero, timestamp: .zero, tapCount: 0, region: 0))

    public init() { storage = TouchSet.blank }

    public var isEmpty: Bool { count == 0 }

    /// Empties the set in place (the storage keeps its old touches, past `count`, unseen).
    mutating func removeAll() { count = 0 }

    public mutating func insert(_ touch: Touch) {
        guard count < TouchSet.capacity else { return }
        storage[count] = touch
        count += 1
    }

    public subscript(index: Int) -> Touch {
        precondition(index >= 0 && index < count, "TouchSet index \(index) out of 0..<\(count)")
        return storage[index]
    }

    public func contains(serial: UInt32) -> Bool {
        var i = 0
        while i < count {
            if storage[i].serial == serial { return true }
            i += 1
        }
        return false
    }

    public struct Iterator: IteratorProtocol {
        let set: TouchSet
        var index = 0
        public mutating func next() -> Touch? {
            guard index < set.count else { return nil }
            defer { index += 1 }
            return set.storage[index]
        }
    }

    public func makeIterator() -> Iterator { Iterator(set: self) }

    /// The centroid of the set's locations (`.zero` when empty).
    public var centroid: Point {
        guard count > 0 else { return .zero }
        var sx = 0.0
        var sy = 0.0
        for t in self {
            sx += t.location.x
            sy += t.location.y
        }
        return Point(x: sx / Double(count), y: sy / Double(count))
    }
}
