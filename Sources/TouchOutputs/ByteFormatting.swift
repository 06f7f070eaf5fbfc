// Number and string formatting straight into byte buffers, shared by the encoders.

extension Array where Element == UInt8 {
    /// Appends ASCII/UTF-8 text known at compile time.
    @inline(__always) mutating func appendLiteral(_ s: StaticString) {
        s.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends a decimal integer ("-12", "0").
    mutating func appendInteger<I: BinaryInteger>(_ value: I) {
        if value < 0 { append(UInt8(ascii: "-")) }
        let magnitude = UInt64(value.magnitude)
        var divisor: UInt64 = 1
        while magnitude / divisor >= 10 { divisor &*= 10 }
        while divisor > 0 {
            append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: (magnitude / divisor) % 10))
            divisor /= 10
        }
    }

    /// Appends a Double in Swift's shortest round-trip form ("233.0", "401.5", "1e-05");
    /// NaN and ±infinity, which JSON cannot express, are written as 0.0.
    mutating func appendDouble(_ value: Double) {
        let finite = value.isFinite ? value : 0
        append(contentsOf: finite.description.utf8)
    }

    /// Appends `s` as a JSON string literal, quotes included: `"`, `\` and control characters
    /// escaped (`\n`, `\r`, `\t`, `\b`, `\f`, else `\u00XX`); other UTF-8 passes through.
    mutating func appendJSONString(_ s: String) {
        append(UInt8(ascii: "\""))
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
                hex.withUTF8Buffer { h in
                    append(h[Int(byte >> 4)])
                    append(h[Int(byte & 0x0F)])
                }
            default: append(byte)
            }
        }
        append(UInt8(ascii: "\""))
    }
}
