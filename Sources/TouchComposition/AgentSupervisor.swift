import BoardConfig
import Synchronization
import TouchCore
import TouchLinux
import TouchService

/// Keeps a `touchwire agent` fed across the service's reloads and restarts. Both close the
/// event socket (a reload reopens it for the new board, a restart after a moment): the agent
/// then waits for the socket to come back, polling every `retryMicroseconds` for at most
/// `reconnectMicroseconds` of its clock, re-reads the board (a reload may have changed the
/// bindings) and reconnects. A board that fails to load is logged and the previous bindings are
/// kept, as the service keeps its board; a changed board gets a new runner (the old one is
/// stopped, which ends its programs' process groups, as the service's reload does); an
/// unchanged one keeps the runner and whatever it runs. The agent's `DisplayAgent` (a board
/// whose `[display]` commands it runs) is stopped when the stream ends, which switches a dark
/// screen back on (the service's next start is on), and started again on reconnection.
package final class AgentSupervisor {
    /// Makes the runner of `commands` (binding names `names`) for `board`; not started yet.
    package typealias MakeRunner = (_ board: BoardDescription, _ commands: [ExecCommand], _ names: [String]) ->
        any CommandRunner

    package let boardPath: String
    package let socket: String
    package let bindings: SessionAgent.Bindings
    /// The longest wait for the socket (at start, and each time it closed) before giving up.
    package let reconnectMicroseconds: Int64
    /// The pause between two connection attempts.
    package static let retryMicroseconds: Int64 = 100_000
    /// The bindings run now (the last board that loaded).
    package private(set) var board: BoardDescription

    private let clock: any TouchClock
    private let load: (String) throws(BoardFileError) -> BoardDescription
    private let makeRunner: MakeRunner
    private let log: @Sendable (String) -> Void
    private var agent: SessionAgent

    /// `board` is the board read from `boardPath` at start; `load` re-reads it on reconnection
    /// (`BoardLoader.load` outside tests); `clock` times the wait for the socket.
    package init(
        board: BoardDescription, boardPath: String, socket: String, bindings: SessionAgent.Bindings,
        clock: any TouchClock, reconnectMicroseconds: Int64 = 30_000_000,
        load: @escaping (String) throws(BoardFileError) -> BoardDescription = { path throws(BoardFileError) in
            try BoardLoader.load(path: path)
        },
        makeRunner: @escaping MakeRunner, log: @escaping @Sendable (String) -> Void
    ) {
        self.board = board
        self.boardPath = boardPath
        self.socket = socket
        self.bindings = bindings
        self.clock = clock
        self.reconnectMicroseconds = reconnectMicroseconds
        self.load = load
        self.makeRunner = makeRunner
        self.log = log
        agent = Self.agent(board, bindings: bindings, makeRunner: makeRunner, log: log)
    }

    private static func agent(
        _ board: BoardDescription, bindings: SessionAgent.Bindings, makeRunner: MakeRunner,
        log: @escaping @Sendable (String) -> Void
    ) -> SessionAgent {
        let (commands, names) = SessionAgent.commands(of: board, bindings: bindings)
        let agent = SessionAgent(board: board, bindings: bindings, runner: makeRunner(board, commands, names))
        if let screen = DisplayAgent.commands(of: board, bindings: bindings) {
            agent.display = DisplayAgent(runner: makeRunner(board, screen, DisplayAgent.names), log: log)
        }
        return agent
    }

    /// Serves the socket until `stop` is set ("stopped") or the socket stays away longer than
    /// `reconnectMicroseconds` (the reason, naming the socket). The runner is started first and
    /// stopped on the way out.
    package func run(stop: borrowing Atomic<Bool>) -> String {
        agent.runner.start()
        agent.display?.start()
        defer {
            agent.runner.stop()
            agent.display?.stop()
        }
        var connectedBefore = false
        var waitingSince: Instant? = nil
        while !stop.load(ordering: .relaxed) {
            var failure: UnixConnectionError
            do throws(UnixConnectionError) {
                let connection = try UnixStreamConnection(connectingTo: socket)
                waitingSince = nil
                if connectedBefore {
                    log("\(socket): connected again")
                    reloadBoard()
                    agent.display?.start()
                }
                connectedBefore = true
                let reason: String
                do throws(UnixConnectionError) { reason = try agent.serve(connection, stop: stop) } catch {
                    reason = "\(error)"
                }
                if reason == "stopped" { return reason }
                // The stream ended: a screen left dark comes back on (the service starts lit).
                agent.display?.stop()
                log("\(socket): \(reason); waiting for it to come back")
                continue
            } catch {
                if case .pathTooLong = error { return "\(error)" }
                failure = error
            }
            let since = waitingSince ?? clock.now
            waitingSince = since
            if clock.now.microseconds(since: since) >= reconnectMicroseconds {
                return "\(failure) for \(reconnectMicroseconds / 1_000_000) s; giving up"
            }
            clock.sleep(microseconds: Self.retryMicroseconds)
        }
        return "stopped"
    }

    /// Re-reads the board: refused (logged, bindings kept), unchanged (nothing to do) or new
    /// bindings (new runner).
    private func reloadBoard() {
        let fresh: BoardDescription
        do throws(BoardFileError) { fresh = try load(boardPath) } catch {
            for issue in error.issues { log("\(issue)") }
            log("\(boardPath): not reloaded; the previous bindings stay")
            return
        }
        guard fresh != board else { return }
        agent.runner.stop()
        agent.display?.stop()
        board = fresh
        agent = Self.agent(fresh, bindings: bindings, makeRunner: makeRunner, log: log)
        agent.runner.start()
        log("\(boardPath): reloaded (\(agent.triggers.count) \(bindings.rawValue) exec binding(s))")
    }
}
