import BoardConfig
import Gestures
import MallocInterposerSwift
import SystemPackage
import TouchComposition
import TouchCore
import TouchDrivers
import TouchLinux
import TouchOutputs
import TouchRing
import TouchService
import TouchSimulation
import XCTest

/// The recognizer loop does no heap allocation per frame once running.
///
/// Allocation counts are a property of optimized code (unoptimized generics box their values),
/// so these run in the release configuration the README's test command uses and skip, saying so,
/// in a debug build.
final class AllocationTests: XCTestCase {
    override func setUpWithError() throws {
        #if DEBUG
            throw XCTSkip(
                "allocation counts are measured on optimized code: run `swift test -c release -Xswiftc -enable-testing`"
            )
        #endif
    }

    /// Counts mallocs around `body`; fails the test if the interposer is not counting at all.
    private func mallocs(_ body: () -> Void) -> Int {
        MallocInterposerSwift.initialize()
        MallocInterposerSwift.hook()
        body()
        MallocInterposerSwift.unhook()
        return Int(MallocInterposerSwift.getStatistics().mallocCount)
    }

    func testInterposerSeesAnAllocation() {
        var sink: [Int] = []
        let n = mallocs { sink = Array(repeating: 7, count: 100) }
        XCTAssertGreaterThan(
            n, 0, "the malloc interposer is not active; the zero-allocation test below would prove nothing")
        XCTAssertEqual(sink.count, 100)
    }

    /// A board's engine behind the frame ring and the recognizer stage, its actions into the event
    /// ring: the recognizer loop as the service runs it, stepped by hand.
    private struct Loop {
        let events: EventQueueSink
        let frames = FrameQueue(capacity: 1024)
        let stage: RecognizerStage

        init(board file: String, metrics: PipelineMetrics? = nil) throws {
            let board = try BoardLoader.load(path: repositoryRoot.appendingPathComponent(file).path)
            let engine = try EngineBuilder.build(board)
            events = EventQueueSink(capacity: 4096, wake: Wakeup())
            engine.sink = events
            stage = RecognizerStage(frames: frames, engine: engine)
            stage.metrics = metrics
        }

        /// Plays `script` shifted by `offset` µs, one step per frame, then steps at `offset + end`
        /// (nil: no final step); `onEvent` sees each action popped. Returns how many were popped.
        func play(
            _ script: [TouchFrame], offset: Int64, end: Int64?, afterFrame: () -> Void = {},
            onEvent: (GestureEvent) -> Void = { _ in }
        ) -> Int {
            var popped = 0
            for var frame in script {
                frame.timestamp = frame.timestamp.advanced(byMicroseconds: offset)
                frames.offer(frame)
                stage.step(now: frame.timestamp)
                while let e = events.ring.tryPop() {
                    onEvent(e)
                    popped += 1
                }
                afterFrame()
            }
            if let end {
                stage.step(now: Instant(microseconds: offset + end))
                while let e = events.ring.tryPop() {
                    onEvent(e)
                    popped += 1
                }
            }
            return popped
        }
    }

    /// A board's recognizer loop fed a script twice: once to warm up lazily initialised runtime
    /// paths, once measured.
    private struct LoopCase {
        var name: String
        var board: String
        var script: [TouchFrame]
        /// Where the measured pass starts, and how long after its start the final step comes, µs.
        var offset: Int64
        var end: Int64
    }

    private static let loopCases: [LoopCase] = [
        // Tap, double tap requiring failure, long press, pan, a control region.
        LoopCase(
            name: "demo board", board: "boards/sim-demo.toml",
            script: DemoScript.frames(panelWidth: 800, panelHeight: 480), offset: 30_000_000, end: 20_000_000),
        // Every recognizer kind in use (the kiosk board and workload).
        LoopCase(
            name: "kiosk board, every recognizer kind", board: "boards/kiosk-sim.toml", script: KioskScript.frames(),
            offset: KioskScript.duration, end: KioskScript.duration),
    ]

