import TouchCore

/// Where the controller is: the simulated bus or an I2C adapter's device node.
package enum ControllerBus: Sendable, Equatable, Hashable {
    /// `bus = "sim"`: register-level models behind a simulated bus (see `SimulationDescription`).
    case simulated
    /// `bus = "/dev/i2c-1"`: a Linux I2C adapter.
    case device(String)
    /// `chip = "evdev"`: a Linux input device, by node or by name.
    case input(InputDeviceSelector)
}

/// How a board names its input device (`chip = "evdev"`).
package enum InputDeviceSelector: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// `device = "/dev/input/event3"` (or a `/dev/input/by-path`, `by-id` link).
    case path(String)
    /// `name = "…"`: the device whose name (`EVIOCGNAME`) is this, or the only one containing it.
    case name(String)

    package var description: String {
        switch self {
        case .path(let p): p
        case .name(let n): "the input device named \"\(n)\""
        }
    }
}

/// A quarter-turn rotation of the panel's coordinates, clockwise, in degrees.
package enum PanelRotation: Int, Sendable, Equatable, CaseIterable {
    case degrees0 = 0
    case degrees90 = 90
    case degrees180 = 180
    case degrees270 = 270
}

/// The touch controller and its wiring (`[controller]`).
///
/// Orientation follows Linux `touchscreen_report_pos` and Zephyr `input_touchscreen_report_pos`:
/// `invert_x` / `invert_y` apply to the chip's raw axes, then `swap_xy`, then `rotation`.
/// The result is in panel pixels, the coordinates of traces and regions.
package struct ControllerDescription: Sendable, Equatable {
    /// The I2C chip, nil for an input device (`chip = "evdev"`).
    package var chip: ControllerChip? { input.chip }

    /// What `chip = "…"` names: an I2C controller family or a Linux input device.
    package var input: TouchInputKind
    package var bus: ControllerBus
    /// The 7-bit address: the board's `address`, or the chip's default; nil for an input device.
    package var address: I2CAddress?
    /// The INT line; nil when not wired (then the driver polls every `pollIntervalMilliseconds`).
    package var interrupt: GPIOLineDescription?
    /// The reset line; nil when not wired. `active_low` defaults to true for reset (all supported chips' RSTN).
    package var reset: GPIOLineDescription?
    /// Polling period without an INT line, 1…100 ms (default 10).
    package var pollIntervalMilliseconds: Int
    package var rotation: PanelRotation
    package var swapXY: Bool
    package var invertX: Bool
    package var invertY: Bool
    /// tslib pointercal coefficients `a0 … a6` (`calibration = [...]`), applied after swap and
    /// before rotation; nil for none.
    package var calibration: [Double]?
    /// Release watchdog (`release_timeout_ms`, 0 = off, default 10000): contacts still down with no
    /// fresh report for this long are cancelled (fbtft #376).
    package var releaseTimeoutMilliseconds: Int
    /// Minimum contact duration (`min_contact_ms`, default 0 = off): shorter contacts never reach
    /// the recognizers (rpi/linux #7638, zero-duration ghosts).
    package var minContactMilliseconds: Int
    /// FocalTech PERIOD_ACTIVE (0x88) value to write (`report_rate`, 1…255); nil leaves the chip's.
    package var reportRate: Int?
    /// `grab = true` (evdev only): take the input device exclusively (`EVIOCGRAB`), so the UI no
    /// longer receives its touches. Default false: passive, the UI keeps every touch.
    package var grab: Bool = false

    package init(
        input: TouchInputKind, bus: ControllerBus, address: I2CAddress? = nil, interrupt: GPIOLineDescription? = nil,
        reset: GPIOLineDescription? = nil, pollIntervalMilliseconds: Int = 10, rotation: PanelRotation = .degrees0,
        swapXY: Bool = false, invertX: Bool = false, invertY: Bool = false, calibration: [Double]? = nil,
        releaseTimeoutMilliseconds: Int = 10_000, minContactMilliseconds: Int = 0, reportRate: Int? = nil
    ) {
        self.calibration = calibration
        self.releaseTimeoutMilliseconds = releaseTimeoutMilliseconds
        self.minContactMilliseconds = minContactMilliseconds
        self.reportRate = reportRate
        self.input = input
        self.bus = bus
        self.address = input.chip.map { address ?? $0.defaultAddress }
        self.interrupt = interrupt
        self.reset = reset
        self.pollIntervalMilliseconds = pollIntervalMilliseconds
        self.rotation = rotation
        self.swapXY = swapXY
        self.invertX = invertX
        self.invertY = invertY
    }
}
