// Number and string formatting straight into byte buffers, shared by the encoders.

/// Where the encoders append bytes: a `[UInt8]` (the service's output stage, tests) or a
/// `LineBlock` (replay's blocks of lines). The formatting below is written once against this and
/// specialised for each.
package protocol ByteAppending: ~Copyable {
    mutating func appendByte(_ byte: UInt8)
    mutating func appendBytes(_ bytes: UnsafeRawBufferPointer)
}

extension Array: ByteAppending where Element == UInt8 {
    @inline(__always) package mutating func appendByte(_ byte: UInt8) { append(byte) }
    @inline(__always) package mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) {
        append(contentsOf: bytes)
    }
}

extension ByteAppending where Self: ~Copyable {
    /// Appends ASCII/UTF-8 text known at compile time.
    @inline(__always) mutating func appendLiteral(_ s: StaticString) {
        appendBytes(UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// Appends the bytes of `array`.
    @inline(__always) mutating func appendArray(_ array: [UInt8]) {
        array.withUnsafeBytes { appendBytes($0) }
    }

    /// Appends the UTF-8 of `text` (no allocation for a native or literal string).
    @inline(__always) mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { appendBytes(UnsafeRawBufferPointer($0)) }
    }

    /// Appends a decimal integer ("-12", "0").
    @inline(__always) mutating func appendInteger<I: BinaryInteger>(_ value: I) {
        if value < 0 { appendByte(UInt8(ascii: "-")) }
        appendDecimal(UInt64(value.magnitude))
    }

    /// Appends the decimal digits of `value`: written backwards into a small stack buffer with
    /// divisions by the constant 10 (multiplications once compiled), then copied in one piece.
    mutating func appendDecimal(_ value: UInt64) {
        var digits: InlineArray<20, UInt8> = InlineArray(repeating: 0)
        var x = value
        var i = 20
        repeat {
            let (q, r) = x.quotientAndRemainder(dividingBy: 10)
            i &-= 1
            digits[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: r)
            x = q
        } while x != 0
        let start = i
        withUnsafeBytes(of: &digits) { raw in
            appendBytes(UnsafeRawBufferPointer(rebasing: raw[start..<20]))
        }
    }

    /// Appends a Double in Swift's shortest round-trip form ("233.0", "401.5", "1e-05");
    /// NaN and ±infinity, which JSON cannot express, are written as 0.0.
    ///
    /// Values from 0.001 up to 2^53 in magnitude (every coordinate, translation, velocity and
    /// scale the engine reports in practice) are formatted by `ShortestDecimal` without
    /// allocating; the others fall back to `description`. Both give the same text.
    mutating func appendDouble(_ value: Double) {
        let finite = value.isFinite ? value : 0
        if ShortestDecimal.append(finite, to: &self) { return }
        appendUTF8(finite.description)
    }

    /// Appends `s` as a JSON string literal, quotes included: `"`, `\` and control characters
    /// escaped (`\n`, `\r`, `\t`, `\b`, `\f`, else `\u00XX`); other UTF-8 passes through.
    package mutating func appendJSONString(_ s: String) {
        appendByte(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): appendLiteral("\\\"")
            case UInt8(ascii: "\\"): appendLiteral("\\\\")
            case 0x0A: appendLiteral("\\n")
            case 0x0D: appendLiteral("\\r")
            case 0x09: appendLiteral("\\t")
            case 0x08: appendLiteral("\\b")
            case 0x0C: appendLiteral("\\f")
            case 0..<0x20:
                let hex: StaticString = "0123456789abcdef"
                appendLiteral("\\u00")
                appendByte(hex.utf8Start[Int(byte >> 4)])
                appendByte(hex.utf8Start[Int(byte & 0x0F)])
            default: appendByte(byte)
            }
        }
        appendByte(UInt8(ascii: "\""))
    }
}

