import BoardConfig
import Dispatch
import FoundationEssentials
import Gestures
import Logging
import Synchronization
import SystemPackage
import TouchCore
import TouchLinux
import TouchOutputs
import TouchRing
import TouchService
import TouchSimulation
import TouchTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What `touchwire bench` runs: the whole pipeline on the simulated controller, once idle and
/// once with a competing CPU load on every core.
package struct BenchOptions: Sendable, Equatable {
    /// The simulated controller's report rate, Hz (1…1000).
    package var rateHz: Int
    /// Length of each phase, s (1…25: both phases stay under a minute).
    package var seconds: Int
    /// Run the phase with competing load.
    package var withLoad: Bool = true
    /// Run the phase without competing load.
    package var idle: Bool = true
    /// Busy threads of the competing load (default: one per online CPU).
    package var loadThreads: Int? = nil
    /// Play the kiosk workload (every recognizer kind) instead of the board's own script.
    package var kioskWorkload: Bool = true

    package init(rateHz: Int = 200, seconds: Int = 10) {
        self.rateHz = rateHz
        self.seconds = seconds
    }

    /// The first problem with these options, naming the option, or nil.
    package func problem() -> String? {
        if !(1...1000).contains(rateHz) { return "--rate must be 1…1000 Hz, got \(rateHz)" }
        if !(1...25).contains(seconds) {
            return "--seconds must be 1…25 (two phases stay under a minute), got \(seconds)"
        }
        if let n = loadThreads, !(1...64).contains(n) { return "--load-threads must be 1…64, got \(n)" }
        if !withLoad && !idle { return "--no-idle and --no-load together leave nothing to run" }
        return nil
    }

    /// The board as the bench runs it: the simulated controller at `rateHz`, looping, with the
    /// kiosk workload when asked. Throws when the board has no simulated controller.
    package func benchBoard(_ board: BoardDescription, workloadTrace: String?) throws(ServiceError) -> BoardDescription
    {
        guard let c = board.controller, c.bus == .simulated, var sim = board.simulation else {
            throw .notSimulated(board: board.name, command: "bench")
        }
        var b = board
        sim.reportRateHz = rateHz
        sim.loop = true
        if let workloadTrace { sim.script = .trace(workloadTrace) }
        b.simulation = sim
        // Only the stdout channel (sent to /dev/null by the bench) and the board's GPIO bindings run.
        b.outputs = [.stdout]
        return b
    }
}

/// One phase's figures.
package struct BenchPhaseResult: Sendable, Equatable {
    package var name: String
    package var seconds: Double
    package var framesRead: Int
    package var framesQueued: Int
    package var eventsWritten: Int
    package var readToRecognized: LatencySummary
    package var readToWrite: LatencySummary
    /// CPU time of the driver, recognizer and output threads, µs.
    package var pipelineCPUMicroseconds: Int64
    package var residentBytes: Int
    package var peakResidentBytes: Int
    package var frameDrops: Int
    package var eventDrops: Int
    package var lostSamples: Int
    /// "driver SCHED_FIFO 60", …
    package var threads: [String]
    package var warnings: [String]

    package var framesPerSecond: Double { seconds > 0 ? Double(framesRead) / seconds : 0 }
    /// Pipeline CPU per controller read, µs.
    package var cpuPerFrameMicroseconds: Double {
        framesRead > 0 ? Double(pipelineCPUMicroseconds) / Double(framesRead) : 0
    }
}

