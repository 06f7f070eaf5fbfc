import TouchCore

/// What one GT911 status-and-points image says.
package struct GT911Report: Sendable, BitwiseCopyable, Equatable {
    /// The contacts down, raw chip coordinates. Empty when not ready or invalid.
    package var frame: TouchFrame
    /// Status bit 7: the buffer holds a new report. False means "nothing new" — never a release.
    package var isReady: Bool
    /// False when the image as a whole is rejected (count above the maximum).
    package var isValid: Bool
    /// Status bits 3:0 as read.
    package var reportedCount: Int
    /// The key byte when status bit 4 is set, else 0 (GDX `goodix_ts_report_key`).
    package var keys: UInt8
    package var rejectedOutOfPanel: Int
    package var rejectedInvalidID: Int
    package var rejectedTooMany: Int

    @inlinable package init(frame: TouchFrame) {
        self.frame = frame
        isReady = false
        isValid = true
        reportedCount = 0
        keys = 0
        rejectedOutOfPanel = 0
        rejectedInvalidID = 0
        rejectedTooMany = 0
    }
}

/// The pure GT911 decoder: the bytes read from 0x814E in, a report out. No I/O, no allocation,
/// never traps on any bytes.
///
/// Contract (`controllers.md` §3.2–3.3; no phantom actions):
/// - byte 0 is the status (0x814E). Bit 7 clear → `isReady == false`, empty frame: the
///   caller must treat it as "no new data", not as a release.
/// - ready with count 0 is the release of every contact (Tasmota #24942).
/// - a count above `maxPoints`, or records past the end of `bytes`, rejects the image.
/// - record i at `1 + 8 i`: track id (bits 3:0; bit 7 = pen, kept as a contact), X LE16, Y LE16,
///   size LE16 (→ `area`). A repeated id is dropped and counted; X ≥ `panelWidth` or
///   Y ≥ `panelHeight` is dropped and counted.
package enum GT911Decoder {
    @inlinable
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, at timestamp: Instant, maxPoints: Int, panelWidth: Int, panelHeight: Int
    ) -> GT911Report {
        var report = GT911Report(frame: TouchFrame(timestamp: timestamp))
        guard let status = bytes.first else {
            report.isValid = false
            return report
        }
        guard status & GT911Registers.statusReady != 0 else { return report }
        report.isReady = true
        let count = Int(status & GT911Registers.statusCountMask)
        report.reportedCount = count
        let limit = min(max(maxPoints, 0), GT911Registers.maxPointsLimit)
        let stride = GT911Registers.pointStride
        guard count <= limit, 1 + stride * count <= bytes.count else {
            report.isValid = false
            report.rejectedTooMany = 1
            return report
        }
        if status & GT911Registers.statusHaveKey != 0, 1 + stride * count < bytes.count {
            report.keys = bytes[1 + stride * count]
        }
        var i = 0
        while i < count {
            let base = 1 + stride * i
            i += 1
            let id = bytes[base] & 0x0F
            if report.frame.contact(withID: id) != nil {
                report.rejectedInvalidID += 1
                continue
            }
            let x = Int(bytes[base + 1]) | Int(bytes[base + 2]) << 8
            let y = Int(bytes[base + 3]) | Int(bytes[base + 4]) << 8
            let size = UInt16(bytes[base + 5]) | UInt16(bytes[base + 6]) << 8
            guard x < panelWidth, y < panelHeight else {
                report.rejectedOutOfPanel += 1
                continue
            }
            report.frame.append(Contact(id: id, position: Point(x: Double(x), y: Double(y)), pressure: 0, area: size))
        }
        return report
    }
}
