import Gestures

/// What a binding does to its GPIO line.
package enum BindingAction: Sendable, Equatable, Hashable {
    /// Drive the line active for this many milliseconds (1…60000), then inactive. A new
    /// trigger during a pulse restarts the pulse from the new instant.
    case pulse(milliseconds: Int)
    /// Active from `began` until `ended` or `cancelled` (continuous recognizers only).
    case hold
    /// Flip the line's level.
    case toggle

    /// Its entry in the registry of binding actions.
    package var kind: BindingActionKind {
        switch self {
        case .pulse: .pulse
        case .hold: .hold
        case .toggle: .toggle
        }
    }
}

/// The recognizer state that triggers a `pulse` or `toggle` (the event `state` names of `formats.md` §2).
package enum BindingState: String, Sendable, Equatable, Hashable, CaseIterable {
    case began, changed, ended, cancelled, recognized

    /// The engine's state with the same name.
    package var gestureState: GestureState {
        switch self {
        case .began: .began
        case .changed: .changed
        case .ended: .ended
        case .cancelled: .cancelled
        case .recognized: .recognized
        }
    }
}

/// One `[[binding]]`: a recognizer (or a control region's default action) driving a GPIO line.
///
/// ```toml
/// [[binding]]
/// recognizer = "double-tap"    # a [[recognizer]] name, or a region with control = true
/// action = "pulse"             # pulse | hold | toggle
/// pulse_ms = 200               # pulse only: 1…60000, default 100
/// state = "recognized"         # pulse/toggle only; default: recognized (tap, swipe, checkmark,
///                              # control) or began (long_press, pan, pinch, rotation)
/// gpio = { chip = "pinctrl-bcm2711", line = 17, active_low = false }  # chip "sim": in memory
/// initial = false              # the line's level when the service starts (true = active)
/// ```
///
/// Invariants after `BoardLoader`: `recognizer` names a recognizer or a control region; `state`
/// is nil exactly for `.hold`, and is a state that recognizer's kind emits; bindings sharing a
/// line agree on `active_low` and `initial`; no binding uses the controller's interrupt or reset line.
package struct BindingDescription: Sendable, Equatable {
    package var recognizer: String
    /// The triggering state for `.pulse` and `.toggle`; nil for `.hold`.
    package var state: BindingState?
    package var action: BindingAction
    package var line: GPIOLineDescription
    /// The line's level at start (true = active). On every exit the line returns to inactive.
    package var initialActive: Bool

    package init(
        recognizer: String, state: BindingState?, action: BindingAction, line: GPIOLineDescription,
        initialActive: Bool = false
    ) {
        self.recognizer = recognizer
        self.state = state
        self.action = action
        self.line = line
        self.initialActive = initialActive
    }

    /// The chip name that selects the in-memory GPIO chip (no hardware): `gpio = { chip = "sim", … }`.
    package static let simulatedChip = "sim"
    /// How many lines the in-memory chip has (offsets 0…63); `validate` rejects others as `run` would.
    package static let simulatedChipLines = 64
}
