import BoardConfig
import Foundation
import Synchronization
import TouchComposition
import TouchCore
import TouchLinux
import XCTest

@testable import TouchService

/// Issue 30, class 6: under the shipped unit (`run --exec-by-agents`) the service spawns no exec
/// binding; `touchwire agent --bindings service` (touchwire-exec.service: no capabilities, no
/// device groups) runs the ones without `session = true`, fed by the event socket, and keeps
/// doing so across the service's reloads and restarts.
final class ExecRunnerTests: XCTestCase {
    /// A clock whose sleeps pass a little real time but never move it: the agent's wait for the
    /// socket never runs out, whatever the machine's load (the test brings the socket back).
    final class FrozenClock: TouchClock {
        var now: Instant { .zero }
        func sleep(microseconds: Int64) { usleep(5_000) }
    }

    /// Runners the agent made, in order, and its log.
    final class Made: @unchecked Sendable {
        let runners = Mutex<[RecordingCommandRunner]>([])
        let logs = Mutex<[String]>([])
        var all: [RecordingCommandRunner] { runners.withLock { $0 } }
        var log: [String] { logs.withLock { $0 } }
    }

    final class Flag: Sendable { let stop = Atomic<Bool>(false) }

    /// The supervisor, handed to the thread that runs it (only that thread calls it).
    final class Running: @unchecked Sendable {
        let supervisor: AgentSupervisor
        init(_ supervisor: AgentSupervisor) { self.supervisor = supervisor }
    }

    static let tapRecognized = #"{"t_us":1,"recognizer":"tap","state":"recognized","x":1,"y":2}"# + "\n"

    /// A board with a socket output at `socket` and one exec binding per argv of `programs`
    /// (the last with `session = true` when `session`).
    func boardText(socket: String?, programs: [[String]], lastInSession: Bool = false, script: String = "demo")
        -> String
    {
        var extra = socket.map { "[[output]]\ntype = \"socket\"\npath = \"\($0)\"\n\n" } ?? ""
        for (i, argv) in programs.enumerated() {
            let list = argv.map { "\"\($0)\"" }.joined(separator: ", ")
            extra += "[[binding]]\nrecognizer = \"tap\"\naction = \"exec\"\ncommand = [\(list)]\n"
            if lastInSession && i == programs.count - 1 { extra += "session = true\n" }
            extra += "\n"
        }
        return simulatedBoardText(script: script, recognizers: ["tap"], extra: extra)
    }

    /// The system runner runs only the bindings without `session = true`; the session agent
    /// only the others (as before).
    func testServiceAgentRunsOnlyTheNonSessionBindings() throws {
        let text = boardText(
            socket: "/tmp/x.sock", programs: [["/bin/true", "system"], ["/bin/true", "kiosk"]],
            lastInSession: true)
        let b = try BoardLoader.parse(text, file: "a.toml", directory: "/tmp")
        XCTAssertEqual(
            SessionAgent.commands(of: b, bindings: .service).commands.map(\.argv), [["/bin/true", "system"]])
        XCTAssertEqual(SessionAgent.commands(of: b).commands.map(\.argv), [["/bin/true", "kiosk"]])
        let runner = RecordingCommandRunner(invocations: [(["/bin/true", "system"], [])])
        let agent = SessionAgent(board: b, bindings: .service, runner: runner)
        agent.handle(Substring(Self.tapRecognized.dropLast()))
        XCTAssertEqual(runner.spawned.map(\.argv), [["/bin/true", "system"]])
    }

    /// The error a service of `board` under `--exec-by-agents` stops with ("" when it starts).
    func refusalUnderExecByAgents(_ board: BoardDescription) -> String {
        do {
            let service = try Service(
                board: board, logger: quietLogger, settings: ServiceSettings(execByAgents: true),
                stdout: CollectingSink(), devices: SimulatedOutputDevices(), clock: ManualClock())
            service.close()
            return ""
        } catch { return "\(error)" }
    }

