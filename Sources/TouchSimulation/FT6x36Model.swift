import TouchCore
import TouchDrivers

/// A register-level model of a FocalTech FT6x36 (FT6206/FT6236/FT6336U) touch controller.
///
/// Wire behaviour (`controllers.md` §1.1): 8-bit register pointer, auto-increment on burst
/// reads (wrapping 0xFF → 0x00, an inference), a read with no write continues from the
/// current pointer, a write `{reg, value…}` stores bytes from `reg` on. The touch image
/// (0x00–0x0E) and the id registers (0xA1–0xA3, 0xA6, 0xA8, 0xAF) are read-only; writes to
/// them are ignored. A read that covers register 0x00 clears `interruptPending`.
///
/// Touch image: `present(_:)` loads a snapshot exactly as the chip would — at most 2 points
/// (extra contacts, and a repeated id, are not reported and are counted in `droppedContacts`); a new id gets event
/// press-down (0), a continuing id contact (2); an id that disappeared gets one lift-up (1)
/// record with its last coordinates, in the next report only. Points down come first and
/// TD_STATUS counts only them, so lift records sit in slots past the count (where a driver
/// that trusts TD_STATUS never looks). Unused slots are filled per `unusedSlotFill`.
/// Coordinates are rounded and clamped to 12 bits (0…4095); weight = pressure (clamped
/// to 255), MISC = area (clamped to 15) << 4.
///
/// Single-threaded, like `SimulatedI2CBus`.
package final class FT6x36Model: I2CDeviceModel {
    /// What unused point slots read as — real chips differ (Zephyr PR #69998 saw 0x00,
    /// EDT relies on 0xFF = event 3).
    package enum SlotFill: Sendable {
        /// All 0x00: event "press down", id 0, at (0, 0) — a phantom touch for a driver that ignores TD_STATUS.
        case zeros
        /// All 0xFF: event 3 "no event", id 0x0F.
        case ones
    }

    /// The most points an FT6x36 reports (LV-FT `FT6X36_MAX_TOUCH_PNTS 2`).
    package static let maxPoints = 2

    package let address: I2CAddress
    /// The 256-byte register file.
    package private(set) var registers: [UInt8]
    /// The register pointer (auto-incremented by reads and writes).
    package private(set) var pointer: UInt8 = 0
    /// Fault knob: what unused slots read as. Applies from the next `present`.
    package var unusedSlotFill: SlotFill
    /// Fault knob: reads that touch the id registers (0xA3, 0xA6, 0xA8) are NACKed, like
    /// clones that answer only the kernel's read sequence (rpi/linux #4881, #6298).
    package var nacksIdentificationReads = false
    /// Fault knob: the next report that lifts a finger is never loaded — the registers keep the
    /// last contact and INT stays quiet, as when a lift frame is lost (Tasmota #24942, fbtft #376).
    package var dropsNextLift = false
    /// Fault knob: the next `present` with contacts writes X = Y = 0xFFF (12-bit garbage, beyond any panel).
    package var garbageCoordinatesNext = false
    /// True while the chip is held in (or doing) a reset: every transfer NACKs.
    package private(set) var isInReset = false
    /// Lift reports swallowed by `dropsNextLift`.
    package private(set) var droppedLifts = 0
    /// Called when the chip pulses INT (a report with data loaded).
    package var onInterrupt: ((Instant) -> Void)?
    /// Set when `present` loads a report with data (points down or a lift record);
    /// cleared by a read that covers register 0x00. Stands for the INT line.
    package private(set) var interruptPending = false
    /// Contacts beyond `maxPoints` that `present` could not report.
    package private(set) var droppedContacts = 0
    /// Reports loaded by `present`.
    package private(set) var presentedCount = 0

    /// A point down in the current report, kept for the next lift record.
    private struct DownPoint {
        var id: UInt8 = 0
        var x = 0
        var y = 0
    }

    /// Fixed-size set of points down (no allocation per `present`).
    private struct DownSet {
        var points = InlineArray<2, DownPoint>(repeating: DownPoint())
        var count = 0

        func contains(_ id: UInt8) -> Bool {
            var i = 0
            while i < count {
                if points[i].id == id { return true }
                i += 1
            }
            return false
        }

        mutating func append(_ p: DownPoint) {
            guard count < 2 else { return }
            points[count] = p
            count += 1
        }
    }

    /// Points down in the current report.
    private var down = DownSet()

    package init(
        address: I2CAddress = I2CAddress(0x38), chipID: UInt8 = FocalTechRegisters.ChipIDValue.ft6336U,
        firmware: UInt8 = 0x10, vendor: UInt8 = FocalTechRegisters.vendorFocalTech, reportRate: UInt8 = 0x64,
        unusedSlotFill: SlotFill = .ones
    ) {
        self.address = address
        self.unusedSlotFill = unusedSlotFill
        registers = [UInt8](repeating: 0, count: 256)
        registers[Int(FocalTechRegisters.chipID)] = chipID
        registers[Int(FocalTechRegisters.firmwareID)] = firmware
        registers[Int(FocalTechRegisters.vendorID)] = vendor
        registers[Int(FocalTechRegisters.reportRate)] = reportRate
        registers[Int(FocalTechRegisters.threshold)] = 0x80
        registers[Int(FocalTechRegisters.interruptMode)] = FocalTechRegisters.interruptModePolling
        fillSlots(from: 0)
    }

    /// G_MODE (0xA4) as last written.
    package var interruptMode: UInt8 { registers[Int(FocalTechRegisters.interruptMode)] }

    private static func isReadOnly(_ register: UInt8) -> Bool {
        switch register {
        case 0x01...0x0E, 0xA1, 0xA2, 0xA3, 0xA6, 0xA8, 0xAF: return true
        default: return false
        }
    }

    private static func isIdentification(_ register: UInt8) -> Bool {
        register == FocalTechRegisters.chipID || register == FocalTechRegisters.firmwareID
            || register == FocalTechRegisters.vendorID
    }

    /// A controller reset (mid-gesture, say): while `active` the chip NACKs; on release the
    /// touch image reads empty, G_MODE and PERIOD_ACTIVE return to their power-on values, and
    /// the fingers known down are forgotten (no lift record is ever reported for them).
    package func setReset(_ active: Bool) {
        isInReset = active
        guard !active else { return }
        down = DownSet()
        registers[Int(FocalTechRegisters.touchStatus)] = 0
        registers[Int(FocalTechRegisters.interruptMode)] = FocalTechRegisters.interruptModePolling
        registers[Int(FocalTechRegisters.reportRate)] = 0x64
        fillSlots(from: 0)
        interruptPending = false
    }

    /// PERIOD_ACTIVE (0x88) as last written.
    package var reportRate: UInt8 { registers[Int(FocalTechRegisters.reportRate)] }

    package func transfer(write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        if isInReset { throw I2CError.noAcknowledge(address: address, errno: SimulatedI2CBus.nackErrno) }
        var p = pointer
        if let first = write.first {
            p = first
            for value in write.dropFirst() {
                if !Self.isReadOnly(p) { registers[Int(p)] = value }
                p &+= 1
            }
        }
        if !read.isEmpty {
            if nacksIdentificationReads {
                var q = p
                for _ in 0..<read.count {
                    if Self.isIdentification(q) { throw I2CError.noAcknowledge(address: address, errno: 121) }
                    q &+= 1
                }
            }
            var coversZero = false
            for i in 0..<read.count {
                if p == 0 { coversZero = true }
                read[i] = registers[Int(p)]
                p &+= 1
            }
            if coversZero { interruptPending = false }
        }
        pointer = p
    }

    /// Loads `contacts` as the chip's next report (see the type's documentation).
    /// A cancel frame is presented as "all fingers up" (a chip has no cancel).
    package func present(_ contacts: TouchFrame, gestureID: UInt8) {
        if dropsNextLift {
            var lifts = false
            for k in 0..<down.count where contacts.isCancel || contacts.contact(withID: down.points[k].id) == nil {
                lifts = true
            }
            if lifts {
                dropsNextLift = false
                droppedLifts += 1
                return
            }
        }
        presentedCount += 1
        let garbage = garbageCoordinatesNext && !contacts.isCancel && !contacts.isEmpty
        if garbage { garbageCoordinatesNext = false }
        var slot = 0
        var newDown = DownSet()
        let count = contacts.isCancel ? 0 : contacts.count
        for i in 0..<count {
            let c = contacts[i]
            guard slot < Self.maxPoints, !newDown.contains(c.id & 0x0F) else {
                droppedContacts += 1
                continue
            }
            let id = c.id & 0x0F
            let x = garbage ? 0xFFF : Self.coordinate(c.position.x)
            let y = garbage ? 0xFFF : Self.coordinate(c.position.y)
            let continuing = down.contains(id)
            let event: FocalTechRegisters.Event = continuing ? .contact : .pressDown
            writeRecord(
                slot: slot, event: event, id: id, x: x, y: y, weight: UInt8(min(c.pressure, 255)),
                area: UInt8(min(c.area, 15)))
            newDown.append(DownPoint(id: id, x: x, y: y))
            slot += 1
        }
        let pointsDown = slot
        for k in 0..<down.count where !newDown.contains(down.points[k].id) {
            guard slot < Self.maxPoints else { break }
            let old = down.points[k]
            writeRecord(slot: slot, event: .liftUp, id: old.id, x: old.x, y: old.y, weight: 0, area: 0)
            slot += 1
        }
        fillSlots(from: slot)
        registers[Int(FocalTechRegisters.deviceMode)] = 0
        registers[Int(FocalTechRegisters.gestureID)] = gestureID
        registers[Int(FocalTechRegisters.touchStatus)] = UInt8(pointsDown)
        if slot > 0 {
            interruptPending = true
            onInterrupt?(contacts.timestamp)
        }
        down = newDown
    }

    private static func coordinate(_ v: Double) -> Int {
        guard v.isFinite else { return 0 }
        return Int(min(max(v.rounded(), 0), 4095))
    }

    private func writeRecord(
        slot: Int, event: FocalTechRegisters.Event, id: UInt8, x: Int, y: Int, weight: UInt8, area: UInt8
    ) {
        let base = Int(FocalTechRegisters.firstPoint) + FocalTechRegisters.pointStride * slot
        registers[base + FocalTechRegisters.pointXHigh] = event.rawValue << 6 | UInt8((x >> 8) & 0x0F)
        registers[base + FocalTechRegisters.pointXLow] = UInt8(x & 0xFF)
        registers[base + FocalTechRegisters.pointYHigh] = id << 4 | UInt8((y >> 8) & 0x0F)
        registers[base + FocalTechRegisters.pointYLow] = UInt8(y & 0xFF)
        registers[base + FocalTechRegisters.pointWeight] = weight
        registers[base + FocalTechRegisters.pointMisc] = area << 4
    }

    private func fillSlots(from slot: Int) {
        let start = Int(FocalTechRegisters.firstPoint) + FocalTechRegisters.pointStride * slot
        let end = Int(FocalTechRegisters.firstPoint) + FocalTechRegisters.pointStride * Self.maxPoints
        let fill: UInt8 = unusedSlotFill == .zeros ? 0x00 : 0xFF
        var i = start
        while i < end {
            registers[i] = fill
            i += 1
        }
    }
}
