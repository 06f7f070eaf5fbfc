/// `[display]`: the screen sleeps after idle time, wakes on a touch that reaches nothing else,
/// and can be switched from outside (docs/formats.md §4, docs/kiosk.md).
package struct DisplayDescription: Sendable, Equatable {
    /// How the screen is switched.
    package enum Switch: Sendable, Equatable {
        /// `backlight = "NAME"`: `/sys/class/backlight/NAME` (`bl_power`, `brightness`).
        case backlight(name: String)
        /// `on_command` / `off_command`: programs run as exec bindings' are (spawner thread, `[exec]`).
        case commands(on: ExecCommand, off: ExecCommand)
    }

    /// `idle_off_s`: seconds without a touch before the screen goes off; 0 = never.
    package var idleOffSeconds: Int
    /// `idle_dim_s`: seconds without a touch before the screen dims (backlight only); nil = no dimming.
    package var idleDimSeconds: Int?
    /// `dim_brightness`: the dimmed brightness, percent of the device's `max_brightness` (1…100).
    package var dimBrightnessPercent: Int?
    /// `wake_guard_ms`: touches beginning this long after the screen is back are swallowed too (default 300).
    package var wakeGuardMilliseconds: Int
    package var switching: Switch
    /// `gpio = { chip, line, active_low }`: a line that follows the display (active while on or dimmed).
    package var gpio: GPIOLineDescription?
    /// `session = true`: `on_command`/`off_command` run in the user's session, started by
    /// `touchwire agent` on the event socket's `display` lines; the service never runs them.
    package var runsInSession: Bool

    package init(
        idleOffSeconds: Int, idleDimSeconds: Int? = nil, dimBrightnessPercent: Int? = nil,
        wakeGuardMilliseconds: Int = 300, switching: Switch, gpio: GPIOLineDescription? = nil,
        runsInSession: Bool = false
    ) {
        self.idleOffSeconds = idleOffSeconds
        self.idleDimSeconds = idleDimSeconds
        self.dimBrightnessPercent = dimBrightnessPercent
        self.wakeGuardMilliseconds = wakeGuardMilliseconds
        self.switching = switching
        self.gpio = gpio
        self.runsInSession = runsInSession
    }

    /// Where the wake touch cannot be hidden from the UI on `board` (a passive evdev reader: the UI
    /// reads the kernel's device itself), as one warning line; nil when touchwire can swallow it.
    /// The screen still sleeps and wakes there.
    package static func wakeTouchWarning(_ board: BoardDescription) -> String? {
        guard board.display != nil, let c = board.controller, c.input == .evdev, case .input = c.bus, !c.grab
        else { return nil }
        return "\(board.location): [display]: controller.grab = false reads the touchscreen passively, so the UI "
            + "receives the wake touch too (it may press what lies under the finger); the screen still sleeps "
            + "and wakes. Set grab = true with [passthrough] to swallow it (docs/kiosk.md)"
    }
}
