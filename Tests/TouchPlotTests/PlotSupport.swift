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
// CollectingSink, findTool, runProcess, touchwireExecutable) come from TouchwireTestSupport.

/// The arguments that made the README picture (docs/img/demo-trace.svg); README states the same command.
enum ReadmePicture {
    static let trace = "data/unistroke/s01.jsonl"
    static let board = "docs/img/pen-board.toml"
    static let from: Int64 = 36_400_000
    static let to: Int64 = 42_200_000
    static let svg = "docs/img/demo-trace.svg"
}

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

/// Parses `svg` with Foundation's XMLParser; returns the elements' names and attributes in document order.
func parseXML(_ svg: String, file: StaticString = #filePath, line: UInt = #line) -> [(String, [String: String])] {
    final class Collector: NSObject, XMLParserDelegate {
        var elements: [(String, [String: String])] = []
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String]
        ) {
            elements.append((name, attributes))
        }
    }
    let parser = XMLParser(data: Data(svg.utf8))
    let collector = Collector()
    parser.delegate = collector
    let ok = parser.parse()
    XCTAssertTrue(ok, "not well-formed XML: \(String(describing: parser.parserError))", file: file, line: line)
    return collector.elements
}

/// `(t_us, recognizer, state)` of each JSON event line.
func eventKeys(_ lines: [String]) -> [String] {
    lines.compactMap { line in
        MonitorEvent.parse(line[...]).map { "\($0.time) \($0.recognizer) \($0.state)" }
    }
}
