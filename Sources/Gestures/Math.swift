// The few transcendental functions the engine uses (stroke resampling and rejection, the rotation
// recognizer's angle), in one place, so that the module builds in two configurations from the
// same sources and computes the same bits in both.
// - `atan2`, which the rotation recognizer calls on every frame and whose digits reach the events,
//   is plain Swift (`PortableMath.atan2`): Glibc's and picolibc's round differently, so a C
//   library's would make the firmware's events differ from the host's in the last digits.
// - `sin`, `cos`, `tan` and `acos` come from the C library: Glibc (Foundation on Darwin) on the
//   host, and in the Embedded Swift build (`mcu/`, docs/mcu.md) the C library the firmware links
//   (picolibc or newlib), declared here. They shape strokes; none of their digits is printed.
// Call sites read `CMath.sin(x)`: a namespace, so that no module-level `sin` competes with the C
// library's in files (tests with `@testable import`) that import both.

#if hasFeature(Embedded)
    @_extern(c, "sin") @usableFromInline func cSin(_ x: Double) -> Double
    @_extern(c, "cos") @usableFromInline func cCos(_ x: Double) -> Double
    @_extern(c, "tan") @usableFromInline func cTan(_ x: Double) -> Double
    @_extern(c, "acos") @usableFromInline func cAcos(_ x: Double) -> Double
#elseif canImport(Glibc)
    import Glibc
    @usableFromInline func cSin(_ x: Double) -> Double { Glibc.sin(x) }
    @usableFromInline func cCos(_ x: Double) -> Double { Glibc.cos(x) }
    @usableFromInline func cTan(_ x: Double) -> Double { Glibc.tan(x) }
    @usableFromInline func cAcos(_ x: Double) -> Double { Glibc.acos(x) }
#else
    import Foundation
    @usableFromInline func cSin(_ x: Double) -> Double { Foundation.sin(x) }
    @usableFromInline func cCos(_ x: Double) -> Double { Foundation.cos(x) }
    @usableFromInline func cTan(_ x: Double) -> Double { Foundation.tan(x) }
    @usableFromInline func cAcos(_ x: Double) -> Double { Foundation.acos(x) }
#endif

@usableFromInline enum CMath {
    @inlinable @inline(__always) static func sin(_ x: Double) -> Double { cSin(x) }
    @inlinable @inline(__always) static func cos(_ x: Double) -> Double { cCos(x) }
    @inlinable @inline(__always) static func tan(_ x: Double) -> Double { cTan(x) }
    @inlinable @inline(__always) static func acos(_ x: Double) -> Double { cAcos(x) }
    /// `PortableMath.atan2`: the same bits on every target.
    @inlinable @inline(__always) static func atan2(_ y: Double, _ x: Double) -> Double { PortableMath.atan2(y, x) }
}