/// Runs `touchwire bench` and renders its report.
package enum PipelineBench {
    /// Runs the phases. `progress` receives one line as each phase starts.
    package static func run(
        board original: BoardDescription, options: BenchOptions, realtime: RealTimeDescription,
        logger: Logger, progress: (String) -> Void = { _ in }
    ) throws(ServiceError) -> [BenchPhaseResult] {
        var trace: String? = nil
        if options.kioskWorkload {
            let path = FileManager.default.temporaryDirectory.appending(path: "touchwire-bench-kiosk-\(getpid()).jsonl")
                .path
            do throws(TraceError) {
                try TraceWriter.write(
                    Trace(header: TraceHeader(panelWidth: 800, panelHeight: 480), frames: KioskScript.frames()),
                    toPath: path)
            } catch {
                throw .traceFile(error: error)
            }
            trace = path
        }
        defer { if let trace { try? FileManager.default.removeItem(atPath: trace) } }
        let board = try options.benchBoard(original, workloadTrace: trace)
        var results: [BenchPhaseResult] = []
        if options.idle {
            progress("bench: phase 1, no competing load, \(options.seconds) s at \(options.rateHz) Hz")
            results.append(try phase("idle", board, options, realtime, logger, load: 0))
        }
        if options.withLoad {
            let n = options.loadThreads ?? RealTime.onlineCPUCount
            progress("bench: phase 2, \(n) busy thread(s) competing on every core, \(options.seconds) s")
            results.append(try phase("loaded", board, options, realtime, logger, load: n))
        }
        return results
    }

    private static func phase(
        _ name: String, _ board: BoardDescription, _ options: BenchOptions, _ realtime: RealTimeDescription,
        _ logger: Logger, load: Int
    ) throws(ServiceError) -> BenchPhaseResult {
        let null: FileDescriptor
        do {
            null = try FileDescriptor.open("/dev/null", .writeOnly, options: .closeOnExec)
        } catch {
            throw .file(path: "/dev/null", purpose: "bench discards the events there", reason: "\(error)")
        }
        defer { try? null.close() }
        let clock: any TouchClock = SystemClock.shared
        let service = try Service(
            board: board, logger: logger, settings: ServiceSettings(realtime: realtime, statusFile: nil),
            // Non-blocking, as `run` opens stdout: the recognizer thread then writes the events itself.
            stdout: StandardOutputSink(descriptor: null, mode: .nonBlocking), clock: clock)
        let burner = CPUBurner(threads: load, limitSeconds: Double(options.seconds) + 10, clock: clock)
        burner.start()
        let started = clock.now
        let deadline = DispatchTime.now() + .seconds(options.seconds)
        DispatchQueue.global().asyncAfter(deadline: deadline) { service.stop() }
        service.run()
        let elapsed = Double(clock.now.microseconds(since: started)) / 1_000_000
        burner.stop()
        let m = service.metrics
        m.collect()
        let snap = service.latestSnapshot
        let memory = RealTime.residentMemory()
        return BenchPhaseResult(
            name: name, seconds: elapsed, framesRead: service.driver.framesRead,
            framesQueued: service.driver.framesQueued, eventsWritten: service.output.eventsWritten,
            readToRecognized: m.readToRecognizedSummary, readToWrite: m.readToWriteSummary,
            pipelineCPUMicroseconds: m.pipelineCPUMicroseconds, residentBytes: memory.current,
            peakResidentBytes: memory.peak, frameDrops: service.frames.droppedFrames,
            eventDrops: service.events.droppedEvents, lostSamples: m.lostSamples, threads: snap?.threads ?? [],
            warnings: snap?.warnings ?? [])
    }

    /// The report: one block per phase, then the verdict against the 400 kHz FT6x36 read time.
    package static func render(_ results: [BenchPhaseResult], options: BenchOptions, board: String) -> String {
        var s = "touchwire bench: board \(board), simulated controller at \(options.rateHz) Hz, "
        s += options.kioskWorkload ? "kiosk workload (every recognizer kind)\n" : "the board's script\n"
        for r in results {
            s += "\n== \(r.name == "idle" ? "no competing load" : "competing load on every core") ==\n"
            s += MetricsSnapshot.latencyTable([
                ("read→recognized", r.readToRecognized), ("read→write", r.readToWrite),
            ])
            s += "frames      \(r.framesRead) read in \(fmt(r.seconds, 1)) s (\(fmt(r.framesPerSecond, 1))/s), "
            s += "\(r.framesQueued) queued, \(r.eventsWritten) events written\n"
            s +=
                "cpu         \(fmt(r.cpuPerFrameMicroseconds, 1)) µs per "
                + "frame (driver + recognizer + output threads, getrusage)\n"
            s +=
                "memory      rss \(fmt(Double(r.residentBytes) / 1_048_576, 1)) MiB "
                + "(peak \(fmt(Double(r.peakResidentBytes) / 1_048_576, 1)) MiB)\n"
            s +=
                "losses      frame ring drops \(r.frameDrops), event "
                + "drops \(r.eventDrops), samples lost \(r.lostSamples)\n"
            s += "threads     \(r.threads.joined(separator: ", "))\n"
            for w in r.warnings { s += "warning     \(w)\n" }
        }
        if let loaded = results.first(where: { $0.name == "loaded" }) {
            let p99 = loaded.readToWrite.p99
            s +=
                "\nread→write p99 under load: \(p99) µs; reading "
                + "one FT6x36 report (15 bytes, 18 bytes on the wire) "
            s += "takes ≈ 410 µs at 400 kHz: "
            s += p99 < 410 ? "\(p99 < 205 ? "well " : "")under it\n" : "NOT under it\n"
        }
        return s
    }

    /// `--engine-only`: the engine alone (the kiosk engine of `board`, the kiosk workload `passes`
    /// times through the recognizer stage and the event ring, no threads, no output). For
    /// instruction counts (`tools/callgrind-engine`). Returns (frames, events).
    package static func engineOnly(board: BoardDescription, passes: Int) throws(ServiceError) -> (Int, Int) {
        let engine = try EngineBuilder.build(board)
        let events = EventQueueSink(capacity: 4096, wake: Wakeup(), recognizerSlots: engine.recognizers.count)
        engine.sink = events
        let frames = FrameQueue(capacity: 1024)
        let stage = RecognizerStage(frames: frames, engine: engine)
        var script = KioskScript.frames()
        var framesDone = 0
        var eventsDone = 0
        for pass in 0..<max(0, passes) {
            let offset = Int64(pass) * KioskScript.duration
            // The pass's frames are the script's, shifted in place by one pass each time (not
            // copied: the count is of the engine's work, not of the harness's copies).
            if pass > 0 {
                for i in script.indices {
                    script[i].timestamp = script[i].timestamp.advanced(byMicroseconds: KioskScript.duration)
                }
            }
            script.withUnsafeBufferPointer { buffer in
                for i in buffer.indices {
                    frames.offer(frameAt: buffer.baseAddress! + i)
                    framesDone += stage.step(now: buffer[i].timestamp)
                    while events.ring.first() != nil {
                        events.ring.removeFirst()
                        eventsDone += 1
                    }
                }
            }
            stage.step(now: Instant(microseconds: offset + KioskScript.duration))
            while events.ring.first() != nil {
                events.ring.removeFirst()
                eventsDone += 1
            }
        }
        return (framesDone, eventsDone)
    }
}

