import BoardConfig
import Foundation
import Logging
import Synchronization
import TouchComposition
import TouchCore
import TouchLinux
import TouchService
import TouchSimulation
import XCTest

/// SIGHUP reload of a board whose devices are exclusive (issue 15): the event socket's path and
/// a GPIO line stay the same across the reload, so the new board can only open them once the old
/// service has given them back (`Service.close()` before the supervisor's `make`).
final class ReloadDevicesTests: XCTestCase {
    /// A tap at 100–150 ms, replayed every 1.4 s (`loop = true`): events keep coming on every board.
    let tapTrace = """
        {"touchwire_trace":1,"panel":{"width":800,"height":480},"source":"test"}
        {"t_us":100000,"contacts":[{"id":0,"x":100,"y":100}]}
        {"t_us":150000,"contacts":[]}
        {"t_us":400000,"contacts":[]}

        """

    /// A simulated board with one tap recognizer named `recognizer`, the socket output at `socket`
    /// and a pulse binding of the tap on simulated line `line`.
    func board(recognizer: String, socket: String, line: Int) -> String {
        """
        [panel]
        width = 800
        height = 480

        [controller]
        chip = "ft6x36"
        bus = "sim"

        [simulation]
        script = "taps.jsonl"
        report_rate_hz = 100
        loop = true

        [[region]]
        name = "screen"
        frame = [0, 0, 800, 480]

        [[recognizer]]
        name = "\(recognizer)"
        kind = "tap"
        region = "screen"

        [[output]]
        type = "socket"
        path = "\(socket)"

        [[binding]]
        recognizer = "\(recognizer)"
        action = "pulse"
        gpio = { chip = "sim", line = \(line) }

        """
    }

