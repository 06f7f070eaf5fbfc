import XCTest

@testable import Gestures

#if canImport(Glibc)
    import Glibc
#else
    import Foundation
#endif

/// The engine's `atan2` is plain Swift (`PortableMath`), so that the rotation the host prints is
/// the rotation the firmware prints (`mcu/run`): these tests hold its accuracy and its special
/// values.
final class PortableMathTests: XCTestCase {
    /// Distance between two doubles in units in the last place (0 when equal, ±0 equal).
    private func ulps(_ a: Double, _ b: Double) -> UInt64 {
        if a == b { return 0 }
        func key(_ v: Double) -> Int64 {
            let i = Int64(bitPattern: v.bitPattern)
            return i < 0 ? Int64.min &- i : i
        }
        return (key(a) &- key(b)).magnitude
    }

    /// A fixed sequence of doubles in [0, 1) (SplitMix64), so the sample is the same every run.
    private struct Sample {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) * 0x1p-53
        }
    }

    /// Over 400,000 arguments (panel pixel differences, whole pixels, and magnitudes from 2^-60 to
    /// 2^60) the portable atan2 is never more than 1 ulp from the C library's, and equals it in
    /// more than 99 % of cases.
    func testAtan2IsWithinOneUlpOfTheCLibrary() {
        var sample = Sample()
        var worst: UInt64 = 0
        var worstArguments = (0.0, 0.0)
        var differing = 0
        let count = 400_000
        for k in 0..<count {
            let y: Double
            let x: Double
            switch k % 4 {
            case 0:
                y = sample.next() * 4000 - 2000
                x = sample.next() * 4000 - 2000
            case 1:
                y = (sample.next() * 1600 - 800).rounded()
                x = (sample.next() * 1600 - 800).rounded()
            case 2:
                y =
                    (sample.next() * 2 - 1)
                    * Double(sign: .plus, exponent: Int(sample.next() * 120) - 60, significand: 1)
                x =
                    (sample.next() * 2 - 1)
                    * Double(sign: .plus, exponent: Int(sample.next() * 120) - 60, significand: 1)
            default:
                y = sample.next() * 2e-3 - 1e-3
                x = sample.next() * 0.5 + 0.5
            }
            let d = ulps(PortableMath.atan2(y, x), atan2(y, x))
            if d > 0 { differing += 1 }
            if d > worst {
                worst = d
                worstArguments = (y, x)
            }
        }
        XCTAssertLessThanOrEqual(worst, 1, "atan2\(worstArguments) differs from the C library by \(worst) ulp")
        XCTAssertLessThan(differing, count / 100, "\(differing) of \(count) differ from the C library")
    }

    /// Where Glibc's atan2 is 1 ulp off, the portable one gives the correctly rounded angle (the
    /// references are the exact angles rounded to double, from a 300-bit computation), so host and
    /// firmware agree on it whatever their C libraries do. Whole-pixel vectors, as the rotation
    /// recognizer measures them.
    func testAtan2IsCorrectlyRoundedWhereGlibcIsNot() {
        let cases: [(y: Double, x: Double, angle: Double)] = [
            (57, 411, 0x1.1a3a9b93b4649p-3),
            (-293, 71, -0x1.55434b6b5504ep+0),
            (-279, 247, -0x1.b13bdabae472ep-1),
            (-230, -47, -0x1.c5b9f912497a9p+0),
            (-153, -160, -0x1.30747d55731b0p+1),
            (-132, 181, -0x1.429da7593b003p-1),
        ]
        for c in cases {
            XCTAssertEqual(PortableMath.atan2(c.y, c.x), c.angle, "atan2(\(c.y), \(c.x))")
            XCTAssertEqual(CMath.atan2(c.y, c.x), c.angle, "the engine's atan2(\(c.y), \(c.x))")
        }
    }

    /// Zeros, infinities and NaN as C11 Annex F gives them.
    func testAtan2SpecialValuesAreTheCLibrarys() {
        let values: [Double] = [0, -0.0, 1, -1, .infinity, -.infinity, 5e-324, -5e-324, 1e308, -1e308]
        for y in values {
            for x in values {
                let portable = PortableMath.atan2(y, x)
                let c = atan2(y, x)
                XCTAssertTrue(
                    portable == c && portable.sign == c.sign || ulps(portable, c) <= 1,
                    "atan2(\(y), \(x)) = \(portable), the C library's \(c)")
            }
        }
        XCTAssertTrue(PortableMath.atan2(.nan, 1).isNaN)
        XCTAssertTrue(PortableMath.atan2(1, .nan).isNaN)
        XCTAssertEqual(PortableMath.atan2(0, -0.0), Double.pi)
        XCTAssertEqual(PortableMath.atan2(-0.0, -0.0), -Double.pi)
        XCTAssertEqual(PortableMath.atan2(-0.0, 1).sign, .minus)
    }
}
