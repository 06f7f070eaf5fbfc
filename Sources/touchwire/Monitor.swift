import ArgumentParser
import BoardConfig
import Dispatch
import FoundationEssentials
import Gestures
import Logging
import Synchronization
import TouchComposition
import TouchCore
import TouchLinux
import TouchOutputs
import TouchPlot
import TouchRing
import TouchService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the live panel in the terminal: touches, regions, the last gestures, frames/s, latency.",
        discussion: """
            For bring-up over SSH. When the service is running with a socket output, the monitor \
            reads its event stream (--socket, default \(Monitor.defaultSocket)); otherwise it opens the \
            board's controller itself and runs the recognizers (no outputs are driven). Stop with Ctrl-C.
            """)

    static let defaultSocket = "/run/touchwire/events.sock"

    @Option(name: .long, help: "The board file (TOML).")
    var board: String

    @Option(name: .long, help: "The service's event socket (default \(Monitor.defaultSocket) when it exists).")
    var socket: String?

    @Option(name: .long, help: "Screen refresh period in ms.")
    var refreshMs: Int = 250

    @Option(name: .long, help: "Stop after this many controller reads (or socket events).")
    var frames: Int?

    @Flag(
        name: .long, help: "Simulated boards only: a virtual clock that advances one poll period per read, no sleeping."
    )
    var virtualClock = false

    @Option(name: .long, help: "Width of the panel drawing in characters.")
    var columns: Int = 64

    func validate() throws {
        guard (20...10_000).contains(refreshMs) else {
            throw ValidationError("--refresh-ms must be 20…10000, got \(refreshMs)")
        }
        if let frames, frames < 1 { throw ValidationError("--frames must be at least 1, got \(frames)") }
        guard (16...400).contains(columns) else { throw ValidationError("--columns must be 16…400, got \(columns)") }
    }

    func run() throws {
        let description = try loadBoard(board)
        let panel = TerminalPanel(
            panelWidth: Double(description.panel.width), panelHeight: Double(description.panel.height),
            columns: columns,
            outlines: description.regions.map { .init(name: $0.name, frame: $0.frame, isControl: $0.control) })
        let stop = Atomic<Bool>(false)
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        var sources: [any DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { stop.store(true, ordering: .relaxed) }
            source.resume()
            sources.append(source)
        }
        defer { for source in sources { source.cancel() } }

        if !virtualClock {
            let path = socket ?? Monitor.defaultSocket
            var problem: String? = nil
            do throws(UnixConnectionError) {
                let connection = try UnixStreamConnection(connectingTo: path)
                problem = try watchSocket(connection, board: description, panel: panel, stop: stop)
                if problem == nil { return }
            } catch {
                if socket != nil { throw fail("monitor: \(error)") }
                if case .notListening = error {} else { throw fail("monitor: \(error)") }
            }
            if let problem { throw fail("monitor: \(problem)") }
        } else if socket != nil {
            throw fail("monitor: --virtual-clock runs the board itself; it cannot be combined with --socket")
        }
        try runBoard(description, panel: panel, stop: stop)
    }

    func show(_ screen: MonitorScreen) {
        writeStandardOutput(screen.render())
    }

    /// The longest line read from the service's stream (`MonitorLineReader`).
    static let maximumLineBytes = MonitorLineReader.maximumLineBytes

    /// The service's event stream: events as they arrive, redrawn every `refreshMs`. Returns why
    /// it stopped reading when the stream is not event lines (a line longer than `maximumLineBytes`).
    func watchSocket(
        _ connection: borrowing UnixStreamConnection, board: BoardDescription, panel: TerminalPanel,
        stop: borrowing Atomic<Bool>
    ) throws(UnixConnectionError) -> String? {
        var recent: [MonitorEvent] = []
        var reader = MonitorLineReader()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var received = 0
        var countAtRefresh = 0
        var lastLatency: Int64?
        // The real clock, named once: the latency shown is the event's age on it.
        let clock: any TouchClock = SystemClock.shared
        var refreshAt = clock.now
        var closed = false
        while !stop.load(ordering: .relaxed) && !closed {
            var failure: UnixConnectionError?
            let n = buffer.withUnsafeMutableBytes { raw -> Int? in
                do throws(UnixConnectionError) {
                    return try connection.read(into: raw, timeoutMilliseconds: refreshMs / 2)
                } catch {
                    failure = error
                    return 0
                }
            }
            if let failure { throw failure }
            let arrived = n ?? 0
            if n == nil { closed = true }
            // Each byte is searched for a newline once, and a line is bounded: an endless line
            // used to be buffered and rescanned, quadratic (MonitorLineReader).
            let bounded = reader.feed(buffer[..<arrived]) { line in
                guard let event = MonitorEvent.parse(line) else { return true }
                received += 1
                lastLatency = Int64.saturatingDifference(clock.now.microseconds, event.time)
                MonitorEvent.append(event, to: &recent)
                if let frames, received >= frames {
                    closed = true
                    return false
                }
                return true
            }
            if !bounded {
                return "\(connection.path): a line of more than \(Monitor.maximumLineBytes) bytes;"
                    + " not touchwire's event stream (formats.md §2)"
            }
            let now = clock.now
            let elapsed = now.microseconds(since: refreshAt)
            if elapsed >= Int64(refreshMs) * 1000 || closed {
                let rate = Double(received - countAtRefresh) / (Double(max(elapsed, 1)) / 1e6)
                countAtRefresh = received
                refreshAt = now
                let latency =
                    lastLatency.map { "frame read → here \(MonitorScreen.milliseconds($0)) ms" } ?? "no event yet"
                show(
                    MonitorScreen(
                        title: "touchwire monitor — \(board.name), service stream \(connection.path)",
                        panel: panel.render(touches: [], marks: recent.map { ($0.location, "*") }),
                        figures: "events/s \(MonitorScreen.rate(rate))   \(latency)",
                        gestures: recent.map(\.summary)))
            }
        }
        if closed && frames == nil { _ = fail("monitor: \(connection.path): the service closed the stream") }
        return nil
    }

    /// The board itself, assembled as `run` assembles it (`Service(board:…)`, observing only: the
    /// board's outputs, bindings and devices are not opened) and stepped here on the real or a
    /// virtual clock; its events come back through a JSON channel, as the service's stream does.
    func runBoard(_ description: BoardDescription, panel: TerminalPanel, stop: borrowing Atomic<Bool>) throws {
        if virtualClock && description.simulation == nil {
            throw fail("monitor: --virtual-clock needs a simulated board (bus = \"sim\")")
        }
        // The one clock: a virtual one moves only when this loop (or a reset's wait) moves it.
        let virtual = virtualClock ? ManualClock() : nil
        let clock: any TouchClock = virtual ?? SystemClock.shared
        let notes = MonitorNotes()
        let lines = MonitorLines()
        let service: Service
        do throws(ServiceError) {
            let engine = try EngineBuilder.build(description)
            let channel = OutputChannel(
                name: "monitor", encoding: .json(EventJSONEncoder(names: EngineBuilder.names(of: engine))),
                sink: lines)
            service = try Service(
                board: description, logger: notes.logger, settings: ServiceSettings(observeOnly: true),
                extraOutputs: [channel], clock: clock)
        } catch {
            throw fail("\(error)")
        }
        defer { service.close() }
        let start = clock.now
        var now = start
        // On the virtual clock: one read per simulated report.
        let period = Int64(1_000_000 / max(1, description.simulation?.reportRateHz ?? 100))
        var recent: [MonitorEvent] = []
        var touches: [Contact] = []
        var reads = 0
        var readsAtRefresh = 0
        var latencyLast: Int64?
        var latencyMax: Int64 = 0
        var refreshAt = start
        service.driver.start(at: start)
        // Live, the board is read exactly as `run` reads it (INT edges or the adaptive poll rate).
        var loop = DriverLoop(driver: service.driver, clock: clock)
        var wait: Int64? = nil
        while !stop.load(ordering: .relaxed) {
            if let frames, reads >= frames { break }
            var changed = false
            if virtual != nil {
                service.driver.poll(at: now)
            } else {
                let turn = loop.turn()
                if let error = turn.lineError { notes.append("INT line: \(error)") }
                now = turn.readAt
                wait = turn.waitMicroseconds
            }
            reads += 1
            let framesBefore = service.recognizer.framesProcessed
            service.recognizer.step(now: now)
            if service.recognizer.framesProcessed != framesBefore {
                let frame = service.driver.lastFrame
                touches = frame.isCancel ? [] : frame.contacts
                changed = true
            }
            service.output.drain(clock: clock)
            let events = lines.take()
            if !events.isEmpty && virtual == nil {
                let latency = clock.now.microseconds(since: now)
                latencyLast = latency
                latencyMax = max(latencyMax, latency)
            }
            for line in events {
                if let event = MonitorEvent.parse(line[...]) { MonitorEvent.append(event, to: &recent) }
            }
            let elapsed = now.microseconds(since: refreshAt)
            if elapsed >= Int64(refreshMs) * 1000 || (virtual != nil && changed) || reads == frames {
                let rate = elapsed > 0 ? Double(reads - readsAtRefresh) / (Double(elapsed) / 1e6) : 0
                if elapsed > 0 {
                    readsAtRefresh = reads
                    refreshAt = now
                }
                let latency =
                    virtual != nil
                    ? "read → write: n/a (virtual clock)"
                    : "read → write \(latencyLast.map(MonitorScreen.milliseconds) ?? "–") ms "
                        + "(max \(MonitorScreen.milliseconds(latencyMax)) ms)"
                let clockName = virtual != nil ? "virtual t \(SVGWriter.seconds(now.microseconds)) s" : "live"
                show(
                    MonitorScreen(
                        title: "touchwire monitor — \(description.name), controller read here (\(clockName))",
                        panel: panel.render(touches: touches, marks: recent.map { ($0.location, "*") }),
                        figures: "frames/s \(MonitorScreen.rate(rate))   \(latency)"
                            + (notes.last.map { "\r\n" + $0 } ?? ""),
                        gestures: recent.map(\.summary)))
            }
            if let virtual {
                virtual.advance(byMicroseconds: period)
                now = virtual.now
            } else {
                if let wait, wait > 0 { clock.sleep(microseconds: wait) }
                now = clock.now
            }
        }
    }
}

/// The monitor's event channel: the JSON lines the output stage wrote, kept until `take()`.
final class MonitorLines: LineSink {
    private var lines: [String] = []
    func write(_ line: UnsafeRawBufferPointer) {
        var text = String(decoding: line, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        lines.append(text)
    }
    /// The lines written since the last call.
    func take() -> [String] {
        defer { lines.removeAll(keepingCapacity: true) }
        return lines
    }
}

/// The pipeline's log lines (the driver's notices: a controller that stopped answering, a
/// reset), shown under the monitor's figures instead of on stderr.
final class MonitorNotes: @unchecked Sendable {
    // @unchecked Sendable: only the monitor's thread logs through it (the service's threads never run).
    private(set) var all: [String] = []
    var last: String? { all.last }
    func append(_ note: String) { all.append(note) }

    var logger: Logger { ForwardingLogger.make(label: "touchwire-monitor") { [self] in append($0) } }
}
