/// What `touchwire agent`'s programs get as environment: the variables that locate the user's
/// session, taken from the agent's own environment (the user manager's: a compositor imports
/// them with `systemctl --user import-environment` or `dbus-update-activation-environment
/// --systemd`), then the board's `[exec] environment`, which wins on a clash. Nothing else of
/// the agent's environment is passed (docs/formats.md §4, docs/kiosk.md).
package enum SessionEnvironment {
    /// The session variables passed through, when set: a Wayland or X11 display, the runtime
    /// directory its socket lives in, the session bus, and sway's IPC socket (swaymsg).
    package static let passedThrough = [
        "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "XAUTHORITY", "SWAYSOCK",
    ]

    /// `passedThrough` from `agent` (the agent's environment), overridden by `board`.
    package static func programs(agent: [String: String], board: [String: String]) -> [String: String] {
        var out: [String: String] = [:]
        for name in passedThrough { if let value = agent[name] { out[name] = value } }
        for (name, value) in board { out[name] = value }
        return out
    }
}
