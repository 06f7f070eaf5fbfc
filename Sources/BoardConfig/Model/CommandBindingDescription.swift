/// What a key or exec binding does.
package enum CommandAction: Sendable, Equatable {
    /// `action = "key"`, `keys = ["KEY_LEFTMETA", "KEY_F5"]`: the chord pressed in order and released
    /// in reverse on touchwire's virtual keyboard (uinput). Codes from `KernelKeyNames`.
    case key(names: [String], codes: [Int])
    /// `action = "exec"`, `command = ["/usr/local/bin/kiosk-admin", "--show"]`: an argv (absolute
    /// program path, no shell) run by the spawner.
    case exec(ExecCommand)

    /// Its entry in the registry of binding actions.
    package var kind: BindingActionKind {
        switch self {
        case .key: .key
        case .exec: .exec
        }
    }
}

/// One program run by an exec binding.
package struct ExecCommand: Sendable, Equatable {
    /// The argv: `argv[0]` is an absolute path; nothing is interpreted by a shell.
    package var argv: [String]
    /// Killed (SIGTERM, then SIGKILL 1 s later) when still running after this long (`timeout_ms`, default 10000).
    package var timeoutMilliseconds: Int
    /// Triggers closer than this to the previous run's start are skipped (`min_interval_ms`, default 1000).
    package var minimumIntervalMilliseconds: Int
    /// `session = true`: run in the user's session by `touchwire agent` (a systemd user unit of
    /// that user, fed over the event socket), never by the service; default false.
    package var runsInSession: Bool

    package init(
        argv: [String], timeoutMilliseconds: Int = 10_000, minimumIntervalMilliseconds: Int = 1000,
        runsInSession: Bool = false
    ) {
        self.argv = argv
        self.timeoutMilliseconds = timeoutMilliseconds
        self.minimumIntervalMilliseconds = minimumIntervalMilliseconds
        self.runsInSession = runsInSession
    }
}

/// A `[[binding]]` with `action = "key"` or `"exec"`: a recognizer's state sending a key chord or
/// running a program.
package struct CommandBindingDescription: Sendable, Equatable {
    package var recognizer: String
    /// The triggering state (default: recognized for discrete kinds, began for continuous ones).
    package var state: BindingState
    package var action: CommandAction
    /// Its index in the board's `[[binding]]` list (GPIO bindings included), as messages name it
    /// (`binding[3] "tap".command`).
    package var boardIndex: Int

    package init(recognizer: String, state: BindingState, action: CommandAction, boardIndex: Int = 0) {
        self.recognizer = recognizer
        self.state = state
        self.action = action
        self.boardIndex = boardIndex
    }
}

/// `[exec]`: how exec bindings' programs run.
package struct ExecDescription: Sendable, Equatable {
    /// `user`: the account the programs run as (through `setpriv`); nil: the service's user.
    package var user: String?
    /// `environment = { DISPLAY = ":0" }`: the programs' whole environment (nothing else is passed).
    package var environment: [String: String]

    package init(user: String? = nil, environment: [String: String] = [:]) {
        self.user = user
        self.environment = environment
    }
}

/// `[passthrough]`: touchwire owns the panel and hands the touches the UI should see to a virtual
/// touchscreen (uinput).
package struct PassthroughDescription: Sendable, Equatable {
    /// `name`: the virtual touchscreen's device name (default "touchwire touchscreen").
    package var name: String
    /// `slots`: multi-touch slots (default: the controller's maximum contacts).
    package var slots: Int?
    /// `held_ends`: when a recognizer holds a touch's end back (`delays_ended`, S24), whether the
    /// UI's lift still goes out when the finger lifts (`.onTime`, the default) or waits for the
    /// engine's delivery (`.delivered`).
    package var heldEnds: HeldEnds

    /// The UI's lift of a touch whose end a recognizer holds back (`delays_ended`, S24).
    package enum HeldEnds: String, Sendable, Equatable, CaseIterable {
        /// `"on_time"`: the lift goes out when the finger lifts: the UI sees each press as long as
        /// the finger made it; a gesture recognized afterwards can no longer take that touch back.
        case onTime = "on_time"
        /// `"delivered"`: the lift waits for the engine's `ended` (or `cancelled`), as UIKit delivers
        /// to a view: the UI sees the press longer by the wait, and a finger landing meanwhile waits.
        case delivered
    }

    package init(name: String = "touchwire touchscreen", slots: Int? = nil, heldEnds: HeldEnds = .onTime) {
        self.name = name
        self.slots = slots
        self.heldEnds = heldEnds
    }
}
