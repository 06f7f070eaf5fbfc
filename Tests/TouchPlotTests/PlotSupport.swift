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

/// The repository root, found from this file's path.
let plotRepositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The arguments that made the README picture (docs/img/demo-trace.svg); README states the same command.
enum ReadmePicture {
    static let trace = "data/unistroke/s01.jsonl"
    static let board = "docs/img/pen-board.toml"
    static let from: Int64 = 36_400_000
    static let to: Int64 = 42_200_000
    static let svg = "docs/img/demo-trace.svg"
}

/// Collects the lines replay writes.
final class CapturingSink: LineSink {
    var lines: [String] = []
    func write(_ line: UnsafeRawBufferPointer) {
        lines.append(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .newlines))
    }
}

/// The demo script as a trace on the 800 × 480 demo panel.
func demoTrace() -> Trace {
    Trace(
        header: TraceHeader(panelWidth: 800, panelHeight: 480, source: "demo"),
        frames: DemoScript.frames(panelWidth: 800, panelHeight: 480))
}

func loadBoard(_ relativePath: String) throws -> BoardDescription {
    try BoardLoader.load(path: plotRepositoryRoot.appendingPathComponent(relativePath).path)
}

/// The recording of `trace` through `board`'s recognizers, and what `touchwire replay` prints for it.
func recordAndReplay(_ trace: Trace, board: BoardDescription) throws -> (PlotRecording, [String]) {
    let recording = PlotRecording.record(trace: trace, engine: try EngineBuilder.build(board))
    let sink = CapturingSink()
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

/// The executable built next to the test bundle.
func touchwireExecutable() -> URL {
    let bundle = Bundle(for: CapturingSink.self).bundleURL
    let candidates = [
        bundle, bundle.deletingLastPathComponent(), bundle.appendingPathComponent("debug"),
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    ]
    for dir in candidates
    where FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("touchwire").path) {
        return dir.appendingPathComponent("touchwire")
    }
    return bundle.appendingPathComponent("touchwire")
}

/// The first directory on PATH holding `name`, if any.
func findTool(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") {
        let candidate = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

struct ProcessResult {
    var status: Int32
    var stdout: Data
    var stderr: String
}

/// Runs `executable` with `arguments` to completion.
func runProcess(_ executable: String, _ arguments: [String]) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = plotRepositoryRoot
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    final class Box: @unchecked Sendable { var data = Data() }
    let errData = Box()
    let group = DispatchGroup()
    DispatchQueue(label: "stderr").async(group: group) { errData.data = err.fileHandleForReading.readDataToEndOfFile() }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData.data, as: UTF8.self))
}

func makeTemporaryDirectory(_ test: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("touchwire-plot-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}