/// The competing load: `threads` busy threads at normal priority, stopped by `stop()` or, at
/// the latest, after `limitSeconds` (so a bench that dies never leaves a core spinning).
final class CPUBurner: @unchecked Sendable {
    // @unchecked Sendable: only atomics and the immutable limits are shared.
    private let threads: Int
    private let limitMicroseconds: Int64
    private let stopFlag = Atomic<Bool>(false)
    private let running = Atomic<Int>(0)
    private let sink = Atomic<UInt64>(0)
    private let clock: any TouchClock

    init(threads: Int, limitSeconds: Double, clock: any TouchClock) {
        self.threads = threads
        self.clock = clock
        limitMicroseconds = Int64(limitSeconds * 1_000_000)
    }

    func start() {
        let end = clock.now.advanced(byMicroseconds: limitMicroseconds)
        for i in 0..<threads {
            running.wrappingAdd(1, ordering: .relaxed)
            try? NamedThread.start(name: "bench-load-\(i)") { [self] in
                var x: UInt64 = 0x9E37_79B9_7F4A_7C15
                while !stopFlag.load(ordering: .relaxed) {
                    for _ in 0..<20_000 { x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
                    if clock.now >= end { break }
                }
                sink.store(x, ordering: .relaxed)
                running.wrappingSubtract(1, ordering: .relaxed)
            }
        }
    }

    /// Stops the busy threads and waits (at most a second) until they have.
    func stop() {
        stopFlag.store(true, ordering: .relaxed)
        var waited = 0
        while running.load(ordering: .relaxed) > 0 && waited < 1000 {
            usleep(1000)
            waited += 1
        }
    }
}
