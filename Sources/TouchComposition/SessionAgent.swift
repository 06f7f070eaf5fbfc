import BoardConfig
import Synchronization
import TouchLinux
import TouchPlot
import TouchService

/// `touchwire agent`: runs the board's session exec bindings (`session = true`) in the user's
/// session. Started as a systemd user unit of the kiosk user, it reads the service's event
/// socket (`formats.md` §2 event lines) and asks its `CommandRunner` (the real `CommandSpawner`,
/// or the recording twin in tests) to start binding `i` when an event of that binding's
/// recognizer and state arrives. The service itself never spawns these bindings.
///
/// With `Bindings.service` the same code is the system exec runner (`touchwire-exec.service`,
/// an unprivileged user with no device groups): it runs the other exec bindings, those the
/// service hands over under `run --exec-by-agents`.
package final class SessionAgent {
    /// Which of the board's exec bindings an agent runs.
    package enum Bindings: String, CaseIterable, Sendable {
        /// `session = true` (the kiosk user's `touchwire-agent.service`).
        case session
        /// The others (the system runner `touchwire-exec.service`).
        case service

        /// Whether an agent of this kind runs `command`.
        package func includes(_ command: ExecCommand) -> Bool { command.runsInSession == (self == .session) }
    }

    /// One session binding: the recognizer (or control region) name and state that trigger it.
    package struct Trigger: Equatable, Sendable {
        package var recognizer: String
        package var state: String
        /// Index in `commands`.
        package var command: Int
    }

    package let triggers: [Trigger]
    package let runner: any CommandRunner
    /// With `[display] session = true`: acts on the stream's `display` lines.
    package var display: DisplayAgent?

    /// The programs of `board`'s exec bindings of kind `bindings`, in board order, with their
    /// binding names (for logs).
    package static func commands(of board: BoardDescription, bindings: Bindings = .session)
        -> (commands: [ExecCommand], names: [String])
    {
        let runs = execBindings(of: board, bindings)
        return (runs.map(\.command), runs.map(\.binding.recognizer))
    }

    /// `board`'s exec bindings of kind `bindings` with their programs, in board order: the one
    /// list both the runner's commands and the triggers index.
    private static func execBindings(of board: BoardDescription, _ bindings: Bindings)
        -> [(binding: CommandBindingDescription, command: ExecCommand)]
    {
        board.commandBindings.compactMap { b in
            guard case .exec(let c) = b.action, bindings.includes(c) else { return nil }
            return (b, c)
        }
    }

    /// `runner` runs `SessionAgent.commands(of: board, bindings: bindings).commands` (same indices).
    package init(board: BoardDescription, bindings: Bindings = .session, runner: any CommandRunner) {
        triggers = Self.execBindings(of: board, bindings).enumerated().map { i, run in
            Trigger(recognizer: run.binding.recognizer, state: run.binding.state.rawValue, command: i)
        }
        self.runner = runner
    }

    /// Acts on one line of the stream: an event line matching a trigger starts its program; a
    /// `display` line goes to `display`; anything else (deliveries, status, garbage) is ignored.
    package func handle(_ line: Substring) {
        if display?.handle(line) == true { return }
        guard let event = MonitorEvent.parse(line) else { return }
        for t in triggers where t.recognizer == event.recognizer && t.state == event.state {
            runner.request(t.command)
        }
    }

    /// Reads `connection` until it closes or `stop` is set, acting on each line (lines are
    /// bounded by `MonitorLineReader`). Returns why it stopped ("stopped" when `stop` was set).
    package func serve(_ connection: borrowing UnixStreamConnection, stop: borrowing Atomic<Bool>)
        throws(UnixConnectionError) -> String
    {
        var reader = MonitorLineReader()
        var buffer = [UInt8](repeating: 0, count: 4096)
        // The screen's state now: the stream only carries its changes.
        // A service already gone refuses the request (EPIPE): what it wrote before is still read
        // below, then the end of the stream, which says so.
        if display != nil { _ = try? connection.write(DisplayAgent.statusRequest) }
        while !stop.load(ordering: .relaxed) {
            var failure: UnixConnectionError?
            let n = buffer.withUnsafeMutableBytes { raw -> Int? in
                do throws(UnixConnectionError) {
                    return try connection.read(into: raw, timeoutMilliseconds: 200)
                } catch {
                    failure = error
                    return 0
                }
            }
            if let failure { throw failure }
            guard let arrived = n else { return "the service closed the event socket" }
            let bounded = reader.feed(buffer[..<arrived]) { line in
                handle(line)
                return true
            }
            if !bounded {
                return "a line of the event stream is longer than \(MonitorLineReader.maximumLineBytes) bytes"
            }
        }
        return "stopped"
    }
}
