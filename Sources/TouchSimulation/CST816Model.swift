import TouchCore
import TouchDrivers

/// A register-level model of a Hynitron CST816S (`controllers.md` §4).
///
/// Wire: 8-bit register pointer, auto-increment. Touch image at 0x01…0x06 (gesture, count,
/// XH with the event in bits 7:6, XL, YH, YL); a lift loads count 0 with a lift record carrying
/// the last coordinates (which a driver must not use). CHIP_ID 0xA7, PROJ_ID 0xA8, FW 0xA9.
///
/// Auto-sleep (esphome #6293): after `autoSleepMicroseconds` with no finger down the chip
/// NACKs everything until a touch (`present` with a contact) or a reset wakes it. Writing a
/// non-zero DIS_AUTO_SLEEP (0xFE) disables that, unless the knob `ignoresAutoSleepDisable`
/// is set (parts that ignore it). Time comes from `clock`.
///
/// Single-threaded.
package final class CST816Model: I2CDeviceModel, TouchPresenting {
    package let address: I2CAddress
    package var clock: any TouchClock
    package var onInterrupt: ((Instant) -> Void)?
    package var ignoresAutoSleepDisable = false
    package var autoSleepMicroseconds: Int64 = CST816Registers.autoSleepMicroseconds
    /// Gesture code loaded with the next present (raw, `CST816Registers.Gesture`).
    package var nextGesture: UInt8 = 0
    package private(set) var registers = [UInt8](repeating: 0, count: 256)
    package private(set) var pointer: UInt8 = 0
    package private(set) var isInReset = false
    package private(set) var nackedWhileAsleep = 0
    private var lastActivity: Instant
    private var fingerDown = false
    private var lastX = 0, lastY = 0

    package init(
        address: I2CAddress = I2CAddress(CST816Registers.address), chipID: UInt8 = 0xB4, firmware: UInt8 = 0x02,
        clock: any TouchClock = StandingClock()
    ) {
        self.address = address
        self.clock = clock
        lastActivity = clock.now
        registers[Int(CST816Registers.chipID)] = chipID
        registers[Int(CST816Registers.chipID) + 1] = 0x00
        registers[Int(CST816Registers.chipID) + 2] = firmware
    }

    /// True when auto-sleep is enabled (DIS_AUTO_SLEEP zero, or ignored).
    package var autoSleepEnabled: Bool {
        ignoresAutoSleepDisable || registers[Int(CST816Registers.disableAutoSleep)] == 0
    }

    /// True when the chip is off the bus now.
    package var isAsleep: Bool {
        autoSleepEnabled && !fingerDown && clock.now.microseconds(since: lastActivity) >= autoSleepMicroseconds
    }

    /// RST driven. Release wakes the chip and restores the power-on registers (auto-sleep on).
    package func setReset(_ active: Bool) {
        isInReset = active
        if !active {
            registers[Int(CST816Registers.disableAutoSleep)] = 0
            registers[Int(CST816Registers.irqControl)] = 0
            for r in 0x01...0x06 { registers[r] = 0 }
            fingerDown = false
            lastActivity = clock.now
        }
    }

    package func present(_ contacts: TouchFrame) {
        let now = clock.now
        let down = !contacts.isCancel && !contacts.isEmpty
        guard down || fingerDown else { return }
        registers[1] = nextGesture
        if down {
            let c = contacts[0]
            let x = Int(max(0, min(c.position.x.isFinite ? c.position.x.rounded() : 0, 4095)))
            let y = Int(max(0, min(c.position.y.isFinite ? c.position.y.rounded() : 0, 4095)))
            registers[2] = 1
            registers[3] = (fingerDown ? 2 : 0) << 6 | UInt8(x >> 8)
            registers[4] = UInt8(x & 0xFF)
            registers[5] = UInt8(y >> 8)
            registers[6] = UInt8(y & 0xFF)
            lastX = x
            lastY = y
        } else {
            registers[2] = 0
            registers[3] = 1 << 6 | UInt8(lastX >> 8)  // lift record, last coordinates
            registers[4] = UInt8(lastX & 0xFF)
            registers[5] = UInt8(lastY >> 8)
            registers[6] = UInt8(lastY & 0xFF)
        }
        fingerDown = down
        lastActivity = now
        onInterrupt?(now)
    }

    package func transfer(write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        if isInReset || isAsleep {
            if !isInReset { nackedWhileAsleep += 1 }
            throw I2CError.noAcknowledge(address: address, errno: SimulatedI2CBus.nackErrno)
        }
        var p = pointer
        if let first = write.first {
            p = first
            for v in write.dropFirst() {
                if p >= 0xEC { registers[Int(p)] = v }
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
