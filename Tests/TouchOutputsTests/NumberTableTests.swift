import Testing

@testable import TouchOutputs

/// The encoders' own Double formatter on a table of the values events carry: each is written
/// exactly as `Double.description` writes it (the event format does not change), one case per
/// value, so a failure names the value. (The generated sweeps stay in `NumberFormattingTests`.)
@Suite struct NumberTableTests {
    private static func formatted(_ v: Double) -> String {
        var out: [UInt8] = []
        out.appendDouble(v)
        return String(decoding: out, as: UTF8.self)
    }

    @Test(
        "a typical event value is written as Double.description writes it",
        arguments: [
            0, -0.0, 1, -1, 0.5, 233, 401.5, 150.25, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 999.9999999999995, 1000,
            0.001, 0.0011, 0.000999, 1e-5, 123_456_789.125, 9_007_199_254_740_991, 9_007_199_254_740_992, 1e16,
            -850, 850.0000000000001, 1.5707963267948966, -3.141592653589793, 0.30000000000000004, 100.1, 5e-324,
            .greatestFiniteMagnitude, 1e15, 1e15 + 0.5, 4_503_599_627_370_495.5, 0.00123, 12.34, 1e21, 1e22,
        ] as [Double])
    func typicalValue(_ v: Double) {
        #expect(Self.formatted(v) == v.description)
    }

    /// A non-finite value (a broken sensor, a division by a zero span) never reaches a consumer
    /// as `nan` or `inf`, which JSON cannot carry: it is written as 0.0.
    @Test("a non-finite value is written as 0.0", arguments: [Double.nan, -Double.nan, .infinity, -.infinity])
    func nonFiniteValue(_ v: Double) {
        #expect(Self.formatted(v) == "0.0")
    }
}
