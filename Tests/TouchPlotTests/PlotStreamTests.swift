import BoardConfig
import Foundation
import Gestures
import TouchComposition
import TouchCore
import TouchPlot
import TouchService
import TouchTrace
import XCTest

/// `plot` streams a trace through the engine into what its picture draws (issue 30, class 4):
/// the pictures are those of the whole recording, and past the limits nothing more is kept.
final class PlotStreamTests: XCTestCase {
    /// Windows around, inside, across and outside the demo's gestures, with open ends.
    private let windows: [PlotWindow] = [
        PlotWindow(), PlotWindow(from: 2_800_000, to: 3_700_000), PlotWindow(from: 3_000_000),
        PlotWindow(to: 1_500_000), PlotWindow(from: 3_000_000, to: 3_000_000), PlotWindow(to: -5),
        PlotWindow(from: 90_000_000), PlotWindow(from: .max), PlotWindow(to: .min),
    ]

    func testStreamedPicturesAreThoseOfTheWholeRecording() throws {
        let board = try loadBoard("boards/sim-demo.toml")
        let recording = PlotRecording.record(trace: demoTrace(), engine: try EngineBuilder.build(board))
        for window in windows {
            let panel = PlotRecording.stream(
                trace: demoTrace(), engine: try EngineBuilder.build(board), window: window
            ) { PanelPlot.Content(scene: $0, bounded: true) }
            XCTAssertFalse(panel.isOverLimit)
            XCTAssertTrue(PanelPlot.render(panel) == PanelPlot.render(recording, window: window), "\(window)")
            let timeline = PlotRecording.stream(
                trace: demoTrace(), engine: try EngineBuilder.build(board), window: window
            ) { TimelinePlot.Content(scene: $0, bounded: true) }
            XCTAssertFalse(timeline.isOverLimit)
            XCTAssertTrue(
                TimelinePlot.render(timeline) == TimelinePlot.render(recording, window: window), "\(window)")
        }
    }

    /// The content keeps only the window's touches and events: a touch outside it is not drawn,
    /// and ordinals still count every touch-down of the trace.
    func testContentKeepsOnlyTheWindowsTouches() throws {
        let board = try loadBoard("boards/sim-demo.toml")
        // The long press: down at 2 860 ms for 800 ms, the demo's fourth touch.
        let window = PlotWindow(from: 2_800_000, to: 3_700_000)
        let panel = PlotRecording.stream(trace: demoTrace(), engine: try EngineBuilder.build(board), window: window) {
            PanelPlot.Content(scene: $0, bounded: true)
        }
        XCTAssertEqual(panel.strokes.map(\.ordinal), [4])
        XCTAssertTrue(panel.strokes.allSatisfy { $0.samples.allSatisfy { window.contains($0.time) } })
        XCTAssertTrue(panel.events.allSatisfy { window.contains($0.time.microseconds) })
        XCTAssertFalse(panel.events.isEmpty)
    }

    /// 10,001 frames of ten fingers are 100,010 samples: past the limit the content drops what it
    /// kept and keeps nothing more (its memory is at most the limit's worth), but counts on.
    func testBoundedContentKeepsNothingPastTheLimits() throws {
        let board = try loadBoard("boards/sim-demo.toml")
        var frames: [TouchFrame] = []
        for i in 0..<10_001 {
            let contacts = (0..<10).map { Contact(id: UInt8($0), x: Double(50 + $0 * 60), y: Double(100 + i % 200)) }
            frames.append(TouchFrame(timestamp: Instant(microseconds: Int64(i) * 5000), contacts: contacts))
        }
        frames.append(TouchFrame(timestamp: Instant(microseconds: 10_001 * 5000), contacts: []))
        let trace = Trace(header: TraceHeader(panelWidth: 800, panelHeight: 480, source: "ten"), frames: frames)
        let bounded = PlotRecording.stream(trace: trace, engine: try EngineBuilder.build(board), window: PlotWindow()) {
            PanelPlot.Content(scene: $0, bounded: true)
        }
        XCTAssertTrue(bounded.isOverLimit)
        XCTAssertEqual(bounded.scene.drawnSamples, 100_010)
        XCTAssertTrue(bounded.strokes.isEmpty, "nothing kept past the limit")
        XCTAssertTrue(bounded.events.isEmpty, "nothing kept past the limit")
        let narrow = PlotRecording.stream(
            trace: trace, engine: try EngineBuilder.build(board), window: PlotWindow(from: 0, to: 500_000)
        ) { PanelPlot.Content(scene: $0, bounded: true) }
        XCTAssertFalse(narrow.isOverLimit)
        XCTAssertEqual(narrow.strokes.count, 10)
        XCTAssertEqual(narrow.strokes.map { $0.samples.count }, Array(repeating: 101, count: 10))
    }
}
