import ArgumentParser
import FoundationEssentials
import Gestures
import TouchComposition
import TouchLinux
import TouchPlot
import TouchService
import TouchTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

struct Plot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a trace and the gestures it makes as a self-contained SVG picture.",
        discussion: """
            The trace goes through the board's recognizers exactly as `replay` sends it, so the \
            events drawn are the events replay prints. Default picture: the panel at its real aspect \
            ratio with its regions, every touch path and every event where it happened. \
            --timeline: one lane per recognizer with its state over time, including \
            "waiting for X to fail" from the explain trace.
            """)

    @Argument(help: "The trace file (JSON lines, formats.md §1).")
    var trace: String

    @Option(name: .long, help: "The board file whose regions and recognizers to use.")
    var board: String

    @Option(name: [.short, .long], help: "The SVG file to write (\"-\": standard output).")
    var output: String = "-"

    @Option(name: .long, help: "Start of the window, trace µs (default: the first frame).")
    var from: Int64?

    @Option(name: .long, help: "End of the window, trace µs (default: the last frame or event).")
    var to: Int64?

    @Flag(name: .long, help: "Draw a timeline of recognizer states instead of the panel.")
    var timeline = false

    func validate() throws {
        if let from, let to, to < from { throw ValidationError("--to (\(to)) is before --from (\(from))") }
    }

    func run() throws {
        if output != "-" {
            // Checked before the work: a directory, socket, the trace or the board is refused.
            do throws(OutputFileError) { try OutputFile.check(output, inputs: [trace, board]) } catch {
                throw fail("-o \(error)")
            }
        }
        let description = try loadBoard(board)
        let engine: GestureEngine
        do throws(ServiceError) {
            engine = try EngineBuilder.build(description)
        } catch {
            throw fail("\(error)")
        }
        // Streamed: the trace is checked, then read frame by frame through the engine into what
        // the picture draws (the marks inside the window, at most the limits below): memory is
        // flat whatever the trace's length.
        let window = PlotWindow(from: from, to: to)
        let scene: PlotScene
        var bars = 0
        let svg: String
        do throws(TraceError) {
            if timeline {
                let content = try PlotRecording.stream(path: trace, engine: engine, window: window) {
                    TimelinePlot.Content(scene: $0, bounded: true)
                }
                scene = content.scene
                bars = content.drawnBars
                svg = content.isOverLimit ? "" : TimelinePlot.render(content)
            } else {
                let content = try PlotRecording.stream(path: trace, engine: engine, window: window) {
                    PanelPlot.Content(scene: $0, bounded: true)
                }
                scene = content.scene
                svg = content.isOverLimit ? "" : PanelPlot.render(content)
            }
        } catch {
            throw fail("\(error)")
        }
        // Bounded before drawing: a picture of the whole of a long trace is refused, with what to do.
        if scene.drawnEvents > PlotRecording.maximumDrawnEvents
            || !timeline && scene.drawnSamples > PlotRecording.maximumDrawnSamples
        {
            let span = scene.resolvedWindow
            throw fail(
                "\(trace): the window \(span.from)…\(span.to) µs holds \(scene.drawnSamples) touch samples and"
                    + " \(scene.drawnEvents) events, more than a picture shows (at most"
                    + " \(PlotRecording.maximumDrawnSamples) samples and \(PlotRecording.maximumDrawnEvents)"
                    + " events); narrow it with --from/--to")
        }
        if bars > TimelinePlot.maximumDrawnBars {
            let span = scene.resolvedWindow
            throw fail(
                "\(trace): the window \(span.from)…\(span.to) µs holds \(bars) timeline bars and failures,"
                    + " more than a picture shows (at most \(TimelinePlot.maximumDrawnBars));"
                    + " narrow it with --from/--to")
        }
        if output == "-" {
            writeStandardOutput(svg)
        } else {
            do throws(OutputFileError) {
                try OutputFile.write(svg.utf8, to: output, inputs: [trace, board])
            } catch {
                throw fail("\(output): cannot write the picture: \(error.reason)")
            }
        }
    }
}
