import Foundation
import Gestures
import TouchCore
import TouchTrace
import XCTest

/// The checkmark recognizer on real people's strokes: the $1 unistroke logs in data/unistroke.
/// The README states these figures; this test keeps them true.
final class UnistrokeCheckmarkTests: XCTestCase {
    struct Label {
        var gesture: String
        var start: Int64
        var end: Int64
    }

    func testRecallOnChecksAndFalseAlarmsOnTheOtherFifteenGestures() throws {
        let data = repositoryRoot.appendingPathComponent("data/unistroke")
        guard FileManager.default.fileExists(atPath: data.path) else {
            throw XCTSkip("the unistroke logs are not at \(data.path)")
        }
        var checks = 0, hits = 0, others = 0, falseAlarms = 0
        for subject in ["s01", "s02", "s03"] {
            let trace = try TraceReader.read(path: data.appendingPathComponent("\(subject).jsonl").path)
            let labels = try String(contentsOf: data.appendingPathComponent("\(subject)-labels.csv"), encoding: .utf8)
                .split(whereSeparator: \.isNewline).dropFirst().map { line -> Label in
                    let f = line.split(separator: ",")
                    return Label(gesture: String(f[1]), start: Int64(f[4])!, end: Int64(f[5])!)
                }
            let root = Region(
                name: "screen",
                frame: Rect(x: 0, y: 0, width: Double(trace.header.panelWidth), height: Double(trace.header.panelHeight)))
            let engine = GestureEngine(root: root)
            engine.add(CheckmarkGestureRecognizer(name: "check"), to: root)
            let sink = RecordingSink()
            engine.sink = sink
            for frame in trace.frames { engine.process(frame) }
            engine.drainTimers()
            let times = sink.events.map(\.time.microseconds)
            for label in labels {
                // Recognized at the lift: the first empty frame after the stroke's last sample.
                let recognized = times.contains { $0 >= label.start && $0 <= label.end + 100_000 }
                if label.gesture == "check" {
                    checks += 1
                    if recognized { hits += 1 }
                } else {
                    others += 1
                    if recognized { falseAlarms += 1 }
                }
            }
        }
        XCTAssertEqual(checks, 90)
        XCTAssertEqual(others, 1350)
        XCTAssertEqual(hits, 90, "recall on check (README: 90/90)")
        XCTAssertEqual(falseAlarms, 4, "false alarms on the other 15 gestures (README: 4/1350, all on v)")
    }
}
