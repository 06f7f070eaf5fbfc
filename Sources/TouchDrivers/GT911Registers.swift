/// Register map of the Goodix GT911 (`controllers.md` §3). 16-bit register addresses, sent
/// high byte first, one combined write-then-read per read (GDX `goodix_i2c_read`).
///
/// Citations: GDX = Linux `drivers/input/touchscreen/goodix.c` / `goodix.h`; Z-GT = Zephyr
/// `drivers/input/input_gt911.c`; SL-GT = SensorLib `TouchDrvGT911`; LV-GT = lvgl_esp32_drivers `gt911`.
package enum GT911Registers {
    /// Command register (write-only): 0x05 screen off (goodix.h `GOODIX_CMD_SCREEN_OFF`).
    package static let command: UInt16 = 0x8040
    /// Start of the 186-byte configuration block / config version (goodix.h `GOODIX_GT9X_REG_CONFIG_DATA`).
    package static let configStart: UInt16 = 0x8047
    /// X output max, LE16 (GDX `config[RESOLUTION_LOC]`).
    package static let configXMax: UInt16 = 0x8048
    /// Y output max, LE16.
    package static let configYMax: UInt16 = 0x804A
    /// Touch number, bits 3:0 (GDX `config[MAX_CONTACTS_LOC]`).
    package static let configTouchNumber: UInt16 = 0x804C
    /// Module switch 1: bits 1:0 INT trigger 0 rising, 1 falling, 2 low, 3 high (GDX `goodix_irq_flags`).
    package static let configModuleSwitch1: UInt16 = 0x804D
    /// Refresh rate: period = 5 + N ms (SL-GT `GT911_BASE_REF_RATE`).
    package static let configRefreshRate: UInt16 = 0x8056
    /// Product id, 4 ASCII bytes: "911\0" (GDX `goodix_read_version`, Z-GT compares 0x00313139).
    package static let productID: UInt16 = 0x8140
    /// Firmware version, LE16 (GDX `get_unaligned_le16(&buf[4])`).
    package static let firmwareVersion: UInt16 = 0x8144
    /// X resolution, LE16 (LV-GT, SL-GT).
    package static let xResolution: UInt16 = 0x8146
    /// Y resolution, LE16.
    package static let yResolution: UInt16 = 0x8148
    /// Vendor id (LV-GT).
    package static let vendorID: UInt16 = 0x814A
    /// Bytes read by identification: 0x8140…0x814A.
    package static let identificationLength = 11
    /// Status / point info: bit 7 buffer ready, bit 4 have key, bits 3:0 point count (goodix.h
    /// `GOODIX_READ_COOR_ADDR`, `GOODIX_BUFFER_STATUS_READY`, `GOODIX_HAVE_KEY`). The host writes
    /// 0x00 here after every read (GDX `goodix_ts_irq_handler`), or the chip never sets ready again.
    package static let status: UInt16 = 0x814E
    /// Buffer-ready bit of `status`.
    package static let statusReady: UInt8 = 0x80
    /// Have-key bit of `status`.
    package static let statusHaveKey: UInt8 = 0x10
    /// Point-count mask of `status`.
    package static let statusCountMask: UInt8 = 0x0F
    /// First point record; point i at `0x814F + 8 i` (Z-GT `struct gt911_point_reg`).
    package static let firstPoint: UInt16 = 0x814F
    /// Bytes per point: track id, X LE16, Y LE16, size LE16, reserved.
    package static let pointStride = 8
    /// Points a GT911 reports (SL-GT `MAX_FINGER_NUM 5`).
    package static let maxPoints = 5
    /// Largest count any GT9xx reports (goodix.h `GOODIX_MAX_CONTACTS 10`).
    package static let maxPointsLimit = 10
    /// Bytes of the touch image from 0x814E: status, `maxPoints` records, the key byte.
    @inlinable package static func imageLength(maxPoints: Int) -> Int {
        1 + pointStride * min(max(maxPoints, 1), maxPointsLimit) + 1
    }
    /// The two 7-bit addresses: 0x5D when INT is low at the end of reset, 0x14 when high (GDX comment
    /// "HIGH: 0x28/0x29, LOW: 0xBA/0xBB").
    package static let addressINTLow: UInt16 = 0x5D
    package static let addressINTHigh: UInt16 = 0x14

    // Reset timings (GDX `goodix_reset_no_int_sync` / `goodix_int_sync`), microseconds.
    /// RST low before INT is set: "T2: > 10ms" (kernel sleeps 20 ms).
    package static let resetAssertMicroseconds: Int64 = 20_000
    /// INT level set before RST rises: "T3: > 100us".
    package static let intSetupMicroseconds: Int64 = 200
    /// After RST rises, INT held: "T4: > 5ms".
    package static let resetReleaseMicroseconds: Int64 = 10_000
    /// INT low before it becomes an input: "T5: 50ms".
    package static let intSyncMicroseconds: Int64 = 50_000
    /// How long the host polls for the ready bit after an INT: `GOODIX_BUFFER_STATUS_TIMEOUT` 20 ms,
    /// "not set as soon as the interrupt is raised, but slightly after … around 10 ms".
    package static let readyTimeoutMicroseconds: Int64 = 20_000
    /// Poll step while waiting for ready (GDX `usleep_range(1000, 2000)`).
    package static let readyPollMicroseconds: Int64 = 1_000
}
