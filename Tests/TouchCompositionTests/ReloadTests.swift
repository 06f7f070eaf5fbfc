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

/// SIGHUP reload and supervision (READY, watchdog) on a simulated board: `ServiceSupervisor`
/// with the threaded `Service`, the simulated controller and simulated GPIO.
final class ReloadTests: XCTestCase {
    /// A pan that starts at 100 ms and is then held still for ten minutes: a touch in progress.
    let heldPanTrace = """
        {"touchwire_trace":1,"panel":{"width":800,"height":480},"source":"test"}
        {"t_us":100000,"contacts":[{"id":0,"x":100,"y":100}]}
        {"t_us":150000,"contacts":[{"id":0,"x":160,"y":100}]}
        {"t_us":200000,"contacts":[{"id":0,"x":220,"y":100}]}
        {"t_us":250000,"contacts":[{"id":0,"x":280,"y":100}]}
        {"t_us":600000000,"contacts":[]}

        """

    func boardText(uart: String, recognizers: [String], bindings: [(String, Int)]) -> String {
        var text =
            simulatedBoardText(script: "held.jsonl", recognizers: recognizers) + """
                [[output]]
                type = "uart"
                device = "\(uart)"
                baud = 921600
                template = "{recognizer} {state}"

                """
        for (recognizer, line) in bindings {
            text += """

                [[binding]]
                recognizer = "\(recognizer)"
                action = "\(recognizer == "pan" ? "hold" : "pulse")"
                gpio = { chip = "sim", line = \(line) }

                """
        }
        return text
    }

