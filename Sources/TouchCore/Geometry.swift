/// A position in panel pixels (after the board's orientation transform).
public struct Point: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    @inlinable public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin (computed, not a stored global: reading it costs no lazy-initialisation check).
    @inlinable public static var zero: Point { Point(x: 0, y: 0) }

    @inlinable public func distance(to other: Point) -> Double {
        let dx = other.x - x
        let dy = other.y - y
        return (dx * dx + dy * dy).squareRoot()
    }

    @inlinable public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    @inlinable public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }

    public var description: String { "(\(x), \(y))" }
}

/// An axis-aligned rectangle in panel pixels: origin at the top-left, size to the right and down.
public struct Rect: Hashable, Sendable, BitwiseCopyable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Half-open containment: the right and bottom edges belong to the neighbour.
    @inlinable public func contains(_ p: Point) -> Bool {
        p.x >= x && p.y >= y && p.x < x + width && p.y < y + height
    }
}
