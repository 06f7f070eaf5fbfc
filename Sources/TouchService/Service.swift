import BoardConfig
import Foundation
import Gestures
import Logging
import Synchronization
import TouchCore
import TouchDrivers
import TouchLinux
import TouchOutputs
import TouchRing
import TouchSimulation
import TouchTrace

/// `touchwire run`: driver thread → frame ring → recognizer thread → event ring → output thread.
///
/// `init` builds and opens everything (engine, controller bus, output devices) and throws one
/// clear error if any part fails, so a bad board never starts a half-configured service.
/// `run()` starts the three threads and returns after `stop()` (SIGINT/SIGTERM in the CLI),
/// cancelling any touch still in progress so every gesture ends, then flushing the outputs.
public final class Service: @unchecked Sendable {
    // @unchecked Sendable: each stage is touched by exactly one thread while running (its loop),
    // and by the caller of `run()` only after those threads have been joined; `running` is atomic.

    public let board: BoardDescription
    public let engine: GestureEngine
    public let frames: FrameQueue
    public let driver: DriverStage
    public let recognizer: RecognizerStage
    public let output: OutputStage
    public let events: EventQueueSink
    public let logger: Logger
    /// Microseconds between controller reads when no INT line is used.
    public let pollIntervalMicroseconds: Int64
    private let clock: @Sendable () -> Instant

    private let running = Atomic<Bool>(false)
    private let driverWake = Wakeup()
    private let recognizerWake = Wakeup()
    private let outputWake: Wakeup

    /// Builds the whole pipeline for `board`. `extraOutputs` are added to the board's own
    /// (tests point one at a pseudo-terminal); `gpio`, when given, supplies every bound GPIO line
    /// (tests pass a simulated chip; otherwise chip "sim" is in memory and others are libgpiod's);
    /// `clock` is the monotonic clock unless a test injects one.
    public init(
        board: BoardDescription, logger: Logger, extraOutputs: [OutputChannel] = [],
        stdout: (any LineSink)? = nil, gpio: (any GPIOProvider)? = nil,
        clock: @escaping @Sendable () -> Instant = { MonotonicClock.now() }
    ) throws(ServiceError) {
        self.board = board
        self.logger = logger
        self.clock = clock
        engine = try EngineBuilder.build(board)
        frames = FrameQueue(capacity: 256)
        outputWake = Wakeup()
        events = EventQueueSink(capacity: 1024, wake: outputWake, recognizerSlots: engine.recognizers.count)
        engine.sink = events
        recognizer = RecognizerStage(frames: frames, engine: engine)
        let names = EngineBuilder.names(of: engine)
        var channels = try OutputFactory.channels(
            board, names: names, stdout: stdout, logger: logger, clock: clock)
        channels += extraOutputs
        let lines = try OutputFactory.gpio(board, names: names, provider: gpio, logger: logger)
        output = OutputStage(
            events: events.ring, channels: channels, gpio: lines, recognizerSlots: engine.recognizers.count)
        let setup = try ControllerFactory.make(board, start: clock())
        pollIntervalMicroseconds = setup.pollIntervalMicroseconds
        driver = DriverStage(
            controller: setup.controller, frames: frames, simulation: setup.simulation, transform: setup.transform,
            protection: setup.protection, schedule: setup.schedule,
            log: { [logger] message in logger.notice("\(message)") })
    }

    /// Starts the threads and returns once `stop()` has been called and everything is flushed.
    public func run() {
        running.store(true, ordering: .sequentiallyConsistent)
        driver.start(at: clock())
        logger.info(
            "touchwire running: board \(board.name), \(engine.recognizers.count) recognizers, outputs: \(output.channels.map(\.name).joined(separator: ", "))"
        )
        let done = DispatchGroup()
        spawn("touchwire-driver", done) { [self] in driverLoop() }
        spawn("touchwire-recognizer", done) { [self] in recognizerLoop() }
        spawn("touchwire-output", done) { [self] in outputLoop() }
        done.wait()
        // Every touch ends: cancel what is still down, then write what is left.
        let now = clock()
        recognizer.step(now: now)
        if engine.hasTouchesDown { engine.process(.cancel(at: now)) }
        output.drain(clock: clock)
        output.flush()
        logger.info("\(statusLine)")
    }

