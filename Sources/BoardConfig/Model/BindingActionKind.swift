/// The registry of binding actions a board file can name (`[[binding]] action`, `formats.md` §4).
///
/// Each action is declared here once: `family` sends its table to its reader (`BindingReader` for
/// GPIO lines, `CommandBindingReader` for key chords and programs), each reader switches
/// exhaustively over the actions of its family, `validate`'s messages list `allCases`, the read
/// actions map back here (`BindingAction.kind`, `CommandAction.kind`) and the service's factories
/// switch exhaustively over those, and `RegistryTests` checks that every action loads and has its
/// name and keys in `formats.md`. Adding an action: CONTRIBUTING.md, "Adding a binding action".
package enum BindingActionKind: Sendable, CaseIterable, Hashable, CustomStringConvertible {
    case pulse, hold, toggle, key, exec

    /// Which reader, description and actuator an action belongs to.
    package enum Family: Sendable, Hashable {
        /// Drives a GPIO line: `BindingDescription`, `GPIOActuator`.
        case gpio
        /// Sends a key chord or runs a program: `CommandBindingDescription`, `CommandActuator`.
        case command
    }

    /// The name written in a board file (`action = "pulse"`).
    package var boardName: String {
        switch self {
        case .pulse: "pulse"
        case .hold: "hold"
        case .toggle: "toggle"
        case .key: "key"
        case .exec: "exec"
        }
    }

    package var description: String { boardName }

    package var family: Family {
        switch self {
        case .pulse, .hold, .toggle: .gpio
        case .key, .exec: .command
        }
    }

    /// Keys every binding has: the recognizer (or control region), the action, the triggering state.
    package static let commonKeys = ["recognizer", "action", "state"]

    /// The action's keys beside `commonKeys` (`formats.md` §4); any other key is unknown.
    package var keys: [String] {
        switch self {
        case .pulse: ["pulse_ms", "gpio", "initial"]
        case .hold, .toggle: ["gpio", "initial"]
        case .key: ["keys"]
        case .exec: ["command", "timeout_ms", "min_interval_ms"]
        }
    }

    /// The action named `name` in a board file.
    package init?(boardName name: String) {
        guard let action = Self.allCases.first(where: { $0.boardName == name }) else { return nil }
        self = action
    }

    /// Every board name, in declaration order (for "supported: …" messages).
    package static var boardNames: [String] { allCases.map(\.boardName) }

    /// The board names of one family's actions.
    package static func boardNames(of family: Family) -> [String] {
        allCases.filter { $0.family == family }.map(\.boardName)
    }
}
