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

#if canImport(Glibc)
    import Glibc
#endif

/// A trace: a tap at 100–150 ms, then a pan from 400 ms moving 10 px per 10 ms frame for
/// `panFrames` frames, lifted 10 ms after the last.
func tapThenPanTrace(panFrames: Int = 30) -> String {
    var lines = [
        #"{"touchwire_trace":1,"panel":{"width":800,"height":480},"source":"test"}"#,
        #"{"t_us":100000,"contacts":[{"id":0,"x":700,"y":400}]}"#,
        #"{"t_us":150000,"contacts":[]}"#,
    ]
    for i in 0..<panFrames {
        let x = 100 + Double(i % 600)
        lines.append(#"{"t_us":\#(400_000 + i * 10_000),"contacts":[{"id":0,"x":\#(x),"y":240}]}"#)
    }
    lines.append(#"{"t_us":\#(400_000 + panFrames * 10_000),"contacts":[]}"#)
    return lines.joined(separator: "\n") + "\n"
}

/// A simulated board with a tap and a pan recognizer, `outputs` and `bindings` appended.
func outputBoard(directory: URL, trace: String = tapThenPanTrace(), extra: String) throws -> BoardDescription {
    try trace.write(to: directory.appendingPathComponent("t.jsonl"), atomically: true, encoding: .utf8)
    let text = simulatedBoardText(script: "t.jsonl", recognizers: ["tap", "pan"], extra: extra)
    return try BoardLoader.parse(text, file: "outputs.toml", directory: directory.path)
}

/// Steps driver, recognizer and output stage every 10 ms from `from` to `through` ms.
func step(_ service: Service, _ clock: ManualClock, from: Int64 = 0, through: Int64, each: (Int64) -> Void = { _ in }) {
    for ms in stride(from: from, through: through, by: 10) {
        clock.now = .milliseconds(ms)
        each(ms)
        service.driver.poll(at: clock.now)
        service.recognizer.step(now: clock.now)
        service.output.drain(clock: clock)
        service.output.flush()
    }
}

/// Splits a byte stream into binary frames (docs/PROTOCOL.md): (sequence, state, name).
func parseFrames(_ bytes: [UInt8]) -> [(seq: Int, state: UInt8, name: String)] {
    var out: [(Int, UInt8, String)] = []
    var i = 0
    while i + 7 <= bytes.count {
        guard bytes[i] == 0xA5, bytes[i + 1] == 0x5A else {
            i += 1
            continue
        }
        let n = Int(bytes[i + 6])
        guard i + 9 + n <= bytes.count else { break }
        let p = Array(bytes[(i + 7)..<(i + 7 + n)])
        let name = String(decoding: p[35..<(35 + Int(p[34]))], as: UTF8.self)
        out.append((Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8, p[5], name))
        i += 9 + n
    }
    return out
}

final class OutputBehaviourTests: XCTestCase {
    /// One run of the pipeline: a tap pulses one line for exactly 200 ms, a pan holds another
    /// line from began to ended, and the same gestures arrive on a UART as binary frames.
    func testPulseHoldAndBinaryFramesOnTheInjectedClock() throws {
        let dir = try makeTemporaryDirectory(self)
        let pty = try PseudoTerminal()
        let board = try outputBoard(
            directory: dir,
            extra: """
                [[output]]
                type = "uart"
                device = "\(pty.subordinatePath)"
                format = "binary"

                [[binding]]
                recognizer = "tap"
                action = "pulse"
                pulse_ms = 200
                gpio = { chip = "sim", line = 1 }

                [[binding]]
                recognizer = "pan"
                action = "hold"
                gpio = { chip = "sim", line = 2, active_low = true }
                """)
        let clock = ManualClock()
        let gpio = SimulatedGPIO(chips: ["sim": 8], clock: clock)
        let service = try Service(board: board, logger: quietLogger, gpio: gpio, clock: clock)
        let tapLine = GPIOLineID(chip: "sim", offset: 1)
        let panLine = GPIOLineID(chip: "sim", offset: 2)
        XCTAssertTrue(gpio.isRequested(tapLine) && gpio.isRequested(panLine), "requested once, at start")

        XCTAssertTrue(service.driver.start(at: .zero))
        var panActiveDuring: [Bool] = []
        step(service, clock, through: 1000) { ms in
            if ms == 500 { panActiveDuring.append(gpio.isActive(panLine)) }
        }
        func levels(_ id: GPIOLineID) -> [String] {
            gpio.changes(of: id).map { "\($0.active ? "on" : "off")@\($0.at.microseconds / 1000)" }
        }
        XCTAssertEqual(
            levels(tapLine), ["off@0", "on@50", "off@250"],
            "a 200 ms pulse from the tap's lift (the script starts at 0)")
        // The pan begins once the finger has moved 10 px and ends at the lift (600 ms on the script's clock).
        XCTAssertEqual(levels(panLine), ["off@0", "on@400", "off@600"])
        XCTAssertEqual(panActiveDuring, [true])

        let frames = parseFrames(try pty.read(count: 4096, timeoutMilliseconds: 300))
        XCTAssertEqual(frames.map(\.seq), Array(0..<frames.count), "numbered from 0 without gaps")
        XCTAssertEqual(frames.first.map { "\($0.name) \($0.state)" }, "tap 6")
        XCTAssertEqual(frames.dropFirst().first.map { "\($0.name) \($0.state)" }, "pan 1")
        XCTAssertEqual(frames.last.map { "\($0.name) \($0.state)" }, "pan 3")
        XCTAssertEqual(frames.count, service.output.eventsWritten)

        // Leaving (here: the service going away) returns every line to inactive and releases it.
        service.output.releaseLines()
        XCTAssertFalse(gpio.isRequested(tapLine) || gpio.isRequested(panLine))
    }

    /// The board's UART framing reaches the device: read back with tcgetattr.
    func testBoardUARTFramingIsAppliedToTheDevice() throws {
        let dir = try makeTemporaryDirectory(self)
        let pty = try PseudoTerminal()
        let board = try outputBoard(
            directory: dir,
            extra: """
                [[output]]
                type = "uart"
                device = "\(pty.subordinatePath)"
                baud = 921600
                stop_bits = 2
                rts_cts = true
                format = "json"
                """)
        let service = try Service(board: board, logger: quietLogger, stdout: CollectingSink())
        var t = termios()
        XCTAssertEqual(tcgetattr(pty.mainDescriptor.rawValue, &t), 0)
        XCTAssertEqual(cfgetospeed(&t), speed_t(B921600))
        XCTAssertEqual(t.c_cflag & tcflag_t(CSIZE), tcflag_t(CS8))
        XCTAssertNotEqual(t.c_cflag & tcflag_t(CSTOPB), 0)
        XCTAssertNotEqual(t.c_cflag & tcflag_t(CRTSCTS), 0)
        XCTAssertEqual(t.c_lflag & tcflag_t(ICANON | ECHO), 0, "raw")
        _ = service
    }

    /// A GPIO line held by someone else stops the service with one error naming chip and line,
    /// and the lines it had already taken are inactive and released again.
    func testBusyLineIsOneClearErrorAndNothingStays() throws {
        let dir = try makeTemporaryDirectory(self)
        let board = try outputBoard(
            directory: dir,
            extra: """
                [[binding]]
                recognizer = "tap"
                action = "toggle"
                initial = true
                gpio = { chip = "sim", line = 1 }

                [[binding]]
                recognizer = "pan"
                action = "hold"
                gpio = { chip = "sim", line = 5 }
                """)
        let gpio = SimulatedGPIO(chips: ["sim": 8])
        gpio.busyLines[GPIOLineID(chip: "sim", offset: 5)] = "led-heartbeat"
        XCTAssertThrowsError(try Service(board: board, logger: quietLogger, stdout: CollectingSink(), gpio: gpio)) {
            XCTAssertEqual(
                "\($0)", #"outputs.toml: binding[1] "pan".gpio: GPIO sim:5 is busy (held by "led-heartbeat")"#)
        }
        let first = GPIOLineID(chip: "sim", offset: 1)
        XCTAssertFalse(gpio.isRequested(first))
        XCTAssertEqual(gpio.changes(of: first).map(\.active), [true, false], "taken active, given back inactive")
    }

    /// A UART peer reading slowly: intermediate pan positions are merged, began/ended all arrive,
    /// the lines stay whole, and stdout (fast) still gets every event.
    func testSlowReaderGetsCoalescedChangesButEveryBeganAndEnded() throws {
        let dir = try makeTemporaryDirectory(self)
        let pty = try PseudoTerminal()
        let board = try outputBoard(
            directory: dir, trace: tapThenPanTrace(panFrames: 600),
            extra: """
                [[output]]
                type = "stdout"

                [[output]]
                type = "uart"
                device = "\(pty.subordinatePath)"
                format = "json"
                """)
        let clock = ManualClock()
        let stdout = CollectingSink()
        let service = try Service(board: board, logger: quietLogger, stdout: stdout, clock: clock)
        XCTAssertTrue(service.driver.start(at: .zero))
        step(service, clock, through: 6500)  // nobody reads the pty meanwhile
        XCTAssertEqual(service.events.droppedEvents, 0)

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var idle = 0
        while idle < 3 {
            clock.now = clock.now.advanced(byMicroseconds: 10_000)
            service.output.tick(now: clock.now)
            let n = try buffer.withUnsafeMutableBytes { try pty.read(into: $0, timeoutMilliseconds: 50) }
            received.append(contentsOf: buffer[..<n])
            // Idle only after a whole line: a loaded machine may pause mid-line for longer than 3 reads.
            idle = n == 0 && !service.output.hasBacklog && received.last ?? 10 == 10 ? idle + 1 : 0
        }
        let uart = String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
        let stats = service.output.channelStatistics[1]
        XCTAssertGreaterThan(stats.coalesced, 0, "the pty must have filled up")
        XCTAssertEqual(stats.dropped, 0)
        XCTAssertEqual(uart.count + stats.coalesced, stdout.lines.count, "stdout got every event")
        for line in uart { XCTAssertTrue(line.hasPrefix(#"{"t_us":"#) && line.hasSuffix("}"), "whole line: \(line)") }
        func states(_ lines: [String]) -> [String] {
            lines.compactMap { l in l.range(of: #""state":""#).map { String(l[$0.upperBound...].prefix { $0 != "\"" }) }
            }
        }
        XCTAssertEqual(states(uart).filter { $0 != "changed" }, ["recognized", "began", "ended"])
        XCTAssertEqual(states(uart).filter { $0 != "changed" }, states(stdout.lines).filter { $0 != "changed" })
        // The last position before "ended" is the latest one, not a stale one.
        let lastChanged = { (lines: [String]) in lines.last { $0.contains(#""changed""#) } }
        XCTAssertEqual(lastChanged(uart), lastChanged(stdout.lines))
    }

    /// The serial adapter disappears: the service keeps recognizing (stdout goes on), the UART
    /// reopens after its back-off, and later gestures arrive on the new device.
    func testUnpluggedUARTIsReopenedWhileTheServiceRuns() throws {
        let dir = try makeTemporaryDirectory(self)
        let trace = """
            {"touchwire_trace":1,"panel":{"width":800,"height":480},"source":"test"}
            {"t_us":100000,"contacts":[{"id":0,"x":400,"y":240}]}
            {"t_us":150000,"contacts":[]}
            {"t_us":1000000,"contacts":[{"id":0,"x":400,"y":240}]}
            {"t_us":1050000,"contacts":[]}
            {"t_us":2000000,"contacts":[{"id":0,"x":400,"y":240}]}
            {"t_us":2050000,"contacts":[]}

            """
        let link = dir.appendingPathComponent("ttyUSB0").path
        let clock = ManualClock()
        let stdout = CollectingSink()
        let service: Service
        do {
            let first = try PseudoTerminal()
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: first.subordinatePath)
            let board = try outputBoard(
                directory: dir, trace: trace,
                extra: """
                    [[output]]
                    type = "stdout"

                    [[output]]
                    type = "uart"
                    device = "\(link)"
                    template = "{recognizer} {state} {t_us}"
                    """)
            service = try Service(board: board, logger: quietLogger, stdout: stdout, clock: clock)
            XCTAssertTrue(service.driver.start(at: .zero))
            step(service, clock, through: 500)
            XCTAssertEqual(String(decoding: try first.read(count: 21), as: UTF8.self), "tap recognized 50000\n")
        }  // unplugged: the main side is closed, the subordinate now fails with EIO
        let second = try PseudoTerminal()
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: second.subordinatePath)
        step(service, clock, from: 510, through: 2500)

        XCTAssertEqual(stdout.lines.count, 3, "recognition went on: \(stdout.lines)")
        XCTAssertEqual(
            String(decoding: try second.read(count: 23), as: UTF8.self), "tap recognized 1950000\n",
            "the tap during the outage is lost; the next one arrives on the new device")
    }
}
