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
/// socket. With `--bindings service` it runs the other exec bindings and screen commands instead:
/// the system exec runner (tools/debian/touchwire-exec.service, an unprivileged user) for a
/// service started with `run --exec-by-agents`. When the socket closes (the service reloads or
/// restarts) it waits for it to come back, re-reads the board and goes on (`AgentSupervisor`);
/// it exits non-zero when the socket stays away, so the unit restarts it.
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
            the screen is off. With --bindings service it runs the bindings and [display] \
            commands without session = true instead (touchwire-exec.service, for a service run \
            with --exec-by-agents). When the service reloads or restarts, the agent waits for \
            the socket (up to 30 s), re-reads the board (one that fails to load is logged and \
            the previous bindings kept) and reconnects. Stops on SIGINT or SIGTERM (killing the \
            programs' groups); exits with status 1 when the socket stays away.
            """)

    @Option(name: .long, help: "The board file (TOML).")
    var board: String

    @Option(name: .long, help: "The service's event socket (default \(Monitor.defaultSocket)).")
    var socket: String = Monitor.defaultSocket

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Which exec bindings to run: session (session = true, in the user's session) or service "
                + "(the others, for a service run with --exec-by-agents).",
            valueName: "session|service"))
    var bindings: SessionAgent.Bindings = .session

    func run() throws {
        let description = try loadBoard(board)
        let (commands, _) = SessionAgent.commands(of: description, bindings: bindings)
        let displayCommands = DisplayAgent.commands(of: description, bindings: bindings)
        let log: @Sendable (String) -> Void = { line in writeStandardError("touchwire agent: \(line)\n") }
        if commands.isEmpty && displayCommands == nil {
            // The session agent is started for its bindings; the system runner runs with the
            // service whatever the board, and a reload may add some.
            guard bindings == .service else {
                throw fail(
                    "agent: \(description.location): no exec binding has session = true and [display] has no "
                        + "session = true; nothing to run")
            }
            log("\(description.location): no exec binding without session = true yet; waiting for events")
        }
        if description.exec.user != nil {
            warn("agent: \(description.location): exec.user is ignored: the agent runs programs as its own user")
        }
        // The session's WAYLAND_DISPLAY, XDG_RUNTIME_DIR, … from the user manager, then the board's.
        let session = ProcessInfo.processInfo.environment
        let supervisor = AgentSupervisor(
            board: description, boardPath: board, socket: socket, bindings: bindings, clock: SystemClock.shared,
            makeRunner: { b, commands, names in
                CommandSpawner(
                    commands: commands, names: names,
                    environment: SessionEnvironment.programs(agent: session, board: b.exec.environment), user: nil,
                    clock: SystemClock.shared, log: log)
            }, log: log)
        let stop = Atomic<Bool>(false)
        let sources = TerminatingSignals.install { _ in stop.store(true, ordering: .relaxed) }
        defer { for source in sources { source.cancel() } }
        let reason = supervisor.run(stop: stop)
        if reason != "stopped" { throw fail("agent: \(reason)") }
    }
}

extension SessionAgent.Bindings: ExpressibleByArgument {}
