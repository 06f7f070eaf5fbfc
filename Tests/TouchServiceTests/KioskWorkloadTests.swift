import BoardConfig
import Gestures
import TouchComposition
import TouchCore
import TouchService
import TouchSimulation
import XCTest

/// The kiosk workload (used by the benchmarks) really exercises every recognizer kind on its board.
final class KioskWorkloadTests: XCTestCase {
    func testEveryRecognizerOfTheKioskBoardFires() throws {
        let board = try BoardLoader.load(path: repositoryRoot.appendingPathComponent("boards/kiosk-sim.toml").path)
        let engine = try EngineBuilder.build(board)
        let sink = RecordingSink()
        engine.sink = sink
        for frame in KioskScript.frames() { engine.process(frame) }
        engine.drainTimers()
        let fired = Set(
            sink.events.map {
                $0.kind == .control ? engine.regionName($0.recognizer) : engine.recognizerName($0.recognizer)
            })
        XCTAssertEqual(
            fired,
            [
                "tap", "double-tap", "start", "pan", "swipe", "pinch", "rotation", "two-finger-tap", "check",
                "long-press", "slide",
            ])
        XCTAssertLessThan(KioskScript.frames().last!.timestamp.microseconds, KioskScript.duration)
    }
}
