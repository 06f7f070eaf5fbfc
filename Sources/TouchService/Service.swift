import Dispatch
import FoundationEssentials
import Gestures
import Logging
import Synchronization
import SystemPackage
import TouchCore
import TouchDrivers
import TouchOutputs
import TouchRing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `touchwire run`: driver thread → frame ring → recognizer thread → event ring → output thread.
///
/// `init` builds and opens everything (engine, controller bus, output devices) and throws one
/// clear error if any part fails, so a bad board never starts a half-configured service.
/// `run()` starts the three threads and returns after `stop()` (SIGINT/SIGTERM in the CLI),
/// cancelling any touch still in progress so every gesture ends, then flushing the outputs.
package final class Service: @unchecked Sendable {
    // @unchecked Sendable: every stored property is a `let`; each stage is touched by exactly one
    // thread while running (its loop) and by the caller of `run()` only after those threads have
    // been joined; `running` is atomic, the snapshot state is behind Mutexes, and the two private
    // vars below `publishSnapshot` belong to the metrics thread (or to the caller while not running).

    /// The board's name and the composition root's decisions (status file, metrics, reloads).
    package let profile: ServiceProfile
    package let engine: GestureEngine
    package let frames: FrameQueue
    package let driver: DriverStage
    package let recognizer: RecognizerStage
    package let output: OutputStage
    /// The virtual touchscreen of `[passthrough]`, nil without one.
    package let passthroughScreen: PassthroughTouchscreen?
    package let events: EventQueueSink
    package let logger: Logger
    /// Latency histograms, frame rate, ring fill: what `touchwire status` prints.
    package let metrics: PipelineMetrics
    /// Thread scheduling, memory locking and CPU affinity applied by `run()` (the board's
    /// `[realtime]` with the command line's overrides, as the composition root built it).
    package let realtime: any ThreadTuning
    /// `realtime.summary`, made once: the metrics thread publishes it every second.
    private let realtimeSummary: String
    /// Where the metrics thread writes the status snapshot (`ServiceProfile.statusFile`), written
    /// atomically (`ServiceHost.writeAtomically`: temporary file + rename, never through a symlink, 0640).
    package let statusFile: String?
    /// Where the metrics thread writes the snapshot in the Prometheus text format
    /// (`ServiceProfile.prometheusFile`); nil: nowhere.
    package let prometheusFile: String?
    /// Progress, controller state and the test-only hang fault, for supervision (READY, watchdog).
    package let health = ServiceHealth()
    /// Boards swapped in by SIGHUP before this service (`ServiceProfile.reloads`; in the status snapshot).
    package let reloads: Int
    /// `ServiceProfile.idleInterruptWatchdogMicroseconds`.
    package let idleInterruptWatchdogMicroseconds: Int64
    /// The pipeline's one clock (`TouchClock`), handed as it is to the driver loop and the output
    /// stage (a reference: nothing is made per frame).
    private let clock: any TouchClock
    /// Threads, resource figures and the status files (`ServiceHost`).
    private let host: any ServiceHost
    /// `[display]`: the touch-to-wake gate, idle time and outside commands (nil without one).
    package let display: DisplayControl?
    /// Switches the screen on its own thread (nil without `[display]`).
    package let displaySwitch: (any ScreenSwitch)?

    private let running = Atomic<Bool>(false)
    private let driverWake = Wakeup()
    private let recognizerWake = Wakeup()
    /// Which thread runs the recognizer stage: the driver thread right after its read, or the
    /// recognizer thread (docs/PERFORMANCE.md, "read → write").
    private let turns = RecognizerTurns()
    /// True when every sink returns at once whatever its reader does (stdout in `.nonBlocking` mode,
    /// UARTs, sockets): the recognizer thread then issues each event's GPIO levels and writes itself,
    /// right after the frame that produced it, instead of waking the output thread (one futex
    /// wake-up less between read and write: docs/PERFORMANCE.md). The output thread keeps what
    /// waits: pulse ends, backed-up sinks, reconnects, the periodic log. A blocking sink (replay's
    /// stdout, a test's) keeps the hand-off, so it can never stall the recognizer loop.
    package let writesOnRecognizerThread: Bool
    /// Held by whichever thread is running `output` (the writes of the thread that recognized, or
    /// the output thread's upkeep); the stage itself is single-threaded. A recognizing thread only
    /// ever tries it, never waits: when the output thread holds it, the events stay in the ring for
    /// the output thread, which is woken.
    private let outputHold = StageHold()
    private let outputWake: Wakeup
    /// The output thread's longest sleep with nothing pending: 100 ms when a sink has periodic
    /// housekeeping in `flush` (a socket accepts new clients, a UART reopens a lost port), else a
    /// second (the 10 s summary is the only other timed work). Events, pulse ends and backed-up
    /// sinks wake it sooner.
    private let outputIdleMicroseconds: Int64
    private let metricsWake = Wakeup()
    private let startedAt: Instant
    private let latest = Mutex<MetricsSnapshot?>(nil)
    private let startWarnings = Mutex<[String]>([])
    private let threadScheduling = Mutex<[String: String]>([:])

    /// Assembles the pipeline from parts already built and opened (the composition root,
    /// `TouchComposition`, builds them from a board file: `Service(board:logger:settings:…)`); the
    /// service never sees the board. It sees the controller only through `TouchInputSource` (a
    /// simulated board's controller included), the virtual devices and programs only through
    /// `VirtualInputDevice` and `CommandRunner`, the sinks through `LineSink`, and time only
    /// through `clock`. `display` is the `[display]` gate, its idle time counted from `clock.now`
    /// at its making.
    package init(
        profile: ServiceProfile, realtime: any ThreadTuning, logger: Logger, engine: GestureEngine,
        channels: [OutputChannel], lines: GPIOActuator?, controller: any TouchInputSource,
        transform: PanelTransform?, protection: TouchProtection, schedule: AdaptivePollSchedule,
        commands: CommandActuator? = nil, passthrough: PassthroughOutput? = nil, display: DisplayControl? = nil,
        displaySwitch: (any ScreenSwitch)? = nil, host: any ServiceHost, clock: any TouchClock
    ) {
        self.host = host
        self.profile = profile
        self.logger = logger
        self.clock = clock
        startedAt = clock.now
        self.realtime = realtime
        realtimeSummary = realtime.summary
        statusFile = profile.statusFile
        prometheusFile = profile.prometheusFile
        reloads = profile.reloads
        idleInterruptWatchdogMicroseconds = profile.idleInterruptWatchdogMicroseconds
        metrics = PipelineMetrics(clock: clock)
        self.engine = engine
        frames = FrameQueue(capacity: 256)
        outputWake = Wakeup()
        writesOnRecognizerThread = channels.allSatisfy { $0.sink.neverBlocks }
        let housekeeping = channels.contains { $0.sink.hasHousekeeping }
        outputIdleMicroseconds = housekeeping ? 100_000 : 1_000_000
        events = EventQueueSink(
            capacity: 1024, wake: writesOnRecognizerThread ? Wakeup(inert: true) : outputWake,
            recognizerSlots: engine.recognizers.count)
        engine.sink = events
        recognizer = RecognizerStage(frames: frames, engine: engine)
        if let passthrough {
            passthroughScreen = PassthroughSetup.attach(
                passthrough, engine: engine, events: events, stage: recognizer)
        } else {
            passthroughScreen = nil
        }
        recognizer.metrics = metrics
        output = OutputStage(
            events: events.ring, channels: channels, gpio: lines, recognizerSlots: engine.recognizers.count)
        output.metrics = metrics
        output.commands = commands
        output.log = { [logger] message in logger.warning("\(message)") }
        driver = DriverStage(
            controller: controller, frames: frames, transform: transform, protection: protection,
            schedule: schedule, log: { [logger] message in logger.notice("\(message)") })
        self.displaySwitch = displaySwitch
        if let control = display {
            control.wakeRecognizer = { [recognizerWake] in recognizerWake.signal() }
            recognizer.display = control
            output.displayTransitions = control.transitions
            output.displaySwitch = displaySwitch
        }
        self.display = display
        for c in channels {
            // `display …` lines on the event socket (docs/formats.md §6); answered on the output thread.
            c.sink.answerRequests { [display] line in
                DisplayCommandLine.reply(to: line, control: display)
            }
        }
    }

    /// Starts the threads and returns once `stop()` has been called and everything is flushed.
    /// After `close()` it returns at once (the devices are gone).
    package func run() {
        guard !isClosed else {
            logger.error("touchwire: board \(profile.boardName) was closed; it does not run again")
            return
        }
        running.store(true, ordering: .sequentiallyConsistent)
        for m in realtime.applyToProcess() {
            if m.isWarning {
                logger.warning("\(m.text)")
                startWarnings.withLock { $0.append(m.text) }
            } else {
                logger.info("\(m.text)")
            }
        }
        output.commands?.spawner?.start()
        defer { output.commands?.spawner?.stop() }
        displaySwitch?.start()
        defer { displaySwitch?.stop() }  // the screen is left on
        driver.start(at: clock.now)
        let outputs = output.channels.map(\.name).joined(separator: ", ")
        let recognizers = engine.recognizers.count
        logger.info("touchwire running: board \(profile.boardName), \(recognizers) recognizers, outputs: \(outputs)")
        let done = DispatchGroup()
        spawn(.driver, done) { [self] in driverLoop() }
        spawn(.recognizer, done) { [self] in recognizerLoop() }
        spawn(.output, done) { [self] in outputLoop() }
        let metricsDone = DispatchGroup()
        metricsDone.enter()
        do {
            try host.startThread(name: "touchwire-metrics") { [self] in
                metricsLoop()
                metricsDone.leave()
            }
        } catch {
            logger.warning("no metrics thread (\(error)): the status file and histograms are not updated")
            metricsDone.leave()
        }
        done.wait()
        metricsWake.signal()
        metricsDone.wait()
        // Every touch ends: cancel what is still down, then write what is left.
        let now = clock.now
        recognizer.step(now: now)
        if engine.hasTouchesDown { engine.process(.cancel(at: now)) }
        output.drain(clock: clock)
        output.flush()
        for c in output.channels { c.sink.serviceStopped() }
        publishSnapshotOnThisThread()
        logger.info("\(statusLine)")
    }

    /// Gives back every exclusive resource the service opened, so another service may open the
    /// same ones: every bound GPIO line goes inactive and is released, the output sinks close (a
    /// socket's listener and file, a UART's port), the controller closes (its INT/reset lines, an
    /// evdev grab), and the virtual devices (`[passthrough]`, the key bindings' keyboard) are
    /// destroyed. Call it after `run()` returned (or instead of running); the service does not run
    /// again. Idempotent. `ServiceSupervisor` calls it before opening a reloaded board.
    package func close() {
        precondition(!isRunning, "Service.close: stop() and let run() return first")
        guard !isClosed else { return }
        isClosed = true
        output.close()
        driver.controller.close()
        passthroughScreen?.close()
        displaySwitch?.close()
        logger.info("board \(profile.boardName): outputs, lines and controller released")
    }
    /// True after `close()`.
    package private(set) var isClosed = false

    /// Asks the threads to finish; `run()` returns when they have.
    package func stop() {
        running.store(false, ordering: .sequentiallyConsistent)
        driverWake.signal()
        recognizerWake.signal()
        outputWake.signal()
        metricsWake.signal()
    }

    /// The latest status snapshot (refreshed about once a second while running; nil before the first).
    package var latestSnapshot: MetricsSnapshot? { latest.withLock { $0 } }

    /// Builds a snapshot from the metrics. Call on the metrics thread (or after `run()` returned).
    private func makeSnapshot(previous: (frames: Int, at: Instant)?) -> MetricsSnapshot {
        metrics.collect()
        let now = clock.now
        let read = metrics.framesRead.load(ordering: .relaxed)
        var fps = 0.0
        if let previous, now > previous.at {
            fps = Double(read - previous.frames) * 1_000_000 / Double(now.microseconds(since: previous.at))
        }
        let sched = threadScheduling.withLock { $0 }
        return MetricsSnapshot(
            board: profile.boardName, controller: profile.controller, pid: getpid(),
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
            readToRecognized: metrics.readToRecognizedSummary,
            readToWrite: metrics.readToWriteSummary, lostSamples: metrics.lostSamples,
            threads: PipelineThread.allCases.map { $0.rawValue + " " + (sched[$0.rawValue] ?? "not started") },
            realtime: realtimeSummary, warnings: startWarnings.withLock { $0 },
            processCPUSeconds: Double(host.processCPUMicroseconds()) / 1_000_000,
            residentBytes: host.residentBytes(), controllerState: health.controllerState.name,
            reinitialisations: health.reinitialisations, reloads: reloads, display: display?.status)
    }

    private var previousSample: (frames: Int, at: Instant)? = nil

    /// Drains the latency samples, refreshes `latestSnapshot` and writes the status file, for a
    /// caller stepping the stages by hand (tests). Only while `run()` is not running: then the
    /// metrics thread is the one that publishes.
    package func publishSnapshot() {
        precondition(!isRunning, "Service.publishSnapshot: the metrics thread publishes while run() runs")
        publishSnapshotOnThisThread()
    }

    /// The metrics thread's publication (and `run()`'s last one, after the threads have joined).
    private func publishSnapshotOnThisThread() {
        let snap = makeSnapshot(previous: previousSample)
        previousSample = (snap.framesRead, clock.now)
        latest.withLock { $0 = snap }
        if let statusFile, !statusFile.isEmpty {
            do throws(ServiceHostError) {
                try host.writeAtomically(Array((snap.json() + "\n").utf8), to: statusFile, mode: 0o640)
            } catch {
                if !statusFileFailed {
                    statusFileFailed = true
                    let why = "cannot write (\(error)); `touchwire status` will not see this service"
                    logger.warning("status file \(statusFile): \(why)")
                }
            }
        }
        if let prometheusFile, !prometheusFile.isEmpty {
            do throws(ServiceHostError) {
                try host.writeAtomically(Array(PrometheusFormat.render(snap).utf8), to: prometheusFile, mode: 0o644)
            } catch {
                if !prometheusFileFailed {
                    prometheusFileFailed = true
                    logger.warning(
                        "[metrics] prometheus_file \(prometheusFile): cannot write (\(error)); the service runs on")
                }
            }
        }
    }
    private var statusFileFailed = false

    /// Removes the status file at exit, only if it is still the file this service wrote last
    /// (`ServiceHost.removeCreatedFile`: same inode, a regular file): never a directory, a device such as
    /// `/dev/null`, or a file another process has put there since.
    package func removeStatusFile() {
        guard let statusFile else { return }
        host.removeCreatedFile(statusFile)
    }
    private var prometheusFileFailed = false

    /// Low priority, off the pipeline: drains latency samples into the histograms and publishes
    /// the snapshot once a second.
    private func metricsLoop() {
        var nextPageRelease = ServiceProfile.startupMicroseconds
        while isRunning {
            publishSnapshotOnThisThread()
            let elapsed = clock.now.microseconds(since: startedAt)
            if elapsed >= nextPageRelease {
                // Start-up code, and code run once since (a client connecting, a reload, a command),
                // stays mapped with its fault-around neighbours: give it back; the loops fault in
                // again only what they run.
                nextPageRelease = elapsed + ServiceProfile.pageReleaseIntervalMicroseconds
                let bytes = host.releaseStartupPages()
                logger.debug("footprint: released the mappings of \(bytes / 1024) KiB of code and read-only data")
            }
            metricsWake.wait(microseconds: 1_000_000)
        }
    }

    /// A one-line summary of the counters.
    package var statusLine: String {
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
        let body: @Sendable () -> Void = { [self] in
            for m in realtime.applyToCurrentThread(role) {
                logger.warning("\(m.text)")
                startWarnings.withLock { $0.append(m.text) }
            }
            let sched = realtime.describeCurrentThread()
            threadScheduling.withLock { $0[role.rawValue] = sched }
            logger.debug("\(role) thread: \(sched)")
            body()
            metrics.storeCPU(role, microseconds: host.currentThreadCPUMicroseconds())
            group.leave()
        }
        do { try host.startThread(name: "touchwire-\(role)", body) } catch {
            logger.error("the \(role) thread did not start (\(error)): stopping")
            stop()
            group.leave()
        }
    }

    /// The driver thread: `DriverLoop` turns, waking the recognizer when frames were queued and
    /// sleeping between turns on `driverWake` (so `stop()` ends a wait at once).
    private func driverLoop() {
        var loop = DriverLoop(
            driver: driver, clock: clock, idleInterruptWatchdogMicroseconds: idleInterruptWatchdogMicroseconds)
        while isRunning {
            let turn = loop.turn()
            if let error = turn.lineError { logger.warning("INT line: \(error)") }
            if turn.queued { recognizeOnDriverThread() }
            publishDriverCounters()
            if let wait = turn.waitMicroseconds { driverWake.wait(microseconds: wait) }
        }
    }

    @inline(__always)
    private func publishDriverCounters() {
        metrics.publishDriver(read: driver.framesRead, queued: driver.framesQueued, errors: driver.readErrors)
        health.publish(driver.state, reinitialisations: driver.reinitialisations)
    }

    /// The driver thread, after a read queued frames: recognizes them and writes their events
    /// itself when the recognizer thread is not in the middle of a pass (`RecognizerTurns`: no
    /// wake-up between read and write), else wakes the recognizer thread. Never waits.
    private func recognizeOnDriverThread() {
        guard !health.recognizerHung.load(ordering: .relaxed), turns.tryAcquire() else {
            recognizerWake.signal()
            return
        }
        recognizerPass()
        let wakeForTimer = turns.mustWake(for: engine.nextDeadline)
        turns.release()
        if wakeForTimer { recognizerWake.signal() }
    }

    /// One pass of the recognizer stage, by whichever thread holds `turns`: the queued frames and
    /// the timers due, then (`writesOnRecognizerThread`) their events' writes.
    private func recognizerPass() {
        recognizer.step(now: clock.now)
        if writesOnRecognizerThread && events.ring.count > 0 { writeEventsNow() }
    }

    /// The recognizer thread: timers, and the frames the driver thread left to it.
    private func recognizerLoop() {
        while isRunning {
            turns.recognizerAwoke()
            if health.recognizerHung.load(ordering: .relaxed) {  // test-only fault: no progress
                recognizerWake.wait(microseconds: 1_000_000)
                continue
            }
            health.recognizerTicks.add(1, ordering: .relaxed)
            turns.acquire()
            recognizerPass()
            // Sleep until a frame arrives or the next timer is due (at most a second).
            let now = clock.now
            let wait = max(1, min(recognizer.timeUntilNextDeadline(from: now) ?? 1_000_000, 1_000_000))
            turns.recognizerWillSleep(until: now.advanced(byMicroseconds: wait))
            turns.release()
            recognizerWake.wait(microseconds: wait)
        }
    }

    /// Drains events, ends GPIO pulses on time, retries backed-up sinks, and every 10 s logs the
    /// frame→write latency. On the way out (stop, SIGINT, SIGTERM) every bound GPIO line goes inactive.
    private func outputLoop() {
        var nextReport = clock.now.advanced(byMicroseconds: 10_000_000)
        var reportedEvents = 0
        while isRunning {
            outputHold.acquire()  // a recognizing thread holds it only for one drain
            output.drain(clock: clock)
            output.flush()
            metrics.eventsWritten.store(output.eventsWritten, ordering: .relaxed)
            let now = clock.now
            var summary: String? = nil
            if now >= nextReport {
                nextReport = now.advanced(byMicroseconds: 10_000_000)
                if output.eventsWritten > reportedEvents {
                    reportedEvents = output.eventsWritten
                    let lat = output.latency
                    summary =
                        "outputs: \(output.eventsWritten) events, frame→write latency mean "
                        + "\(Int(lat.mean)) µs max \(lat.maximum) µs; \(output.channelSummary)"
                }
            }
            let wait = min(output.nextWakeup(from: now) ?? outputIdleMicroseconds, outputIdleMicroseconds)
            outputHold.release()
            if let summary { logger.info("\(summary)") }
            outputWake.wait(microseconds: max(1, wait))
        }
        outputHold.acquire()
        output.releaseLines()
        outputHold.release()
    }

    /// The recognizing thread's writes (`writesOnRecognizerThread`): every queued event's GPIO
    /// levels and sink writes, now. Never waits: if the output thread holds the stage, it is woken
    /// to write them instead. Wakes the output thread when a pulse must end or a sink backed up.
    private func writeEventsNow() {
        guard outputHold.tryAcquire() else {
            outputWake.signal()
            return
        }
        output.drain(clock: clock)
        metrics.eventsWritten.store(output.eventsWritten, ordering: .relaxed)
        let upkeep = output.nextWakeup(from: clock.now) != nil
        outputHold.release()
        if upkeep { outputWake.signal() }
    }

}
