import BoardConfig
import Foundation
import Synchronization
import TouchComposition
import TouchCore
import TouchLinux
import XCTest

@testable import TouchService

/// Issue 30, class 6: `session = true` exec bindings run in the user's session through
/// `touchwire agent`, fed by the event socket; the service does not spawn them.
final class SessionAgentTests: XCTestCase {
    final class Flag: Sendable { let stop = Atomic<Bool>(false) }

    func board(socket: String, directory: String) throws -> BoardDescription {
        let text = simulatedBoardText(
            script: "tap.jsonl", recognizers: ["tap"],
            extra: "[[output]]\ntype = \"socket\"\npath = \"\(socket)\"\n\n"
                + "[[binding]]\nrecognizer = \"tap\"\naction = \"exec\"\ncommand = [\"/bin/true\", \"--show\"]\n"
                + "session = true\n")
        return try BoardLoader.parse(text, file: "a.toml", directory: directory)
    }

    /// A simulated `touchwire run` with a socket output and the agent connected: the tap runs
    /// the session command through the agent's runner (the recording twin), never the service's.
    func testAgentRunsTheSessionCommandOnTheGesture() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let socketPath = dir.appendingPathComponent("events.sock").path
        let b = try board(socket: socketPath, directory: dir.path)
        let clock = ManualClock()
        let service = try Service(board: b, logger: quietLogger, stdout: CollectingSink(), clock: clock)
        XCTAssertNil(service.output.commands?.spawner, "the service would spawn the session command itself")
        let (commands, _) = SessionAgent.commands(of: b)
        XCTAssertEqual(commands.map(\.argv), [["/bin/true", "--show"]])
        let runner = RecordingCommandRunner(invocations: commands.map { ($0.argv, []) })
        let agent = SessionAgent(board: b, runner: runner)
        let connection = try UnixStreamConnection(connectingTo: socketPath)
        XCTAssertTrue(service.driver.start(at: .zero))
        for ms in stride(from: Int64(0), through: 300, by: 10) {
            clock.now = .milliseconds(ms)
            service.driver.poll(at: clock.now)
            service.recognizer.step(now: clock.now)
            service.output.drain(clock: clock)
        }
        service.output.flush()
        let flag = Flag()
        DispatchQueue.global().async {
            _ = waitFor(30) { !runner.spawned.isEmpty }
            flag.stop.store(true, ordering: .relaxed)
        }
        let reason = try agent.serve(connection, stop: flag.stop)
        XCTAssertEqual(reason, "stopped")
        XCTAssertEqual(runner.spawned.map(\.argv), [["/bin/true", "--show"]])
    }

    /// Only an event of the binding's recognizer and state triggers it; other lines are ignored.
    func testOnlyTheBindingsRecognizerAndStateTrigger() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let b = try board(socket: dir.appendingPathComponent("s.sock").path, directory: dir.path)
        let runner = RecordingCommandRunner(invocations: [(["/bin/true", "--show"], [])])
        let agent = SessionAgent(board: b, runner: runner)
        agent.handle(#"{"t_us":1,"recognizer":"tap","state":"began","x":1,"y":2}"#)
        agent.handle(#"{"t_us":1,"recognizer":"swipe","state":"recognized","x":1,"y":2}"#)
        agent.handle("not json")
        XCTAssertEqual(runner.spawned.count, 0)
        agent.handle(#"{"t_us":1,"recognizer":"tap","state":"recognized","x":1,"y":2}"#)
        XCTAssertEqual(runner.spawned.map(\.binding), [0])
    }

    /// `session` is a boolean of exec bindings only; a key binding with it is refused by name.
    func testSessionKeyIsCheckedByTheBoardReader() throws {
        let base = simulatedBoardText(script: "demo", recognizers: ["tap"], extra: "")
        XCTAssertThrowsError(
            try BoardLoader.parse(
                base + "[[binding]]\nrecognizer = \"tap\"\naction = \"exec\"\ncommand = [\"/bin/true\"]\nsession = 1\n",
                file: "k.toml", directory: "/tmp")
        ) { XCTAssertTrue("\($0)".contains("session"), "\($0)") }
        XCTAssertThrowsError(
            try BoardLoader.parse(
                base + "[[binding]]\nrecognizer = \"tap\"\naction = \"key\"\nkeys = [\"KEY_A\"]\nsession = true\n",
                file: "k.toml", directory: "/tmp")
        ) { XCTAssertTrue("\($0)".contains("session"), "\($0)") }
    }
}
