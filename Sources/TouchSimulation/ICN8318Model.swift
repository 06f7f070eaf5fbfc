import TouchCore
import TouchDrivers

/// A register-level model of a Chipone ICN8318 (`controllers.md` §5).
///
/// Wire: 8-bit register pointer, auto-increment. The touch image at 0x10: soft-button byte,
/// record count, then five 7-byte records (slot, X and Y big-endian, width, event). A finger that
/// lifts is reported once more with event 4 (end) and its last coordinates, which a driver must
/// not take as a contact. POWER (0x04) = 2 hibernates the chip: it NACKs until its wake line
/// (`setReset`) is pulsed. Every presented change pulses INT.
///
/// Single-threaded.
package final class ICN8318Model: I2CDeviceModel, TouchPresenting {
    package let address: I2CAddress
    package var onInterrupt: ((Instant) -> Void)?
    /// The instant INT is pulsed at (the world's clock).
    package var clock: any TouchClock = StandingClock()
    /// Loads the next image with this soft-button byte (a button under the glass held).
    package var nextSoftButton: UInt8 = 0
    package private(set) var registers = [UInt8](repeating: 0, count: 256)
    package private(set) var pointer: UInt8 = 0
    /// Wake line low (held asleep).
    package private(set) var isInReset = false
    /// Slot → last coordinates of the contacts down.
    private var down: [(slot: UInt8, x: Int, y: Int)] = []

    package init(address: I2CAddress = I2CAddress(ICN8318Registers.address)) {
        self.address = address
    }

    /// True while POWER says hibernate.
    package var isHibernating: Bool { registers[Int(ICN8318Registers.power)] == ICN8318Registers.powerHibernate }

    /// The wake line: held low the chip is off the bus; raising it wakes the chip (POWER active).
    package func setReset(_ active: Bool) {
        isInReset = active
        if !active { registers[Int(ICN8318Registers.power)] = ICN8318Registers.powerActive }
    }

    /// Loads `contacts` as the next image: a record per contact down (event 2 when new, 3 when it
    /// stays), one end record (event 4) per contact that lifted. A cancel lifts every contact.
    package func present(_ contacts: TouchFrame) {
        var records: [(slot: UInt8, x: Int, y: Int, event: UInt8)] = []
        var next: [(slot: UInt8, x: Int, y: Int)] = []
        if !contacts.isCancel {
            for i in 0..<contacts.count where next.count < ICN8318Registers.maxPoints {
                let c = contacts[i]
                let slot = c.id % UInt8(ICN8318Registers.maxPoints)
                guard !next.contains(where: { $0.slot == slot }) else { continue }
                let x = Int(max(0, min(c.position.x.isFinite ? c.position.x.rounded() : 0, 65535)))
                let y = Int(max(0, min(c.position.y.isFinite ? c.position.y.rounded() : 0, 65535)))
                let stays = down.contains { $0.slot == slot }
                records.append((slot, x, y, stays ? ICN8318Registers.Event.update2 : ICN8318Registers.Event.update1))
                next.append((slot, x, y))
            }
        }
        for d in down where !next.contains(where: { $0.slot == d.slot }) && records.count < ICN8318Registers.maxPoints {
            records.append((d.slot, d.x, d.y, ICN8318Registers.Event.end))
        }
        guard !records.isEmpty || !down.isEmpty else { return }
        down = next
        let base = Int(ICN8318Registers.touchData)
        for r in base..<(base + ICN8318Registers.imageLength) { registers[r] = 0 }
        registers[base + ICN8318Registers.softButtonOffset] = nextSoftButton
        registers[base + ICN8318Registers.countOffset] = UInt8(records.count)
        for (i, r) in records.enumerated() {
            let at = base + ICN8318Registers.firstRecordOffset + i * ICN8318Registers.recordLength
            registers[at] = r.slot
            registers[at + 1] = UInt8(r.x >> 8)
            registers[at + 2] = UInt8(r.x & 0xFF)
            registers[at + 3] = UInt8(r.y >> 8)
            registers[at + 4] = UInt8(r.y & 0xFF)
            registers[at + 5] = 8
            registers[at + 6] = r.event
        }
        onInterrupt?(clock.now)
    }

    package func transfer(write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        if isInReset || isHibernating {
            throw I2CError.noAcknowledge(address: address, errno: SimulatedI2CBus.nackErrno)
        }
        var p = pointer
        if let first = write.first {
            p = first
            for v in write.dropFirst() {
                if p == ICN8318Registers.power { registers[Int(p)] = v }
                p &+= 1
            }
        }
        for i in 0..<read.count {
            read[i] = registers[Int(p)]
            p &+= 1
        }
        pointer = p
    }
}
