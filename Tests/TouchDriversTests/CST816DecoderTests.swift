import TouchCore
import TouchDrivers
import XCTest

/// CST816 image: 6 bytes from 0x01 (`controllers.md` §4.3).
final class CST816DecoderTests: XCTestCase {
    private func decode(_ bytes: [UInt8]) -> CST816Report {
        bytes.withUnsafeBytes { CST816Decoder.decode($0, at: .zero, panelWidth: 240, panelHeight: 240) }
    }

    func testContactAndRawGesture() {
        // gesture 0x0B double click, 1 finger, event contact (2), X = 0x0AB, Y = 0x0CD.
        let r = decode([0x0B, 1, 0x80 | 0x00, 0xAB, 0x00, 0xCD])
        XCTAssertEqual(r.frame.contacts, [Contact(id: 0, x: 0xAB, y: 0xCD)])
        XCTAssertEqual(r.gestureID, CST816Registers.Gesture.doubleClick)
    }

    func testLiftRecordGivesNoCoordinates() {
        // rpi/linux PR #2207: never take coordinates from a lift record.
        XCTAssertTrue(decode([0, 0, 0x40, 100, 0, 100]).frame.isEmpty)
        XCTAssertTrue(decode([0, 1, 0x40, 100, 0, 100]).frame.isEmpty, "count 1 but event lift")
        XCTAssertTrue(decode([0, 1, 0xC0, 100, 0, 100]).frame.isEmpty, "event none")
    }

    func testAllOnesAfterDisablingAutoSleepIsDropped() {
        // SL-CST: "Some CST816T will return all 0xFF after turning off automatic sleep".
        let r = decode([UInt8](repeating: 0xFF, count: 6))
        XCTAssertFalse(r.isValid)
        XCTAssertEqual(r.rejectedTooMany, 1)
    }

    func testOffPanelDropped() {
        let r = decode([0, 1, 0x00, 240, 0, 10])
        XCTAssertTrue(r.frame.isEmpty)
        XCTAssertEqual(r.rejectedOutOfPanel, 1)
    }
}
