import BoardConfig
import Gestures
import MallocInterposerSwift
import TouchCore
import TouchDrivers
import TouchLinux
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
            throw XCTSkip("allocation counts are measured on optimized code: run `swift test -c release -Xswiftc -enable-testing`")
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
        XCTAssertGreaterThan(n, 0, "the malloc interposer is not active; the zero-allocation test below would prove nothing")
        XCTAssertEqual(sink.count, 100)
    }

    /// The demo board's engine (tap, double tap requiring failure, long press, pan, a control region)
    /// through the frame ring, the recognizer stage and the event ring: a burst of frames allocates nothing.
    func testRecognizerLoopAllocatesNothingPerFrame() throws {
        let board = try BoardLoader.load(path: repositoryRoot.appendingPathComponent("boards/sim-demo.toml").path)
        let engine = try EngineBuilder.build(board)
        let wake = Wakeup()
        let events = EventQueueSink(capacity: 4096, wake: wake)
        engine.sink = events
        let frames = FrameQueue(capacity: 1024)
        let stage = RecognizerStage(frames: frames, engine: engine)
        let script = DemoScript.frames(panelWidth: board.panel.width, panelHeight: board.panel.height)
        XCTAssertGreaterThan(script.count, 200)

        func play(offset: Int64) -> Int {
            var popped = 0
            for var frame in script {
                frame.timestamp = frame.timestamp.advanced(byMicroseconds: offset)
                frames.offer(frame)
                stage.step(now: frame.timestamp)
                while events.ring.tryPop() != nil { popped += 1 }
            }
            stage.step(now: Instant(microseconds: offset + 20_000_000))
            while events.ring.tryPop() != nil { popped += 1 }
            return popped
        }

        let warmUpEvents = play(offset: 0)  // first pass: lazily initialised runtime paths
        var measuredEvents = 0
        let count = mallocs { measuredEvents = play(offset: 30_000_000) }
        XCTAssertEqual(count, 0, "mallocs on the recognizer loop across \(script.count) frames")
        XCTAssertEqual(measuredEvents, warmUpEvents)
        XCTAssertGreaterThan(measuredEvents, 20, "the burst must exercise recognizers, not an idle engine")
    }

    /// Every recognizer kind in use (the kiosk board and workload): still nothing allocated per frame.
    func testKioskBoardWithEveryRecognizerKindAllocatesNothingPerFrame() throws {
        let board = try BoardLoader.load(path: repositoryRoot.appendingPathComponent("boards/kiosk-sim.toml").path)
        let engine = try EngineBuilder.build(board)
        let events = EventQueueSink(capacity: 4096, wake: Wakeup())
        engine.sink = events
        let frames = FrameQueue(capacity: 1024)
        let stage = RecognizerStage(frames: frames, engine: engine)
        let script = KioskScript.frames()
        func play(offset: Int64) -> Int {
            var popped = 0
            for var frame in script {
                frame.timestamp = frame.timestamp.advanced(byMicroseconds: offset)
                frames.offer(frame)
                stage.step(now: frame.timestamp)
                while events.ring.tryPop() != nil { popped += 1 }
            }
            stage.step(now: Instant(microseconds: offset + KioskScript.duration))
            while events.ring.tryPop() != nil { popped += 1 }
            return popped
        }
        let warm = play(offset: 0)
        var measured = 0
        let count = mallocs { measured = play(offset: KioskScript.duration) }
        XCTAssertEqual(count, 0, "mallocs across \(script.count) kiosk frames")
        XCTAssertEqual(measured, warm)
        XCTAssertGreaterThan(measured, 20, "the burst must exercise recognizers, not an idle engine")
    }

    /// The timing probes on the hot threads (a clock read and a ring push per frame / event) and the
    /// metrics thread's move of those samples into the preallocated HdrHistograms allocate nothing.
    func testLatencySamplingAndHistogramRecordingAllocateNothing() throws {
        let board = try BoardLoader.load(path: repositoryRoot.appendingPathComponent("boards/kiosk-sim.toml").path)
        let engine = try EngineBuilder.build(board)
        let events = EventQueueSink(capacity: 4096, wake: Wakeup())
        engine.sink = events
        let frames = FrameQueue(capacity: 1024)
        let stage = RecognizerStage(frames: frames, engine: engine)
        let metrics = PipelineMetrics(clock: { MonotonicClock.now() })
        stage.metrics = metrics
        let script = KioskScript.frames()
        func play(offset: Int64) -> Int {
            var popped = 0
            for var frame in script {
                frame.timestamp = frame.timestamp.advanced(byMicroseconds: offset)
                frames.offer(frame)
                stage.step(now: frame.timestamp)
                while let e = events.ring.tryPop() {
                    metrics.eventWritten(eventTime: e.time, issuedAt: MonotonicClock.now())
                    popped += 1
                }
                metrics.collect()
            }
            return popped
        }
        _ = play(offset: 0)
        var measured = 0
        let count = mallocs { measured = play(offset: KioskScript.duration) }
        XCTAssertEqual(count, 0, "mallocs sampling \(script.count) frames and \(measured) events")
        XCTAssertGreaterThan(measured, 20)
        XCTAssertEqual(metrics.readToRecognized.totalCount, UInt64(2 * script.count))
        XCTAssertEqual(metrics.lostSamples, 0)
    }

    /// The driver's per-report path (one I2C transfer into a buffer allocated once, the pure decoder) allocates nothing.
    func testDriverReadAllocatesNothingPerFrame() throws {
        let bus = SimulatedI2CBus()
        let model = FT6x36Model()
        bus.attach(model)
        let driver = FT6x36Driver(bus: bus, configuration: .ft6x36(panelWidth: 800, panelHeight: 480))
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
