import TouchCore
import TouchDrivers
import XCTest

/// GT911 image from 0x814E (`controllers.md` §3.2–3.3).
final class GT911DecoderTests: XCTestCase {
    private func decode(_ bytes: [UInt8], max: Int = 5) -> GT911Report {
        bytes.withUnsafeBytes {
            GT911Decoder.decode($0, at: Instant(microseconds: 7), maxPoints: max, panelWidth: 800, panelHeight: 480)
        }
    }

    /// One 8-byte record: id, X LE16, Y LE16, size LE16, reserved.
    private func point(_ id: UInt8, _ x: Int, _ y: Int, size: Int = 30) -> [UInt8] {
        [id, UInt8(x & 0xFF), UInt8(x >> 8), UInt8(y & 0xFF), UInt8(y >> 8), UInt8(size & 0xFF), UInt8(size >> 8), 0]
    }

    private func image(status: UInt8, _ points: [[UInt8]]) -> [UInt8] {
        var b = [status] + points.flatMap { $0 }
        b += [UInt8](repeating: 0, count: 1 + 8 * 5 + 1 - b.count)
        return b
    }

    func testNotReadyIsNothingNewNotARelease() {
        // Status bit 7 clear: the buffer is stale (ready lags the IRQ ~10 ms, GDX).
        let r = decode(image(status: 0x02, [point(0, 10, 10), point(1, 20, 20)]))
        XCTAssertFalse(r.isReady)
        XCTAssertTrue(r.frame.isEmpty)
    }

    func testReadyWithZeroPointsIsReleaseOfEverything() {
        // Tasmota #24942: "On release the GT911 reports touch with no points".
        let r = decode(image(status: 0x80, []))
        XCTAssertTrue(r.isReady && r.isValid)
        XCTAssertTrue(r.frame.isEmpty)
    }

    func testTwoPointsLittleEndian() {
        let r = decode(image(status: 0x82, [point(3, 0x123, 0x1AB, size: 0x0102), point(5, 799, 479)]))
        XCTAssertTrue(r.isReady && r.isValid)
        XCTAssertEqual(
            r.frame.contacts,
            [
                Contact(id: 3, position: Point(x: 0x123, y: 0x1AB), area: 0x0102),
                Contact(id: 5, position: Point(x: 799, y: 479), area: 30),
            ])
        XCTAssertEqual(r.frame.timestamp, Instant(microseconds: 7))
    }

    func testCountAboveChipMaximumRejectsImage() {
        let r = decode(image(status: 0x86, [point(0, 1, 1)]))
        XCTAssertFalse(r.isValid)
        XCTAssertEqual(r.rejectedTooMany, 1)
        XCTAssertTrue(r.frame.isEmpty)
    }

    func testOffPanelAndRepeatedIDsDroppedAndCounted() {
        // rpi/linux #4749: phantom touches at the panel edge.
        let r = decode(image(status: 0x83, [point(0, 800, 10), point(1, 10, 10), point(1, 30, 30)]))
        XCTAssertEqual(r.frame.contacts.map(\.id), [1])
        XCTAssertEqual(r.rejectedOutOfPanel, 1)
        XCTAssertEqual(r.rejectedInvalidID, 1)
    }

    func testKeyByteFollowsThePoints() {
        var b = image(status: 0x91, [point(0, 5, 5)])
        b[9] = 0x04
        XCTAssertEqual(decode(b).keys, 0x04)
    }

    func testShortImagesNeverTrap() {
        XCTAssertFalse(decode([]).isValid)
        XCTAssertFalse(decode([0x83, 0, 1]).isValid)
    }
}
