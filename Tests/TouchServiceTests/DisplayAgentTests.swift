import BoardConfig
import Foundation
import Synchronization
import TouchComposition
import TouchCore
import TouchLinux
import XCTest

@testable import TouchService

/// Issue 30, class 6: with `[display] session = true` the screen's commands run in the kiosk
/// user's session: `touchwire agent` runs `off_command` on the event socket's `off` lines and
/// `on_command` on `on`, and `on_command` once more when the stream ends while the screen is
/// off; the service spawns neither.
final class DisplayAgentTests: XCTestCase {
    final class Flag: Sendable { let stop = Atomic<Bool>(false) }

    /// A simulated board (one tap) with a socket output and `[display] session = true`, idle 1 s;
    /// its commands would leave `off-ran` / `on-ran` in `directory` if the service ran them.
    func board(socket: String, directory: String) throws -> BoardDescription {
        let text = simulatedBoardText(
            script: "tap.jsonl", recognizers: ["tap"],
            extra: "[[output]]\ntype = \"socket\"\npath = \"\(socket)\"\n\n"
                + "[display]\nidle_off_s = 1\nsession = true\n"
                + "off_command = [\"/bin/sh\", \"-c\", \"echo > \(directory)/off-ran\"]\n"
                + "on_command = [\"/bin/sh\", \"-c\", \"echo > \(directory)/on-ran\"]\n")
        return try BoardLoader.parse(text, file: "a.toml", directory: directory)
    }

    /// The agent's runner: the recording twin of `[off_command, on_command]`.
    func recordingRunner(_ b: BoardDescription) throws -> RecordingCommandRunner {
        let commands = try XCTUnwrap(DisplayAgent.commands(of: b))
        return RecordingCommandRunner(invocations: commands.map { ($0.argv, []) })
    }

