/// A point on a monotonic clock, in microseconds from an arbitrary origin.
///
/// Every frame, timer and event carries one. Recognizers never read a clock: the loop
/// hands them `now` as an `Instant`, which is what makes a replay byte-identical.
public struct Instant: Comparable, Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// Microseconds since the clock's origin.
    public var microseconds: Int64

    @inlinable public init(microseconds: Int64) { self.microseconds = microseconds }

    @inlinable public static func milliseconds(_ ms: Int64) -> Instant { Instant(microseconds: ms * 1000) }

    /// The instant `delta` microseconds later (earlier when negative).
    @inlinable public func advanced(byMicroseconds delta: Int64) -> Instant {
        Instant(microseconds: microseconds &+ delta)
    }

    /// Microseconds from `earlier` to `self`.
    @inlinable public func microseconds(since earlier: Instant) -> Int64 { microseconds &- earlier.microseconds }

    /// Seconds from `earlier` to `self`, for velocities.
    @inlinable public func seconds(since earlier: Instant) -> Double {
        Double(microseconds &- earlier.microseconds) / 1e6
    }

    @inlinable public static func < (a: Instant, b: Instant) -> Bool { a.microseconds < b.microseconds }

    /// Microsecond 0 (computed, not a stored global: reading it costs no lazy-initialisation check).
    @inlinable public static var zero: Instant { Instant(microseconds: 0) }
    /// Later than any real instant: "no deadline".
    public static let distantFuture = Instant(microseconds: .max)

    public var description: String { "\(microseconds)µs" }
}