    /// With `execByAgents` the service makes no runner at all (neither binding is its own);
    /// without it (bench use) it still runs the non-session binding itself.
    func testServiceWithExecByAgentsSpawnsNone() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let text = boardText(
            socket: dir.appendingPathComponent("e.sock").path,
            programs: [["/bin/true", "system"], ["/bin/true", "kiosk"]], lastInSession: true, script: "tap.jsonl")
        let b = try BoardLoader.parse(text, file: "a.toml", directory: dir.path)
        let byAgents = SimulatedOutputDevices()
        let service = try Service(
            board: b, logger: quietLogger, settings: ServiceSettings(execByAgents: true), stdout: CollectingSink(),
            devices: byAgents, clock: ManualClock())
        XCTAssertNil(service.output.commands?.spawner, "the service would spawn an exec binding itself")
        XCTAssertEqual(byAgents.runners.count, 0)
        service.close()
        let bench = SimulatedOutputDevices()
        let own = try Service(
            board: b, logger: quietLogger, stdout: CollectingSink(), devices: bench, clock: ManualClock())
        XCTAssertEqual(bench.runners.first?.invocations.map(\.argv), [["/bin/true", "system"]])
        own.close()
    }

    /// `--exec-by-agents` with exec bindings and no socket output: one error naming the file,
    /// the binding and what to add; nothing starts. Without exec bindings the option is harmless.
    func testExecByAgentsWithoutASocketOutputIsRefused() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let b = try BoardLoader.parse(
            boardText(socket: nil, programs: [["/bin/true"]], script: "tap.jsonl"), file: "a.toml",
            directory: dir.path)
        let text = refusalUnderExecByAgents(b)
        XCTAssertTrue(text.hasPrefix("a.toml: the exec binding of \"tap\" under "), text)
        XCTAssertTrue(text.contains("--exec-by-agents"), text)
        XCTAssertTrue(text.contains("type = \"socket\""), text)
        // The same board without the option runs its binding itself, as before.
        let service = try Service(
            board: b, logger: quietLogger, stdout: CollectingSink(), devices: SimulatedOutputDevices(),
            clock: ManualClock())
        service.close()
        let none = try BoardLoader.parse(boardText(socket: nil, programs: []), file: "b.toml", directory: dir.path)
        XCTAssertNil(ExecCheck.agentsCannotListen(none))
    }

    /// Waits for the agent to connect to `server` and accepts it.
    func accept(_ server: UnixStreamServer) {
        XCTAssertTrue(
            waitFor(30) {
                _ = server.acceptPending(limit: 4)
                return !server.clients.isEmpty
            }, "the agent did not connect to \(server.path)")
    }

    /// Sends `line` to the agent connected to `server`.
    func send(_ line: String, to server: UnixStreamServer) {
        let bytes = Array(line.utf8)
        _ = bytes.withUnsafeBytes { server.send($0, toClient: 0) }
    }

    /// Accepts the agent on `server` (waiting for it to connect) and sends it a tap.
    func sendTap(_ server: UnixStreamServer) {
        accept(server)
        send(Self.tapRecognized, to: server)
    }

    /// A system runner's supervisor of the board at `boardPath`, its runners recording twins kept
    /// in `made`, running on a thread of its own until `stop()` (or the test's end).
    final class Background: @unchecked Sendable {
        let made = Made()
        let flag = Flag()
        let finished = DispatchSemaphore(value: 0)
        let reason = Mutex<String?>(nil)
        private(set) var ended = false

        /// Stops the supervisor and waits for its thread; true when it ended in time.
        @discardableResult
        func stop() -> Bool {
            flag.stop.store(true, ordering: .relaxed)
            if !ended { ended = finished.wait(timeout: .now() + 30) == .success }
            return ended
        }
    }

    func startSupervisor(boardPath: String, socket: String) throws -> Background {
        let background = Background()
        let made = background.made
        let supervisor = AgentSupervisor(
            board: try BoardLoader.load(path: boardPath), boardPath: boardPath, socket: socket, bindings: .service,
            clock: FrozenClock(),
            makeRunner: { _, commands, _ in
                let r = RecordingCommandRunner(invocations: commands.map { ($0.argv, []) })
                made.runners.withLock { $0.append(r) }
                return r
            }, log: { line in made.logs.withLock { $0.append(line) } })
        let running = Running(supervisor)
        DispatchQueue.global().async {
            let r = running.supervisor.run(stop: background.flag.stop)
            background.reason.withLock { $0 = r }
            background.finished.signal()
        }
        addTeardownBlock { background.stop() }
        return background
    }

    /// The socket goes away (a reload or restart) and comes back with a changed board: the agent
    /// reconnects, re-reads the board and runs the new binding with a new runner (the old one
    /// stopped). A board that then fails to load is logged and the bindings kept. It used to exit
    /// when the socket closed, missing the events until systemd restarted it.
    func testAgentReconnectsAndRereadsTheBoardAfterTheSocketComesBack() throws {
        let dir = try makeTemporaryDirectory(self)
        let boardURL = dir.appendingPathComponent("board.toml")
        let socket = dir.appendingPathComponent("events.sock").path
        try boardText(socket: socket, programs: [["/bin/true", "one"]])
            .write(to: boardURL, atomically: true, encoding: .utf8)
        let background = try startSupervisor(boardPath: boardURL.path, socket: socket)
        let made = background.made

        var server = try UnixStreamServer(path: socket, mode: 0o600, group: nil)
        sendTap(server)
        XCTAssertTrue(waitFor(30) { made.all.first?.spawned.count == 1 })
        XCTAssertEqual(made.all.first?.spawned.map(\.argv), [["/bin/true", "one"]])

        // Reload: the service closes the socket, the board now has another program, the socket returns.
        server.close()
        try boardText(socket: socket, programs: [["/bin/true", "two"]])
            .write(to: boardURL, atomically: true, encoding: .utf8)
        server = try UnixStreamServer(path: socket, mode: 0o600, group: nil)
        sendTap(server)
        XCTAssertTrue(waitFor(30) { made.all.count == 2 && made.all.last?.spawned.count == 1 }, "\(made.log)")
        guard made.all.count == 2 else { return }
        XCTAssertEqual(made.all[1].spawned.map(\.argv), [["/bin/true", "two"]])
        XCTAssertFalse(made.all[0].isRunning, "the old board's runner was not stopped")
        XCTAssertTrue(made.all[1].isRunning)

        // Restart with a broken board: logged, the previous bindings keep running.
        server.close()
        try "[panel]\nwidth = \"wide\"\n".write(to: boardURL, atomically: true, encoding: .utf8)
        server = try UnixStreamServer(path: socket, mode: 0o600, group: nil)
        sendTap(server)
        XCTAssertTrue(waitFor(30) { made.all.last?.spawned.count == 2 }, "\(made.log)")
        XCTAssertEqual(made.all.count, 2, "a board that failed to load replaced the bindings")
        XCTAssertTrue(made.log.contains { $0.contains("not reloaded; the previous bindings stay") }, "\(made.log)")

        XCTAssertTrue(background.stop())
        XCTAssertEqual(background.reason.withLock { $0 }, "stopped")
        server.close()
    }

    static func displayLine(_ state: String) -> String {
        #"{"t_us":1,"display":""# + state + #"","cause":"idle"}"# + "\n"
    }

    /// A board whose `[display]` switches the screen by commands, without `session = true`, and a
    /// socket output at `socket` (or none).
    func displayBoardText(socket: String?) -> String {
        let extra =
            (socket.map { "[[output]]\ntype = \"socket\"\npath = \"\($0)\"\n\n" } ?? "")
            + "[display]\nidle_off_s = 30\noff_command = [\"/bin/true\", \"off\"]\n"
            + "on_command = [\"/bin/true\", \"on\"]\n"
        return simulatedBoardText(script: "demo", recognizers: ["tap"], extra: extra)
    }

    /// Under `--exec-by-agents` the screen's commands leave the service too: its switch spawns
    /// nothing (`.agent`) and the system runner (`--bindings service`) runs them from the
    /// stream's `display` lines; a board with such commands and no socket output is refused,
    /// naming the keys. Before, the service ran them itself, with its device groups.
    func testScreenCommandsGoToTheRunnerUnderExecByAgents() throws {
        let dir = try makeTemporaryDirectory(self)
        let b = try BoardLoader.parse(
            displayBoardText(socket: dir.appendingPathComponent("e.sock").path), file: "a.toml",
            directory: dir.path)
        XCTAssertEqual(
            DisplayAgent.commands(of: b, bindings: .service)?.map(\.argv),
            [["/bin/true", "off"], ["/bin/true", "on"]])
        XCTAssertNil(DisplayAgent.commands(of: b, bindings: .session), "the session agent would switch it too")
        let service = try Service(
            board: b, logger: quietLogger, settings: ServiceSettings(execByAgents: true), stdout: CollectingSink(),
            devices: SimulatedOutputDevices(), clock: ManualClock())
        defer { service.close() }
        guard let screen = service.displaySwitch as? DisplaySwitch else {
            return XCTFail("the service has no display switch")
        }
        guard case .agent = screen.output else { return XCTFail("the service runs the screen's commands itself") }

        let lonely = try BoardLoader.parse(displayBoardText(socket: nil), file: "b.toml", directory: dir.path)
        let text = refusalUnderExecByAgents(lonely)
        XCTAssertTrue(text.hasPrefix("b.toml: display.on_command/off_command under `run --exec-by-agents`"), text)
    }

    /// The runner keeps the screen's promise across a reload: `off` runs `off_command`; the
    /// stream ending while dark runs `on_command` (the new service starts lit); after
    /// reconnecting, `off` runs `off_command` again.
    func testTheRunnerSwitchesTheScreenAcrossAReload() throws {
        let dir = try makeTemporaryDirectory(self)
        let boardURL = dir.appendingPathComponent("board.toml")
        let socket = dir.appendingPathComponent("events.sock").path
        try displayBoardText(socket: socket).write(to: boardURL, atomically: true, encoding: .utf8)
        let background = try startSupervisor(boardPath: boardURL.path, socket: socket)
        let made = background.made
        /// The screen's runner: the second the agent made (the first runs the exec bindings).
        func screen() -> [[String]] { made.all.count >= 2 ? made.all[1].spawned.map(\.argv) : [] }

        var server = try UnixStreamServer(path: socket, mode: 0o600, group: nil)
        accept(server)
        send(Self.displayLine("off"), to: server)
        XCTAssertTrue(waitFor(30) { screen().count == 1 }, "\(made.log)")
        XCTAssertEqual(screen(), [["/bin/true", "off"]])

        server.close()
        XCTAssertTrue(waitFor(30) { screen().count == 2 }, "the screen stayed dark when the stream ended")
        XCTAssertEqual(screen().last, ["/bin/true", "on"])

        server = try UnixStreamServer(path: socket, mode: 0o600, group: nil)
        accept(server)
        send(Self.displayLine("off"), to: server)
        XCTAssertTrue(waitFor(30) { screen().count == 3 }, "no off_command after reconnecting: \(made.log)")
        XCTAssertEqual(screen().last, ["/bin/true", "off"])
        XCTAssertEqual(made.all.count, 2, "an unchanged board made new runners")

        XCTAssertTrue(background.stop())
        XCTAssertEqual(screen().last, ["/bin/true", "on"], "stopping the agent left the screen dark")
        server.close()
    }

    /// The socket does not come back: the agent gives up after `reconnectMicroseconds` of its
    /// clock (a manual one, moved by its own sleeps) and says why, naming the socket.
    func testAgentGivesUpWhenTheSocketStaysAway() throws {
        let dir = try makeTemporaryDirectory(self)
        let socket = dir.appendingPathComponent("none.sock").path
        let b = try BoardLoader.parse(
            boardText(socket: socket, programs: [["/bin/true"]]), file: "a.toml", directory: dir.path)
        let clock = ManualClock()
        let supervisor = AgentSupervisor(
            board: b, boardPath: "a.toml", socket: socket, bindings: .service, clock: clock,
            reconnectMicroseconds: 5_000_000,
            makeRunner: { _, commands, _ in RecordingCommandRunner(invocations: commands.map { ($0.argv, []) }) },
            log: { _ in })
        let stop = Atomic<Bool>(false)
        let reason = supervisor.run(stop: stop)
        XCTAssertTrue(reason.hasPrefix("\(socket): no service listening"), reason)
        XCTAssertTrue(reason.hasSuffix("for 5 s; giving up"), reason)
        XCTAssertEqual(clock.now.microseconds, 5_000_000)
    }
}
