import Foundation
import Gestures
import TouchComposition
import TouchPlot
import TouchTrace
import XCTest

/// `touchwire plot --timeline`: a lane per recognizer, a mark per event, and the S15 wait drawn.
final class TimelinePlotTests: XCTestCase {
    func testTimelineHasALanePerRecognizerAMarkPerEventAndShowsTheWaitForDoubleTap() throws {
        let board = try loadBoard("boards/sim-demo.toml")
        let (recording, replayed) = try recordAndReplay(demoTrace(), board: board)
        let svg = TimelinePlot.render(recording)
        XCTAssertEqual(svg, TimelinePlot.render(try recordAndReplay(demoTrace(), board: board).0))
        let elements = parseXML(svg)
        let lanes = elements.filter { $0.0 == "g" && $0.1["class"] == "lane" }.compactMap { $0.1["data-recognizer"] }
        // The four recognizers, then the control whose own action fired (none in the demo).
        XCTAssertEqual(lanes, ["tap", "double-tap", "long-press", "pan"])
        let marks = elements.filter { $0.0 == "g" && $0.1["class"] == "event" }
        let drawn = marks.map { "\($0.1["data-t-us"]!) \($0.1["data-recognizer"]!) \($0.1["data-state"]!)" }
        XCTAssertEqual(drawn.sorted(), eventKeys(replayed).sorted())
        // S15: the single tap waits for double-tap to fail, from its lift (580 ms) to 880 ms.
        XCTAssertTrue(svg.contains("<title>waiting for double-tap to fail</title>"))
        let failures = elements.filter { $0.0 == "g" && $0.1["class"] == "failure" }
        XCTAssertTrue(failures.contains { $0.1["data-recognizer"] == "double-tap" }, "double-tap fails at 880 ms")
    }

    /// Issue 31: on the shipped demo trace, no lane is "possible" (or waiting) past a failure that
    /// `--explain` reports, whatever the wording of the failure's line; and a waiting bar's label
    /// ends before the bar does, never over the marker that ends it.
    func testTimelineAgreesWithExplainOnTheShippedDemoTrace() throws {
        let board = try loadBoard("boards/sim-demo.toml")
        let trace = try TraceReader.read(path: repositoryRoot.appendingPathComponent("traces/demo.jsonl").path)
        let engine = try EngineBuilder.build(board)
        var failures: [(Int64, String, String)] = []
        engine.diagnostics = { d in
            if d.kind == .failed { failures.append((d.time.microseconds, d.recognizer, d.message)) }
        }
        TouchComposition.Replay.run(trace: trace, engine: engine, delivery: false, output: CollectingSink())
        XCTAssertTrue(failures.contains { !$0.2.hasPrefix("failed") }, "a recognizer's own reason: \(failures)")
        let recording = PlotRecording.record(trace: trace, engine: try EngineBuilder.build(board))
        let svg = TimelinePlot.render(recording)
        var lane = ""
        var segments: [(lane: String, phase: String, from: Int64, to: Int64)] = []
        for (name, attributes) in parseXML(svg) {
            if name == "g", attributes["class"] == "lane" { lane = attributes["data-recognizer"] ?? "" }
            if name == "rect", attributes["class"] == "segment", let phase = attributes["data-phase"],
                let from = attributes["data-from-us"].flatMap({ Int64($0) }),
                let to = attributes["data-to-us"].flatMap({ Int64($0) })
            {
                segments.append((lane, phase, from, to))
            }
        }
        XCTAssertFalse(segments.isEmpty)
        for (t, recognizer, message) in failures {
            let undecided = segments.filter {
                $0.lane == recognizer && ($0.phase == "possible" || $0.phase == "waiting") && $0.from < t && $0.to > t
            }
            XCTAssertTrue(undecided.isEmpty, "\(recognizer) failed at \(t) (\(message)) but is drawn \(undecided)")
        }
        // Every waiting label fits its bar, leaving the marker at its end clear.
        let waiting = try NSRegularExpression(
            pattern: #"<g class="waiting"[^>]*>.*?<rect [^>]*?x="([0-9.]+)"[^>]*? width="([0-9.]+)"[^>]*>"#
                + #"(?:<text [^>]*>([^<]*)</text>)?"#,
            options: [.dotMatchesLineSeparators])
        let matches = waiting.matches(in: svg, range: NSRange(svg.startIndex..., in: svg))
        XCTAssertFalse(matches.isEmpty, "the demo's single tap waits for the double tap")
        for m in matches {
            let width = Double(svg[Range(m.range(at: 2), in: svg)!])!
            guard let label = Range(m.range(at: 3), in: svg).map({ svg[$0] }) else { continue }
            XCTAssertLessThanOrEqual(Double(label.count) * 5.6, width - 3 - TimelinePlot.markerClearance, "\(label)")
        }
    }

    func testControlActionsGetTheirOwnLane() throws {
        let board = try loadBoard("boards/sim-demo.toml")
        let text = """
            {"touchwire_trace":1,"panel":{"width":800,"height":480}}
            {"t_us":100000,"contacts":[{"id":0,"x":100,"y":430}]}
            {"t_us":150000,"contacts":[]}

            """
        let trace = try TraceReaderShim.parse(text)
        let (recording, replayed) = try recordAndReplay(trace, board: board)
        XCTAssertTrue(replayed.contains { $0.contains(#""recognizer":"button","kind":"control""#) }, replayed.joined())
        let elements = parseXML(TimelinePlot.render(recording))
        let lanes = elements.filter { $0.0 == "g" && $0.1["class"] == "lane" }.compactMap { $0.1["data-recognizer"] }
        XCTAssertEqual(lanes.last, "button")
        XCTAssertEqual(elements.filter { $0.1["class"] == "event" }.count, replayed.count)
    }
}
