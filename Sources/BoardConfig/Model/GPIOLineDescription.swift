/// One GPIO line through the character device (libgpiod): a chip and an offset, never a sysfs number.
///
/// Written inline in a board file: `{ chip = "pinctrl-bcm2711", line = 17, active_low = false }`.
package struct GPIOLineDescription: Sendable, Equatable, Hashable {
    /// The chip's label (`pinctrl-bcm2711`, `pinctrl-rp1`, …) or a device path (`/dev/gpiochip0`).
    package var chip: String
    /// The line offset on that chip (0…1023).
    package var line: Int
    /// True when the line's active level is low (logical 1 = electrical low).
    package var activeLow: Bool

    package init(chip: String, line: Int, activeLow: Bool = false) {
        self.chip = chip
        self.line = line
        self.activeLow = activeLow
    }

    /// True when `chip` names a device node rather than a label.
    package var chipIsPath: Bool { chip.hasPrefix("/") }
}
