import TouchCore

/// What one ICN8318 touch image says.
package struct ICN8318Report: Sendable, BitwiseCopyable, Equatable {
    /// The contacts down (event 2 or 3), raw chip coordinates; empty when `isValid` is false.
    package var frame: TouchFrame
    /// False when the image cannot be trusted: a soft button is pressed (the chip then leaves
    /// the records stale), the count is above 5, or the image is short.
    package var isValid: Bool
    /// The soft-button byte as read (0: none).
    package var softButton: UInt8
    package var reportedCount: Int
    package var rejectedOutOfPanel: Int
    package var rejectedInvalidID: Int
    package var rejectedTooMany: Int

    @inlinable package init(frame: TouchFrame) {
        self.frame = frame
        isValid = true
        softButton = 0
        reportedCount = 0
        rejectedOutOfPanel = 0
        rejectedInvalidID = 0
        rejectedTooMany = 0
    }
}

extension ICN8318Report: DecodedTouchReport {}

/// The pure ICN8318 decoder: the 37 bytes read from TOUCHDATA (0x10) in, a report out. No I/O,
/// no allocation, never traps.
///
/// Contract (`controllers.md` §5.2): a non-zero soft-button byte, a count above 5 or a short
/// image → invalid (dropped, never read as a release); within the count, event 2 or 3 gives a
/// contact whose id is the record's slot; event 4 (lifted) and 1 (no data) give none; a slot
/// above 4 or repeated is dropped and counted; X ≥ `panelWidth` or Y ≥ `panelHeight` is dropped
/// and counted.
package enum ICN8318Decoder {
    @inlinable
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, at timestamp: Instant, panelWidth: Int, panelHeight: Int
    ) -> ICN8318Report {
        var report = ICN8318Report(frame: TouchFrame(timestamp: timestamp))
        guard bytes.count >= ICN8318Registers.imageLength else {
            report.isValid = false
            report.rejectedTooMany = 1
            return report
        }
        report.softButton = bytes[ICN8318Registers.softButtonOffset]
        let count = Int(bytes[ICN8318Registers.countOffset])
        report.reportedCount = count
        guard report.softButton == 0 else {
            report.isValid = false
            return report
        }
        guard count <= ICN8318Registers.maxPoints else {
            report.isValid = false
            report.rejectedTooMany = 1
            return report
        }
        var seen: UInt8 = 0
        var i = 0
        while i < count {
            let at = ICN8318Registers.firstRecordOffset + i * ICN8318Registers.recordLength
            i += 1
            let event = bytes[at + 6]
            guard event == ICN8318Registers.Event.update1 || event == ICN8318Registers.Event.update2 else { continue }
            let slot = bytes[at]
            guard slot < UInt8(ICN8318Registers.maxPoints), seen & (1 << slot) == 0 else {
                report.rejectedInvalidID += 1
                continue
            }
            let x = Int(bytes[at + 1]) << 8 | Int(bytes[at + 2])
            let y = Int(bytes[at + 3]) << 8 | Int(bytes[at + 4])
            guard x < panelWidth, y < panelHeight else {
                report.rejectedOutOfPanel += 1
                continue
            }
            seen |= 1 << slot
            report.frame.append(Contact(id: slot, x: Double(x), y: Double(y)))
        }
        return report
    }
}
