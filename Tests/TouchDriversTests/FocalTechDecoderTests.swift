import TouchCore
import TouchDrivers
import XCTest

/// Builds a FocalTech touch image: header + `slots` records, unused bytes = `fill`.
func focalTechImage(count: UInt8, gesture: UInt8 = 0, slots: Int = 2, fill: UInt8 = 0xFF, records: [[UInt8]]) -> [UInt8]
{
    var bytes = [UInt8](repeating: fill, count: 3 + 6 * slots)
    bytes[0] = 0x00
    bytes[1] = gesture
    bytes[2] = count
    for (i, r) in records.enumerated() {
        for (k, b) in r.enumerated() { bytes[3 + 6 * i + k] = b }
    }
    return bytes
}

/// One 6-byte point record.
func record(event: UInt8, id: UInt8, x: Int, y: Int, weight: UInt8 = 0x20, area: UInt8 = 3) -> [UInt8] {
    [
        event << 6 | UInt8((x >> 8) & 0x0F), UInt8(x & 0xFF), id << 4 | UInt8((y >> 8) & 0x0F), UInt8(y & 0xFF), weight,
        area << 4,
    ]
}

func decode(_ bytes: [UInt8], maxPoints: Int = 2, width: Int = 800, height: Int = 480) -> FocalTechReport {
    bytes.withUnsafeBytes {
        FocalTechDecoder.decode(
            $0, at: Instant(microseconds: 42), maxPoints: maxPoints, panelWidth: width, panelHeight: height)
    }
}

final class FocalTechDecoderTests: XCTestCase {
    func testOnePoint() {
        let r = decode(focalTechImage(count: 1, records: [record(event: 0, id: 0, x: 100, y: 200)]))
        XCTAssertTrue(r.isValid)
        XCTAssertEqual(r.frame.count, 1)
        XCTAssertEqual(r.frame.timestamp, Instant(microseconds: 42))
        XCTAssertEqual(r.frame[0], Contact(id: 0, position: Point(x: 100, y: 200), pressure: 0x20, area: 3))
    }

    func testTwoPoints() {
        let r = decode(
            focalTechImage(
                count: 2, gesture: 0x14,
                records: [record(event: 2, id: 0, x: 10, y: 20), record(event: 0, id: 1, x: 700, y: 400)]))
        XCTAssertTrue(r.isValid)
        XCTAssertEqual(r.gestureID, FocalTechRegisters.GestureID.moveRight)
        XCTAssertEqual(r.frame.count, 2)
        XCTAssertEqual(r.frame.contact(withID: 0)?.position, Point(x: 10, y: 20))
        XCTAssertEqual(r.frame.contact(withID: 1)?.position, Point(x: 700, y: 400))
    }

    func testUnusedSlotsAllZerosGiveNoPhantomTouch() {
        // TD_STATUS 0 and every slot 0x00: event 0 "press down", id 0, at (0,0) — must be ignored.
        let r = decode(focalTechImage(count: 0, fill: 0x00, records: []))
        XCTAssertTrue(r.isValid)
        XCTAssertTrue(r.frame.isEmpty)
        let one = decode(focalTechImage(count: 1, fill: 0x00, records: [record(event: 2, id: 1, x: 5, y: 6)]))
        XCTAssertEqual(one.frame.count, 1)
        XCTAssertEqual(one.frame[0].id, 1)
    }

    func testUnusedSlotsAllOnesGiveNoTouch() {
        let r = decode(focalTechImage(count: 0, fill: 0xFF, records: []))
        XCTAssertTrue(r.isValid)
        XCTAssertTrue(r.frame.isEmpty)
        XCTAssertEqual(r.rejectedInvalidID, 0)
    }

    func testInvalidIDDropped() {
        let r = decode(
            focalTechImage(
                count: 2, records: [record(event: 2, id: 0x0F, x: 5, y: 5), record(event: 2, id: 1, x: 6, y: 6)]))
        XCTAssertTrue(r.isValid)
        XCTAssertEqual(r.frame.count, 1)
        XCTAssertEqual(r.frame[0].id, 1)
        XCTAssertEqual(r.rejectedInvalidID, 1)
    }

    func testDuplicateIDDropped() {
        let r = decode(
            focalTechImage(
                count: 2, records: [record(event: 2, id: 1, x: 5, y: 5), record(event: 2, id: 1, x: 6, y: 6)]))
        XCTAssertEqual(r.frame.count, 1)
        XCTAssertEqual(r.frame[0].position, Point(x: 5, y: 5))
        XCTAssertEqual(r.rejectedInvalidID, 1)
    }

    func testCountAboveMaxRejected() {
        let r = decode(
            focalTechImage(
                count: 3, slots: 3,
                records: [
                    record(event: 2, id: 0, x: 1, y: 1), record(event: 2, id: 1, x: 2, y: 2),
                    record(event: 2, id: 2, x: 3, y: 3),
                ]))
        XCTAssertFalse(r.isValid)
        XCTAssertEqual(r.rejectedTooMany, 1)
        XCTAssertEqual(r.reportedCount, 3)
        XCTAssertTrue(r.frame.isEmpty)
        // 0xFF in TD_STATUS (count 15) on a bus glitch.
        XCTAssertFalse(decode(focalTechImage(count: 0xFF, records: [])).isValid)
    }

    func testOutOfPanelRejectedAndCounted() {
        let r = decode(
            focalTechImage(
                count: 2, records: [record(event: 2, id: 0, x: 800, y: 10), record(event: 2, id: 1, x: 10, y: 480)]))
        XCTAssertTrue(r.isValid)
        XCTAssertTrue(r.frame.isEmpty)
        XCTAssertEqual(r.rejectedOutOfPanel, 2)
        let edge = decode(focalTechImage(count: 1, records: [record(event: 2, id: 0, x: 799, y: 479)]))
        XCTAssertEqual(edge.frame.count, 1)
    }

    func testTwelveBitCoordinates() {
        let r = decode(
            focalTechImage(count: 1, records: [record(event: 0, id: 3, x: 0xABC, y: 0x765)]), width: 4096, height: 4096)
        XCTAssertEqual(r.frame[0].position, Point(x: 0xABC, y: 0x765))
        // Event and id bits do not leak into the coordinates.
        let bytes: [UInt8] = [0, 0, 1, 0b1000_1111, 0xFF, 0b0010_1111, 0xFF, 0, 0]
        let top = decode(bytes, maxPoints: 1, width: 4096, height: 4096)
        XCTAssertEqual(top.frame[0].position, Point(x: 4095, y: 4095))
        XCTAssertEqual(top.frame[0].id, 2)
    }

    func testShortBuffersNeverCrash() {
        XCTAssertFalse(decode([]).isValid)
        XCTAssertFalse(decode([0, 0]).isValid)
        XCTAssertFalse(decode([0, 0, 2, 0x80, 1, 0x00]).isValid)  // count 2, records missing
        // Every TD_STATUS with records of one repeated byte: FocalTechRecordTests.
    }
}
