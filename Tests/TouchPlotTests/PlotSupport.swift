import BoardConfig
import Foundation
import Gestures
import TouchComposition
import TouchOutputs
import TouchPlot
import TouchService
import TouchSimulation
import TouchTrace
import XCTest

#if canImport(FoundationXML)
    import FoundationXML
#endif

// The fixtures of this target only; the shared ones (repositoryRoot, makeTemporaryDirectory,
// CollectingSink, findTool, runProcess, touchwireExecutable, ReadmePicture, parseXML) come from
// TouchwireTestSupport.

/// The demo script as a trace on the 800 × 480 demo panel.
func demoTrace() -> Trace {
    Trace(
        header: TraceHeader(panelWidth: 800, panelHeight: 480, source: "demo"),
        frames: DemoScript.frames(panelWidth: 800, panelHeight: 480))
}

func loadBoard(_ relativePath: String) throws -> BoardDescription {
    try BoardLoader.load(path: repositoryRoot.appendingPathComponent(relativePath).path)
}

/// The recording of `trace` through `board`'s recognizers, and what `touchwire replay` prints for it.
func recordAndReplay(_ trace: Trace, board: BoardDescription) throws -> (PlotRecording, [String]) {
    let recording = PlotRecording.record(trace: trace, engine: try EngineBuilder.build(board))
    let sink = CollectingSink()
    TouchComposition.Replay.run(trace: trace, engine: try EngineBuilder.build(board), delivery: false, output: sink)
    return (recording, sink.lines)
}

/// `(t_us, recognizer, state)` of each JSON event line.
func eventKeys(_ lines: [String]) -> [String] {
    lines.compactMap { line in
        MonitorEvent.parse(line[...]).map { "\($0.time) \($0.recognizer) \($0.state)" }
    }
}
