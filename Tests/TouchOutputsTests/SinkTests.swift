import Foundation
import TouchCore
import TouchLinux
import TouchOutputs
import XCTest

final class LogRecorder {
    var lines: [String] = []
}

final class UARTSinkTests: XCTestCase {
    func testALineArrivesByteForByte() throws {
        let pty = try makePseudoTerminal()
        let port = try SerialPort(path: pty.subordinatePath, configuration: SerialConfiguration(baudRate: 921_600))
        let logs = LogRecorder()
        let sink = UARTSink(port: port, log: { logs.lines.append($0) })
        let line = Array(#"{"t_us":130000,"recognizer":"double-tap","kind":"tap","taps":2}"#.utf8) + [0x0A]
        sink.write(line)
        XCTAssertEqual(try pty.read(count: line.count), line)
        XCTAssertEqual(sink.writtenLines, 1)
        XCTAssertEqual(sink.droppedLines, 0)
        XCTAssertTrue(sink.isConnected)
        XCTAssertEqual(logs.lines, [])
    }

    func testAFullBufferDropsWholeLinesAndNeverBlocks() throws {
        let pty = try makePseudoTerminal()
        let logs = LogRecorder()
        // A clock that stands still: the sink's once-a-second log limit cannot depend on how fast
        // this machine runs the loop.
        let sink = try UARTSink(
            path: pty.subordinatePath, configuration: SerialConfiguration(),
            clock: ManualClock(Instant(microseconds: 1_000_000)),
            log: { logs.lines.append($0) })
        let total = 20_000
        // The port is non-blocking: a full buffer makes write return, it never waits for a reader.
        for i in 0..<total {
            // Lines of varying length (41…50 bytes) so that partial writes happen mid-line.
            let line = "line \(i) " + String(repeating: "x", count: 30 + i % 10) + "\n"
            sink.write(Array(line.utf8))
        }
        XCTAssertGreaterThan(sink.droppedLines, 0, "nobody reads: the pty buffer must fill")
        XCTAssertEqual(sink.writtenLines + sink.droppedLines + (sink.pendingByteCount > 0 ? 1 : 0), total)
        XCTAssertTrue(logs.lines.contains { $0.contains("dropping") }, "\(logs.lines)")
        XCTAssertLessThanOrEqual(logs.lines.count, 2, "one log line per change of state: \(logs.lines)")

        // Drain the peer side; the sink completes the line it had started.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            sink.flush()
            let n = try buffer.withUnsafeMutableBytes { try pty.read(into: $0, timeoutMilliseconds: 100) }
            if n == 0 && sink.pendingByteCount == 0 { break }
            received.append(contentsOf: buffer[..<n])
        }
        XCTAssertEqual(received.last, 0x0A, "only whole lines")
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.count, sink.writtenLines)
        var previous = -1
        for line in lines {
            let parts = line.split(separator: " ")
            guard parts.count == 3, parts[0] == "line", let index = Int(parts[1]) else {
                return XCTFail("mangled line: \(line)")
            }
            XCTAssertEqual(parts[2].count, 30 + index % 10, "line \(index) cut")
            XCTAssertGreaterThan(index, previous, "order")
            previous = index
        }
        // Once there is room again, lines flow and the recovery is logged.
        sink.write(Array("after\n".utf8))
        XCTAssertEqual(try pty.read(count: 6), Array("after\n".utf8))
        XCTAssertTrue(logs.lines.last?.contains("sending again") ?? false, "\(logs.lines)")
    }

    func testDisconnectReconnectsWithBackoff() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tw-uart-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("uart").path

        let first = try makePseudoTerminal()
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: first.subordinatePath)
        let clock = ManualClock(Instant(microseconds: 1_000_000))
        let logs = LogRecorder()
        let sink = try UARTSink(
            path: link, configuration: SerialConfiguration(baudRate: 9600), clock: clock,
            log: { logs.lines.append($0) })
        XCTAssertTrue(sink.isConnected)
        sink.write(Array("one\n".utf8))
        XCTAssertEqual(try first.read(count: 4), Array("one\n".utf8))

        // The peer goes away (like an unplugged USB adapter): writes fail with EIO.
        _ = consume first
        try FileManager.default.removeItem(atPath: link)
        sink.write(Array("two\n".utf8))
        XCTAssertFalse(sink.isConnected)
        XCTAssertEqual(sink.droppedLines, 1)
        XCTAssertEqual(logs.lines.count, 1)
        XCTAssertTrue(logs.lines[0].contains("disconnected") && logs.lines[0].contains(link), "\(logs.lines)")
        let disconnectedAt = clock.now
        XCTAssertEqual(sink.nextReconnect, disconnectedAt.advanced(byMicroseconds: 100_000))

        // Before the deadline nothing is tried; lines are dropped and counted.
        clock.advance(byMicroseconds: 50_000)
        sink.write(Array("three\n".utf8))
        XCTAssertEqual(sink.reconnectAttempts, 0)
        XCTAssertEqual(sink.droppedLines, 2)

        // Failed attempts double the delay up to 5 s.
        var expectedDelay: Int64 = 100_000
        var attempts = 0
        while let due = sink.nextReconnect, attempts < 10 {
            clock.now = due
            sink.flush()
            attempts += 1
            expectedDelay = min(expectedDelay * 2, 5_000_000)
            XCTAssertEqual(sink.reconnectAttempts, attempts)
            XCTAssertEqual(sink.nextReconnect, clock.now.advanced(byMicroseconds: expectedDelay))
        }
        XCTAssertEqual(expectedDelay, 5_000_000)
        XCTAssertEqual(
            logs.lines.count, 2, "one line for the first failure to reopen, not one per attempt: \(logs.lines)")

        // The device comes back.
        let second = try makePseudoTerminal()
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: second.subordinatePath)
        clock.advance(byMicroseconds: 1_000_000)
        sink.write(Array("early\n".utf8))
        XCTAssertFalse(sink.isConnected, "not before the 5 s back-off has passed")
        clock.now = sink.nextReconnect ?? clock.now
        sink.write(Array("four\n".utf8))
        XCTAssertTrue(sink.isConnected)
        XCTAssertEqual(sink.nextReconnect, nil)
        XCTAssertEqual(try second.read(count: 5), Array("four\n".utf8))
        XCTAssertEqual(sink.writtenLines, 2)
        XCTAssertEqual(logs.lines.count, 3)
        XCTAssertTrue(logs.lines.last?.contains("connected (9600 8N1)") ?? false, "\(logs.lines)")
    }

    /// A closed sink (a board reload) gives its port back and never reopens it: later lines are
    /// dropped and counted, and no reconnect is scheduled however much time passes.
    func testCloseReleasesThePortForGood() throws {
        let pty = try makePseudoTerminal()
        let clock = ManualClock(Instant(microseconds: 1_000_000))
        let sink = try UARTSink(
            path: pty.subordinatePath, configuration: SerialConfiguration(baudRate: 9600), clock: clock,
            log: { _ in })
        sink.write(Array("one\n".utf8))
        XCTAssertEqual(try pty.read(count: 4), Array("one\n".utf8))
        sink.close()
        sink.close()  // idempotent
        XCTAssertFalse(sink.isConnected)
        XCTAssertTrue(sink.isClosed)
        clock.advance(byMicroseconds: 60_000_000)
        sink.flush()
        sink.write(Array("two\n".utf8))
        XCTAssertFalse(sink.isConnected, "a closed sink is not reopened")
        XCTAssertNil(sink.nextReconnect)
        XCTAssertEqual(sink.droppedLines, 1)
        XCTAssertEqual(sink.writtenLines, 1)
    }

    func testStartingWithTheDeviceMissingDoesNotThrow() throws {
        let clock = ManualClock(Instant(microseconds: 1_000_000))
        let logs = LogRecorder()
        let sink = try UARTSink(
            path: "/dev/ttyTOUCHWIRE-missing", configuration: SerialConfiguration(), clock: clock,
            log: { logs.lines.append($0) })
        XCTAssertFalse(sink.isConnected)
        sink.write(Array("x\n".utf8))
        XCTAssertEqual(sink.droppedLines, 1)
        XCTAssertEqual(logs.lines.count, 1)
        XCTAssertTrue(logs.lines[0].contains("/dev/ttyTOUCHWIRE-missing"))
        XCTAssertThrowsError(
            try UARTSink(path: "/dev/ttyTOUCHWIRE-missing", configuration: SerialConfiguration(baudRate: 12345)))
    }
}

final class StandardOutputSinkTests: XCTestCase {
    func testLinesGoToTheDescriptorImmediately() throws {
        let pipe = try DescriptorPipe()
        let sink = StandardOutputSink(descriptor: pipe.writeEnd.descriptor)
        sink.write(Array("{\"a\":1}\n".utf8))
        sink.write(Array("{\"b\":2}\n".utf8))
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = try buffer.withUnsafeMutableBytes { try pipe.readEnd.read(into: $0) }
        XCTAssertEqual(String(decoding: buffer[..<n], as: UTF8.self), "{\"a\":1}\n{\"b\":2}\n")
        XCTAssertEqual(sink.writtenLines, 2)
        XCTAssertEqual(sink.failedLines, 0)
    }
}
