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

/// Checks the event stream of a soak as it is written: every `began` is followed by `ended`
/// or `cancelled` before the same recognizer begins again, and no continuous gesture begins
/// or changes while no finger is down ("nothing after a lift"). Lines are
/// `{recognizer} {state} {t_us}`. The soak steps in 10 ms ticks and drains after each: an event
/// whose time is before a lift in the same tick (a long press's timer due just before the lift
/// frame) was legitimately emitted while the finger was still down.
final class InvariantSink: LineSink {
    static let template = "{recognizer} {state} {t_us}"
    var touchesDown: () -> Bool = { false }
    /// The time of a lift in the tick being drained (nil: none this tick).
    var liftThisTick: Int64?
    private(set) var open: Set<String> = []
    private(set) var events = 0
    private(set) var violations: [String] = []
    private(set) var states: [String: Int] = [:]

    func write(_ line: UnsafeRawBufferPointer) {
        events += 1
        let parts = line.split(separator: UInt8(ascii: " "), maxSplits: 2)
        let last = parts.count == 3 ? parts[2].prefix { $0 != UInt8(ascii: "\n") } : []
        guard parts.count == 3, let time = Int64(String(decoding: last, as: UTF8.self)) else {
            return violation("unparsable line")
        }
        let afterLift = !touchesDown() && (liftThisTick.map { time >= $0 } ?? true)
        let name = String(decoding: parts[0], as: UTF8.self)
        let state = String(decoding: parts[1], as: UTF8.self)
        states[state, default: 0] += 1
        switch state {
        case "began":
            if open.contains(name) { violation("\(name) began twice without ending") }
            open.insert(name)
            if afterLift { violation("\(name) began after the lift") }
        case "changed":
            if !open.contains(name) { violation("\(name) changed without beginning") }
            if afterLift { violation("\(name) changed after the lift") }
        case "ended", "cancelled":
            if open.remove(name) == nil { violation("\(name) \(state) without beginning") }
        default: break
        }
    }

    private func violation(_ text: String) {
        if violations.count < 20 { violations.append("event \(events): \(text)") }
    }
}

/// What one soak run saw.
struct SoakReport: CustomStringConvertible {
    var frames = 0
    var events = 0
    var states: [String: Int] = [:]
    var injectedBusFaults = 0
    var injectedGarbage = 0
    var injectedDroppedLifts = 0
    var readErrors = 0
    var rejectedOffPanel = 0
    var watchdogReleases = 0
    var frameRingDrops = 0
    var eventRingDrops = 0
    var coalesced = 0
    var uartLinesLost = 0
    var uartBytes = 0
    var rssAfterWarmUp = 0
    var rssAtEnd = 0
    var rssMaxDelta = 0
    var seconds = 0.0

    var description: String {
        """
        soak: \(frames) frames (\(frames / 100) s of virtual time at 100 Hz) in \(String(format: "%.1f", seconds)) s, \
        \(events) events \(states.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        faults injected: \(injectedBusFaults) bus errors (NACK / EREMOTEIO), \(injectedGarbage) garbage reports, \
        \(injectedDroppedLifts) lost lifts
        seen: read errors \(readErrors), rejected off-panel \(rejectedOffPanel), \
        watchdog releases \(watchdogReleases), \
        frame ring drops \(frameRingDrops), event ring drops \(eventRingDrops), coalesced \(coalesced), \
        uart lines lost \(uartLinesLost), uart bytes \(uartBytes)
        rss: \(rssAfterWarmUp / 1024) KiB after warm-up, \(rssAtEnd / 1024) KiB at the end, \
        largest change after warm-up \(rssMaxDelta / 1024) KiB
        """
    }
}

