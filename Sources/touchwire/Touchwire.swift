import ArgumentParser
import BoardConfig
import Dispatch
import FoundationEssentials
import Gestures
import Logging
import TouchComposition
import TouchCore
import TouchLinux
import TouchOutputs
import TouchService
import TouchTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

@main
struct Touchwire: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchwire",
        abstract: "Capacitive touch panel → UIKit-style gestures → GPIO, UART and JSON lines.",
        version: Version.text,
        subcommands: [
            Run.self, Replay.self, Record.self, Validate.self, Probe.self, Calibrate.self, Status.self, Bench.self,
            Plot.self,
            Monitor.self,
            Strokes.self,
            Display.self,
            Agent.self,
        ]
    )

    /// ArgumentParser's own `main`, but a usage error is one line starting `touchwire:`
    /// (formats.md §3), not `Error: …` followed by the usage block; help and version still go to
    /// stdout, and the exit statuses are ArgumentParser's (64 for a usage error).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }
            } else if !message.isEmpty {
                writeStandardError(usageLine(message) + "\n")
            }
            exit(withError: ExitCode(code.rawValue))
        }
    }

    /// `Error: Missing expected argument '<trace>'` + usage + `See 'touchwire replay --help' …` →
    /// `touchwire: Missing expected argument '<trace>' (see `touchwire replay --help`)`.
    static func usageLine(_ message: String) -> String {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        var first = lines.first ?? message
        if first.hasPrefix("Error: ") { first.removeFirst("Error: ".count) }
        if first.hasPrefix("touchwire: ") { first.removeFirst("touchwire: ".count) }
        var line = "touchwire: " + first
        if let hint = lines.first(where: { $0.contains("See '") && $0.contains(" --help'") }),
            let start = hint.firstRange(of: "See '"), let end = hint[start.upperBound...].firstIndex(of: "'")
        {
            line += " (see `\(hint[start.upperBound..<end])`)"
        }
        return line
    }
}

/// Errors reach the user as one line on stderr and a non-zero exit status (`formats.md` §3).
struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func fail(_ message: String, code: Int32 = 1) -> ExitCode {
    writeStandardError(("touchwire: " + message + "\n"))
    return ExitCode(code)
}

/// A warning: one line on stderr, `touchwire: warning: …`; the command goes on.
func warn(_ message: String) {
    writeStandardError("touchwire: warning: " + message + "\n")
}

/// "1 region", "3 regions".
func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

func makeLogger(verbose: Bool) -> Logger {
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = verbose ? .debug : .info
        return handler
    }
    return Logger(label: "touchwire")
}