    /// Each board's engine through the frame ring, the recognizer stage and the event ring: a burst
    /// of frames allocates nothing, and the measured pass recognizes what the warm-up did.
    func testRecognizerLoopAllocatesNothingPerFrame() throws {
        for c in Self.loopCases {
            let loop = try Loop(board: c.board)
            XCTAssertGreaterThan(c.script.count, 200, c.name)
            let warm = loop.play(c.script, offset: 0, end: c.end)
            var measured = 0
            let count = mallocs { measured = loop.play(c.script, offset: c.offset, end: c.end) }
            XCTAssertEqual(count, 0, "\(c.name): mallocs on the recognizer loop across \(c.script.count) frames")
            XCTAssertEqual(measured, warm, c.name)
            XCTAssertGreaterThan(measured, 20, "\(c.name): the burst must exercise recognizers, not an idle engine")
        }
    }

    /// `[passthrough]`: the tracker (deliveries → the UI's frames, touches waiting for a held
    /// end) and the encoder of the UI's touchscreen records (slots, palms) run in the recognizer
    /// loop too, and allocate nothing per frame either.
    func testPassthroughTrackingAndEncodingAllocateNothing() throws {
        let board = try BoardLoader.load(path: repositoryRoot.appendingPathComponent("boards/kiosk-sim.toml").path)
        let engine = try EngineBuilder.build(board)
        let events = EventQueueSink(capacity: 4096, wake: Wakeup())
        let tracker = PassthroughTracker(board: board, engine: engine)
        let sink = PassthroughSink(inner: events, tracker: tracker)
        engine.sink = sink
        let frames = FrameQueue(capacity: 1024)
        let stage = RecognizerStage(frames: frames, engine: engine)
        stage.passthrough = tracker
        // The touchscreen the service writes (encoder, record bytes, the device seam), on a device
        // that only counts what it is given.
        let device = CountingInputDevice()
        let screen = PassthroughTouchscreen(device: device, slots: 10)
        var reports = 0
        tracker.onFrame = { frame in
            screen.write(frame, cancelled: tracker.cancelledInReport)
            reports += 1
        }
        let script = KioskScript.frames()
        func play(offset: Int64) {
            for var frame in script {
                frame.timestamp = frame.timestamp.advanced(byMicroseconds: offset)
                frames.offer(frame)
                stage.step(now: frame.timestamp)
                while events.ring.tryPop() != nil {}
            }
            stage.step(now: Instant(microseconds: offset + KioskScript.duration))
            while events.ring.tryPop() != nil {}
        }
        play(offset: 0)
        let warm = reports
        reports = 0
        let count = mallocs { play(offset: KioskScript.duration * 2) }
        XCTAssertEqual(count, 0, "mallocs tracking and encoding \(reports) passthrough reports")
        XCTAssertEqual(reports, warm)
        XCTAssertGreaterThan(reports, 20, "the UI must receive touches, not an idle engine")
        XCTAssertGreaterThan(device.bytes, 0, "the records reached the device")
        withExtendedLifetime(sink) {}
    }

    /// With `[display]` the touch-to-wake gate sits in the same loop: frames it passes, frames it
    /// strips of swallowed touches, idle blanking, commands and transitions allocate nothing.
    func testRecognizerLoopWithTheDisplayGateAllocatesNothing() throws {
        let loop = try Loop(board: "boards/kiosk-sim.toml")
        let control = DisplayControl(idleOffSeconds: 1, idleDimSeconds: nil, wakeGuardMilliseconds: 300, start: .zero)
        loop.stage.display = control
        let script = KioskScript.frames()
        var frames = 0
        func play(offset: Int64) -> Int {
            loop.play(
                script, offset: offset, end: KioskScript.duration,
                afterFrame: {
                    frames += 1
                    if frames % 97 == 0 { control.send(.off) }  // the next touch wakes it, swallowed
                    while control.transitions.tryPop() != nil {}
                })
        }
        _ = play(offset: 0)
        let before = control.status
        var measured = 0
        let count = mallocs { measured = play(offset: KioskScript.duration) }
        XCTAssertEqual(count, 0, "mallocs on the recognizer loop with the display gate across \(script.count) frames")
        XCTAssertGreaterThan(measured, 20)
        XCTAssertGreaterThan(control.status.swallowedTouches, before.swallowedTouches, "the gate swallowed touches")
        XCTAssertGreaterThan(control.status.touchWakes, before.touchWakes)
    }

