import XCTest

@testable import TouchOutputs

/// The encoders' own Double formatter must write exactly what `Double.description` writes
/// (the event format does not change), without going through `description` on the hot path.
final class NumberFormattingTests: XCTestCase {
    private func formatted(_ v: Double) -> String {
        var out: [UInt8] = []
        out.appendDouble(v)
        return String(decoding: out, as: UTF8.self)
    }

    /// A fixed xorshift sequence: the same values on every run.
    private struct Numbers {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    }

    /// A `LineBlock` (replay's output) gets the same bytes as an array, across its growth from a small start.
    func testLineBlockGetsTheSameBytesAsAnArray() {
        var numbers = Numbers()
        var block = LineBlock(capacity: 64)
        var array: [UInt8] = []
        for i in 0..<20_000 {
            let v = (numbers.unit() - 0.5) * 1e5 / Double(1 + i % 97)
            block.appendDouble(v)
            array.appendDouble(v)
            block.appendInteger(Int64(i) - 10_000)
            array.appendInteger(Int64(i) - 10_000)
            block.appendJSONString("r\(i)\"\n")
            array.appendJSONString("r\(i)\"\n")
        }
        XCTAssertGreaterThan(block.capacity, 64)
        XCTAssertEqual(block.withBytes { Array($0) }, array)
        block.removeAll()
        XCTAssertEqual(block.count, 0)
    }

    /// Powers of two (where the gap below is half the gap above) and of ten (where a rounding
    /// carries into one more digit), and their neighbours: the formatter's edge cases.
    func testPowersOfTwoAndTenAndTheirNeighboursMatchDescription() {
        var values: [Double] = []
        for e in -10...53 {
            let v = Double(sign: .plus, exponent: e, significand: 1)
            values += [v, v.nextUp, v.nextDown, v.nextUp.nextUp, v.nextDown.nextDown, v * 1.5, v * 3 / 7]
        }
        for e in -3...16 {
            var v = pow(10, Double(e))
            for _ in 0..<4 {
                values += [v, v.nextUp, v.nextDown]
                v = v.nextDown
            }
            values += [pow(10, Double(e)) * 0.999_999_999_999_999_9, pow(10, Double(e)) * 0.999_999_999_999_999]
            values += [pow(10, Double(e)) * 9.999_999_999_999_999_5, pow(10, Double(e)) * 1.000_000_000_000_000_2]
        }
        for v in values where v.isFinite {
            XCTAssertEqual(formatted(v), v.description, "\(v.bitPattern)")
            XCTAssertEqual(formatted(-v), (-v).description, "\(v.bitPattern)")
        }
    }

    func testRandomDoublesMatchDescription() {
        var numbers = Numbers()
        var mismatches: [String] = []
        for i in 0..<200_000 {
            let v: Double
            switch i % 5 {
            case 0: v = Double(bitPattern: numbers.next())  // any double at all
            case 1: v = (numbers.unit() - 0.5) * 4000  // coordinates, translations
            case 2: v = (numbers.unit() - 0.5) * 1e5 / Double(1 + numbers.next() % 97)  // velocities
            case 3:  // short decimals: halves, quarters, tenths…
                v = Double(Int64(numbers.next() % 2_000_000) - 1_000_000) / Double([1, 2, 4, 8, 10, 100, 1000][i % 7])
            default: v = numbers.unit() * pow(10, Double(Int(numbers.next() % 40) - 20))  // every magnitude
            }
            guard v.isFinite else { continue }
            // Event values (0.001 ≤ |v| < 2^53) never go through `description`.
            var scratch: [UInt8] = []
            let fast = ShortestDecimal.append(v, to: &scratch)
            if v.magnitude >= 0.001 && v.magnitude < 9_007_199_254_740_992 && !fast {
                mismatches.append("slow path for \(v)")
            }
            if formatted(v) != v.description { mismatches.append("\(v.bitPattern): \(formatted(v)) vs \(v)") }
            if mismatches.count > 5 { break }
        }
        XCTAssertEqual(mismatches, [])
    }
}
