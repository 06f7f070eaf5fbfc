import Foundation
import Gestures
import TouchCore
import TouchOutputs
import XCTest

/// Every control character in a name comes out escaped, so a consumer's JSON parser never sees a
/// raw control byte (RFC 8259 §7: U+0000 through U+001F must be escaped).
final class JSONEscapingTests: XCTestCase {
    func testEveryControlCharacterIsEscaped() {
        let named: [(UInt8, String)] = [(0x08, "\\b"), (0x09, "\\t"), (0x0A, "\\n"), (0x0C, "\\f"), (0x0D, "\\r")]
        for byte in UInt8(0)...0x1F {
            let name = "a" + String(UnicodeScalar(byte)) + "b"
            let e = GestureEvent(
                time: .zero, recognizer: 0, kind: .tap, state: .recognized, region: 0, location: .zero, touches: 1)
            let line = EventJSONEncoder(names: EventNames(recognizers: [name], regions: ["r"])).line(for: e)
            let escape = named.first { $0.0 == byte }?.1 ?? String(format: "\\u%04x", Int(byte))
            XCTAssertTrue(line.contains("\"recognizer\":\"a\(escape)b\""), "byte \(byte): \(line.debugDescription)")
            XCTAssertFalse(line.dropLast().utf8.contains { $0 < 0x20 }, "byte \(byte): raw control byte in \(line)")
        }
    }
}
