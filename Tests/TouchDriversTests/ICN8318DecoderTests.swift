import TouchCore
import TouchDrivers
import TouchSimulation
import XCTest

/// ICN8318 touch image: 37 bytes from 0x10 (`controllers.md` §5.2), and the driver reading the
/// register-level model.
final class ICN8318DecoderTests: XCTestCase {
    /// An image: soft-button byte, count, then the records (slot, X, Y, width, event), padded to 37 bytes.
    private func image(
        softButton: UInt8 = 0, count: UInt8? = nil, _ records: [(slot: UInt8, x: Int, y: Int, event: UInt8)]
    ) -> [UInt8] {
        var bytes: [UInt8] = [softButton, count ?? UInt8(records.count)]
        for r in records {
            bytes += [r.slot, UInt8(r.x >> 8), UInt8(r.x & 0xFF), UInt8(r.y >> 8), UInt8(r.y & 0xFF), 8, r.event]
        }
        return bytes + [UInt8](repeating: 0, count: max(0, ICN8318Registers.imageLength - bytes.count))
    }

    private func decode(_ bytes: [UInt8]) -> ICN8318Report {
        bytes.withUnsafeBytes { ICN8318Decoder.decode($0, at: .zero, panelWidth: 800, panelHeight: 480) }
    }

    func testBigEndianCoordinatesAndSlotsAsIDs() {
        // X = 0x0123 (291), Y = 0x01C2 (450): high byte first; two fingers, slots 3 and 0.
        let r = decode(image([(3, 0x0123, 0x01C2, 2), (0, 10, 20, 3)]))
        XCTAssertTrue(r.isValid)
        XCTAssertEqual(r.frame.contacts, [Contact(id: 3, x: 291, y: 450), Contact(id: 0, x: 10, y: 20)])
    }

    func testEndAndNoDataRecordsGiveNoContact() {
        // A lifted finger is reported once more with its last coordinates: never a contact.
        let r = decode(image([(0, 100, 100, 4), (1, 200, 200, 1), (2, 300, 300, 2)]))
        XCTAssertEqual(r.frame.contacts, [Contact(id: 2, x: 300, y: 300)])
        XCTAssertTrue(decode(image([(0, 100, 100, 4)])).frame.isEmpty)
        XCTAssertTrue(decode(image([(0, 100, 100, 4)])).isValid, "a lift is a valid empty image")
    }

    func testSoftButtonImageIsDroppedNotReadAsARelease() {
        // The chip leaves the records stale while a soft button is held.
        let r = decode(image(softButton: 1, [(0, 100, 100, 2)]))
        XCTAssertFalse(r.isValid)
        XCTAssertTrue(r.frame.isEmpty)
        XCTAssertEqual(r.softButton, 1)
    }

    func testCountAboveFiveOrShortImageIsInvalid() {
        let many = decode(image(count: 6, [(0, 1, 1, 2)]))
        XCTAssertFalse(many.isValid)
        XCTAssertEqual(many.rejectedTooMany, 1)
        XCTAssertEqual(many.reportedCount, 6)
        XCTAssertFalse(decode([0, 1, 0, 0, 10, 0, 10, 8, 2]).isValid, "9 of 37 bytes")
    }

    func testRecordsBeyondTheCountAreNotRead() {
        // Count 1: the second record's event 2 is left over from an earlier image.
        let r = decode(image(count: 1, [(0, 10, 10, 2), (1, 50, 50, 2)]))
        XCTAssertEqual(r.frame.contacts, [Contact(id: 0, x: 10, y: 10)])
    }

    func testBadSlotsAndOffPanelPointsAreDroppedAndCounted() {
        let r = decode(image([(5, 10, 10, 2), (1, 10, 10, 2), (1, 20, 20, 2), (2, 800, 10, 2), (3, 10, 480, 3)]))
        XCTAssertEqual(r.frame.contacts, [Contact(id: 1, x: 10, y: 10)])
        XCTAssertEqual(r.rejectedInvalidID, 2, "slot 5 and the repeated slot 1")
        XCTAssertEqual(r.rejectedOutOfPanel, 2)
        XCTAssertTrue(r.isValid)
    }

    func testDriverReadsTheModelDownMoveAndLift() throws {
        let bus = SimulatedI2CBus()
        let model = ICN8318Model()
        bus.attach(model)
        let driver = ICN8318Driver(bus: bus, panelWidth: 800, panelHeight: 480, timing: .immediate)
        try driver.start()
        XCTAssertEqual(driver.identity?.chipName, "ICN8318")
        XCTAssertEqual(driver.identity?.address, I2CAddress(0x40))
        model.present(
            TouchFrame(timestamp: .zero, contacts: [Contact(id: 0, x: 300, y: 200), Contact(id: 1, x: 5, y: 6)]))
        XCTAssertEqual(
            try driver.readFrame(at: .zero)?.contacts, [Contact(id: 0, x: 300, y: 200), Contact(id: 1, x: 5, y: 6)])
        model.present(TouchFrame(timestamp: .zero, contacts: [Contact(id: 1, x: 7, y: 6)]))
        XCTAssertEqual(try driver.readFrame(at: .zero)?.contacts, [Contact(id: 1, x: 7, y: 6)], "finger 0 lifted")
        model.present(TouchFrame(timestamp: .zero))
        XCTAssertEqual(try driver.readFrame(at: .zero)?.isEmpty, true, "every finger up")
        XCTAssertEqual(driver.counters.framesRead, 3)
    }

    func testHibernatingChipIsABusErrorNaming0x40() throws {
        let bus = SimulatedI2CBus()
        let model = ICN8318Model()
        bus.attach(model)
        let driver = ICN8318Driver(bus: bus, panelWidth: 800, panelHeight: 480, timing: .immediate)
        try driver.start()
        try bus.write(I2CAddress(0x40), [ICN8318Registers.power, ICN8318Registers.powerHibernate])
        XCTAssertThrowsError(try driver.readFrame(at: .zero)) { error in
            XCTAssertEqual(
                error as? TouchInputError, .bus(.noAcknowledge(address: I2CAddress(0x40), errno: 121)))
            XCTAssertTrue("\(error)".contains("0x40"), "\(error)")
        }
        XCTAssertEqual(driver.counters.readErrors, 1)
    }

    /// A device that answers every read with 0xFF bytes (what another chip at 0x40 may send).
    private final class AllOnes: I2CDeviceModel {
        let address = I2CAddress(0x40)
        func transfer(write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
            for i in 0..<read.count { read[i] = 0xFF }
        }
    }

    func testIdentifyRefusesADeviceThatIsNoTouchImage() {
        let bus = SimulatedI2CBus()
        bus.attach(AllOnes())
        let driver = ICN8318Driver(bus: bus, panelWidth: 800, panelHeight: 480, timing: .immediate)
        XCTAssertThrowsError(try driver.identify()) { error in
            XCTAssertTrue("\(error)".contains("ICN8318 touch image"), "\(error)")
        }
        let real = SimulatedI2CBus()
        real.attach(ICN8318Model())
        XCTAssertEqual(
            try ICN8318Driver(bus: real, panelWidth: 800, panelHeight: 480, timing: .immediate).identify().chipName,
            "ICN8318")
    }
}
