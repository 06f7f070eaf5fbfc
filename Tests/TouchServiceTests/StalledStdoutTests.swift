import BoardConfig
import Foundation
import Synchronization
import SystemPackage
import TouchComposition
import TouchCore
import TouchLinux
import TouchOutputs
import TouchService
import TouchSimulation
import XCTest

/// Fills the pipe behind `handle` until the kernel takes no more (the reader never reads).
func fillPipe(_ fd: FileDescriptor) throws {
    let was = try DescriptorIO.setNonBlocking(fd, true)
    let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
    while true {
        do {
            _ = try chunk.withUnsafeBytes { try DescriptorIO.write(fd, $0) }
        } catch {
            XCTAssertEqual(error as? Errno, .resourceTemporarilyUnavailable)
            break
        }
    }
    try DescriptorIO.setNonBlocking(fd, was)
}

/// Issue 17 #1: a stdout nobody reads must not freeze the other outputs.
final class StalledStdoutTests: XCTestCase {
    /// With the stdout pipe full from the start, the GPIO hold line still follows the pan
    /// (on at 400 ms, off at the lift) and the stdout channel counts what it lost.
    func testFullStdoutPipeDoesNotStallGPIO() throws {
        let dir = try makeTemporaryDirectory(self)
        let board = try outputBoard(
            directory: dir,
            extra: """
                [[output]]
                type = "stdout"

                [[binding]]
                recognizer = "pan"
                action = "hold"
                gpio = { chip = "sim", line = 2 }
                """)
        let pipe = try DescriptorPipe()
        try fillPipe(pipe.writeEnd.descriptor)
        var logs: [String] = []
        let sink = StandardOutputSink(
            descriptor: pipe.writeEnd.descriptor, mode: .nonBlocking, log: { logs.append($0) })
        let clock = ManualClock()
        let gpio = SimulatedGPIO(chips: ["sim": 8], clock: clock)
        let service = try Service(board: board, logger: quietLogger, stdout: sink, gpio: gpio, clock: clock)
        var stageLogs: [String] = []
        service.output.log = { stageLogs.append($0) }
        let panLine = GPIOLineID(chip: "sim", offset: 2)
        XCTAssertTrue(service.driver.start(at: .zero))
        step(service, clock, through: 1000)
        let levels = gpio.changes(of: panLine).map { "\($0.active ? "on" : "off")@\($0.at.microseconds / 1000)" }
        XCTAssertEqual(levels, ["off@0", "on@400", "off@600"])
        XCTAssertGreaterThan(service.output.eventsWritten, 3)
        XCTAssertEqual(sink.writtenLines, 0, "the pipe never had room")
        let stats = service.output.channelStatistics[0]
        XCTAssertEqual(stats.written, 1, "one line waits in the sink; the rest wait in the backlog or coalesce")
        XCTAssertTrue(sink.isBackedUp)
        XCTAssertTrue(logs.isEmpty, "nothing was lost yet: held, not dropped")
        XCTAssertTrue(stageLogs.isEmpty, "the backlog (256) never overflowed")
        service.output.releaseLines()
        XCTAssertFalse(gpio.isActive(panLine))
    }