    /// Connects to `path`, retrying for up to `seconds` while nothing listens there yet.
    func connect(_ path: String, seconds: Double) throws -> UnixStreamConnection {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            do throws(UnixConnectionError) {
                return try UnixStreamConnection(connectingTo: path)
            } catch {
                if Date() > deadline { throw error }
                usleep(20_000)
            }
        }
    }

    /// What `connection` receives until `text` arrives, the peer closes (`closed` true) or `seconds` pass.
    func read(
        _ connection: borrowing UnixStreamConnection, until text: String, seconds: Double
    ) throws -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline && !String(decoding: received, as: UTF8.self).contains(text) {
            let n = try buffer.withUnsafeMutableBytes { try connection.read(into: $0, timeoutMilliseconds: 100) }
            guard let n else { return (String(decoding: received, as: UTF8.self), true) }
            received.append(contentsOf: buffer[..<n])
        }
        return (String(decoding: received, as: UTF8.self), false)
    }

    /// A board with the socket output and a bound line is reloaded with a board on the same socket
    /// path and line: the reload is taken (before the fix the bind failed, EADDRINUSE, and the
    /// reload was refused); the old stream ends, a client that reconnects sees the new board's
    /// events; the line is held by the new board only. A board that passes validation but cannot
    /// open (its line is busy) is refused at the swap and the old board comes back on the same
    /// socket; a board with errors changes nothing and the connected client keeps its stream.
    func testReloadTakesOverTheSocketAndLinesOfTheOldBoard() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("taps.jsonl"), atomically: true, encoding: .utf8)
        let socket = dir.appendingPathComponent("events.sock").path
        let file = dir.appendingPathComponent("board.toml")
        try board(recognizer: "first", socket: socket, line: 1).write(to: file, atomically: true, encoding: .utf8)
        let gpio = SimulatedGPIO(chips: ["sim": 8])
        let line = GPIOLineID(chip: "sim", offset: 1)
        gpio.busyLines[GPIOLineID(chip: "sim", offset: 5)] = "another program"
        let messages = NotifyMessages()
        let supervisor = try ServiceSupervisor(
            board: try BoardLoader.load(path: file.path), boardPath: file.path, logger: quietLogger,
            notify: { messages.append($0) },
            make: { board, _ throws(ServiceError) in
                try Service(board: board, logger: quietLogger, gpio: gpio)
            })
        let finished = DispatchSemaphore(value: 0)
        let result = Mutex<Bool?>(nil)
        Thread {
            let ok = supervisor.run()
            result.withLock { $0 = ok }
            finished.signal()
        }.start()

        let first = try connect(socket, seconds: 30)
        var seen = try read(first, until: "\"first\"", seconds: 30)
        XCTAssertTrue(seen.text.contains("\"recognizer\":\"first\""), seen.text)
        // READY=1 is sent by the supervisor's watcher (every 100 ms), maybe after the first events.
        XCTAssertTrue(waitFor(30) { messages.count("READY=1") == 1 }, "READY=1 once the controller answers")

        // Same socket path, same line, another recognizer name: taken, and the new stream is the new board's.
        try board(recognizer: "second", socket: socket, line: 1).write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(supervisor.reload(), .accepted(board: "board"))
        XCTAssertTrue(waitFor(30) { supervisor.reloads == 1 }, "the board on the same socket and line is swapped in")
        XCTAssertTrue(waitFor(30) { messages.count("READY=1") == 2 }, "READY=1 again: the new board runs")
        XCTAssertEqual(messages.count("could not be started"), 0)
        seen = try read(first, until: "never sent", seconds: 30)
        XCTAssertTrue(seen.closed, "the old board's stream ends (clients reconnect): \(seen.text)")
        let second = try connect(socket, seconds: 30)
        seen = try read(second, until: "\"second\"", seconds: 30)
        XCTAssertTrue(seen.text.contains("\"recognizer\":\"second\""), "the new board streams: \(seen.text)")
        XCTAssertFalse(seen.text.contains("\"first\""), seen.text)
        XCTAssertTrue(gpio.isRequested(line), "the new board holds the line the old one gave back")

        // Valid, but its line is held by another program: refused at the swap, the old board comes back.
        try board(recognizer: "third", socket: socket, line: 5).write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(supervisor.reload(), .accepted(board: "board"))
        XCTAssertTrue(waitFor(30) { messages.count("could not be started") == 1 }, "the refusal is logged")
        XCTAssertTrue(waitFor(30) { messages.count("READY=1") == 3 }, "the previous board runs again")
        XCTAssertEqual(supervisor.reloads, 1, "the failed swap is not counted as a reload")
        let third = try connect(socket, seconds: 30)
        seen = try read(third, until: "\"second\"", seconds: 30)
        XCTAssertTrue(seen.text.contains("\"recognizer\":\"second\""), "the previous board streams again: \(seen.text)")
        XCTAssertFalse(seen.text.contains("\"third\""), seen.text)
        XCTAssertTrue(gpio.isRequested(line), "the previous board holds its line again")

        // Errors: refused before anything is touched; the connected client keeps its stream.
        try board(recognizer: "fourth", socket: socket, line: 1)
            .replacingOccurrences(of: "kind = \"tap\"", with: "kind = 3")
            .write(to: file, atomically: true, encoding: .utf8)
        guard case .refused = supervisor.reload() else { return XCTFail("a board with errors was accepted") }
        seen = try read(third, until: "\"second\"", seconds: 30)
        XCTAssertFalse(seen.closed, "the running board was not touched")
        XCTAssertTrue(seen.text.contains("\"recognizer\":\"second\""), seen.text)

        supervisor.stop()
        XCTAssertEqual(finished.wait(timeout: .now() + 30), .success, "run() did not return after stop()")
        XCTAssertEqual(result.withLock { $0 }, true)
        XCTAssertFalse(gpio.isRequested(line), "stopping releases the line")
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket), "stopping removes the socket file")
        XCTAssertEqual(gpio.changes(of: line).last?.active, false, "the line ends inactive")
    }
}