/// The soak (issue 17): the whole pipeline — simulated FT6x36 playing the demo in a loop with
/// its fault knobs cycling, driver, frame ring, gesture engine, event ring, output stage with
/// GPIO bindings on an in-memory chip and a text UART on a pseudo-terminal — stepped on a
/// virtual clock (10 ms per frame), checking the invariants as it goes.
///
/// `TOUCHWIRE_SOAK_FRAMES` sets the length (default 30 000 frames in the suite; `tools/soak N`).
final class SoakTests: XCTestCase {
    static func run(frames total: Int) throws -> (SoakReport, [String]) {
        let started = Date()
        let pty = try PseudoTerminal()
        var text = try String(
            contentsOf: repositoryRoot.appendingPathComponent("boards/sim-demo.toml"), encoding: .utf8)
        text = text.replacingOccurrences(
            of: "type = \"stdout\"", with: "type = \"uart\"\ndevice = \"\(pty.subordinatePath)\"\nformat = \"text\"")
        let board = try BoardLoader.parse(
            text, file: "soak.toml", directory: repositoryRoot.appendingPathComponent("boards").path)
        let clock = ManualClock()
        let gpio = SimulatedGPIO(chips: ["sim": 64], clock: clock)
        gpio.keepsHistory = false
        let checker = InvariantSink()
        let names = EngineBuilder.names(of: try EngineBuilder.build(board))
        let check = OutputChannel(
            name: "check", encoding: .text(EventTextEncoder(template: InvariantSink.template, names: names)),
            sink: checker)
        let service = try Service(
            board: board, logger: quietLogger, extraOutputs: [check], gpio: gpio, clock: clock)
        service.output.log = { _ in }
        checker.touchesDown = { [unowned service] in service.engine.hasTouchesDown }
        let world = try XCTUnwrap(service.driver.controller as? SimulatedController).world
        let model = try XCTUnwrap(world.model as? FT6x36Model)
        var report = SoakReport()
        var violations: [String] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let lines = board.bindings.map { GPIOLineID(chip: $0.line.chip, offset: $0.line.line) }
        let warmUp = min(total / 10, 100_000)

        guard service.driver.start(at: .zero) else { return (report, ["the driver did not start"]) }
        for frame in 0..<total {
            clock.now = .milliseconds(Int64(frame) * 10)
            // Fault knobs, cycling with periods prime to each other and to the demo's loop.
            if frame % 7_919 == 7_000 {
                world.bus?.nackNext(2)
                report.injectedBusFaults += 2
            }
            if frame % 10_007 == 5_000 {
                world.bus?.remoteIOErrorNext(1)
                report.injectedBusFaults += 1
            }
            if frame % 12_011 == 3_000 {
                model.garbageCoordinatesNext = true
                report.injectedGarbage += 1
            }
            if frame % 15_013 == 9_000 {
                model.dropsNextLift = true
                report.injectedDroppedLifts += 1
            }
            let downBefore = service.engine.hasTouchesDown
            service.driver.poll(at: clock.now)
            service.recognizer.step(now: clock.now)
            // A lift frame is stamped with its poll time: this tick's instant.
            checker.liftThisTick = downBefore && !service.engine.hasTouchesDown ? clock.now.microseconds : nil
            service.output.drain(clock: clock)
            service.output.flush()
            if frame % 50 == 49 {
                let n = buffer.withUnsafeMutableBytes { (try? pty.read(into: $0, timeoutMilliseconds: 0)) ?? 0 }
                report.uartBytes += n
            }
            if frame == warmUp { report.rssAfterWarmUp = RealTime.residentBytes() }
            if frame > warmUp && frame % 100_000 == 0 {
                report.rssMaxDelta = max(report.rssMaxDelta, abs(RealTime.residentBytes() - report.rssAfterWarmUp))
            }
        }
        // The end of a run, as Service.run() ends it: every touch still down is cancelled,
        // the outputs drained, every line driven inactive.
        let end = clock.now.advanced(byMicroseconds: 10_000)
        service.recognizer.step(now: end)
        if service.engine.hasTouchesDown { service.engine.process(.cancel(at: end)) }
        clock.now = end
        service.output.drain(clock: clock)
        service.output.flush()
        service.output.releaseLines()
        report.rssAtEnd = RealTime.residentBytes()
        if total > warmUp { report.rssMaxDelta = max(report.rssMaxDelta, abs(report.rssAtEnd - report.rssAfterWarmUp)) }

        report.frames = total
        report.events = checker.events
        report.states = checker.states
        report.readErrors = service.driver.readErrors
        report.rejectedOffPanel = service.driver.rejectedOffPanel
        report.watchdogReleases = service.driver.watchdogReleases
        report.frameRingDrops = service.frames.droppedFrames
        report.eventRingDrops = service.events.droppedEvents
        report.coalesced =
            service.events.coalescedEvents + service.output.channelStatistics.map(\.coalesced).reduce(0, +)
        report.uartLinesLost =
            service.output.channelStatistics.map(\.dropped).reduce(0, +)
            + ((service.output.channels.first { $0.name.hasPrefix("uart") }?.sink as? UARTSink)?.droppedLines ?? 0)
        report.seconds = Date().timeIntervalSince(started)

        violations += checker.violations
        if !checker.open.isEmpty { violations.append("never ended: \(checker.open.sorted())") }
        for id in lines where gpio.isActive(id) { violations.append("GPIO \(id) still active at the end") }
        return (report, violations)
    }

    func testSoakKeepsEveryInvariant() throws {
        let frames = ProcessInfo.processInfo.environment["TOUCHWIRE_SOAK_FRAMES"].flatMap { Int($0) } ?? 30_000
        let (report, violations) = try Self.run(frames: frames)
        print(report)
        XCTAssertEqual(violations, [])
        XCTAssertEqual(report.frameRingDrops, 0, "stepped in lockstep: the frame ring never fills")
        XCTAssertEqual(report.eventRingDrops, 0, "stepped in lockstep: the event ring never fills")
        XCTAssertEqual(report.uartLinesLost, 0, "the pty is read every 50 frames: nothing is lost")
        XCTAssertGreaterThan(report.states["began"] ?? 0, 0)
        XCTAssertGreaterThan(report.states["recognized"] ?? 0, 0)
        XCTAssertGreaterThan(report.uartBytes, 0)
        // Drops explained: every read error is an injected bus fault (a read may retry a NACK).
        XCTAssertLessThanOrEqual(report.readErrors, report.injectedBusFaults)
        if frames >= 20_000 {
            XCTAssertGreaterThan(report.readErrors, 0, "the bus faults reached the driver")
        }
        if frames >= 1_000_000 {
            XCTAssertLessThanOrEqual(report.rssMaxDelta, 1 << 20, "RSS flat after warm-up (±1 MiB)")
        }
    }
}