    func readUntil(_ pty: borrowing PseudoTerminal, contains text: String, seconds: Double) throws -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline && !String(decoding: received, as: UTF8.self).contains(text) {
            let n = try buffer.withUnsafeMutableBytes { try pty.read(into: $0, timeoutMilliseconds: 100) }
            received.append(contentsOf: buffer[..<n])
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// A broken board is refused (each problem named with file and key; the same service runs
    /// on); a valid one is swapped in: the held pan is cancelled, its hold line goes inactive and
    /// is released, the new board's line is requested, and READY=1 is sent again.
    func testBrokenBoardRefusedValidBoardSwappedAtAFrameBoundary() throws {
        let dir = try makeTemporaryDirectory(self)
        try heldPanTrace.write(to: dir.appendingPathComponent("held.jsonl"), atomically: true, encoding: .utf8)
        let pty = try PseudoTerminal()
        let file = dir.appendingPathComponent("board.toml")
        try boardText(uart: pty.subordinatePath, recognizers: ["tap", "pan"], bindings: [("tap", 1), ("pan", 2)])
            .write(to: file, atomically: true, encoding: .utf8)
        let gpio = SimulatedGPIO(chips: ["sim": 8])
        let messages = NotifyMessages()
        let supervisor = try ServiceSupervisor(
            board: try BoardLoader.load(path: file.path), boardPath: file.path, logger: quietLogger,
            notify: { messages.append($0) },
            make: { board, _ throws(ServiceError) in
                try Service(board: board, logger: quietLogger, gpio: gpio)
            })
        let finished = DispatchSemaphore(value: 0)
        let result = Mutex<Bool?>(nil)
        let thread = Thread {
            let ok = supervisor.run()
            result.withLock { $0 = ok }
            finished.signal()
        }
        thread.start()
        var seen = try readUntil(pty, contains: "pan began", seconds: 30)
        XCTAssertTrue(seen.contains("pan began"), seen)
        XCTAssertTrue(waitFor(30) { messages.count("READY=1") == 1 }, "READY=1 once the controller answers")
        let first = supervisor.current

        // A board with two errors: refused, both named, nothing changes.
        try boardText(uart: pty.subordinatePath, recognizers: ["tap", "pan"], bindings: [("tap", 1), ("pan", 2)])
            .replacingOccurrences(of: "width = 800", with: "width = \"wide\"")
            .replacingOccurrences(of: "kind = \"pan\"", with: "kind = \"pann\"")
            .write(to: file, atomically: true, encoding: .utf8)
        guard case .refused(let problems) = supervisor.reload() else {
            return XCTFail("a broken board was accepted")
        }
        XCTAssertEqual(problems.count, 3, "the two errors and the binding left without its pan: \(problems)")
        XCTAssertTrue(problems.allSatisfy { $0.contains(file.path) }, "each problem names the file: \(problems)")
        XCTAssertTrue(problems.contains { $0.contains("panel.width") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("\"pan\".kind") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("binding[1]") }, "\(problems)")
        XCTAssertTrue(supervisor.current === first, "the old service keeps running")
        XCTAssertEqual(supervisor.reloads, 0)
        let ticks = first.health.recognizerTicks.load(ordering: .relaxed)
        XCTAssertTrue(waitFor(30) { first.health.recognizerTicks.load(ordering: .relaxed) > ticks }, "still advancing")

        // A valid board without the pan and its line, with a tap on line 3 instead.
        try boardText(uart: pty.subordinatePath, recognizers: ["tap"], bindings: [("tap", 3)])
            .write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(supervisor.reload(), .accepted(board: "board"))
        seen += try readUntil(pty, contains: "pan cancelled", seconds: 30)
        XCTAssertTrue(seen.hasSuffix("pan cancelled\n"), "the pan in progress ends: \(seen)")
        XCTAssertTrue(waitFor(30) { supervisor.reloads == 1 }, "the new board is swapped in")
        XCTAssertFalse(supervisor.current === first)
        XCTAssertEqual(supervisor.current.engine.recognizers.count, 1)
        XCTAssertTrue(waitFor(30) { messages.count("READY=1") == 2 }, "READY=1 again after the reload")
        XCTAssertEqual(messages.count("RELOADING=1"), 1, "only the accepted reload announces itself")

        supervisor.stop()
        XCTAssertEqual(finished.wait(timeout: .now() + 30), .success, "run() did not return after stop()")
        XCTAssertEqual(result.withLock { $0 }, true)
        let hold = GPIOLineID(chip: "sim", offset: 2)
        XCTAssertEqual(gpio.changes(of: hold).map(\.active), [false, true, false], "the pan's line went inactive")
        XCTAssertFalse(gpio.isRequested(hold))
        let added = gpio.changes(of: GPIOLineID(chip: "sim", offset: 3)).map(\.active)
        XCTAssertTrue(!added.isEmpty && !added.contains(true), "the new board's line was requested, inactive: \(added)")
        XCTAssertFalse(gpio.isRequested(GPIOLineID(chip: "sim", offset: 1)))
    }

    /// The watchdog is fed while the recognizer loop advances, and no longer once it hangs
    /// (the test-only fault): systemd would then kill and restart the service.
    func testWatchdogFedOnlyWhileThePipelineAdvances() throws {
        for hang in [false, true] {
            let dir = try makeTemporaryDirectory(self)
            try heldPanTrace.write(to: dir.appendingPathComponent("held.jsonl"), atomically: true, encoding: .utf8)
            let file = dir.appendingPathComponent("board.toml")
            try simulatedBoardText(script: "held.jsonl", recognizers: ["tap"])
                .write(to: file, atomically: true, encoding: .utf8)
            let messages = NotifyMessages()
            let supervisor = try ServiceSupervisor(
                board: try BoardLoader.load(path: file.path), boardPath: file.path, logger: quietLogger,
                watchdogMicroseconds: 2_000_000, notify: { messages.append($0) },
                make: { board, _ throws(ServiceError) in
                    let service = try Service(board: board, logger: quietLogger, stdout: CollectingSink())
                    if hang { service.health.injectRecognizerHang() }
                    return service
                })
            let finished = DispatchSemaphore(value: 0)
            Thread {
                _ = supervisor.run()
                finished.signal()
            }.start()
            if hang {
                XCTAssertTrue(waitFor(60) { supervisor.watchdogChecks >= 3 }, "three watchdog checks")
                XCTAssertEqual(messages.count("WATCHDOG=1"), 1, "only the first check feeds a hung pipeline")
            } else {
                XCTAssertTrue(waitFor(60) { messages.count("WATCHDOG=1") >= 3 }, "fed again and again")
            }
            supervisor.stop()
            XCTAssertEqual(finished.wait(timeout: .now() + 30), .success)
        }
    }
}
