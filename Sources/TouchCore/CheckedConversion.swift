/// Conversions from a parsed `Double` (a trace, a board, a socket line, a status file) to an
/// integer that never trap: Swift's `Int(x)` traps on NaN, ±∞ and anything outside the type
/// (`1e300`, `3e9` as an `Int32`, `9.3e18` as an `Int64`). Every conversion of a number that came
/// from outside goes through one of these (issue 30, class 3).
extension FixedWidthInteger {
    /// `value` rounded toward zero, or nil when it is NaN, infinite or outside this type.
    @inlinable
    package init?(checking value: Double) {
        guard value.isFinite else { return nil }
        let t = value.rounded(.towardZero)
        // `Double(Self.max) + 1` is 2^bitWidth(−1) exactly for every width (for 64 bits the + 1 is
        // absorbed: Double(Int64.max) is already 2^63).
        guard t >= Double(Self.min), t < Double(Self.max) + 1 else { return nil }
        self.init(t)
    }

    /// `value` rounded toward zero, held at this type's ends (−∞ and anything below `min` give
    /// `min`, +∞ and anything above `max` give `max`); NaN gives 0.
    @inlinable
    package init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if let v = Self(checking: value) {
            self = v
        } else {
            self = value < 0 ? Self.min : Self.max
        }
    }
}

extension Int64 {
    /// `b − a`, held at `Int64.max` / `Int64.min` instead of trapping (spans of traces whose
    /// `t_us` reach ±9.2 × 10¹⁸).
    @inlinable
    package static func saturatingDifference(_ b: Int64, _ a: Int64) -> Int64 {
        let (d, overflow) = b.subtractingReportingOverflow(a)
        return overflow ? (b > a ? .max : .min) : d
    }

    /// `a + b`, held at the ends instead of trapping.
    @inlinable
    package static func saturatingSum(_ a: Int64, _ b: Int64) -> Int64 {
        let (s, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : s
    }
}

/// A length for a message (`"moved 12 px"`): the number rounded toward zero when it fits an
/// `Int`, else its shortest description (`inf`, `1e+300`), never a trap.
@inlinable
package func wholeDescription(_ value: Double) -> String {
    if let v = Int(checking: value) { return String(v) }
    return value.description
}
