import ArgumentParser
import BoardConfig
import Dispatch
import Foundation
import Logging
import TouchCore
import TouchOutputs
import TouchService
import Gestures
import TouchTrace

@main
struct Touchwire: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchwire",
        abstract: "Capacitive touch panel → UIKit-style gestures → GPIO, UART and JSON lines.",
        subcommands: [
            Run.self, Replay.self, Record.self, Validate.self, Probe.self, Calibrate.self, Status.self, Bench.self,
        ]
    )
}

/// Errors reach the user as one line on stderr and a non-zero exit status (`formats.md` §3).
struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func fail(_ message: String, code: Int32 = 1) -> ExitCode {
    FileHandle.standardError.write(Data(("touchwire: " + message + "\n").utf8))
    return ExitCode(code)
}

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

    @Option(name: .long, help: "Where to write the status snapshot that `touchwire status` reads (\"\": nowhere).")
    var statusFile = Run.defaultStatusFile

    @OptionGroup var realtimeFlags: RealTimeFlags

    static let defaultStatusFile = "/tmp/touchwire.status"

    func run() throws {
        let description = try loadBoard(board)
        let realtime = try realtimeFlags.resolve(description)
        let logger = makeLogger(verbose: verbose)
        let service: Service
        do throws(ServiceError) {
            service = try Service(board: description, logger: logger)
        } catch {
            throw fail("\(error)")
        }
        service.realtime = realtime
        service.statusFile = statusFile.isEmpty ? nil : statusFile
        if explain {
            service.engine.diagnostics = { d in logger.info("why: \(d)") }
        }
        signal(SIGUSR1, SIG_IGN)
        var sources: [any DispatchSourceSignal] = []
        let usr1 = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: .global())
        usr1.setEventHandler {
            let block = service.latestSnapshot?.render() ?? "touchwire status: no snapshot yet\n"
            FileHandle.standardError.write(Data(block.utf8))
        }
        usr1.resume()
        sources.append(usr1)
        // Every terminating signal (TerminatingSignals) stops the service the way SIGTERM does.
        sources += TerminatingSignals.install { name in
            logger.info("signal \(name): stopping")
            service.stop()
        }
        service.run()
        sources.forEach { $0.cancel() }
        if let file = service.statusFile { try? FileManager.default.removeItem(atPath: file) }
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

    func run() throws {
        let description = try loadBoard(board)
        let parsed: Trace
        do throws(TraceError) {
            parsed = try TraceReader.read(path: trace)
        } catch {
            throw fail("\(error)")
        }
        let engine: GestureEngine
        do throws(ServiceError) {
            engine = try EngineBuilder.build(description)
        } catch {
            throw fail("\(error)")
        }
        if explain {
            engine.diagnostics = { d in FileHandle.standardError.write(Data("\(d)\n".utf8)) }
        }
        TouchService.Replay.run(trace: parsed, engine: engine, delivery: delivery, output: StandardOutputSink())
    }
}

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check board files; print every problem with file and key path.")

    @Argument(help: "Board files to check.")
    var files: [String]

    func run() throws {
        var bad = 0
        for file in files {
            do throws(BoardFileError) {
                let board = try BoardLoader.load(path: file)
                do throws(ServiceError) {
                    _ = try EngineBuilder.build(board)
                    // A simulated controller is built as `run` builds it (its script read and
                    // checked), so validate rejects every simulated board run would reject.
                    if board.controller?.bus == .simulated { _ = try ControllerFactory.make(board, start: .zero) }
                    print("\(file): ok (\(board.regions.count) regions, \(board.recognizers.count) recognizers)")
                } catch {
                    bad += 1
                    _ = fail("\(error)")
                }
            } catch {
                bad += 1
                for issue in error.issues { _ = fail(issue.description) }
            }
        }
        if bad > 0 { throw ExitCode(2) }
    }
}
