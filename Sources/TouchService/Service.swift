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
    /// Latency histograms, frame rate, ring fill: what `touchwire status` prints.
    public let metrics: PipelineMetrics
    /// Thread scheduling, memory locking and CPU affinity applied by `run()` (the board's
    /// `[realtime]` unless the caller overrides it).
    public var realtime: RealTimeDescription
    /// Where the metrics thread writes the status snapshot (JSON) about once a second; nil: nowhere.
    public var statusFile: String?
    /// With an INT line and no contact for a while, the longest wait for an edge before a
    /// watchdog read. A chip pulses INT for every report while touched, so a missed first edge
    /// is followed by another within one report period; only an idle panel waits this long.
    public var idleInterruptWatchdogMicroseconds: Int64 = 1_000_000
    /// Microseconds between controller reads when no INT line is used.
    public let pollIntervalMicroseconds: Int64
    private let clock: @Sendable () -> Instant

    private let running = Atomic<Bool>(false)
    private let driverWake = Wakeup()
    private let recognizerWake = Wakeup()
    private let outputWake: Wakeup
    private let metricsWake = Wakeup()
    private let startedAt: Instant
    private let latest = Mutex<MetricsSnapshot?>(nil)
    private let startWarnings = Mutex<[String]>([])
    private let threadScheduling = Mutex<[String: String]>([:])

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
        startedAt = clock()
        realtime = board.realtime
        metrics = PipelineMetrics(clock: clock)
        engine = try EngineBuilder.build(board)
        frames = FrameQueue(capacity: 256)
        outputWake = Wakeup()
        events = EventQueueSink(capacity: 1024, wake: outputWake, recognizerSlots: engine.recognizers.count)
        engine.sink = events
        recognizer = RecognizerStage(frames: frames, engine: engine)
        recognizer.metrics = metrics
        let names = EngineBuilder.names(of: engine)
        var channels = try OutputFactory.channels(
            board, names: names, stdout: stdout, logger: logger, clock: clock)
        channels += extraOutputs
        let lines = try OutputFactory.gpio(board, names: names, provider: gpio, logger: logger)
        output = OutputStage(
            events: events.ring, channels: channels, gpio: lines, recognizerSlots: engine.recognizers.count)
        output.metrics = metrics
        output.log = { [logger] message in logger.warning("\(message)") }
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
        for m in RealTimeSetup.applyToProcess(realtime) {
            if m.isWarning {
                logger.warning("\(m.text)")
                startWarnings.withLock { $0.append(m.text) }
            } else {
                logger.info("\(m.text)")
            }
        }
        driver.start(at: clock())
        logger.info(
            "touchwire running: board \(board.name), \(engine.recognizers.count) recognizers, outputs: \(output.channels.map(\.name).joined(separator: ", "))"
        )
        let done = DispatchGroup()
        spawn(.driver, done) { [self] in driverLoop() }
        spawn(.recognizer, done) { [self] in recognizerLoop() }
        spawn(.output, done) { [self] in outputLoop() }
        let metricsDone = DispatchGroup()
        metricsDone.enter()
        let metricsThread = Thread { [self] in
            metricsLoop()
            metricsDone.leave()
        }
        metricsThread.name = "touchwire-metrics"
        metricsThread.start()
        done.wait()
        metricsWake.signal()
        metricsDone.wait()
        // Every touch ends: cancel what is still down, then write what is left.
        let now = clock()
        recognizer.step(now: now)
        if engine.hasTouchesDown { engine.process(.cancel(at: now)) }
        output.drain(clock: clock)
        output.flush()
        for c in output.channels { (c.sink as? StandardOutputSink)?.restoreBlocking() }
        publishSnapshot()
        logger.info("\(statusLine)")
    }

    /// Asks the threads to finish; `run()` returns when they have.
    public func stop() {
        running.store(false, ordering: .sequentiallyConsistent)
        driverWake.signal()
        recognizerWake.signal()
        outputWake.signal()
        metricsWake.signal()
    }

    /// The latest status snapshot (refreshed about once a second while running; nil before the first).
    public var latestSnapshot: MetricsSnapshot? { latest.withLock { $0 } }

    /// Builds a snapshot from the metrics. Call on the metrics thread (or after `run()` returned).
    private func makeSnapshot(previous: (frames: Int, at: Instant)?) -> MetricsSnapshot {
        metrics.collect()
        let now = clock()
        let read = metrics.framesRead.load(ordering: .relaxed)
        var fps = 0.0
        if let previous, now > previous.at {
            fps = Double(read - previous.frames) * 1_000_000 / Double(now.microseconds(since: previous.at))
        }
        let sched = threadScheduling.withLock { $0 }
        let controller = "\(board.controller?.chip.rawValue ?? "none")" + (driver.simulation != nil ? " (sim)" : "")
        return MetricsSnapshot(
            board: board.name, controller: controller, pid: getpid(),
            uptime: Double(now.microseconds(since: startedAt)) / 1_000_000,
            updated: Date().timeIntervalSince1970, framesRead: read, framesPerSecond: fps,
            framesQueued: metrics.framesQueued.load(ordering: .relaxed),
            readErrors: metrics.readErrors.load(ordering: .relaxed),
            frameRing: RingSummary(
                capacity: frames.ring.capacity, highWater: frames.highWaterMark, dropped: frames.droppedFrames,
                other: frames.overflowCount),
            eventRing: RingSummary(
                capacity: events.ring.capacity, highWater: events.ring.highWaterMark, dropped: events.droppedEvents,
                other: events.coalescedEvents),
            eventsWritten: metrics.eventsWritten.load(ordering: .relaxed),
            readToRecognized: LatencySummary(metrics.readToRecognized),
            readToWrite: LatencySummary(metrics.readToWrite), lostSamples: metrics.lostSamples,
            threads: PipelineThread.allCases.map { "\($0) \(sched[$0.rawValue] ?? "not started")" },
            realtime: realtime.summary, warnings: startWarnings.withLock { $0 },
            processCPUSeconds: Double(RealTime.processCPUMicroseconds()) / 1_000_000,
            residentBytes: RealTime.residentBytes())
    }

    private var previousSample: (frames: Int, at: Instant)? = nil

    /// Drains the latency samples, refreshes `latestSnapshot` and writes the status file.
    /// The metrics thread calls it once a second while `run()` runs; otherwise (tests stepping the
    /// stages by hand) one thread at a time may call it.
    public func publishSnapshot() {
        let snap = makeSnapshot(previous: previousSample)
        previousSample = (snap.framesRead, clock())
        latest.withLock { $0 = snap }
        guard let statusFile, !statusFile.isEmpty else { return }
        do {
            try Data((snap.json() + "\n").utf8).write(to: URL(fileURLWithPath: statusFile), options: .atomic)
        } catch {
            if !statusFileFailed {
                statusFileFailed = true
                logger.warning("status file \(statusFile): cannot write (\(error)); `touchwire status` will not see this service")
            }
        }
    }
    private var statusFileFailed = false

    /// Low priority, off the pipeline: drains latency samples into the histograms and publishes
    /// the snapshot once a second.
    private func metricsLoop() {
        while isRunning {
            publishSnapshot()
            metricsWake.wait(microseconds: 1_000_000)
        }
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

    /// Starts a pipeline thread: applies its real-time settings (warnings, never failures), runs
    /// `body`, then records the CPU time the thread used.
    private func spawn(_ role: PipelineThread, _ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        let thread = Thread { [self] in
            for m in RealTimeSetup.applyToCurrentThread(role, realtime) {
                logger.warning("\(m.text)")
                startWarnings.withLock { $0.append(m.text) }
            }
            let sched = RealTimeSetup.describeCurrentThread()
            threadScheduling.withLock { $0[role.rawValue] = sched }
            logger.debug("\(role) thread: \(sched)")
            body()
            metrics.storeCPU(role, microseconds: RealTime.currentThreadCPUMicroseconds())
            group.leave()
        }
        thread.name = "touchwire-\(role)"
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
                let idle = isIdle(at: started)
                let wait = idle ? max(driver.pollInterval(at: started), idleInterruptWatchdogMicroseconds) : driver.pollInterval(at: started)
                var edge: GPIOEdgeEvent? = nil
                do throws(GPIOError) {
                    edge = try input.waitForEdge(timeoutMicroseconds: wait)
                } catch {
                    logger.warning("INT line: \(error)")
                }
                if let edge {
                    if driver.poll(at: edge.timestamp, edge: true) { recognizerWake.signal() }
                    publishDriverCounters()
                    continue
                }
                let readAt = clock()
                if driver.poll(at: readAt) { recognizerWake.signal() }
                publishDriverCounters()
                // A simulated line returns at once: sleep out the rest of the period — or, idle,
                // until the script's next change (the edge the simulated chip would raise).
                var left = wait - clock().microseconds(since: started)
                if idle, let sim = driver.simulation {
                    let edgeAt = sim.nextScriptedChange(after: readAt)
                    let untilEdge = edgeAt.map { max(0, $0.microseconds(since: clock())) } ?? left
                    left = min(left, untilEdge)
                }
                if left > 0 { driverWake.wait(microseconds: left) }
                continue
            }
            let now = clock()
            if driver.poll(at: now) { recognizerWake.signal() }
            publishDriverCounters()
            let interval = driver.simulation == nil ? driver.pollInterval(at: now) : pollIntervalMicroseconds
            next = next.advanced(byMicroseconds: interval)
            if next < now { next = now.advanced(byMicroseconds: interval) }
            driverWake.wait(microseconds: next.microseconds(since: clock()))
        }
    }

    /// No contact for the driver's active hold: an INT-driven driver may wait long for an edge.
    private func isIdle(at now: Instant) -> Bool {
        guard let last = driver.lastContactAt else { return true }
        return now.microseconds(since: last) >= driver.schedule.activeHoldMicroseconds
    }

    @inline(__always)
    private func publishDriverCounters() {
        metrics.publishDriver(read: driver.framesRead, queued: driver.framesQueued, errors: driver.readErrors)
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
            metrics.eventsWritten.store(output.eventsWritten, ordering: .relaxed)
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
