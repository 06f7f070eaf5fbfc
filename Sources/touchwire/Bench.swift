import ArgumentParser
import BoardConfig
import FoundationEssentials
import Logging
import TouchComposition
import TouchService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The real-time options `run` and `bench` share; each overrides the board's `[realtime]`.
struct RealTimeFlags: ParsableArguments {
    @Option(name: .long, help: "Scheduling of the pipeline threads: other, fifo or rr (overrides [realtime] policy).")
    var realtime: String?

    @Option(name: .long, help: "SCHED_FIFO/RR priority of the driver thread, 1…99.")
    var driverPriority: Int?

    @Option(name: .long, help: "SCHED_FIFO/RR priority of the recognizer thread, 1…99.")
    var recognizerPriority: Int?

    @Option(name: .long, help: "SCHED_FIFO/RR priority of the output thread, 1…99 (0: normal scheduling).")
    var outputPriority: Int?

    @Flag(name: .long, inversion: .prefixedNo, help: "Lock all memory in RAM (mlockall).")
    var lockMemory: Bool?

    @Option(name: .long, help: "Pin the pipeline threads to these CPUs, e.g. 1 or 2,3 (any: no pinning).")
    var cpus: String?

    var overrides: RealTimeOverrides {
        RealTimeOverrides(
            policy: realtime, driverPriority: driverPriority, recognizerPriority: recognizerPriority,
            outputPriority: outputPriority, lockMemory: lockMemory, cpus: cpus)
    }

    /// The board's `[realtime]` with these flags applied; a bad flag exits with status 2.
    func resolve(_ board: BoardDescription) throws(ExitCode) -> RealTimeDescription {
        switch overrides.applied(to: board.realtime) {
        case .success(let d): return d
        case .failure(let e):
            _ = fail(e.description)
            throw ExitCode(2)
        }
    }
}

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the whole pipeline on the simulated controller: latency, frames/s, CPU per frame, RSS.",
        discussion: """
            Runs the board's simulated controller at --rate Hz for --seconds, once with no competing load \
            and once with a busy thread on every core (started and stopped by the bench), with events \
            written to /dev/null. Prints p50/p99/p99.9/max of read → recognized and read → write issued.
            """)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The board file (TOML) with a simulated controller (default: kiosk-sim.toml of boards/ here, of the "
                + "repository the binary was built in, or of the package's examples).",
            valueName: "board"))
    var board: String?

    /// Where the default board is looked for, in order: `boards/kiosk-sim.toml` in the current
    /// directory, in the repository whose `.build*/release/` holds this binary (`tools/touchwire`
    /// from anywhere), and in the Debian package's examples.
    static func defaultBoardCandidates(executable: String?) -> [String] {
        var candidates = ["boards/kiosk-sim.toml"]
        if let executable, executable.hasPrefix("/") {
            // REPO/.build-tool/release/touchwire (or .build/x86_64-unknown-linux-gnu/release/touchwire).
            var parts = executable.split(separator: "/").dropLast()
            while let last = parts.last, !last.hasPrefix(".build") { parts = parts.dropLast() }
            if !parts.isEmpty {
                candidates.append("/" + parts.dropLast().joined(separator: "/") + "/boards/kiosk-sim.toml")
            }
        }
        candidates.append("/usr/share/doc/touchwire/examples/kiosk-sim.toml")
        return candidates
    }

    /// `--board`, else the first default candidate that exists.
    func resolvedBoard() throws(ExitCode) -> String {
        if let board { return board }
        let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let candidates = Bench.defaultBoardCandidates(executable: executable)
        if let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) { return found }
        throw fail(
            "no default board (looked for \(candidates.joined(separator: ", "))); name one with --board FILE", code: 2)
    }

    @Option(name: .long, help: "Report rate of the simulated controller, Hz (1…1000).")
    var rate = 200

    @Option(name: .long, help: "Seconds per phase (1…25).")
    var seconds = 10

    @Flag(name: .long, help: "Skip the phase without competing load.")
    var noIdle = false

    @Flag(name: .long, help: "Skip the phase with competing load.")
    var noLoad = false

    @Option(name: .long, help: "Busy threads of the competing load (default: one per CPU).")
    var loadThreads: Int?

    @Flag(name: .long, help: "Play the board's own script instead of the kiosk workload.")
    var boardScript = false

    @Flag(name: .long, help: "No threads: run the engine alone on the kiosk workload --passes times (for callgrind).")
    var engineOnly = false

    @Option(name: .long, help: "With --engine-only: passes over the kiosk workload.")
    var passes = 10

    @Flag(name: .long, help: "Log the service's messages on stderr.")
    var verbose = false

    @OptionGroup var realtimeFlags: RealTimeFlags

    var options: BenchOptions {
        var o = BenchOptions(rateHz: rate, seconds: seconds)
        o.idle = !noIdle
        o.withLoad = !noLoad
        o.loadThreads = loadThreads
        o.kioskWorkload = !boardScript
        return o
    }

    func validate() throws {
        if engineOnly {
            guard (0...100_000).contains(passes) else {
                throw ValidationError("--passes must be 0…100000, got \(passes)")
            }
            return
        }
        if let problem = options.problem() { throw ValidationError(problem) }
    }

    func run() throws {
        let description = try loadBoard(resolvedBoard())
        if engineOnly {
            do throws(ServiceError) {
                let (frames, events) = try PipelineBench.engineOnly(board: description, passes: passes)
                print("engine only: \(passes) passes, \(frames) frames, \(events) events")
            } catch {
                throw fail("\(error)")
            }
            return
        }
        let realtime = try realtimeFlags.resolve(description)
        var logger = Logger(label: "touchwire") { label in
            var h = StreamLogHandler.standardError(label: label)
            h.logLevel = .warning
            return h
        }
        if verbose { logger.logLevel = .info }
        let results: [BenchPhaseResult]
        do throws(ServiceError) {
            results = try PipelineBench.run(
                board: description, options: options, realtime: realtime, logger: logger,
                progress: { writeStandardError(($0 + "\n")) })
        } catch {
            throw fail("\(error)")
        }
        print(PipelineBench.render(results, options: options, board: description.name), terminator: "")
    }
}

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the running service's metrics: latency percentiles, frames/s, ring fill, drops.",
        discussion: """
            The service writes a snapshot to its status file (--status-file of `touchwire run`) about \
            once a second; this reads it. Sending SIGUSR1 to the service logs the same block on its stderr.
            """)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The status file the service writes (default: touchwire.status in the first of $RUNTIME_DIRECTORY, "
                + "/run/touchwire, $XDG_RUNTIME_DIR and /tmp/touchwire-UID that holds one).",
            valueName: "file"))
    var file: String?

    @Flag(name: .long, help: "Print the raw JSON snapshot.")
    var json = false

    @Flag(
        name: .long, help: "Print the snapshot in the Prometheus text format (as [metrics] prometheus_file holds it).")
    var prometheus = false

    func run() throws {
        let snap: MetricsSnapshot
        do throws(StatusFileError) {
            snap = try StatusFileReader.read(
                path: file ?? RuntimePaths.statusFileToRead(ProcessInfo.processInfo.environment))
        } catch {
            throw fail("\(error)")
        }
        if json {
            print(snap.json())
            return
        }
        if prometheus {
            print(PrometheusFormat.render(snap), terminator: "")
            return
        }
        let now = Date().timeIntervalSince1970
        print(snap.render(now: now), terminator: "")
        if let note = snap.staleness(now: now, alive: kill(snap.pid, 0) == 0 || errno == EPERM) {
            throw fail(note)
        }
    }
}