    /// With non-blocking sinks the recognizer thread issues each event's writes itself (JSON
    /// encoding, the stdout write, the latency probe): that part of its loop allocates nothing either.
    func testRecognizerThreadWritesAllocateNothing() throws {
        let board = try BoardLoader.load(path: repositoryRoot.appendingPathComponent("boards/kiosk-sim.toml").path)
        let engine = try EngineBuilder.build(board)
        let events = EventQueueSink(capacity: 4096, wake: Wakeup(inert: true))
        engine.sink = events
        let frames = FrameQueue(capacity: 1024)
        let stage = RecognizerStage(frames: frames, engine: engine)
        let null = try FileDescriptor.open("/dev/null", .writeOnly, options: .closeOnExec)
        defer { try? null.close() }
        let stdout = StandardOutputSink(descriptor: null, mode: .nonBlocking)
        XCTAssertTrue(stdout.descriptorIsNonBlocking)
        let output = OutputStage(
            events: events.ring,
            channels: [
                OutputChannel(
                    name: "stdout", encoding: .json(EventJSONEncoder(names: EngineBuilder.names(of: engine))),
                    sink: stdout)
            ], recognizerSlots: engine.recognizers.count)
        output.metrics = PipelineMetrics(clock: SystemClock.shared)
        let script = KioskScript.frames()
        let clock = ManualClock()
        func play(offset: Int64) {
            for var frame in script {
                frame.timestamp = frame.timestamp.advanced(byMicroseconds: offset)
                frames.offer(frame)
                stage.step(now: frame.timestamp)
                clock.now = frame.timestamp
                output.drain(clock: clock)
            }
        }
        play(offset: 0)
        let warm = output.eventsWritten
        let count = mallocs { play(offset: KioskScript.duration) }
        XCTAssertEqual(count, 0, "mallocs writing \(output.eventsWritten - warm) events on the recognizer thread")
        XCTAssertGreaterThan(output.eventsWritten - warm, 20)
        XCTAssertEqual(output.channelStatistics[0].written, output.eventsWritten, "every event reached stdout")
    }

    /// The timing probes on the hot threads (a clock read and a ring push per frame / event) and the
    /// metrics thread's move of those samples into the preallocated HdrHistograms allocate nothing.
    func testLatencySamplingAndHistogramRecordingAllocateNothing() throws {
        let metrics = PipelineMetrics(clock: SystemClock.shared)
        let loop = try Loop(board: "boards/kiosk-sim.toml", metrics: metrics)
        let script = KioskScript.frames()
        func play(offset: Int64) -> Int {
            loop.play(
                script, offset: offset, end: nil, afterFrame: { metrics.collect() },
                onEvent: { metrics.eventWritten(eventTime: $0.time, issuedAt: MonotonicClock.now()) })
        }
        _ = play(offset: 0)
        var measured = 0
        let count = mallocs { measured = play(offset: KioskScript.duration) }
        XCTAssertEqual(count, 0, "mallocs sampling \(script.count) frames and \(measured) events")
        XCTAssertGreaterThan(measured, 20)
        XCTAssertEqual(metrics.readToRecognized.totalCount, UInt64(2 * script.count))
        XCTAssertEqual(metrics.lostSamples, 0)
    }

    /// The driver's per-report path (one I2C transfer into a buffer allocated once, the pure
    /// decoder) allocates nothing.
    func testDriverReadAllocatesNothingPerFrame() throws {
        let bus = SimulatedI2CBus()
        let model = FT6x36Model()
        bus.attach(model)
        let driver = FT6x36Driver(
            bus: bus, configuration: .ft6x36(panelWidth: 800, panelHeight: 480), timing: .immediate)
        try driver.start()
        let script = DemoScript.frames(panelWidth: 800, panelHeight: 480)
        var read = 0
        var contacts = 0
        var matching = 0
        let count = mallocs {
            for frame in script {
                model.present(frame)
                if let got = try? driver.readFrame(at: frame.timestamp) {
                    read += 1
                    contacts += got.count
                    if got.hasSameContacts(as: frame) { matching += 1 }
                }
            }
        }
        XCTAssertEqual(count, 0)
        XCTAssertEqual(read, script.count)
        // Not an idle bus: the reads carried the script's touches, contact for contact.
        XCTAssertGreaterThan(contacts, 100)
        XCTAssertEqual(matching, script.count)
    }
}

/// A `VirtualInputDevice` that counts the bytes written and allocates nothing.
final class CountingInputDevice: VirtualInputDevice {
    private(set) var bytes = 0
    var sysName: String { "" }
    func write(_ records: UnsafeRawBufferPointer) -> Bool {
        bytes += records.count
        return true
    }
    func close() {}
}
