import Foundation
import Gestures
import TouchCore
import TouchOutputs
import XCTest

let frameNames = EventNames(
    recognizers: ["tap", "double-tap", "long-press", "pan", "swipe", "pinch"], regions: ["screen", "panel", "button"])

func doubleTapEvent() -> GestureEvent {
    var e = GestureEvent(
        time: Instant(microseconds: 130_000), recognizer: 1, kind: .tap, state: .recognized, region: 0,
        location: Point(x: 401.5, y: 233.0), touches: 1)
    e.taps = 2
    return e
}

func panEvent(_ state: GestureState = .changed, t: Int64 = 250_000, x: Double = 420.25) -> GestureEvent {
    var e = GestureEvent(
        time: Instant(microseconds: t), recognizer: 3, kind: .pan, state: state, region: 1,
        location: Point(x: x, y: 240), touches: 1)
    e.translation = Point(x: 20.25, y: -3.5)
    e.velocity = Point(x: 812.5, y: -140)
    return e
}

func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined(separator: " ") }

final class BinaryFrameTests: XCTestCase {
    /// The two examples of docs/PROTOCOL.md, byte for byte.
    func testWorkedExamplesOfTheProtocolDocument() {
        let encoder = BinaryFrameEncoder(names: frameNames)
        XCTAssertEqual(
            hex(encoder.frame(for: doubleTapEvent(), sequence: 0)),
            "A5 5A 01 01 00 00 2D D0 FB 01 00 00 06 01 00 01 02 D6 9C 00 00 04 5B 00 00 00 00 00 00 00 00 00 00 "
                + "00 00 00 00 00 00 00 00 0A 64 6F 75 62 6C 65 2D 74 61 70 1A 31")
        XCTAssertEqual(
            hex(encoder.frame(for: panEvent(), sequence: 7)),
            "A5 5A 01 01 07 00 26 90 D0 03 00 02 02 03 01 01 00 29 A4 00 00 C0 5D 00 00 E9 07 00 00 A2 FE FF FF "
                + "62 3D 01 00 50 C9 FF FF 03 70 61 6E 62 A4")
        // And the document really shows them.
        let doc = (try? String(contentsOfFile: repositoryRoot.path + "/docs/PROTOCOL.md", encoding: .utf8)) ?? ""
        XCTAssertTrue(doc.contains("64 6F 75 62 6C 65 2D 74 61 70   \"double-tap\""), "PROTOCOL.md example 1")
        XCTAssertTrue(doc.contains("62 A4                                CRC 0xA462"), "PROTOCOL.md example 2")
    }

    func testCRCCheckValueAndLengthField() {
        XCTAssertEqual(BinaryFrameEncoder.crc16(Array("123456789".utf8), from: 0, to: 9), 0x29B1)
        let frame = BinaryFrameEncoder(names: frameNames).frame(for: doubleTapEvent(), sequence: 0xBEEF)
        XCTAssertEqual(frame[4], 0xEF)
        XCTAssertEqual(frame[5], 0xBE)
        XCTAssertEqual(Int(frame[6]) + BinaryFrameEncoder.headerLength + 2, frame.count)
    }

    /// Long names are cut at 32 bytes without splitting a UTF-8 character; out-of-range values clamp.
    func testLongNamesAndHugeValues() {
        let long = String(repeating: "a", count: 31) + "é"  // é is 2 bytes: 31 + 2 = 33 > 32
        let encoder = BinaryFrameEncoder(names: EventNames(recognizers: [long], regions: ["screen"]))
        var e = panEvent()
        e.recognizer = 0
        e.velocity = Point(x: 1e12, y: -.infinity)
        let frame = encoder.frame(for: e, sequence: 0)
        let payload = Array(frame[7..<(frame.count - 2)])
        XCTAssertEqual(payload[34], 31, "cut before the two-byte character")
        XCTAssertEqual(Array(payload[26..<30]), [0xFF, 0xFF, 0xFF, 0x7F], "Int32.max")
        XCTAssertEqual(Array(payload[30..<34]), [0x00, 0x00, 0x00, 0x80], "Int32.min")
    }
}