/// Transcendental functions in plain Swift: only IEEE 754 double arithmetic (add, subtract,
/// multiply, divide, each correctly rounded on every target, in hardware or in software), so a
/// result is the same bits on the host and on a microcontroller, whatever C library either links.
@usableFromInline package enum PortableMath {
    /// The angle of the point (x, y) from the positive x axis, radians in [-π, π], with the C
    /// library's conventions for zeros, infinities and NaN (C11 F.10.1.4): atan2(±0, -0) = ±π,
    /// atan2(±0, +0) = ±0, atan2(±∞, ±∞) = ±π/4 or ±3π/4.
    ///
    /// Accuracy: nearly always correctly rounded. Against 160-bit arithmetic (mpmath) on 100,000
    /// arguments (panel-sized and 2^±100), 2 results were not, and the largest error was 0.5002
    /// ulp; `PortableMathTests` holds it within 1 ulp of Glibc's atan2 on 400,000 arguments and
    /// correctly rounded where Glibc's is not.
    ///
    /// Method: the quotient of the smaller magnitude by the larger, r in [0, 1], is moved to the
    /// nearest sixteenth c, r' = (r − c) / (1 + r·c) with |r'| ≤ 1/32 (atan r = atan c + atan r');
    /// atan r' is its Taylor series to r'^11 (the next term is below 2^-60 of r'); atan c is a
    /// table of 17 double pairs (value and remainder, computed to 60 digits); the quotients and
    /// sums are kept as value-and-error pairs until the last rounding. About 90 operations.
    @inlinable
    package static func atan2(_ y: Double, _ x: Double) -> Double {
        if x.isNaN || y.isNaN { return x + y }
        let ay = y.magnitude
        let ax = x.magnitude
        var hi: Double
        var lo: Double
        if ax.isInfinite && ay.isInfinite {
            (hi, lo) = (quarterPi.hi, quarterPi.lo)
        } else if ay == 0 || ax.isInfinite {
            (hi, lo) = (0, 0)  // also (0, 0) and (0, −0): the sign of x decides below
        } else if ax == 0 || ay.isInfinite {
            (hi, lo) = (halfPi.hi, halfPi.lo)
        } else if ay <= ax {
            (hi, lo) = atanOfUnit(ay, over: ax)
        } else {
            // atan(ay/ax) = π/2 − atan(ax/ay)
            (hi, lo) = difference(halfPi, atanOfUnit(ax, over: ay))
        }
        if x.sign == .minus {
            (hi, lo) = difference(pi, (hi, lo))
        }
        let angle = hi + lo
        return y.sign == .minus ? -angle : angle
    }

    /// π, π/2 and π/4 as a double and the remainder.
    @inlinable static var pi: (hi: Double, lo: Double) { (0x1.921fb54442d18p+1, 0x1.1a62633145c07p-53) }
    @inlinable static var halfPi: (hi: Double, lo: Double) { (0x1.921fb54442d18p+0, 0x1.1a62633145c07p-54) }
    @inlinable static var quarterPi: (hi: Double, lo: Double) { (0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55) }

    /// a − b for two value-and-remainder pairs with a.hi ≥ b.hi ≥ 0, as a pair (the error of the
    /// leading subtraction kept, Knuth's two-sum).
    @inlinable @inline(__always)
    static func difference(_ a: (hi: Double, lo: Double), _ b: (Double, Double)) -> (Double, Double) {
        let s = a.hi - b.0
        let v = s - a.hi
        let e = (a.hi - (s - v)) + (-b.0 - v)
        return (s, e + (a.lo - b.1))
    }

    /// The exact product a·b as a value and a remainder (Dekker's product: Veltkamp's splitting,
    /// only multiplications and additions, so no fused multiply-add is needed).
    @inlinable @inline(__always)
    static func product(_ a: Double, _ b: Double) -> (Double, Double) {
        let p = a * b
        let sa = 134_217_729 * a  // 2^27 + 1
        let ah = sa - (sa - a)
        let al = a - ah
        let sb = 134_217_729 * b
        let bh = sb - (sb - b)
        let bl = b - bh
        return (p, ((ah * bh - p) + ah * bl + al * bh) + al * bl)
    }

    /// atan(n/d) for 0 ≤ n ≤ d, d finite and positive, as a value and a remainder. The quotient r
    /// and each step of the reduction r' = (r − c) / (1 + r·c) keep their rounding errors (exact
    /// products), so the error left is the series' and the table's, far below an ulp.
    @inlinable @inline(__always)
    static func atanOfUnit(_ n: Double, over d: Double) -> (Double, Double) {
        // Scaled by a power of two (exact) so that the exact products neither overflow nor lose
        // their low bits to underflow; the engine's arguments, panel pixels, never are.
        if d > 0x1p500 || d < 0x1p-500 {
            let scale = d > 0x1p500 ? 0x1p-600 : 0x1p600
            return atanOfUnitScaled(n * scale, over: d * scale)
        }
        return atanOfUnitScaled(n, over: d)
    }

    /// `atanOfUnit` for 2^-500 ≤ d ≤ 2^500 (2^-100 to 2^900 after scaling).
    @inlinable @inline(__always)
    static func atanOfUnitScaled(_ n: Double, over d: Double) -> (Double, Double) {
        let r = n / d
        let (p, pl) = product(r, d)
        let rl = ((n - p) - pl) / d  // n/d = r + rl
        let i = Int(r * 16 + 0.5)
        let c = Double(i) / 16
        // Numerator r + rl − c: r − c is exact (c/2 ≤ r ≤ 2c, or c = 0).
        let num = r - c
        // Denominator 1 + (r + rl)·c as a pair.
        let (q, ql) = product(r, c)
        let den = 1 + q
        let denl = (1 - den) + q + (ql + rl * c)
        // t = (num + rl) / (den + denl), with its remainder.
        let t = num / den
        let (u, ul) = product(t, den)
        let tl = (((num - u) - ul) + rl - t * denl) / den
        let t2 = t * t
        let tail = t * t2 * (-1.0 / 3 + t2 * (1.0 / 5 + t2 * (-1.0 / 7 + t2 * (1.0 / 9 + t2 * (-1.0 / 11)))))
        let (ah, al) = atanOfSixteenths(i)
        let s = ah + t
        let v = s - ah
        let e = (ah - (s - v)) + (t - v)
        return (s, e + (al + (tl + tail)))
    }

    /// atan(i/16) for i in 0...16 as the nearest double and the remainder (60 significant digits
    /// before rounding). A switch, so that it is a constant table in both builds, with no heap.
    @inlinable @inline(__always)
    static func atanOfSixteenths(_ i: Int) -> (Double, Double) {
        switch i {
        case 1: (0x1.ff55bb72cfdeap-5, -0x1.c934d86d23f1dp-60)
        case 2: (0x1.fd5ba9aac2f6ep-4, -0x1.cd37686760c17p-59)
        case 3: (0x1.7b97b4bce5b02p-3, 0x1.347b0b4f881cap-58)
        case 4: (0x1.f5b75f92c80ddp-3, 0x1.8ab6e3cf7afbdp-57)
        case 5: (0x1.362773707ebccp-2, -0x1.963a544b672d8p-57)
        case 6: (0x1.6f61941e4def1p-2, -0x1.c63aae6f6e918p-56)
        case 7: (0x1.a64eec3cc23fdp-2, -0x1.24dec1b50b7ffp-56)
        case 8: (0x1.dac670561bb4fp-2, 0x1.a2b7f222f65e2p-56)
        case 9: (0x1.0657e94db30d0p-1, -0x1.d5b495f6349e6p-56)
        case 10: (0x1.1e00babdefeb4p-1, -0x1.928df287a668fp-58)
        case 11: (0x1.345f01cce37bbp-1, 0x1.1021137c71102p-55)
        case 12: (0x1.4978fa3269ee1p-1, 0x1.2419a87f2a458p-56)
        case 13: (0x1.5d58987169b18p-1, 0x1.0028e4bc5e7cap-57)
        case 14: (0x1.700a7c5784634p-1, -0x1.8c34d25aadef6p-56)
        case 15: (0x1.819d0b7158a4dp-1, -0x1.bf76229d3b917p-56)
        case 16: (0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55)
        default: (0, 0)
        }
    }
}
