import Foundation
import Gestures
import TouchComposition
import TouchCore
import TouchLinux
import TouchOutputs
import TouchPlot
import TouchSimulation
import TouchTrace
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

enum TraceReaderShim {
    static func parse(_ text: String) throws -> Trace { try TraceReader.parse(text: text, name: "test") }
}

/// `touchwire monitor`: the character panel, and the command under a pseudo-terminal.
final class MonitorTests: XCTestCase {
    func testTerminalPanelDrawsRegionsTouchesAndMarks() {
        let panel = TerminalPanel(
            panelWidth: 800, panelHeight: 480, columns: 40, rows: 12,
            outlines: [
                .init(name: "screen", frame: Rect(x: 0, y: 0, width: 800, height: 480), isControl: false),
                .init(name: "ok", frame: Rect(x: 400, y: 240, width: 200, height: 120), isControl: true),
            ])
        let lines = panel.render(
            touches: [Contact(id: 3, x: 100, y: 120)], marks: [(Point(x: 700, y: 40), "*")])
        XCTAssertEqual(lines.count, 12)
        XCTAssertTrue(lines.allSatisfy { $0.count == 40 })
        XCTAssertEqual(lines[0], "+screen" + String(repeating: "-", count: 32) + "+")
        XCTAssertEqual(lines[11].first, "+")
        XCTAssertEqual(Array(lines[6])[20...29].map { String($0) }.joined(), "#ok======#")
        XCTAssertEqual(Array(lines[7])[20], "!")
        XCTAssertEqual(Array(lines[7])[29], "!")
        XCTAssertEqual(Array(lines[3])[5], "3", "touch id 3 at (100, 120)")
        XCTAssertEqual(Array(lines[1])[35], "*")
    }

    func testEventLinesFromTheServiceStreamAreReadBack() {
        let names = EventNames(recognizers: ["swipe"], regions: ["screen"])
        var event = GestureEvent(
            time: Instant(microseconds: 1_500_000), recognizer: 0, kind: .swipe, state: .recognized, region: 0,
            location: Point(x: 12.5, y: 30), touches: 1)
        event.direction = .left
        let line = EventJSONEncoder(names: names).line(for: event)
        let parsed = MonitorEvent.parse(line[...])
        XCTAssertEqual(
            parsed,
            MonitorEvent(
                time: 1_500_000, recognizer: "swipe", state: "recognized", location: Point(x: 12.5, y: 30),
                direction: "left"))
        XCTAssertEqual(parsed?.summary, "t 1.500 s  swipe recognized left at (12.5, 30)")
        XCTAssertNil(MonitorEvent.parse(#"{"t_us":1,"region":"screen","delivery":"began","touch":0}"#[...]))
        XCTAssertNil(MonitorEvent.parse("garbage"[...]))
    }

    func testARunningPanIsOneLineOfTheLastGestures() {
        var recent: [MonitorEvent] = []
        func event(_ t: Int64, _ name: String, _ state: String) -> MonitorEvent {
            MonitorEvent(time: t, recognizer: name, state: state, location: Point(x: Double(t), y: 0))
        }
        MonitorEvent.append(event(1, "pan", "began"), to: &recent)
        for t in 2...50 { MonitorEvent.append(event(Int64(t), "pan", "changed"), to: &recent) }
        MonitorEvent.append(event(51, "pan", "ended"), to: &recent)
        XCTAssertEqual(recent.map(\.state), ["began", "changed", "ended"])
        XCTAssertEqual(recent[1].time, 50, "the latest changed replaces the earlier ones")
        for t in 100...120 { MonitorEvent.append(event(Int64(t), "tap", "recognized"), to: &recent, limit: 8) }
        XCTAssertEqual(recent.count, 8)
        XCTAssertEqual(recent.last?.time, 120)
    }
}