    /// The same full pipe with the service's own threads and clock: stdout is non-blocking, so the
    /// pipeline thread that recognized the frame issues the writes itself, and still the GPIO line follows the pan and
    /// `stop()` ends `run()`.
    func testFullStdoutPipeWithThreadsRunningStallsNeitherGPIONorShutdown() throws {
        let dir = try makeTemporaryDirectory(self)
        let board = try outputBoard(
            directory: dir,
            extra: """
                [[output]]
                type = "stdout"

                [[binding]]
                recognizer = "pan"
                action = "hold"
                gpio = { chip = "sim", line = 2 }
                """)
        let pipe = try DescriptorPipe()
        try fillPipe(pipe.writeEnd.descriptor)
        let sink = StandardOutputSink(descriptor: pipe.writeEnd.descriptor, mode: .nonBlocking, log: { _ in })
        let gpio = SimulatedGPIO(chips: ["sim": 8])
        let service = try Service(board: board, logger: quietLogger, stdout: sink, gpio: gpio)
        XCTAssertTrue(service.writesOnRecognizerThread)
        let panLine = GPIOLineID(chip: "sim", offset: 2)
        // The chip's history belongs to the pipeline thread that drives the line while the service
        // runs: this thread counts the changes through an atomic and reads the history after `run()`.
        final class Count: Sendable { let value = Atomic<Int>(0) }
        let panChanges = Count()
        panChanges.value.store(gpio.changes(of: panLine).count, ordering: .relaxed)  // the request's level
        let previous = gpio.onOutputChange
        gpio.onOutputChange = { line, active, at in
            previous?(line, active, at)
            if line == panLine { panChanges.value.add(1, ordering: .releasing) }
        }
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            service.run()
            finished.signal()
        }
        thread.start()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && panChanges.value.load(ordering: .acquiring) < 3 { usleep(5_000) }
        service.stop()
        XCTAssertEqual(finished.wait(timeout: .now() + 30), .success, "run() did not return after stop()")
        XCTAssertEqual(gpio.changes(of: panLine).prefix(3).map(\.active), [false, true, false])
        XCTAssertEqual(sink.writtenLines, 0, "the pipe never had room")
    }

    /// A sink that may wait for its reader (blocking stdout, as replay uses) is never written from
    /// the recognizer thread: the output thread takes the events, so the recognizer loop cannot stall.
    func testBlockingStdoutKeepsTheOutputThreadHandOff() throws {
        let dir = try makeTemporaryDirectory(self)
        let board = try outputBoard(directory: dir, extra: "[[output]]\ntype = \"stdout\"\n")
        let pipe = try DescriptorPipe()
        let blocking = try Service(
            board: board, logger: quietLogger, stdout: StandardOutputSink(descriptor: pipe.writeEnd.descriptor))
        XCTAssertFalse(blocking.writesOnRecognizerThread)
        let nonBlocking = try Service(
            board: board, logger: quietLogger,
            stdout: StandardOutputSink(descriptor: pipe.writeEnd.descriptor, mode: .nonBlocking, log: { _ in }))
        XCTAssertTrue(nonBlocking.writesOnRecognizerThread)
    }

    /// A reader that stops: lines are lost whole (counted, logged once), and once the reader
    /// drains the pipe, the next lines arrive whole — the stream never carries a torn line.
    func testNonBlockingSinkLosesWholeLinesAndRecovers() throws {
        let pipe = try DescriptorPipe()
        var logs: [String] = []
        let sink = StandardOutputSink(
            descriptor: pipe.writeEnd.descriptor, mode: .nonBlocking, log: { logs.append($0) })
        let line = Array(("{\"t_us\":" + String(repeating: "7", count: 90) + "}\n").utf8)  // 100 bytes
        for _ in 0..<5_000 { sink.write(line) }  // 500 KB into a 64 KB pipe
        XCTAssertGreaterThan(sink.failedLines, 0)
        XCTAssertGreaterThan(sink.writtenLines, 0)
        XCTAssertEqual(logs.count, 1, "one line when dropping starts")
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        try DescriptorIO.setNonBlocking(pipe.readEnd.descriptor, true)
        func drain() throws {
            while true {
                do {
                    let n = try buffer.withUnsafeMutableBytes { try pipe.readEnd.read(into: $0) }
                    if n == 0 { return }
                    received += buffer[..<n]
                } catch {
                    return
                }
            }
        }
        try drain()
        sink.flush()
        sink.write(line)
        try drain()
        XCTAssertFalse(sink.isBackedUp)
        XCTAssertEqual(received.count % line.count, 0, "whole lines only")
        XCTAssertEqual(received.count / line.count, sink.writtenLines)
        XCTAssertEqual(sink.writtenLines + sink.failedLines, 5_001)
        XCTAssertEqual(logs.count, 2, "and one when the reader caught up")
        XCTAssertTrue(Set(received.split(separator: UInt8(ascii: "\n")).map { Array($0) + [10] }) == [line])
    }

    /// `run | head -1`: once the reader is gone (EPIPE) the sink logs once and stops writing.
    func testClosedStdoutStopsTrying() throws {
        signal(SIGPIPE, SIG_IGN)
        var pipe = try DescriptorPipe()
        var logs: [String] = []
        let sink = StandardOutputSink(
            descriptor: pipe.writeEnd.descriptor, mode: .nonBlocking, log: { logs.append($0) })
        sink.write(Array("a\n".utf8))
        var readEnd = DescriptorHandle(adopting: -1)
        swap(&readEnd, &pipe.readEnd)
        try readEnd.close()
        for _ in 0..<10 { sink.write(Array("b\n".utf8)) }
        XCTAssertTrue(sink.isClosed)
        XCTAssertEqual(sink.lastError, .brokenPipe)
        XCTAssertEqual(sink.writtenLines, 1)
        XCTAssertEqual(sink.failedLines, 10)
        XCTAssertEqual(logs.count, 1)
        XCTAssertFalse(sink.isBackedUp)
    }

    /// The descriptor's blocking flag is put back when the sink is done with it.
    func testBlockingFlagIsRestored() throws {
        let pipe = try DescriptorPipe()
        do {
            let sink = StandardOutputSink(descriptor: pipe.writeEnd.descriptor, mode: .nonBlocking)
            XCTAssertTrue(try DescriptorIO.setNonBlocking(pipe.writeEnd.descriptor, true), "set by the sink")
            sink.restoreBlocking()
        }
        XCTAssertFalse(try DescriptorIO.setNonBlocking(pipe.writeEnd.descriptor, false))
    }
}