    /// Asks the threads to finish; `run()` returns when they have.
    public func stop() {
        running.store(false, ordering: .sequentiallyConsistent)
        driverWake.signal()
        recognizerWake.signal()
        outputWake.signal()
    }

    /// A one-line summary of the counters.
    public var statusLine: String {
        let lat = output.latency
        return
            "frames read \(driver.framesRead), queued \(driver.framesQueued), read errors \(driver.readErrors), "
            + "ring drops \(frames.droppedFrames)/overflows \(frames.overflowCount), events \(output.eventsWritten) "
            + "(dropped \(events.droppedEvents), coalesced \(events.coalescedEvents)), "
            + "frame→write latency mean \(Int(lat.mean)) µs max \(lat.maximum) µs; \(output.channelSummary)"
    }

    private var isRunning: Bool { running.load(ordering: .relaxed) }

    private func spawn(_ name: String, _ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        let thread = Thread {
            body()
            group.leave()
        }
        thread.name = name
        thread.start()
    }

    /// With an INT line: wait for an edge (at most one polling period), read with the frame
    /// timestamped at the edge; on timeout read anyway (watchdog, missed edges). Without one:
    /// poll at the adaptive rate (fast while touched, never slower than 20 ms).
    private func driverLoop() {
        var next = clock()
        while isRunning {
            if let input = driver.interruptInput {
                let started = clock()
                let wait = driver.pollInterval(at: started)
                var edge: GPIOEdgeEvent? = nil
                do throws(GPIOError) {
                    edge = try input.waitForEdge(timeoutMicroseconds: wait)
                } catch {
                    logger.warning("INT line: \(error)")
                }
                if let edge {
                    if driver.poll(at: edge.timestamp, edge: true) { recognizerWake.signal() }
                    continue
                }
                if driver.poll(at: clock()) { recognizerWake.signal() }
                // A simulated line returns at once: sleep out the rest of the period.
                let left = wait - clock().microseconds(since: started)
                if left > 0 { driverWake.wait(microseconds: left) }
                continue
            }
            let now = clock()
            if driver.poll(at: now) { recognizerWake.signal() }
            let interval = driver.simulation == nil ? driver.pollInterval(at: now) : pollIntervalMicroseconds
            next = next.advanced(byMicroseconds: interval)
            if next < now { next = now.advanced(byMicroseconds: interval) }
            driverWake.wait(microseconds: next.microseconds(since: clock()))
        }
    }

    private func recognizerLoop() {
        while isRunning {
            let now = clock()
            recognizer.step(now: now)
            // Sleep until a frame arrives or the next timer is due (at most a second).
            let wait = recognizer.timeUntilNextDeadline(from: clock()) ?? 1_000_000
            recognizerWake.wait(microseconds: max(1, min(wait, 1_000_000)))
        }
    }

    /// Drains events, ends GPIO pulses on time, retries backed-up sinks, and every 10 s logs the
    /// frame→write latency. On the way out (stop, SIGINT, SIGTERM) every bound GPIO line goes inactive.
    private func outputLoop() {
        var nextReport = clock().advanced(byMicroseconds: 10_000_000)
        var reportedEvents = 0
        while isRunning {
            output.drain(clock: clock)
            output.flush()
            let now = clock()
            if now >= nextReport {
                nextReport = now.advanced(byMicroseconds: 10_000_000)
                if output.eventsWritten > reportedEvents {
                    reportedEvents = output.eventsWritten
                    let lat = output.latency
                    logger.info(
                        "outputs: \(output.eventsWritten) events, frame→write latency mean \(Int(lat.mean)) µs max \(lat.maximum) µs; \(output.channelSummary)"
                    )
                }
            }
            let wait = output.nextWakeup(from: now) ?? 100_000
            outputWake.wait(microseconds: max(1, min(wait, 100_000)))
        }
        output.releaseLines()
    }

}
