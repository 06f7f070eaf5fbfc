import TouchCore

/// What one FocalTech touch image says: the contacts down, plus what was thrown away.
///
/// Counters are per report (0 or more); a driver sums them. A plain value: no references,
/// no heap.
package struct FocalTechReport: Sendable, BitwiseCopyable, Equatable {
    /// The contacts down (press-down and contact records only), timestamped with the read instant.
    /// Empty when `isValid` is false.
    package var frame: TouchFrame
    /// False when the image as a whole cannot be trusted (TD_STATUS above the chip's
    /// maximum, or an image too short for its count). Such a frame must be dropped, not
    /// read as "all fingers up".
    package var isValid: Bool
    /// GEST_ID (0x01), `FocalTechRegisters.GestureID`; 0 when the image is too short.
    package var gestureID: UInt8
    /// TD_STATUS bits 3:0 as read (0…15), before any validation.
    package var reportedCount: Int
    /// Point records dropped because X ≥ panel width or Y ≥ panel height.
    package var rejectedOutOfPanel: Int
    /// Point records dropped for touch id 0x0F, or for repeating an id already in the frame.
    package var rejectedInvalidID: Int
    /// 1 when the whole image was rejected because TD_STATUS exceeded `maxPoints`, else 0.
    package var rejectedTooMany: Int

    @inlinable package init(
        frame: TouchFrame, isValid: Bool = true, gestureID: UInt8 = 0, reportedCount: Int = 0,
        rejectedOutOfPanel: Int = 0, rejectedInvalidID: Int = 0, rejectedTooMany: Int = 0
    ) {
        self.frame = frame
        self.isValid = isValid
        self.gestureID = gestureID
        self.reportedCount = reportedCount
        self.rejectedOutOfPanel = rejectedOutOfPanel
        self.rejectedInvalidID = rejectedInvalidID
        self.rejectedTooMany = rejectedTooMany
    }
}

/// The pure FocalTech touch-image decoder: bytes in, frame out, no I/O, no allocation.
///
/// Contract (`controllers.md` §1.2; no phantom actions):
/// - `bytes` is the image read from register 0x00: DEV_MODE, GEST_ID, TD_STATUS, then
///   6-byte point records.
/// - TD_STATUS (0x02, bits 3:0) is trusted: only that many records are read, so unused
///   slots — all 0x00 on some chips (event 0 "press down" at 0,0; Zephyr PR #69998) or all
///   0xFF on others — never become touches.
/// - A count above `maxPoints`, or one whose records lie beyond `bytes`, rejects the whole
///   image (`isValid == false`, `rejectedTooMany == 1`; the frame is empty).
/// - Within the count: event lift-up (1) and none (3) records give no contact — coordinates
///   are never taken from a lift record (rpi/linux PR #2207); touch id 0x0F and a repeated
///   id are dropped and counted; a point with X ≥ `panelWidth` or Y ≥ `panelHeight`
///   (12-bit raw controller coordinates) is dropped and counted.
/// - Contacts carry the record's weight as `pressure` and MISC bits 7:4 as `area`.
///
/// Never traps on any bytes. Real-time safe in the sense of no allocation and no locks.
package enum FocalTechDecoder {
    @inlinable
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, at timestamp: Instant, maxPoints: Int, panelWidth: Int, panelHeight: Int
    ) -> FocalTechReport {
        var report = FocalTechReport(frame: TouchFrame(timestamp: timestamp))
        let header = FocalTechRegisters.imageHeaderLength
        guard bytes.count >= header else {
            report.isValid = false
            report.rejectedTooMany = 1
            return report
        }
        report.gestureID = bytes[Int(FocalTechRegisters.gestureID)]
        let count = Int(bytes[Int(FocalTechRegisters.touchStatus)] & FocalTechRegisters.touchCountMask)
        report.reportedCount = count
        let limit = min(max(maxPoints, 0), FocalTechRegisters.maxPointsLimit)
        let stride = FocalTechRegisters.pointStride
        guard count <= limit, header + stride * count <= bytes.count else {
            report.isValid = false
            report.rejectedTooMany = 1
            return report
        }
        var slot = 0
        while slot < count {
            let base = header + stride * slot
            slot += 1
            let xh = bytes[base + FocalTechRegisters.pointXHigh]
            let yh = bytes[base + FocalTechRegisters.pointYHigh]
            let event = xh >> 6
            guard
                event == FocalTechRegisters.Event.pressDown.rawValue
                    || event == FocalTechRegisters.Event.contact.rawValue
            else { continue }
            let id = yh >> 4
            if id == FocalTechRegisters.invalidTouchID || report.frame.contact(withID: id) != nil {
                report.rejectedInvalidID += 1
                continue
            }
            let x = Int(xh & 0x0F) << 8 | Int(bytes[base + FocalTechRegisters.pointXLow])
            let y = Int(yh & 0x0F) << 8 | Int(bytes[base + FocalTechRegisters.pointYLow])
            guard x < panelWidth, y < panelHeight else {
                report.rejectedOutOfPanel += 1
                continue
            }
            let contact = Contact(
                id: id, position: Point(x: Double(x), y: Double(y)),
                pressure: UInt16(bytes[base + FocalTechRegisters.pointWeight]),
                area: UInt16(bytes[base + FocalTechRegisters.pointMisc] >> 4))
            report.frame.append(contact)
        }
        return report
    }
}
