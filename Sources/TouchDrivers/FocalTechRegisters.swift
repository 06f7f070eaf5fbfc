/// Register map of the FocalTech FT5x06 / FT5406 / FT6206 / FT6236 / FT6336 family
/// ("EDT polytouch"), as `controllers.md` §1 collects it.
///
/// Citations: EDT = Linux `drivers/input/touchscreen/edt-ft5x06.c`; LV-FT =
/// lvgl_esp32_drivers `lvgl_touch/ft6x36.h`; Z-FT = Zephyr `drivers/input/input_ft5336.c`;
/// ADA = Adafruit_FT6206_Library; ST-BSP = ST BSP `ft6x06.h`; FT6X36 = strange-v FT6X36 headers.
///
/// All registers are 8-bit addresses; burst reads auto-increment. The touch image is read
/// in one combined write-`{0x00}`-then-read transfer (EDT `edt_ft5x06_ts_readwrite`).
package enum FocalTechRegisters {
    // MARK: Touch image (read from 0x00)

    /// DEV_MODE: bits 6:4 mode, 0 = working, 4 = factory (LV-FT `FT6X36_DEV_MODE_*`).
    package static let deviceMode: UInt8 = 0x00
    /// GEST_ID: hardware gesture code, see `GestureID` (LV-FT, rpi-ft5406 `gesture_id`).
    package static let gestureID: UInt8 = 0x01
    /// TD_STATUS: bits 3:0 = number of touch points (LV-FT `FT6X36_TD_STAT_MASK`, Z-FT `TOUCH_POINTS_MSK`).
    package static let touchStatus: UInt8 = 0x02
    /// Mask of the point count in TD_STATUS.
    package static let touchCountMask: UInt8 = 0x0F
    /// P1_XH: first point record; point i starts at `firstPoint + pointStride * i` (EDT `offset = 3`).
    package static let firstPoint: UInt8 = 0x03
    /// Bytes per point record (EDT `tplen = 6`): XH, XL, YH, YL, WEIGHT, MISC.
    package static let pointStride = 6
    /// Bytes before the first point record: DEV_MODE, GEST_ID, TD_STATUS (EDT `offset = 3`).
    package static let imageHeaderLength = 3
    /// Offset of Pn_XH in a record: bits 7:6 event flag, bits 3:0 X[11:8] (EDT `TOUCH_EVENT_*`).
    package static let pointXHigh = 0
    /// Offset of Pn_XL in a record: X[7:0].
    package static let pointXLow = 1
    /// Offset of Pn_YH in a record: bits 7:4 touch id, bits 3:0 Y[11:8] (EDT `id = (buf[2] >> 4) & 0x0f`).
    package static let pointYHigh = 2
    /// Offset of Pn_YL in a record: Y[7:0].
    package static let pointYLow = 3
    /// Offset of Pn_WEIGHT in a record: touch weight (LV-FT `FT6X36_P1_WEIGHT_REG 0x07`).
    package static let pointWeight = 4
    /// Offset of Pn_MISC in a record: touch area in bits 7:4 (LV-FT `FT6X36_P1_MISC_REG 0x08`).
    package static let pointMisc = 5
    /// Touch id meaning "no point in this slot" (Z-FT `TOUCH_ID_INVALID 0x0F`, Zephyr PR #69998).
    package static let invalidTouchID: UInt8 = 0x0F
    /// The most points any family member reports (FT5506/FT5426: 10; EDT `rdbuf[63]`).
    package static let maxPointsLimit = 10
    /// Bytes to read from 0x00 for `maxPoints` points: `3 + 6 * maxPoints` (EDT `datalen = 6*max_support_points + 3`).
    @inlinable package static func imageLength(maxPoints: Int) -> Int {
        imageHeaderLength + pointStride * min(max(maxPoints, 0), maxPointsLimit)
    }

    /// The event flag in bits 7:6 of Pn_XH (EDT `TOUCH_EVENT_DOWN/UP/ON/RESERVED`, LV-FT `FT6X36_TOUCH_EVT_FLAG_*`).
    package enum Event: UInt8, Sendable {
        /// 0: the finger just went down.
        case pressDown = 0
        /// 1: the finger lifted; the record's coordinates are not to be trusted (rpi/linux PR #2207).
        case liftUp = 1
        /// 2: the finger stays down.
        case contact = 2
        /// 3: no event / reserved; EDT `continue`s on it.
        case none = 3
    }

    /// Hardware gesture codes in GEST_ID (LV-FT `FT6X36_GEST_ID_*`, ST-BSP `FT6X06_GEST_ID_*`).
    package enum GestureID {
        package static let none: UInt8 = 0x00
        package static let moveUp: UInt8 = 0x10
        package static let moveRight: UInt8 = 0x14
        package static let moveDown: UInt8 = 0x18
        package static let moveLeft: UInt8 = 0x1C
        package static let zoomIn: UInt8 = 0x48
        package static let zoomOut: UInt8 = 0x49
    }

    // MARK: Configuration and identification

    /// TH_GROUP: touch threshold (ADA default 128; EDT `M09_REGISTER_THRESHOLD 0x80`).
    package static let threshold: UInt8 = 0x80
    /// CTRL: 0 keep Active mode when idle, 1 auto-switch to Monitor mode (LV-FT).
    package static let control: UInt8 = 0x86
    /// TIME_ENTER_MONITOR: idle time before Active → Monitor (LV-FT).
    package static let timeEnterMonitor: UInt8 = 0x87
    /// PERIOD_ACTIVE: report rate in Active mode, 1…255; "0x64: 100Hz" (EDT `M12_REGISTER_REPORT_RATE 0x88`, LV-FT).
    package static let reportRate: UInt8 = 0x88
    /// PERIOD_MONITOR: report rate in Monitor mode (LV-FT, FT6X36).
    package static let reportRateMonitor: UInt8 = 0x89
    /// LIB version, high byte (LV-FT).
    package static let libraryVersionHigh: UInt8 = 0xA1
    /// LIB version, low byte (LV-FT).
    package static let libraryVersionLow: UInt8 = 0xA2
    /// CIPHER / chip id: 0x06 FT6206, 0x36 FT6236, 0x64 FT6236U / FT6336U (ADA, FT6X36).
    package static let chipID: UInt8 = 0xA3
    /// G_MODE: 0x00 interrupt polling mode, 0x01 interrupt trigger mode, mask 0x03
    /// (ST-BSP `FT6X06_G_MODE_INTERRUPT_POLLING/TRIGGER`).
    package static let interruptMode: UInt8 = 0xA4
    /// Power mode: 0 active, 1 monitor, 2 standby, 3 hibernate (FT6X36; EDT `PMOD_REGISTER_OPMODE 0xa5`).
    package static let powerMode: UInt8 = 0xA5
    /// Firmware id (LV-FT; EDT GENERIC reads it as the firmware version).
    package static let firmwareID: UInt8 = 0xA6
    /// Panel / vendor id: FocalTech = 0x11 (ADA checks `== 17`); EDT uses it as the model id.
    package static let vendorID: UInt8 = 0xA8
    /// Error status (FocalTech_Library).
    package static let errorStatus: UInt8 = 0xA9
    /// Release code (LV-FT).
    package static let releaseCode: UInt8 = 0xAF

    /// G_MODE value for interrupt polling mode (ST-BSP).
    package static let interruptModePolling: UInt8 = 0x00
    /// G_MODE value for interrupt trigger mode (ST-BSP).
    package static let interruptModeTrigger: UInt8 = 0x01

    /// Known CIPHER values (ADA newer header, FT6X36).
    package enum ChipIDValue {
        package static let ft6206: UInt8 = 0x06
        package static let ft6236: UInt8 = 0x36
        package static let ft6336U: UInt8 = 0x64
    }

    /// FocalTech's vendor id at 0xA8 (ADA `FT62XX_VENDID 0x11`).
    package static let vendorFocalTech: UInt8 = 0x11

    /// A chip name for a CIPHER value, nil when unknown.
    package static func chipName(forChipID id: UInt8) -> String? {
        switch id {
        case ChipIDValue.ft6206: return "FT6206"
        case ChipIDValue.ft6236: return "FT6236"
        case ChipIDValue.ft6336U: return "FT6336U"
        default: return nil
        }
    }
}