func loadBoard(_ path: String) throws(ExitCode) -> BoardDescription {
    do throws(BoardFileError) {
        return try BoardLoader.load(path: path)
    } catch {
        for issue in error.issues { _ = fail(issue.description) }
        throw ExitCode(2)
    }
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the service: controller → ring → gesture engine → outputs, until SIGINT or SIGTERM.")

    @Option(name: .long, help: "The board file (TOML).")
    var board: String

    @Flag(name: .long, help: "Log more on stderr.")
    var verbose = false

    @Flag(name: .long, help: "Log why each recognizer failed, waited or was cancelled (costs time per frame).")
    var explain = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where to write the status snapshot that `touchwire status` reads (\"\": nowhere; default: "
                + "touchwire.status in $RUNTIME_DIRECTORY, else in the first of /run/touchwire and "
                + "$XDG_RUNTIME_DIR this user may write, else in /tmp/touchwire-UID).",
            valueName: "status-file")
    )
    var statusFile: String?

    @OptionGroup var realtimeFlags: RealTimeFlags

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Spawn no exec binding: `touchwire agent --bindings service` (touchwire-exec.service, no "
                + "privileges) and the session agent run them, fed by the board's socket output, which "
                + "must exist. The shipped unit uses it."))
    var execByAgents = false

    @Option(name: .long, help: .hidden)
    var testFault: TestFault?

    /// `touchwire.status` in the runtime directory (`RuntimePaths.statusFile`).
    static var defaultStatusFile: String { RuntimePaths.statusFile(ProcessInfo.processInfo.environment) }

    /// The status file to write: `--status-file`, else the default, whose private temporary
    /// directory is created first ("" when it cannot be, with a warning naming why).
    private func resolvedStatusFile() -> String {
        if let statusFile { return statusFile }
        let path = Run.defaultStatusFile
        let directory = RuntimePaths.privateDirectory()
        if path.hasPrefix(directory + "/") {
            do throws(OutputFileError) { try RuntimeDirectory.makePrivate(directory) } catch {
                warn("status file: \(error); `touchwire status` will not see this service")
                return ""
            }
        }
        return path
    }

    func run() throws {
        let statusPath = resolvedStatusFile()
        // A directory, socket or the board itself is refused before anything starts (the status
        // file used to be a warning, then the directory was deleted at exit).
        if !statusPath.isEmpty {
            do throws(OutputFileError) { try OutputFile.check(statusPath, inputs: [board]) } catch {
                throw fail("--status-file \(error)", code: 64)
            }
        }
        let description = try loadBoard(board)
        let realtime = try realtimeFlags.resolve(description)
        let logger = makeLogger(verbose: verbose)
        let environment = ProcessInfo.processInfo.environment
        let notify = NotifyChannel(environment: environment)
        let (statusFile, explain, testFault, flags) = (statusPath, explain, testFault, realtimeFlags)
        let execByAgents = execByAgents
        let supervisor: ServiceSupervisor
        do throws(ServiceError) {
            supervisor = try ServiceSupervisor(
                board: description, boardPath: board, logger: logger,
                watchdogMicroseconds: NotifyChannel.watchdogMicroseconds(environment),
                notify: { notify.send($0) },
                make: { b, reloads throws(ServiceError) in
                    let settings = ServiceSettings(
                        realtime: b == description ? realtime : ((try? flags.resolve(b)) ?? b.realtime),
                        statusFile: statusFile.isEmpty ? nil : statusFile, reloads: reloads,
                        execByAgents: execByAgents)
                    let service = try Service(board: b, logger: logger, settings: settings)
                    if explain { service.engine.diagnostics = { d in logger.info("why: \(d)") } }
                    if testFault == .hangRecognizer { service.health.injectRecognizerHang() }
                    return service
                })
        } catch {
            throw fail("\(error)")
        }
        signal(SIGHUP, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        signal(SIGUSR1, SIG_IGN)
        var sources: [any DispatchSourceSignal] = []
        let usr1 = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: .global())
        usr1.setEventHandler {
            let block = supervisor.current.latestSnapshot?.render() ?? "touchwire status: no snapshot yet\n"
            writeStandardError(block)
        }
        usr1.resume()
        sources.append(usr1)
        // Every terminating signal (TerminatingSignals) stops the service the way SIGTERM does;
        // SIGHUP is the reload below.
        sources += TerminatingSignals.install(except: [SIGHUP]) { name in
            logger.info("signal \(name): stopping")
            notify.send("STOPPING=1")
            supervisor.stop()
        }
        // SIGHUP (systemctl reload): re-read the board; one with errors is refused (Reload.swift).
        let hup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        hup.setEventHandler { supervisor.reload() }
        hup.resume()
        sources.append(hup)
        let ok = supervisor.run()
        for source in sources { source.cancel() }
        supervisor.current.removeStatusFile()
        if !ok { throw ExitCode(1) }
    }
}

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Feed a touch trace through the gesture engine on a virtual clock; print events as JSON lines.")

    @Argument(help: "The trace file (JSON lines, formats.md §1).")
    var trace: String

    @Option(name: .long, help: "The board file whose regions and recognizers to use.")
    var board: String

    @Flag(name: .long, help: "Also print each region's touch deliveries (S22–S27).")
    var delivery = false

    @Flag(name: .long, help: "Explain on stderr why each recognizer failed, waited or was cancelled.")
    var explain = false

    @Option(
        name: .long,
        help: "Write the touches the UI would receive under [passthrough] (S22–S27) to this file, as a trace.")
    var passthroughTrace: String?

    func run() throws {
        let description = try loadBoard(board)
        let traceSize: TraceHeader
        do throws(TraceError) {
            traceSize = try TraceFileReader(path: trace).header
        } catch {
            throw fail("\(error)")
        }
        let boardSize = description.panel
        if traceSize.panelWidth != boardSize.width || traceSize.panelHeight != boardSize.height {
            // Regions and thresholds would land in the wrong places: refuse rather than print nothing.
            throw fail(
                "\(trace): the trace's panel is \(traceSize.panelWidth)×\(traceSize.panelHeight) px but \(board)'s"
                    + " [panel] is \(boardSize.width)×\(boardSize.height) px;"
                    + " replay it with a board of the trace's size",
                code: 2)
        }
        let engine: GestureEngine
        do throws(ServiceError) {
            engine = try EngineBuilder.build(description)
        } catch {
            throw fail("\(error)")
        }
        if explain {
            engine.diagnostics = { d in writeStandardError("\(d)\n") }
        }
        // Streamed: the trace is checked whole first (a bad trace prints its error and no
        // events), then read again frame by frame with the events encoded into blocks of lines,
        // one write(2) per block (`Replay.defaultBlockSize`).
        let output = StandardOutputSink()
        guard let passthroughTrace else {
            do throws(TraceError) {
                try TouchComposition.Replay.run(path: trace, engine: engine, delivery: delivery, output: output)
            } catch {
                throw fail("\(error)")
            }
            return
        }
        // What the UI would receive is streamed to its own trace as it happens (no whole-trace
        // buffer), through `OutputFile`: a new file renamed over the path when the replay succeeds
        // (a replay that fails leaves the path as it was), a device or FIFO written in place and
        // never removed, and never the trace or board being read.
        let tracker = PassthroughTracker(board: description, engine: engine)
        let file: OutputFile
        do throws(OutputFileError) {
            file = try OutputFile(path: passthroughTrace, inputs: [trace, board])
        } catch {
            throw fail("--passthrough-trace \(error)")
        }
        let writer = TraceFileWriter(
            path: passthroughTrace,
            header: TraceHeader(
                panelWidth: description.panel.width, panelHeight: description.panel.height,
                source: "touchwire passthrough"),
            output: file.traceOutput)
        var writeError: TraceError? = nil
        tracker.onFrame = { frame in
            guard writeError == nil else { return }
            do throws(TraceError) { try writer.append(frame) } catch { writeError = error }
        }
        do throws(TraceError) {
            try TouchComposition.Replay.run(
                path: trace, engine: engine, delivery: delivery, output: output, passthrough: tracker)
            if let writeError { throw writeError }
            try writer.close()
            try file.commitTrace()
        } catch {
            file.discard()
            throw fail("\(error)")
        }
    }
}

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check board files; print every problem with file and key path.",
        discussion: """
            Refuses everything `run` would refuse about the board, all in one pass: keys and values, \
            the recognizers, a simulated controller's script, and on this machine the exec programs, \
            the [exec] user and the socket's group (--portable skips these, for a board meant for \
            another machine).
            """)

    @Argument(help: "Board files to check.")
    var files: [String]

    @Flag(
        help: ArgumentHelp(
            "Print, one per line, the touchwire-web arguments of the board's websocket output (docs/web.md).",
            discussion: "What `touchwire-web --board FILE` runs: the bridge then needs no board reader of its own."))
    var bridgeArguments = false

    @Flag(name: .long, help: "Skip the checks of this machine: exec programs, the [exec] user, socket groups.")
    var portable = false

    func run() throws {
        if bridgeArguments {
            guard files.count == 1 else { throw fail("--bridge-arguments takes one board file", code: 2) }
            let board: BoardDescription
            do throws(BoardFileError) {
                board = try BoardLoader.load(path: files[0])
            } catch {
                for issue in error.issues { _ = fail(issue.description) }
                throw ExitCode(2)
            }
            guard let ws = board.webSocket else {
                throw fail("\(files[0]): no [[output]] with type = \"websocket\" (docs/formats.md §4)", code: 2)
            }
            for arguments in WebSocketBridgeArguments.make(ws, board.outputs) { print(arguments) }
            return
        }
        var bad = 0
        for file in files {
            do throws(BoardFileError) {
                let board = try BoardLoader.load(path: file)
                let problems = Validate.problems(board, file: file, portable: portable)
                if problems.isEmpty {
                    let regions = counted(board.regions.count, "region")
                    let recognizers = counted(board.recognizers.count, "recognizer")
                    print("\(file): ok (\(regions), \(recognizers))")
                    if let w = DisplayDescription.wakeTouchWarning(board) { _ = fail("warning: \(w)") }
                    // The packaged unit runs `run --exec-by-agents`: say now what it would refuse.
                    if let w = ExecCheck.agentsCannotListen(board) { _ = fail("warning: \(w)") }
                } else {
                    bad += 1
                    for problem in problems { _ = fail(problem) }
                }
            } catch {
                bad += 1
                for issue in error.issues { _ = fail(issue.description) }
            }
        }
        if bad > 0 { throw ExitCode(2) }
    }

    /// Every reason `run` would refuse a board that loaded, each one line.
    static func problems(_ board: BoardDescription, file: String, portable: Bool) -> [String] {
        var problems: [String] = []
        do throws(ServiceError) { _ = try EngineBuilder.build(board) } catch { problems.append("\(error)") }
        // A simulated controller is built as `run` builds it (its script read and checked), so
        // validate rejects every simulated board run would reject.
        if board.controller?.bus == .simulated {
            do throws(ServiceError) { _ = try ControllerFactory.make(board, start: .zero) } catch {
                problems.append("\(error)")
            }
        }
        if portable { return problems }
        // What `run` refuses on this machine: programs, the [exec] user, socket groups.
        problems += ExecCheck.problems(board)
        for (i, output) in board.outputs.enumerated() {
            guard case .socket(let socket) = output, let group = socket.group,
                !UnixStreamServer.groupExists(group)
            else { continue }
            problems.append(
                "\(board.location): output[\(i)].group: no group named \"\(group)\" on this machine; "
                    + "`run` would not open \(socket.path) (create it with `groupadd \(group)`, or validate "
                    + "with --portable for another machine)")
        }
        return problems
    }
}
