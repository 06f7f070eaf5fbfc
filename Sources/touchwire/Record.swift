import ArgumentParser
import Dispatch
import FoundationEssentials
import Logging
import Synchronization
import TouchComposition
import TouchCore
import TouchLinux
import TouchService
import TouchTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record the board's controller to a touch trace (formats.md §1), for replay and tests.",
        discussion: """
            Reads the controller exactly as `run` does (same driver, orientation, calibration and \
            protections) and writes one line per change of the contacts, until SIGINT/SIGTERM or \
            --seconds. Replay the result with `touchwire replay FILE --board …`.
            """)

    @Option(name: .long, help: "The board file (TOML).")
    var board: String

    @Option(
        name: [.short, .long],
        help: "The trace file to write (replaced when the recording ends; a device or FIFO is written in place).")
    var output: String

    @Option(name: .long, help: "Stop after this many seconds (default: until SIGINT/SIGTERM).")
    var seconds: Double?

    func validate() throws {
        // Finite and at most 10⁹ s (31 years): the deadline is computed in whole microseconds.
        if let seconds, !(seconds > 0 && seconds <= 1e9) {
            throw ValidationError("--seconds must be more than 0 and at most 1000000000, got \(seconds)")
        }
    }

    func run() throws {
        let description = try loadBoard(board)
        let logger = makeLogger(verbose: false)
        let clock = SystemClock.shared
        let start = clock.now
        let recorder: Recorder
        do throws(ServiceError) {
            recorder = try Recorder(
                board: description, path: output, inputs: [board], logger: logger, start: start,
                clock: clock)
        } catch {
            throw fail("\(error)")
        }
        let stop = Atomic<Bool>(false)
        let sources = TerminatingSignals.install { _ in stop.store(true, ordering: .relaxed) }
        defer { for source in sources { source.cancel() } }
        let deadline = seconds.map { start.advanced(byMicroseconds: Int64($0 * 1e6)) }
        recorder.driver.start(at: start)
        logger.info("recording \(description.name) to \(output); Ctrl-C stops")
        do throws(TraceError) {
            while !stop.load(ordering: .relaxed) {
                let now = clock.now
                if let deadline, now >= deadline { break }
                if let input = recorder.driver.interruptInput {
                    let wait = recorder.driver.pollInterval(at: now)
                    if let edge = try? input.waitForEdge(timeoutMicroseconds: wait) {
                        try recorder.step(at: edge.timestamp, edge: true)
                        continue
                    }
                    try recorder.step(at: clock.now)
                } else {
                    try recorder.step(at: now)
                    usleep(UInt32(max(1000, recorder.driver.pollInterval(at: now))))
                }
            }
            try recorder.finish(at: clock.now)
        } catch {
            throw fail("\(error)")
        }
        logger.info("wrote \(recorder.framesWritten) frames to \(output)")
    }
}
