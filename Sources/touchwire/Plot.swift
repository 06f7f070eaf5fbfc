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
        // Streamed: the trace is checked, then read frame by frame into a compact recording.
        let recording: PlotRecording
        do throws(TraceError) {
            recording = try PlotRecording.record(path: trace, engine: engine)
        } catch {
            throw fail("\(error)")
        }
        let window = PlotWindow(from: from, to: to)
        // Bounded before drawing: a picture of the whole of a long trace is refused, with what to do.
        let drawn = recording.drawnCounts(in: window)
        if drawn.events > PlotRecording.maximumDrawnEvents
            || !timeline && drawn.samples > PlotRecording.maximumDrawnSamples
        {
            let span = window.resolved(in: recording)
            throw fail(
                "\(trace): the window \(span.from)…\(span.to) µs holds \(drawn.samples) touch samples and"
                    + " \(drawn.events) events, more than a picture shows (at most"
                    + " \(PlotRecording.maximumDrawnSamples) samples and \(PlotRecording.maximumDrawnEvents)"
                    + " events); narrow it with --from/--to")
        }
        let svg =
            timeline
            ? TimelinePlot.render(recording, window: window) : PanelPlot.render(recording, window: window)
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
