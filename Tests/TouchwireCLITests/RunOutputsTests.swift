import BoardConfig
import Foundation
import TouchComposition
import TouchCore
import TouchLinux
import TouchService
import TouchSimulation
import XCTest

/// The threaded service and the `touchwire run` command with GPIO bindings and a UART.
final class RunOutputsTests: XCTestCase {
    func demoBoardText(uart: String) -> String {
        simulatedBoardText(script: "demo", recognizers: ["tap", "pan"]) + """
            [[output]]
            type = "uart"
            device = "\(uart)"
            baud = 921600
            template = "{recognizer} {state}"

            [[binding]]
            recognizer = "tap"
            action = "pulse"
            pulse_ms = 60000
            gpio = { chip = "sim", line = 1 }

            [[binding]]
            recognizer = "pan"
            action = "hold"
            gpio = { chip = "sim", line = 2 }
            """
    }

    /// Reads `pty` until `text` has arrived (or `seconds` pass); returns everything read.
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

    /// Stopped mid-gesture (a 60 s pulse running, a pan held): every line ends inactive and released.
    func testStopReturnsEveryLineToInactive() throws {
        let dir = try makeTemporaryDirectory(self)
        let pty = try PseudoTerminal()
        let file = dir.appendingPathComponent("b.toml")
        try demoBoardText(uart: pty.subordinatePath).write(to: file, atomically: true, encoding: .utf8)
        let board = try BoardLoader.load(path: file.path)
        let gpio = SimulatedGPIO(chips: ["sim": 8])
        let service = try Service(board: board, logger: quietLogger, gpio: gpio)
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            service.run()
            finished.signal()
        }
        thread.start()
        let seen = try readUntil(pty, contains: "pan began", seconds: 30)
        service.stop()
        XCTAssertEqual(finished.wait(timeout: .now() + 30), .success, "run() did not return after stop()")
        XCTAssertTrue(seen.contains("tap recognized\npan began\n"), seen)
        for offset in [1, 2] {
            let id = GPIOLineID(chip: "sim", offset: offset)
            XCTAssertEqual(gpio.changes(of: id).map(\.active), [false, true, false], "line \(offset)")
            XCTAssertFalse(gpio.isRequested(id))
        }
    }

    /// `touchwire run` on the simulated board: the demo's gestures arrive on the UART, the "sim"
    /// GPIO lines report their levels on stderr, and SIGINT ends with a latency figure.
    func testTouchwireRunDrivesUARTAndSimulatedGPIO() throws {
        let dir = try makeTemporaryDirectory(self)
        let pty = try PseudoTerminal()
        let file = dir.appendingPathComponent("b.toml")
        try demoBoardText(uart: pty.subordinatePath).write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: touchwireExecutable.path), "touchwire was not built")
        process.executableURL = touchwireExecutable
        process.arguments = ["run", "--board", file.path]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let seen = try readUntil(pty, contains: "pan ended", seconds: 30)
        process.interrupt()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, stderr)
        XCTAssertTrue(seen.hasPrefix("tap recognized\n"), seen)
        XCTAssertTrue(seen.contains("pan began\npan changed\n") && seen.hasSuffix("pan ended\n"), seen)
        for expected in [
            "gpio sim:1: active", "gpio sim:2: active", "gpio sim:2: inactive", "frame→write latency mean",
        ] {
            XCTAssertTrue(stderr.contains(expected), "stderr lacks \(expected):\n\(stderr)")
        }
        XCTAssertTrue(stderr.contains("gpio sim:1: inactive"), "the pulse still running at SIGINT is ended:\n\(stderr)")
    }
}
