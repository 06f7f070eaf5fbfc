import TouchCore

/// What one CST816 touch read says.
package struct CST816Report: Sendable, BitwiseCopyable, Equatable {
    /// At most one contact (id 0), raw chip coordinates.
    package var frame: TouchFrame
    /// False when the finger count is above the maximum (0xFF after disabling auto-sleep on some
    /// CST816T, SL-CST) or the image is short: drop it, do not read it as a release.
    package var isValid: Bool
    /// The on-chip gesture code (`CST816Registers.Gesture`), raw.
    package var gestureID: UInt8
    package var reportedCount: Int
    package var rejectedOutOfPanel: Int
    package var rejectedTooMany: Int

    @inlinable package init(frame: TouchFrame) {
        self.frame = frame
        isValid = true
        gestureID = 0
        reportedCount = 0
        rejectedOutOfPanel = 0
        rejectedTooMany = 0
    }
}

/// The pure CST816 decoder: the 6 bytes read from 0x01 in, a report out. No I/O, no
/// allocation, never traps.
///
/// Contract (`controllers.md` §4.3): count 0 → empty frame (the finger is up); count > 1 (incl.
/// 0xFF) → invalid; event lift (1) or none (3) → no contact, coordinates ignored (we
/// never take coordinates from a lift record); X ≥ `panelWidth` / Y ≥ `panelHeight` → dropped
/// and counted. The contact always has id 0.
package enum CST816Decoder {
    @inlinable
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, at timestamp: Instant, panelWidth: Int, panelHeight: Int
    )
        -> CST816Report
    {
        var report = CST816Report(frame: TouchFrame(timestamp: timestamp))
        guard bytes.count >= CST816Registers.imageLength else {
            report.isValid = false
            report.rejectedTooMany = 1
            return report
        }
        report.gestureID = bytes[0]
        let count = Int(bytes[CST816Registers.fingerCountOffset])
        report.reportedCount = count
        guard count <= CST816Registers.maxPoints else {
            report.isValid = false
            report.rejectedTooMany = 1
            return report
        }
        guard count == 1 else { return report }
        let xh = bytes[CST816Registers.xHighOffset]
        let event = xh >> 6
        guard event == 0 || event == 2 else { return report }
        let x = Int(xh & 0x0F) << 8 | Int(bytes[CST816Registers.xLowOffset])
        let y = Int(bytes[CST816Registers.yHighOffset] & 0x0F) << 8 | Int(bytes[CST816Registers.yLowOffset])
        guard x < panelWidth, y < panelHeight else {
            report.rejectedOutOfPanel = 1
            return report
        }
        report.frame.append(Contact(id: 0, x: Double(x), y: Double(y)))
        return report
    }
}
