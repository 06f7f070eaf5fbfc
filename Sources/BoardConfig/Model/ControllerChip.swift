import TouchCore

/// The supported touch controllers, by the names a board file uses (`chip = "ft6x36"`).
package enum ControllerChip: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// FocalTech FT6x06/FT6x36 (FT6206, FT6236, FT6336): 2 contacts.
    case ft6x36
    /// FocalTech FT5x06 family (FT5206, FT5336, FT5406, EDT panels): 5 contacts.
    case ft5x06
    /// Goodix GT911: 5 contacts, address 0x5D or 0x14 latched from INT at reset.
    case gt911
    /// Hynitron CST816S: 1 contact; sleeps off the bus after ~2 s idle.
    case cst816s
    /// A Linux input device (`/dev/input/eventN`) read through evdev: the kernel's driver keeps the
    /// panel (`device = "…"` or `name = "…"` instead of `bus`). Up to 10 contacts.
    case evdev

    /// The 7-bit address used when a board file gives none.
    package var defaultAddress: I2CAddress {
        switch self {
        case .ft6x36, .ft5x06: I2CAddress(0x38)
        case .gt911: I2CAddress(0x5D)
        case .cst816s: I2CAddress(0x15)
        case .evdev: I2CAddress(0)
        }
    }

    /// Other addresses the chip may answer at (GT911: 0x14 when INT was high at the end of reset).
    package var alternateAddresses: [I2CAddress] {
        switch self {
        case .gt911: [I2CAddress(0x14)]
        default: []
        }
    }

    /// The most simultaneous contacts the chip reports.
    package var maxContacts: Int {
        switch self {
        case .ft6x36: 2
        case .ft5x06: 5
        case .gt911: 5
        case .cst816s: 1
        case .evdev: 10
        }
    }

    package var description: String { rawValue }
}
