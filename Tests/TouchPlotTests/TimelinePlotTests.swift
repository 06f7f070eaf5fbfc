import Foundation
import TouchPlot
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
        XCTAssertTrue(svg.contains(">waiting for double-tap to fail</text>"))
        let failures = elements.filter { $0.0 == "g" && $0.1["class"] == "failure" }
        XCTAssertTrue(failures.contains { $0.1["data-recognizer"] == "double-tap" }, "double-tap fails at 880 ms")
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
