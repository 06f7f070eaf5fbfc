/// Register map of the Hynitron CST816S / CST816T / CST816D (`controllers.md` §4). 8-bit
/// registers at 7-bit address 0x15.
///
/// Citations: Z-CST = Zephyr `drivers/input/input_cst816s.c` and `cst816s-gesture-codes.h`;
/// HYN8 = Linux `hynitron-cst816x.c`; SL-CST = SensorLib `TouchDrvCST816`; FBI = fbiego/CST816S.
package enum CST816Registers {
    /// The address (HYN8-DT `touchscreen@15`).
    package static let address: UInt16 = 0x15
    /// GESTURE_ID: first byte of the 6-byte touch read (HYN8 reads 6 bytes from 0x01).
    package static let gestureID: UInt8 = 0x01
    /// Bytes of the touch read from 0x01: gesture, finger count, XH, XL, YH, YL (HYN8, FBI).
    package static let imageLength = 6
    /// FINGER_NUM offset in the image; 0xFF = invalid (SL-CST: "Some CST816T will return all 0xFF
    /// after turning off automatic sleep").
    package static let fingerCountOffset = 1
    /// XPOS_H offset: bits 7:6 event (0 down, 1 lift, 2 contact, 3 none), bits 3:0 X[11:8] (Z-CST).
    package static let xHighOffset = 2
    package static let xLowOffset = 3
    /// YPOS_H offset: bits 3:0 Y[11:8].
    package static let yHighOffset = 4
    package static let yLowOffset = 5
    /// CHIP_ID (Z-CST); PROJ_ID at 0xA8 and FW_VERSION at 0xA9 follow (FBI reads 3 bytes from 0xA7).
    package static let chipID: UInt8 = 0xA7
    /// MOTION_MASK: bit 0 EnDClick (Z-CST).
    package static let motionMask: UInt8 = 0xEC
    /// IRQ_CTL: bit 6 EnTouch (periodic IRQ while touched), bit 5 EnChange, bit 4 EnMotion (Z-CST).
    package static let irqControl: UInt8 = 0xFA
    package static let irqEnableTouch: UInt8 = 0x40
    package static let irqEnableChange: UInt8 = 0x20
    /// DIS_AUTO_SLEEP: non-zero disables auto-sleep (SL-CST writes 0x01 after a reset).
    package static let disableAutoSleep: UInt8 = 0xFE
    /// The chip reports one contact ("CST816 only supports single touch", SL-CST).
    package static let maxPoints = 1

    /// CHIP_ID values (Z-CST; CST716 from SL-CST).
    package static func chipName(forChipID id: UInt8) -> String? {
        switch id {
        case 0xB4: "CST816S"
        case 0xB5: "CST816T"
        case 0xB6: "CST816D"
        case 0xB7: "CST820"
        case 0x20: "CST716"
        default: nil
        }
    }

    /// The on-chip gesture codes in GESTURE_ID (Z-CST `cst816s-gesture-codes.h`), kept as raw information.
    package enum Gesture {
        package static let none: UInt8 = 0x00
        package static let swipeUp: UInt8 = 0x01
        package static let swipeDown: UInt8 = 0x02
        package static let swipeLeft: UInt8 = 0x03
        package static let swipeRight: UInt8 = 0x04
        package static let singleClick: UInt8 = 0x05
        package static let doubleClick: UInt8 = 0x0B
        package static let longPress: UInt8 = 0x0C
    }

    /// Reset held active (Zephyr 5 ms; HYN8 50 ms — the longer one).
    package static let resetAssertMicroseconds: Int64 = 50_000
    /// Wait after reset before the first access (Zephyr 50 ms, HYN8 100 ms — the longer one).
    package static let resetReleaseMicroseconds: Int64 = 100_000
    /// Idle time after which the chip sleeps off the bus (esphome #6293: "after 2 seconds").
    package static let autoSleepMicroseconds: Int64 = 2_000_000
}
