import Testing
import TouchCore
import TouchDrivers

/// FocalTech point records, one case per table row (`focalTechImage`, `record` and `decode` are
/// `FocalTechDecoderTests.swift`'s builders; docs/controllers.md, "FocalTech").
@Suite struct FocalTechRecordTests {
    /// Bits 7:6 of a record's first byte are its event: press down (0) and contact (2) are a
    /// finger on the panel; lift up (1) and none (3) are not, wherever their coordinates point.
    @Test(
        "a record's event bits decide whether it is a contact",
        arguments: [(event: 0, isContact: true), (1, false), (2, true), (3, false)] as [(UInt8, Bool)])
    func eventBits(event: UInt8, isContact: Bool) {
        let r = decode(focalTechImage(count: 1, records: [record(event: event, id: 0, x: 799, y: 479)]))
        #expect(r.isValid)
        #expect(r.frame.count == (isContact ? 1 : 0))
        #expect(r.rejectedInvalidID == 0 && r.rejectedOutOfPanel == 0)
    }

    /// Every value of TD_STATUS with ten records that all repeat one byte, whole and truncated:
    /// only bits 3:0 count, more than 10 (or records missing) rejects the image, and the records
    /// decode to what their byte says. 0x00: press-down id 0 at (0,0), later copies are repeated
    /// ids; 0x80: contact id 8 at (128,128); 0x3F: id 3 at x 3903, off the panel; 0x7F lift-up,
    /// 0xC0 and 0xFF event "none": no contact. Never traps on a short image.
    @Test(
        "records of one repeated byte, under every TD_STATUS",
        arguments: [(byte: 0x00, contactsPerRecord: 1), (0x3F, 0), (0x7F, 0), (0x80, 1), (0xC0, 0), (0xFF, 0)]
            as [(UInt8, Int)])
    func recordsOfOneByte(byte b: UInt8, contactsPerRecord perRecord: Int) {
        for status in 0...255 {
            var bytes = [UInt8](repeating: b, count: 3 + 6 * 10)
            bytes[2] = UInt8(status)
            let count = status & 0x0F
            let whole = decode(bytes, maxPoints: 10)
            let what = "TD_STATUS \(status)"
            #expect(whole.reportedCount == count, "\(what)")
            #expect(whole.isValid == (count <= 10), "\(what)")
            #expect(whole.rejectedTooMany == (count <= 10 ? 0 : 1), "\(what)")
            #expect(whole.frame.count == (count <= 10 ? min(count, perRecord) : 0), "\(what)")
            if whole.isValid && count > 0 {
                #expect(whole.rejectedInvalidID == (b == 0x00 || b == 0x80 ? count - 1 : 0), "\(what)")
                #expect(whole.rejectedOutOfPanel == (b == 0x3F ? count : 0), "\(what)")
            }
            let cut = Array(bytes.prefix(status % 20))
            let short = decode(cut, maxPoints: 10)
            let fits = cut.count >= 3 && count <= 10 && 3 + 6 * count <= cut.count
            #expect(short.isValid == fits, "\(what), \(cut.count) bytes")
            if !fits { #expect(short.frame.isEmpty, "\(what), \(cut.count) bytes") }
        }
    }
}
