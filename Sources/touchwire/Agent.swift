import ArgumentParser
import BoardConfig
import FoundationEssentials
import Synchronization
import TouchComposition
import TouchLinux

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `touchwire agent`: runs the board's `session = true` exec bindings, and `[display] session =
/// true`'s screen commands (`DisplayAgent`), in the calling user's session
/// (tools/debian/touchwire-agent.service, a systemd user unit), fed by the service's event
/// socket. Exits non-zero when the socket closes, so the user unit restarts it.
struct Agent: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Run the board's session exec bindings and [display] commands (session = true) as this user.",
        discussion: """
            Start it in the kiosk user's session (systemd --user: touchwire-agent.service). The \
            service never runs these programs itself; the agent runs them with the session's \
            WAYLAND_DISPLAY, XDG_RUNTIME_DIR, DBUS_SESSION_BUS_ADDRESS, DISPLAY, XAUTHORITY and \
            SWAYSOCK from its own environment, then [exec] environment; no shell, in their own \
            process group, with no capabilities. [display] off_command runs on the socket's \
            display off lines, on_command on display on, and again when the stream ends while \
            the screen is off. Stops on SIGINT or SIGTERM (killing the programs' groups); exits \
            with status 1 when the service closes the socket.
            """)

    @Option(name: .long, help: "The board file (TOML).")
    var board: String

    @Option(name: .long, help: "The service's event socket (default \(Monitor.defaultSocket)).")
    var socket: String = Monitor.defaultSocket

    func run() throws {
        let description = try loadBoard(board)
        let (commands, names) = SessionAgent.commands(of: description)
        let displayCommands = DisplayAgent.commands(of: description)
        guard !commands.isEmpty || displayCommands != nil else {
            throw fail(
                "agent: \(description.location): no exec binding has session = true and [display] has no "
                    + "session = true; nothing to run")
        }
        if description.exec.user != nil {
            warn("agent: \(description.location): exec.user is ignored: the agent runs programs as its own user")
        }
        let log: @Sendable (String) -> Void = { line in writeStandardError("touchwire agent: \(line)\n") }
        // The session's WAYLAND_DISPLAY, XDG_RUNTIME_DIR, … from the user manager, then the board's.
        let environment = SessionEnvironment.programs(
            agent: ProcessInfo.processInfo.environment, board: description.exec.environment)
        let spawner = CommandSpawner(
            commands: commands, names: names, environment: environment, user: nil,
            clock: SystemClock.shared, log: log)
        let agent = SessionAgent(board: description, runner: spawner)
        if let displayCommands {
            agent.display = DisplayAgent(
                runner: CommandSpawner(
                    commands: displayCommands, names: ["display off_command", "display on_command"],
                    environment: environment, user: nil, clock: SystemClock.shared, log: log),
                log: log)
        }
        let stop = Atomic<Bool>(false)
        let sources = TerminatingSignals.install { _ in stop.store(true, ordering: .relaxed) }
        defer { for source in sources { source.cancel() } }
        spawner.start()
        defer { spawner.stop() }
        agent.display?.start()
        // The stream ended (or the agent stops) while the screen was off: on_command, waited for.
        defer { agent.display?.stop() }
        let reason: String
        do throws(UnixConnectionError) {
            let connection = try UnixStreamConnection(connectingTo: socket)
            reason = try agent.serve(connection, stop: stop)
        } catch {
            throw fail("agent: \(error)")
        }
        if reason != "stopped" { throw fail("agent: \(socket): \(reason)") }
    }
}
