import BoardConfig
import Foundation
import Gestures
import TouchComposition
import TouchCore
import TouchLinux
import TouchOutputs
import TouchService
import TouchSimulation
import XCTest

/// A finger scripted into the simulated FT6x36's registers comes out of a UART as a text line.
final class EndToEndTests: XCTestCase {
    func testTapInSimulatedControllerRegistersArrivesOnUART() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let board = try tapBoard(script: "tap.jsonl", directory: dir)

        let pty = try PseudoTerminal()
        let clock = ManualClock()
        let uart = try UARTSink(
            path: pty.subordinatePath, configuration: SerialConfiguration(baudRate: 115_200), clock: clock,
            log: { _ in })
        let stdout = CollectingSink()
        let names = EngineBuilder.names(of: try EngineBuilder.build(board))
        let serviceWithUART = try Service(
            board: board, logger: quietLogger,
            extraOutputs: [OutputChannel(name: "uart", encoding: .text(EventTextEncoder(names: names)), sink: uart)],
            stdout: stdout, clock: clock)

        // The three stages, stepped by hand every 10 ms for half a second of simulated time.
        XCTAssertTrue(serviceWithUART.driver.start(at: .zero))
        for ms in stride(from: Int64(0), through: 500, by: 10) {
            clock.now = .milliseconds(ms)
            serviceWithUART.driver.poll(at: clock.now)
            serviceWithUART.recognizer.step(now: clock.now)
            serviceWithUART.output.drain(clock: clock)
        }
        serviceWithUART.output.flush()

        let expected = "tap recognized 401.0 240.0\n"
        let bytes = try pty.read(count: expected.utf8.count, timeoutMilliseconds: 5000)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), expected)
        // The same event went to stdout as a JSON line, at the lift's instant (the script starts at 0).
        XCTAssertEqual(
            stdout.text,
            #"{"t_us":50000,"recognizer":"tap","kind":"tap","state":"recognized","#
                + #""region":"screen","x":401.0,"y":240.0,"touches":1,"taps":1}"#
                + "\n")
        // The driver read the chip once per poll, and only changed frames were queued.
        XCTAssertEqual(serviceWithUART.driver.framesRead, 51)
        XCTAssertEqual(serviceWithUART.driver.framesQueued, 3)
    }

    /// S9 via the driver: a bus fault while a finger is down cancels the touch instead of leaving it hanging.
    func testBusFaultMidGestureCancelsTouchesInProgress() throws {
        let dir = try makeTemporaryDirectory(self)
        let trace = """
            {"touchwire_trace":1,"panel":{"width":800,"height":480},"source":"test"}
            {"t_us":0,"contacts":[{"id":0,"x":100,"y":240}]}
            {"t_us":50000,"contacts":[{"id":0,"x":140,"y":240}]}
            {"t_us":100000,"contacts":[{"id":0,"x":180,"y":240}]}
            {"t_us":400000,"contacts":[]}

            """
        try trace.write(to: dir.appendingPathComponent("drag.jsonl"), atomically: true, encoding: .utf8)
        var board = try tapBoard(script: "drag.jsonl", directory: dir)
        board.recognizers = [
            RecognizerDescription(name: "pan", parameters: .pan(PanParameters()), region: "screen")
        ]
        let clock = ManualClock()
        let stdout = CollectingSink()
        let service = try Service(board: board, logger: quietLogger, stdout: stdout, clock: clock)
        XCTAssertTrue(service.driver.start(at: .zero))
        for ms in stride(from: Int64(0), through: 600, by: 10) {
            clock.now = .milliseconds(ms)
            if ms == 150 { (service.driver.controller as? SimulatedController)?.world.bus?.nackNext(3) }
            service.driver.poll(at: clock.now)
            service.recognizer.step(now: clock.now)
            service.output.drain(clock: clock)
        }
        let states = stdout.lines.compactMap { line -> String? in
            guard let r = line.range(of: #""state":""#) else { return nil }
            return String(line[r.upperBound...].prefix { $0 != "\"" })
        }
        XCTAssertEqual(states.first, "began")
        XCTAssertTrue(states.contains("cancelled"), "got \(states)")
        XCTAssertEqual(service.driver.readErrors, 3)
        XCTAssertFalse(service.engine.hasTouchesDown)
    }

    /// The threaded service: started, prints the demo's first gesture, stops cleanly on request.
    func testThreadedServiceRunsAndStops() throws {
        let board = try BoardLoader.load(path: repositoryRoot.appendingPathComponent("boards/sim-demo.toml").path)
        _ = try runThreadedUntilFirstEvent(board)
    }
}

extension EndToEndTests {
    /// The threaded driver loop on an INT line: the simulated chip pulls INT, the loop wakes on
    /// the edge and reads; the demo's tap comes out and the service stops cleanly.
    func testThreadedServiceWakesOnInterruptEdges() throws {
        let text = try String(
            contentsOf: repositoryRoot.appendingPathComponent("boards/sim-demo.toml"), encoding: .utf8
        )
        .replacingOccurrences(
            of: "poll_interval_ms = 10", with: "poll_interval_ms = 10\ninterrupt = { chip = \"sim-int\", line = 4 }")
        XCTAssertTrue(text.contains("sim-int"))
        let board = try BoardLoader.parse(
            text, file: "int.toml", directory: repositoryRoot.appendingPathComponent("boards").path)
        XCTAssertNotNil(board.controller?.interrupt)
        let (service, _) = try runThreadedUntilFirstEvent(board)
        XCTAssertNotNil(service.driver.interruptInput, "the sim board's INT line is wired")
        XCTAssertGreaterThan(service.driver.interruptWakeups, 0, "reads followed INT edges")
    }
}

extension EndToEndTests {
    /// Runs `board`'s service on its own threads until the first event line, stops it, and checks
    /// that `run()` returned, the first event is the demo's tap, and no touch is left down.
    func runThreadedUntilFirstEvent(
        _ board: BoardDescription, file: StaticString = #filePath, line: UInt = #line
    ) throws -> (Service, CollectingSink) {
        let stdout = CollectingSink()
        let service = try Service(board: board, logger: quietLogger, stdout: stdout)
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            service.run()
            finished.signal()
        }
        thread.start()
        // The demo's first tap is recognized about 0.4 s in; allow a very slow machine 30 s.
        let deadline = Date().addingTimeInterval(30)
        while stdout.lines.isEmpty && Date() < deadline { usleep(20_000) }
        service.stop()
        XCTAssertEqual(
            finished.wait(timeout: .now() + 30), .success, "run() did not return after stop()", file: file, line: line)
        XCTAssertTrue(
            stdout.lines.first?.contains(#""recognizer":"tap""#) ?? false, "got \(stdout.lines)", file: file, line: line
        )
        XCTAssertFalse(service.engine.hasTouchesDown, file: file, line: line)
        return (service, stdout)
    }
}