    /// The simulated service goes dark after the idle second; the agent, reading the socket,
    /// runs off_command; the service closes (stopped); the agent, at the end of the stream, runs
    /// on_command. The service itself runs neither.
    func testAgentSwitchesTheScreenFromTheStreamAndWakesItWhenTheStreamEnds() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let socketPath = dir.appendingPathComponent("events.sock").path
        let b = try board(socket: socketPath, directory: dir.path)
        let clock = ManualClock()
        let service = try Service(board: b, logger: quietLogger, stdout: CollectingSink(), clock: clock)
        let screen = try XCTUnwrap(service.displaySwitch as? DisplaySwitch)
        guard case .agent = screen.output else { return XCTFail("the service would run the display's commands") }
        let runner = try recordingRunner(b)
        let agent = SessionAgent(board: b, runner: RecordingCommandRunner(invocations: []))
        let display = DisplayAgent(runner: runner, log: { _ in })
        agent.display = display
        let connection = try UnixStreamConnection(connectingTo: socketPath)
        XCTAssertTrue(service.driver.start(at: .zero))
        for ms in stride(from: Int64(0), through: 1_500, by: 10) {
            clock.now = .milliseconds(ms)
            service.driver.poll(at: clock.now)
            service.recognizer.step(now: clock.now)
            service.output.drain(clock: clock)
            service.output.flush()
            screen.applyPending()
        }
        // Stopping dark: a switch of commands would run on_command here (and leave on-ran).
        screen.stop()
        service.close()
        withExtendedLifetime(clock) {}
        // The agent reads what was written, then the end of the stream.
        let reason = try agent.serve(connection, stop: Flag().stop)
        XCTAssertEqual(reason, "the service closed the event socket")
        display.screen.applyPending()
        XCTAssertEqual(runner.spawned.map(\.binding), [0], "off_command on the off line")
        display.stop()
        XCTAssertEqual(runner.spawned.map(\.binding), [0, 1], "on_command when the stream ended dark")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("off-ran").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("on-ran").path))
    }

    /// An agent that connects while the screen is already off asks `display status` and runs
    /// off_command on the reply, instead of leaving the screen lit until the next change (while
    /// the service, thinking it dark, swallows the next touch as a wake touch).
    func testAgentAsksTheScreensStateAsItConnects() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let socketPath = dir.appendingPathComponent("events.sock").path
        let b = try board(socket: socketPath, directory: dir.path)
        let runner = try recordingRunner(b)
        let agent = SessionAgent(board: b, runner: RecordingCommandRunner(invocations: []))
        agent.display = DisplayAgent(runner: runner, log: { _ in })
        let server = try UnixStreamServer(path: socketPath, mode: 0o600, group: nil)
        defer { server.close() }
        let connection = try UnixStreamConnection(connectingTo: socketPath)
        XCTAssertTrue(
            waitFor(30) {
                _ = server.acceptPending(limit: 1)
                return !server.clients.isEmpty
            })
        let flag = Flag()
        let done = DispatchSemaphore(value: 0)
        let serving = Serving(agent, connection)
        DispatchQueue.global().async {
            _ = try? serving.agent.serve(serving.connection, stop: flag.stop)
            done.signal()
        }
        defer {
            flag.stop.store(true, ordering: .relaxed)
            _ = done.wait(timeout: .now() + 30)
        }
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        XCTAssertTrue(
            waitFor(30) {
                if let n = buffer.withUnsafeMutableBytes({ server.receive(fromClient: 0, into: $0) }), n > 0 {
                    request += buffer[..<n]
                }
                return request.contains(UInt8(ascii: "\n"))
            }, "the agent asked nothing")
        XCTAssertEqual(String(decoding: request, as: UTF8.self), "display status\n")
        let reply = Array(
            (#"{"reply":"status","display":"off","cause":"idle","keep_awake":false,"changes":1,"offs":1,"#
                + #""touch_wakes":0,"swallowed_touches":0}"# + "\n").utf8)
        _ = reply.withUnsafeBytes { server.send($0, toClient: 0) }
        XCTAssertTrue(
            waitFor(30) {
                agent.display?.screen.applyPending()
                return runner.spawned.count == 1
            }, "no off_command on a status reply of off")
        XCTAssertEqual(runner.spawned.map(\.binding), [0])
    }

    /// The agent and its connection, handed to the thread that serves it (only that thread uses them).
    final class Serving: @unchecked Sendable {
        let agent: SessionAgent
        let connection: UnixStreamConnection
        init(_ agent: SessionAgent, _ connection: consuming UnixStreamConnection) {
            self.agent = agent
            self.connection = connection
        }
    }

    /// `off` runs off_command, `on` on_command, `dimmed` nothing (as the service's switch does);
    /// gesture lines and replies other than `display status`'s are not display lines. A stream
    /// ending with the screen on runs nothing more.
    func testDisplayLinesRunTheirCommandsAndNothingElseDoes() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let b = try board(socket: dir.appendingPathComponent("s.sock").path, directory: dir.path)
        let runner = try recordingRunner(b)
        let display = DisplayAgent(runner: runner, log: { _ in })
        let apply: (String) -> Bool = { line in
            defer { display.screen.applyPending() }
            return display.handle(line[...])
        }
        XCTAssertFalse(apply(#"{"t_us":1,"recognizer":"tap","state":"recognized","x":1,"y":2}"#))
        XCTAssertFalse(apply(#"{"reply":"ok"}"#))
        XCTAssertFalse(apply(#"{"reply":"error","message":"display off"}"#))
        XCTAssertFalse(apply("garbage"))
        XCTAssertEqual(runner.spawned.count, 0)
        XCTAssertTrue(apply(#"{"t_us":1050000,"display":"off","cause":"idle"}"#))
        XCTAssertTrue(apply(#"{"t_us":1500000,"display":"dimmed","cause":"command"}"#))
        XCTAssertTrue(apply(#"{"t_us":2000000,"display":"on","cause":"touch"}"#))
        XCTAssertEqual(runner.spawned.map(\.binding), [0, 1])
        XCTAssertEqual(runner.spawned.map(\.argv.last), ["echo > \(dir.path)/off-ran", "echo > \(dir.path)/on-ran"])
        display.stop()
        XCTAssertEqual(runner.spawned.map(\.binding), [0, 1], "the screen was not off: nothing to wake")
    }
}
