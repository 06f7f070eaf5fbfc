import TouchCore
import TouchDrivers

/// A register-level model of a Goodix GT911 (`controllers.md` §3).
///
/// Wire: 16-bit register address high byte first, auto-increment; a write `{hi, lo, data…}`
/// stores data. Status 0x814E: bit 7 ready, bits 3:0 count; the host clears it by writing 0x00.
/// A new report is loaded into 0x814E… only while the ready bit is clear — a host that never
/// clears keeps reading the same report (GDX "write 0 after every IRQ").
///
/// Fault knobs: `readyLagMicroseconds` (ready bit set that long after the INT, GDX "around
/// 10 ms"); `spuriousInterruptAfterLift` (a second INT with no data after a release, GDX);
/// `wrongAddressAfterReset` (latches the other address, like a floating INT). While held in
/// reset the chip NACKs (`isInReset`). Time comes from `clock`.
///
/// Single-threaded.
package final class GT911Model: I2CDeviceModel, TouchPresenting {
    package private(set) var address: I2CAddress
    package var clock: any TouchClock
    /// Called when the chip pulses INT (a report loaded, or a spurious pulse).
    package var onInterrupt: ((Instant) -> Void)?
    package var readyLagMicroseconds: Int64 = 0
    package var spuriousInterruptAfterLift = false
    package var wrongAddressAfterReset = false
    package private(set) var isInReset = false
    /// Points the model reports (GT911: 5).
    package let maxPoints = GT911Registers.maxPoints
    package private(set) var registers = [UInt8](repeating: 0, count: 0x1_0000)
    package private(set) var pointer: UInt16 = 0
    package private(set) var interruptCount = 0
    package private(set) var clearCount = 0

    private var pending: TouchFrame?
    private var pendingAt = Instant.zero
    private var lastPresentedDown = false

    package init(
        address: I2CAddress = I2CAddress(GT911Registers.addressINTLow), width: Int = 800, height: Int = 480,
        firmware: UInt16 = 0x1060, clock: any TouchClock = StandingClock()
    ) {
        self.address = address
        self.clock = clock
        let id: [UInt8] = [0x39, 0x31, 0x31, 0x00]  // "911\0"
        for (i, b) in id.enumerated() { registers[Int(GT911Registers.productID) + i] = b }
        put16(GT911Registers.firmwareVersion, firmware)
        put16(GT911Registers.xResolution, UInt16(clamping: width))
        put16(GT911Registers.yResolution, UInt16(clamping: height))
        put16(GT911Registers.configXMax, UInt16(clamping: width))
        put16(GT911Registers.configYMax, UInt16(clamping: height))
        registers[Int(GT911Registers.configTouchNumber)] = UInt8(maxPoints)
        registers[Int(GT911Registers.configModuleSwitch1)] = 0x01  // falling edge
    }

    private func put16(_ reg: UInt16, _ v: UInt16) {
        registers[Int(reg)] = UInt8(v & 0xFF)
        registers[Int(reg) + 1] = UInt8(v >> 8)
    }

    /// The status byte as last loaded.
    package var status: UInt8 { registers[Int(GT911Registers.status)] }

    /// RST driven: `true` holds the chip in reset (it NACKs). On release the address is latched
    /// from `intHigh` (nil = floating: 0x5D here), or the other one with `wrongAddressAfterReset`.
    /// Returns the address latched (when released).
    @discardableResult
    package func setReset(_ active: Bool, intHigh: Bool?) -> I2CAddress {
        if active {
            isInReset = true
            return address
        }
        isInReset = false
        var high = intHigh ?? false
        if wrongAddressAfterReset { high.toggle() }
        address = I2CAddress(high ? GT911Registers.addressINTHigh : GT911Registers.addressINTLow)
        registers[Int(GT911Registers.status)] = 0
        pending = nil
        lastPresentedDown = false
        return address
    }

    package func present(_ contacts: TouchFrame) {
        let down = !contacts.isCancel && !contacts.isEmpty
        guard down || lastPresentedDown else { return }  // idle: the chip reports nothing
        var f = contacts
        if f.isCancel { f = TouchFrame(timestamp: f.timestamp) }
        pending = f
        pendingAt = clock.now
        interruptCount += 1
        onInterrupt?(pendingAt)
        if !down && spuriousInterruptAfterLift {
            interruptCount += 1
            onInterrupt?(pendingAt.advanced(byMicroseconds: 1_000))
        }
        lastPresentedDown = down
        commitIfDue()
    }

    /// Loads a pending report once the lag has passed and the host has cleared the status.
    private func commitIfDue() {
        guard let f = pending, clock.now.microseconds(since: pendingAt) >= readyLagMicroseconds,
            status & GT911Registers.statusReady == 0
        else { return }
        pending = nil
        let n = min(f.count, maxPoints)
        for i in 0..<n {
            let c = f[i]
            let base = Int(GT911Registers.firstPoint) + GT911Registers.pointStride * i
            let x = UInt16(clamping: Int(max(0, min(c.position.x.isFinite ? c.position.x.rounded() : 0, 65535))))
            let y = UInt16(clamping: Int(max(0, min(c.position.y.isFinite ? c.position.y.rounded() : 0, 65535))))
            registers[base] = c.id & 0x0F
            registers[base + 1] = UInt8(x & 0xFF)
            registers[base + 2] = UInt8(x >> 8)
            registers[base + 3] = UInt8(y & 0xFF)
            registers[base + 4] = UInt8(y >> 8)
            registers[base + 5] = UInt8(c.area & 0xFF)
            registers[base + 6] = UInt8(c.area >> 8)
            registers[base + 7] = 0
        }
        registers[Int(GT911Registers.status)] = GT911Registers.statusReady | UInt8(n)
    }

    package func transfer(write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        if isInReset { throw I2CError.noAcknowledge(address: address, errno: SimulatedI2CBus.nackErrno) }
        commitIfDue()
        var p = pointer
        if write.count >= 2 {
            p = UInt16(write[0]) << 8 | UInt16(write[1])
            var i = 2
            while i < write.count {
                if p == GT911Registers.status {
                    registers[Int(p)] = write[i]
                    clearCount += 1
                } else if p < GT911Registers.productID || p > GT911Registers.vendorID {
                    registers[Int(p)] = write[i]
                }
                p &+= 1
                i += 1
            }
        }
        if !read.isEmpty {
            for i in 0..<read.count {
                read[i] = registers[Int(p)]
                p &+= 1
            }
        }
        pointer = p
        if write.count > 2 { commitIfDue() }
    }
}
