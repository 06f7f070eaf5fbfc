import BoardConfig
import Foundation
import TouchComposition
import TouchCore
import TouchLinux
import TouchService
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A board with `[[output]] type = "socket"`: a kiosk app connected to the socket reads the same
/// JSON line as stdout.
final class SocketOutputTests: XCTestCase, TouchwireCommandLine {
    func testSocketClientReceivesTheStdoutLines() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let socketPath = dir.appendingPathComponent("events.sock").path
        let text = simulatedBoardText(
            script: "tap.jsonl", recognizers: ["tap"],
            extra: "[[output]]\ntype = \"stdout\"\n\n[[output]]\ntype = \"socket\"\npath = \"\(socketPath)\"\n")
        let board = try BoardLoader.parse(text, file: "s.toml", directory: dir.path)
        let clock = ManualClock()
        let stdout = CollectingSink()
        let service = try Service(board: board, logger: quietLogger, stdout: stdout, clock: clock)
        let client = try SocketTestClient(path: socketPath)
        XCTAssertTrue(service.driver.start(at: .zero))
        for ms in stride(from: Int64(0), through: 300, by: 10) {
            clock.now = .milliseconds(ms)
            service.driver.poll(at: clock.now)
            service.recognizer.step(now: clock.now)
            service.output.drain(clock: clock)
        }
        service.output.flush()
        let expected = stdout.text
        XCTAssertTrue(expected.contains(#""recognizer":"tap""#), expected)
        XCTAssertEqual(String(decoding: client.read(count: expected.utf8.count), as: UTF8.self), expected)
    }

    func testUnusableSocketPathStopsTheServiceWithOneError() throws {
        let dir = try makeTemporaryDirectory(self)
        let path = dir.appendingPathComponent("missing/events.sock").path
        let text = simulatedBoardText(
            script: "demo", recognizers: ["tap"], extra: "[[output]]\ntype = \"socket\"\npath = \"\(path)\"\n")
        let board = try BoardLoader.parse(text, file: "s.toml", directory: dir.path)
        XCTAssertThrowsError(try Service(board: board, logger: quietLogger, stdout: CollectingSink())) {
            XCTAssertEqual("\($0)", "s.toml: output socket: \(path): the directory does not exist")
        }
    }

    /// Issue 30, class 2: any failed connect used to count as stale, so an unprivileged `run`
    /// unlinked another user's live socket (EACCES on connect) and took its place. Now only
    /// ECONNREFUSED is stale: the run stops with one error and the other socket stays.
    func testAnotherUsersLiveSocketIsNeverTakenOver() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("needs root and setpriv(1) to run touchwire as another user")
        }
        let dir = try makeTemporaryDirectory(self)
        XCTAssertEqual(chmod(dir.path, 0o755), 0)
        let shared = dir.appendingPathComponent("shared").path
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        XCTAssertEqual(chown(shared, 65534, 65534), 0)  // the unprivileged user's own directory
        let path = shared + "/events.sock"
        let live = try UnixStreamServer(path: path, mode: 0o600, group: nil)  // root's, 0600: EACCES for others
        let board = dir.appendingPathComponent("b.toml").path
        try simulatedBoardText(
            script: "demo", recognizers: ["tap"], extra: "[[output]]\ntype = \"socket\"\npath = \"\(path)\"\n"
        ).write(toFile: board, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(board, 0o644), 0)
        // Within 20 s: a guard against a takeover that runs on.
        let result = try start(
            ["run", "--board", board, "--status-file", ""],
            launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        ).finish(within: 20)
        let stderr = result.stderr
        XCTAssertNotEqual(result.status, 0, stderr)
        XCTAssertTrue(
            stderr.contains("\(path): a socket file is there and checking whether it is in use failed"), stderr)
        var st = stat()
        XCTAssertEqual(lstat(path, &st), 0, "the live socket was unlinked")
        XCTAssertEqual(st.st_uid, 0, "another user's socket took its place")
        XCTAssertNoThrow(try SocketTestClient(path: path), "root's server still listens")
        live.close()
    }
}
