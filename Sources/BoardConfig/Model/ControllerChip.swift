import TouchCore

/// The I2C touch controller families, by the names a board file uses (`chip = "ft6x36"`): the one
/// place a family is declared. The board reader's chip names and default addresses, the
/// `ControllerFactory`'s driver and simulated model (exhaustive switches: a new case does not
/// compile until it has both), `probe`'s candidate list and the check that every family is in
/// the docs' key tables (`ChipRegistryTests`) all come from here. CONTRIBUTING.md, "Adding a
/// chip family", lists the files a new family touches.
package enum ControllerChip: String, Sendable, Equatable, Hashable, CaseIterable, CustomStringConvertible {
    /// FocalTech FT6x06/FT6x36 (FT6206, FT6236, FT6336): 2 contacts.
    case ft6x36
    /// FocalTech FT5x06 family (FT5206, FT5336, FT5406, EDT panels): 5 contacts.
    case ft5x06
    /// Goodix GT911: 5 contacts, address 0x5D or 0x14 latched from INT at reset.
    case gt911
    /// Hynitron CST816S: 1 contact; sleeps off the bus after ~2 s idle.
    case cst816s
    /// Chipone ICN8318: 5 contacts, address 0x40; no identification register.
    case icn8318

    /// The 7-bit address used when a board file gives none.
    package var defaultAddress: I2CAddress {
        switch self {
        case .ft6x36, .ft5x06: I2CAddress(0x38)
        case .gt911: I2CAddress(0x5D)
        case .cst816s: I2CAddress(0x15)
        case .icn8318: I2CAddress(0x40)
        }
    }

    /// Other addresses the chip may answer at (GT911: 0x14 when INT was high at the end of reset).
    package var alternateAddresses: [I2CAddress] {
        switch self {
        case .gt911: [I2CAddress(0x14)]
        case .ft6x36, .ft5x06, .cst816s, .icn8318: []
        }
    }

    /// The most simultaneous contacts the chip reports.
    package var maxContacts: Int {
        switch self {
        case .ft6x36: 2
        case .ft5x06: 5
        case .gt911: 5
        case .cst816s: 1
        case .icn8318: 5
        }
    }

    /// The family as `probe` names it; chips that one probe identifies share it (FocalTech's
    /// FT5x06 and FT6x36 answer the same registers at the same address).
    package var probeName: String {
        switch self {
        case .ft6x36, .ft5x06: "FocalTech FT5x06/FT6x36"
        case .gt911: "Goodix GT911"
        case .cst816s: "Hynitron CST816"
        case .icn8318: "Chipone ICN8318"
        }
    }

    /// What `probe` adds when the chip does not answer, nil when nothing.
    package var probeHint: String? {
        switch self {
        case .cst816s: "a CST816 sleeps off the bus after ~2 s idle: touch the screen or wire its reset line and retry"
        case .ft6x36, .ft5x06, .gt911, .icn8318: nil
        }
    }

    /// True for the chips with a report-rate register (`report_rate`: FocalTech PERIOD_ACTIVE).
    package var hasReportRate: Bool {
        switch self {
        case .ft6x36, .ft5x06: true
        case .gt911, .cst816s, .icn8318: false
        }
    }

    package var description: String { rawValue }
}

/// What `[controller] chip = "…"` names: an I2C controller family, or a Linux input device the
/// kernel's driver keeps (`chip = "evdev"`, with `device = "…"` or `name = "…"` instead of `bus`).
/// An input device is a kind of input of its own, not a chip: it has no I2C address.
package enum TouchInputKind: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// An I2C touch controller read by touchwire's own driver.
    case controller(ControllerChip)
    /// A Linux input device (`/dev/input/eventN`) read through evdev. Up to 10 contacts.
    case evdev

    /// Every kind, in the order the board reader lists them.
    package static var allCases: [TouchInputKind] { ControllerChip.allCases.map { .controller($0) } + [.evdev] }

    /// The board file's name for an input device.
    package static let evdevName = "evdev"

    /// The kind a board's `chip` value names, nil for an unknown name.
    package init?(boardName: String) {
        if boardName == Self.evdevName {
            self = .evdev
        } else if let chip = ControllerChip(rawValue: boardName) {
            self = .controller(chip)
        } else {
            return nil
        }
    }

    /// The `chip` value of a board file.
    package var boardName: String {
        switch self {
        case .controller(let chip): chip.rawValue
        case .evdev: Self.evdevName
        }
    }

    /// The I2C chip, nil for an input device.
    package var chip: ControllerChip? {
        if case .controller(let chip) = self { chip } else { nil }
    }

    /// The most simultaneous contacts reported (an input device: 10, the kernel's usual slot count).
    package var maxContacts: Int {
        switch self {
        case .controller(let chip): chip.maxContacts
        case .evdev: 10
        }
    }

    package var description: String { boardName }
}
