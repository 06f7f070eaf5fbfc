import BoardConfig
import Foundation
import TouchComposition
import TouchCore
import TouchDrivers
import TouchRing
import TouchService
import TouchSimulation
import XCTest

/// Every fault knob, through the real path: board → `ControllerFactory` → driver on the
/// simulated bus → `DriverStage` → ring. The invariant (issue 4 "Done when"): every touch
/// that began ends or is cancelled, and no phantom touch is reported.
final class FaultRecoveryTests: XCTestCase {
    /// The script: a tap at (400, 240) 100–180 ms, a drag 400–700 ms, then quiet.
    static let script: [(Int64, [(Double, Double)])] = {
        var s: [(Int64, [(Double, Double)])] = [(0, [])]
        for t in stride(from: 100, to: 180, by: 10) { s.append((Int64(t), [(400, 240)])) }
        s.append((180, []))
        for (k, t) in stride(from: 400, to: 700, by: 10).enumerated() {
            s.append((Int64(t), [(100 + Double(k) * 5, 300)]))
        }
        s.append((700, []))
        return s
    }()

    struct Run {
        var queued: [TouchFrame]
        var stage: DriverStage
        var setup: ControllerSetup
    }

    private func board(chip: String, extra: String = "", interrupt: Bool = false) throws -> BoardDescription {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tw-fault-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        var trace = #"{"touchwire_trace":1,"panel":{"width":800,"height":480},"source":"test"}"# + "\n"
        for (t, points) in Self.script {
            let c = points.map { #"{"id":0,"x":\#($0.0),"y":\#($0.1)}"# }.joined(separator: ",")
            trace += #"{"t_us":\#(t * 1000),"contacts":[\#(c)]}"# + "\n"
        }
        try trace.write(to: dir.appendingPathComponent("s.jsonl"), atomically: true, encoding: .utf8)
        let lines =
            interrupt
            ? """
            interrupt = { chip = "sim-gpio", line = 17 }
            reset = { chip = "sim-gpio", line = 27 }

            """ : ""
        let text = """
            [panel]
            width = 800
            height = 480
            [controller]
            chip = "\(chip)"
            bus = "sim"
            \(lines)\(extra)
            [simulation]
            script = "s.jsonl"
            report_rate_hz = 100
            [[region]]
            name = "screen"
            frame = [0, 0, 800, 480]
            [[recognizer]]
            name = "tap"
            kind = "tap"
            region = "screen"

            """
        return try BoardLoader.parse(text, file: "f.toml", directory: dir.path)
    }

    /// Polls every 10 ms for 5 s, calling `fault(ms, world)` before each poll.
    private func run(
        _ board: BoardDescription, fault: (Int64, SimulatedTouchWorld) -> Void = { _, _ in }
    ) throws -> Run {
        let setup = try ControllerFactory.make(board, start: .zero)
        let frames = FrameQueue(capacity: 1024)
        let stage = DriverStage(
            controller: setup.controller, frames: frames, transform: setup.transform,
            protection: setup.protection, schedule: setup.schedule, log: { _ in })
        stage.start(at: .zero)
        var queued: [TouchFrame] = []
        for ms in stride(from: Int64(0), through: 5_000, by: 10) {
            if let world = setup.simulation { fault(ms, world) }
            stage.poll(at: .milliseconds(ms))
            frames.flush()
            while let f = frames.poll() { queued.append(f) }
        }
        return Run(queued: queued, stage: stage, setup: setup)
    }

    /// Every touch that began ends or is cancelled; every contact reported is a script point.
    private func assertInvariant(_ r: Run, file: StaticString = #filePath, line: UInt = #line) {
        let points = Set(Self.script.flatMap { $0.1.map { "\(Int($0.0)),\(Int($0.1))" } })
        for f in r.queued where !f.isCancel {
            for c in f.contacts {
                XCTAssertTrue(
                    points.contains("\(Int(c.position.x)),\(Int(c.position.y))"), "phantom \(c)", file: file, line: line
                )
            }
        }
        let last = r.queued.last
        XCTAssertTrue(
            last == nil || last!.isCancel || last!.isEmpty, "a touch never ended: \(String(describing: last))",
            file: file, line: line)
    }

    private func downs(_ r: Run) -> Int {
        var n = 0
        var wasDown = false
        for f in r.queued {
            let down = !f.isCancel && !f.isEmpty
            if down && !wasDown { n += 1 }
            wasDown = down
        }
        return n
    }

    func testServicePicksTheDriverByChipOnTheSimulatedBus() throws {
        for (chip, type) in [
            ("ft6x36", "FT6x36Driver"), ("ft5x06", "FT6x36Driver"), ("gt911", "GT911Driver"),
            ("cst816s", "CST816Driver"),
        ] {
            let r = try run(board(chip: chip))
            // The pipeline sees a SimulatedController; the real driver for the chip is inside it.
            let driver = try XCTUnwrap(r.setup.controller as? SimulatedController, chip).driver
            XCTAssertTrue(String(describing: Swift.type(of: driver)).hasPrefix(type), chip)
            XCTAssertEqual(r.stage.state, .running, chip)
            XCTAssertEqual(downs(r), 2, "\(chip): the tap and the drag")
            XCTAssertEqual(r.queued.filter(\.isCancel).count, 0, chip)
            assertInvariant(r)
        }
    }

    func testINTLinesOnASimulatedBoard() throws {
        for chip in ["ft6x36", "gt911", "cst816s"] {
            let r = try run(board(chip: chip, interrupt: true))
            XCTAssertNotNil(r.stage.interruptInput, chip)
            // The reset sequence runs on the simulated clock first (FocalTech: 5 + 300 ms, EDT),
            // so a tap during it is not seen; the drag always is.
            XCTAssertGreaterThanOrEqual(downs(r), 1, chip)
            assertInvariant(r)
        }
    }

    func testNACKBurstMidTouchCancelsAndRecovers() throws {
        for chip in ["ft6x36", "gt911", "cst816s"] {
            let r = try run(board(chip: chip)) { ms, world in if ms == 450 { world.bus?.nackNext(8) } }
            XCTAssertEqual(r.queued.filter(\.isCancel).count, 1, "\(chip): the drag is cancelled once")
            XCTAssertGreaterThanOrEqual(r.stage.reinitialisations, 1, "\(chip): 5 errors in a row re-initialise")
            XCTAssertEqual(r.stage.state, .running, chip)
            assertInvariant(r)
        }
    }

    func testRemoteIOErrorsCancelAndRecover() throws {
        let r = try run(board(chip: "ft6x36")) { ms, world in if ms == 120 { world.bus?.remoteIOErrorNext(2) } }
        XCTAssertEqual(r.stage.readErrors, 2)
        XCTAssertEqual(r.queued.filter(\.isCancel).count, 1)
        XCTAssertEqual(downs(r), 3, "the tap is cancelled, the finger comes back, then the drag")
        assertInvariant(r)
    }

    func testDroppedLiftFrameIsReleasedByTheWatchdog() throws {
        // fbtft #376: "the button keeps being pressed". The lift of the drag never arrives.
        let b = try board(chip: "ft6x36", extra: "release_timeout_ms = 1000\n")
        let r = try run(b) { ms, world in
            if ms == 650, let m = world.model as? FT6x36Model { m.dropsNextLift = true }
        }
        XCTAssertEqual(r.stage.watchdogReleases, 1)
        let cancel = try XCTUnwrap(r.queued.firstIndex(where: \.isCancel))
        XCTAssertGreaterThanOrEqual(r.queued[cancel].timestamp.microseconds, 1_690_000)
        XCTAssertEqual(downs(r), 2, "the stuck image does not come back as a new touch")
        assertInvariant(r)
    }

    func testGarbageCoordinatesNeverBecomeTouches() throws {
        let r = try run(board(chip: "ft6x36")) { ms, world in
            if ms == 400, let m = world.model as? FT6x36Model { m.garbageCoordinatesNext = true }
        }
        XCTAssertGreaterThanOrEqual(r.setup.controller.counters.rejectedOutOfPanel, 1)
        assertInvariant(r)
    }

    func testZeroedAndOnesUnusedSlotsGiveTheSameTouches() throws {
        for fill in [FT6x36Model.SlotFill.zeros, .ones] {
            let r = try run(board(chip: "ft6x36")) { ms, world in
                if ms == 0, let m = world.model as? FT6x36Model { m.unusedSlotFill = fill }
            }
            XCTAssertEqual(downs(r), 2, "\(fill)")
            assertInvariant(r)
        }
    }

    func testControllerResetMidGesture() throws {
        let r = try run(board(chip: "ft6x36", interrupt: true)) { ms, world in
            guard let m = world.model as? FT6x36Model else { return }
            if ms == 500 { m.setReset(true) }
            if ms == 530 { m.setReset(false) }
        }
        XCTAssertEqual(r.queued.filter(\.isCancel).count, 1)
        assertInvariant(r)
    }

    func testGT911ReadyLagAndSpuriousINT() throws {
        let r = try run(board(chip: "gt911", interrupt: true)) { ms, world in
            if ms == 0, let m = world.model as? GT911Model {
                m.readyLagMicroseconds = 10_000
                m.spuriousInterruptAfterLift = true
            }
        }
        XCTAssertEqual(downs(r), 2)
        assertInvariant(r)
    }

    func testGT911WrongAddressAfterResetIsFoundAtTheOther() throws {
        let b = try board(chip: "gt911")
        let setup = try ControllerFactory.make(b, start: .zero)
        let m = try XCTUnwrap(setup.simulation?.model as? GT911Model)
        // No reset line here: the chip came up at 0x14 (floating INT).
        m.setReset(true, intHigh: nil)
        m.wrongAddressAfterReset = true
        m.setReset(false, intHigh: nil)
        let bus = try XCTUnwrap(setup.simulation?.bus)
        bus.detach(I2CAddress(0x5D))
        bus.attach(m)
        try setup.controller.start()
        XCTAssertEqual(setup.controller.identity?.address, I2CAddress(0x14))
        XCTAssertNotNil(setup.controller.identity?.note)
    }

    func testCST816AutoSleepIsNotAnError() throws {
        let r = try run(board(chip: "cst816s")) { ms, world in
            if ms == 0, let m = world.model as? CST816Model { m.ignoresAutoSleepDisable = true }
        }
        XCTAssertGreaterThan(r.setup.controller.counters.sleepNacks, 0, "asleep after ~2 s idle")
        XCTAssertEqual(r.stage.readErrors, 0)
        XCTAssertEqual(r.queued.filter(\.isCancel).count, 0)
        assertInvariant(r)
    }

    func testMinimumContactDurationSuppressesGhosts() throws {
        // rpi/linux #7638: zero-duration ghosts. The 80 ms tap is shorter than 100 ms.
        let r = try run(board(chip: "ft6x36", extra: "min_contact_ms = 100\n"))
        XCTAssertEqual(downs(r), 1, "only the drag")
        XCTAssertEqual(r.stage.shortContactsSuppressed, 1)
        assertInvariant(r)
    }

    /// The simulation enters through the seams a real board uses: the pipeline's INT wait on a
    /// simulated board returns the next scripted edge (waiting for it on the injected clock), or
    /// nothing after the whole timeout, exactly as a wired INT line does; no `simulation` branch.
    func testSimulatedINTWaitReturnsTheNextScriptedEdgeOnTheInjectedClock() throws {
        let clock = ManualClock()
        let setup = try ControllerFactory.make(
            try board(chip: "ft6x36", extra: #"interrupt = { chip = "sim-gpio", line = 17 }"#), start: .zero,
            clock: clock)
        let frames = FrameQueue(capacity: 16)
        let stage = DriverStage(controller: setup.controller, frames: frames, transform: setup.transform, log: { _ in })
        XCTAssertTrue(stage.start(at: .zero))
        let input = try XCTUnwrap(stage.interruptInput, "the board wires INT")
        clock.now = .zero
        // The script's first touch is at 100 ms: a 50 ms wait times out after 50 ms.
        XCTAssertNil(try input.waitForEdge(timeoutMicroseconds: 50_000))
        XCTAssertEqual(clock.now, .milliseconds(50))
        // A long wait returns the edge the chip raises when the touch arrives, at its instant.
        let edge = try XCTUnwrap(try input.waitForEdge(timeoutMicroseconds: 1_000_000))
        XCTAssertEqual(edge.timestamp, .milliseconds(100))
        XCTAssertEqual(clock.now, .milliseconds(100))
        XCTAssertTrue(stage.poll(at: edge.timestamp, edge: true))
        frames.flush()
        let frame = try XCTUnwrap(frames.poll())
        XCTAssertEqual(frame.count, 1)
        XCTAssertEqual(frame[0].position, Point(x: 400, y: 240))
    }

    /// The reset's sleeps go through the pipeline's injected clock: on a simulated board with a
    /// reset line, the FT6x36's 5 + 300 ms reset passes on the pipeline's clock and the simulated
    /// chip's alike, so the script's touches arrive at their own instants. (Before, the pipeline's
    /// clock stood at 0 while the world's was at 305 ms: the pipeline was handed an edge for the tap
    /// at 100 ms, long over in the world, and its read found nothing.)
    func testResetSleepsPassOnThePipelinesClockAndTheWorldsAlike() throws {
        let clock = ManualClock()
        let setup = try ControllerFactory.make(
            try board(chip: "ft6x36", interrupt: true), start: .zero,
            clock: clock)
        let world = try XCTUnwrap(setup.simulation)
        let frames = FrameQueue(capacity: 16)
        let stage = DriverStage(controller: setup.controller, frames: frames, transform: setup.transform, log: { _ in })
        XCTAssertTrue(stage.start(at: .zero))
        let reset =
            FT6x36Driver<SimulatedI2CBus>.resetAssertMicroseconds
            + FT6x36Driver<SimulatedI2CBus>.resetReleaseMicroseconds
        XCTAssertEqual(clock.now, Instant(microseconds: reset), "the reset took its time on the pipeline's clock")
        XCTAssertEqual(world.now, clock.now, "the simulated chip agrees with the pipeline on the time")
        // The tap (100–180 ms) ended during the reset; the next edge is the drag at 400 ms.
        let input = try XCTUnwrap(stage.interruptInput, "the board wires INT")
        let edge = try XCTUnwrap(try input.waitForEdge(timeoutMicroseconds: 1_000_000))
        XCTAssertEqual(edge.timestamp, .milliseconds(400))
        XCTAssertEqual(clock.now, .milliseconds(400))
        XCTAssertTrue(stage.poll(at: edge.timestamp, edge: true))
        frames.flush()
        let frame = try XCTUnwrap(frames.poll())
        XCTAssertEqual(frame.contacts.first?.position, Point(x: 100, y: 300), "the drag's first point, not a later one")
    }

    func testMissingControllerIsAStateAndKeepsRetrying() throws {
        let b = try board(chip: "ft6x36")
        let setup = try ControllerFactory.make(b, start: .zero)
        let world = try XCTUnwrap(setup.simulation)
        let bus = try XCTUnwrap(world.bus)
        bus.detach(I2CAddress(0x38))
        let stage = DriverStage(
            controller: setup.controller, frames: FrameQueue(capacity: 16), log: { _ in })
        XCTAssertFalse(stage.start(at: .zero))
        guard case .missing = stage.state else { return XCTFail("\(stage.state)") }
        for ms in stride(from: Int64(0), to: 1_000, by: 10) { stage.poll(at: .milliseconds(ms)) }
        bus.attach(try XCTUnwrap(world.controllerModel))
        for ms in stride(from: Int64(1_000), to: 8_000, by: 10) { stage.poll(at: .milliseconds(ms)) }
        XCTAssertEqual(stage.state, .running)
    }

    func testRotationIsAppliedBeforeAnythingElseSeesCoordinates() throws {
        // The simulated chip reports raw coordinates; with rotation 180 the stage flips them.
        let b = try board(chip: "ft6x36", extra: "rotation = 180\n")
        let r = try run(b)
        let first = try XCTUnwrap(r.queued.first { !$0.isEmpty && !$0.isCancel })
        XCTAssertEqual(first.contacts.first?.position, Point(x: 399, y: 239))
    }

    func testAdaptivePollingNeverSlowerThanTheShortestTap() {
        let s = AdaptivePollSchedule(configuredMicroseconds: 100_000)
        XCTAssertEqual(s.fastMicroseconds, 20_000)
        XCTAssertEqual(s.idleMicroseconds, 20_000)
        let f = AdaptivePollSchedule(configuredMicroseconds: 2_000)
        XCTAssertEqual(f.interval(now: .milliseconds(100), lastContactAt: .milliseconds(90)), 2_000)
        XCTAssertEqual(f.interval(now: .milliseconds(2_000), lastContactAt: .milliseconds(90)), 8_000)
        XCTAssertEqual(f.interval(now: .zero, lastContactAt: nil), 8_000)
    }
}