/// The shortest decimal that reads back as the same Double (and, among the shortest, the
/// closest), laid out as Swift's `Double.description` lays it out in its fixed-point range:
/// "-12.5", "0.001", "233.0", "999.9999999999995". Exact integer arithmetic (128-bit): no
/// allocation, no libc, the same text on every machine.
///
/// Method: for |v| = f·2⁻ˢ, the correctly rounded N-digit decimal D of v is
/// round(f·10^q / 2ˢ); it reads back as v when |D·2ˢ − f·10^q| is under half a unit in the last
/// place (scaled by 10^q). If any decimal of at most 15 digits reads back as v, the 15-digit
/// rounding does (an ulp is below half a unit of the 15th digit), so N = 15, then 16, then 17,
/// and trailing zeros are dropped.
enum ShortestDecimal {
    /// 10^0 … 10^19, exact.
    static let powers: InlineArray<20, UInt64> = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
        1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000,
        10_000_000_000_000_000_000,
    ]

    /// 10^n for 0 ≤ n ≤ 19.
    @inline(__always) static func power10(_ n: Int) -> UInt128 { UInt128(powers[n]) }

    /// Appends `v` when 0.001 ≤ |v| < 2^53 or v is zero, returning true; otherwise appends nothing, returns false.
    static func append<Out: ByteAppending & ~Copyable>(_ v: Double, to out: inout Out) -> Bool {
        if v == 0 {
            if v.sign == .minus { out.appendByte(UInt8(ascii: "-")) }
            out.appendByte(UInt8(ascii: "0"))
            out.appendByte(UInt8(ascii: "."))
            out.appendByte(UInt8(ascii: "0"))
            return true
        }
        let a = v.magnitude
        guard a >= 0.001, a < 9_007_199_254_740_992 else { return false }
        if v < 0 { out.appendByte(UInt8(ascii: "-")) }
        if a == a.rounded(.towardZero) {
            // An integer below 2^53: exactly its digits, then ".0".
            out.appendInteger(UInt64(a))
            out.appendByte(UInt8(ascii: "."))
            out.appendByte(UInt8(ascii: "0"))
            return true
        }
        // a = f · 2^-s with s > 0 (a is not an integer, so its exponent is below 52).
        let f = UInt128(a.significandBitPattern | (1 << 52))
        let s = 52 - Int(a.exponent)
        // The decimal exponent: 10^e10 ≤ a < 10^(e10+1) (corrected below if the estimate is off).
        var e10 = 0
        var scale = 1.0
        if a >= 1 {
            while a >= scale * 10 {
                scale *= 10
                e10 += 1
            }
        } else {
            while a < scale {
                scale /= 10
                e10 -= 1
            }
        }
        if let (d, digits) = shortestFromOneProduct(f: f, s: s, e10: e10) {
            write(UInt128(d), digits: digits, e10: e10, to: &out)
            return true
        }
        for digits in 15...17 {
            guard let (d, exponent) = rounded(f: f, s: s, digits: digits, e10: e10) else { continue }
            write(d, digits: digits, e10: exponent, to: &out)
            return true
        }
        // Unreachable: 17 digits always read back.
        out.appendUTF8(a.description)
        return true
    }

    /// What trying `rounded` with 15, 16, then 17 digits gives, from one product: with
    /// X = f·10^q (q for 17 digits), T = ⌊X / 2^s⌋ and R = X mod 2^s, the N-digit rounding is
    /// T / 10^(17−N) rounded by the remainder (T mod 10^(17−N))·2^s + R, ties to even, and it reads
    /// back when |(D·10^(17−N) − T)·2^s − R| is under 10^q / 2 (a quarter below a power of two):
    /// the same integers as `rounded`'s, all scaled by 10^(17−N). Nil when a rounding leaves the
    /// N-digit range (the exponent estimate needs `rounded`'s correction) or the exponent is out
    /// of the table: the caller then takes `rounded`.
    @inline(__always)
    private static func shortestFromOneProduct(f: UInt128, s: Int, e10: Int) -> (UInt64, Int)? {
        let q = 16 - e10
        guard q >= 0, q <= 19, s >= 1, s <= 100 else { return nil }
        let p = power10(q)
        let x = f &* p
        let t128 = x >> UInt128(s)
        guard t128 < power10(17) else { return nil }
        let t = UInt64(t128)
        let r = x & ((UInt128(1) << UInt128(s)) &- 1)
        let half = UInt128(1) << UInt128(s - 1)
        var k = 2
        while k >= 0 {
            defer { k -= 1 }
            guard q - k >= 0 else { continue }  // `rounded` gives nil for this many digits
            let unit = powers[k]
            let (base, remainder) = t.quotientAndRemainder(dividingBy: unit)
            var d = base
            if k == 0 {
                if r > half || (r == half && base & 1 == 1) { d += 1 }
            } else {
                let twice = 2 &* remainder
                if twice > unit || (twice == unit && (r > 0 || base & 1 == 1)) { d += 1 }
            }
            let digits = 17 - k
            guard d < powers[digits], d >= powers[digits - 1] else { return nil }
            let scaled = UInt128(d &* unit)
            let below: Bool
            let diff: UInt128
            if scaled >= t128 {
                let e = (scaled - t128) << UInt128(s)
                below = e < r
                diff = below ? r - e : e - r
            } else {
                below = true
                diff = ((t128 - scaled) << UInt128(s)) + r
            }
            let limit = below && f == (1 << 52) ? p : p &* 2
            let four = diff &* 4
            if four < limit || (four == limit && f & 1 == 0) { return (d, digits) }
        }
        return nil
    }

    /// The `digits`-digit rounding of f·2^-s and its decimal exponent, when it reads back as the value.
    private static func rounded(f: UInt128, s: Int, digits: Int, e10 estimate: Int) -> (UInt128, Int)? {
        var e10 = estimate
        for _ in 0..<3 {
            let q = digits - 1 - e10  // D ≈ a · 10^q
            guard q >= 0, q <= 19 else { return nil }
            let p = power10(q)
            let scaled = f &* p  // f < 2^53, 10^q < 2^70 for q ≤ 21: fits
            let d = roundedShift(scaled, s)
            if d >= power10(digits) {
                e10 += 1
                continue
            }
            if d < power10(digits - 1) {
                e10 -= 1
                continue
            }
            // Reads back when |d·2^s − f·10^q| < 10^q / 2 (a quarter below a power of two,
            // where the gap to the next smaller Double is half as wide); a tie goes to an even f.
            let ds = d << UInt128(s)
            let below = ds < scaled
            let diff = below ? scaled - ds : ds - scaled
            let narrow = below && f == (1 << 52)
            let limit = narrow ? p : p &* 2
            let twice = diff &* 4
            if twice < limit || (twice == limit && f & 1 == 0) { return (d, e10) }
            return nil
        }
        return nil
    }

    /// round(x / 2^s), ties to even.
    private static func roundedShift(_ x: UInt128, _ s: Int) -> UInt128 {
        let q = x >> UInt128(s)
        let r = x - (q << UInt128(s))
        let half = UInt128(1) << UInt128(s - 1)
        if r > half || (r == half && q & 1 == 1) { return q + 1 }
        return q
    }

    /// "123.456" / "0.00123" from the digits of `d` (trailing zeros dropped) and its exponent.
    ///
    /// The text is laid out in a stack buffer, each digit written straight to its final place
    /// (right to left, by constant divisions), then appended in one piece.
    private static func write<Out: ByteAppending & ~Copyable>(
        _ d: UInt128, digits: Int, e10: Int, to out: inout Out
    ) {
        var x = UInt64(d)  // below 10^17: 64-bit division is enough (and much cheaper)
        var n = digits
        while n > 1 {
            let (quotient, remainder) = x.quotientAndRemainder(dividingBy: 10)
            guard remainder == 0 else { break }
            x = quotient
            n -= 1
        }
        // Where the digits go and how long the text is.
        var text: InlineArray<48, UInt8> = InlineArray(repeating: UInt8(ascii: "0"))
        let length: Int
        let dot: Int  // the index of "." (no digit is written there)
        let first: Int  // the index of the first digit
        if e10 >= 0 {
            let whole = e10 + 1
            first = 0
            dot = whole
            length = n <= whole ? whole + 2 : n + 1  // "123" + ".0" (zeros filled), or "12.34"
        } else {
            first = 1 - e10  // "0." then -e10-1 zeros
            dot = 1
            length = first + n
        }
        // 0.001 ≤ a < 2^53: -3 ≤ e10 ≤ 15, so the text is at most 21 bytes.
        assert(length <= 48)
        withUnsafeMutableBytes(of: &text) { raw in
            let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            p[dot] = UInt8(ascii: ".")
            // Digit k (0 = leftmost) sits at first + k, one further right once past the dot.
            var k = n - 1
            while k >= 0 {
                let (quotient, remainder) = x.quotientAndRemainder(dividingBy: 10)
                let at = first + k
                p[at >= dot && e10 >= 0 ? at + 1 : at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remainder)
                x = quotient
                k -= 1
            }
            out.appendBytes(UnsafeRawBufferPointer(start: p, count: length))
        }
    }
}
