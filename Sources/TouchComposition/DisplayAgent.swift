import BoardConfig
import TouchCore
import TouchPlot
import TouchService

/// The screen half of `touchwire agent`: with `[display] session = true`, the service switches
/// no screen itself; the agent, in the kiosk user's session, reads the event socket's `display`
/// lines (formats.md §2) and runs `off_command` on `off` and `on_command` on `on` (`dimmed`
/// changes nothing, as in the service) through a `DisplaySwitch` of its own, on its own thread.
/// `stop()` (the stream ended: the service stopped or reloads; or the agent is stopped) runs
/// `on_command` when the last state was not `on`, and waits for it: a stopped service never
/// leaves a kiosk dark.
package final class DisplayAgent: Sendable {
    package let screen: DisplaySwitch

    /// `[off_command, on_command]` of a board whose `[display]` commands an agent of kind
    /// `bindings` runs (`session = true`: the session agent; otherwise the system runner, for a
    /// service run with `--exec-by-agents`), else nil.
    package static func commands(of board: BoardDescription, bindings: SessionAgent.Bindings = .session)
        -> [ExecCommand]?
    {
        guard let d = board.display, d.runsInSession == (bindings == .session),
            case .commands(let on, let off) = d.switching
        else { return nil }
        return [off, on]
    }

    /// The names of `[off_command, on_command]` in logs, wherever they run (agent or service).
    package static let names = ["display off_command", "display on_command"]

    /// `runner` runs `DisplayAgent.commands(of:)` (same indices: 0 off, 1 on).
    package init(runner: any CommandRunner, log: @escaping @Sendable (String) -> Void) {
        screen = DisplaySwitch(output: .commands(runner), log: log)
    }

    /// What the agent asks the service as it connects (formats.md §6): the reply tells the
    /// screen's state now, so an agent started (or reconnected) while the screen is off switches
    /// it off too, instead of waiting for the next change.
    package static let statusRequest = Array("display status\n".utf8)

    /// Acts on one line of the stream; true when it was a `display` line or the reply to
    /// `statusRequest`.
    @discardableResult
    package func handle(_ line: Substring) -> Bool {
        guard let name = MonitorEvent.displayState(line) ?? MonitorEvent.displayStatusReply(line) else {
            return false
        }
        let state: DisplayState =
            switch name {
            case "off": .off
            case "dimmed": .dimmed
            default: .on
            }
        screen.request(state)
        return true
    }

    /// Starts the runner and the switch thread.
    package func start() { screen.start() }

    /// Stops them, switching the screen on if the last state was not `on` (waited for).
    package func stop() { screen.stop() }
}
