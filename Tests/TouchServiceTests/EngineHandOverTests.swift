import Dispatch
import Foundation
import Gestures
import Synchronization
import TouchCore
import TouchService
import XCTest

/// The confinement contract of the engine's unchecked storage (docs/ARCHITECTURE.md "Threads",
/// "Unchecked storage"): an engine handed between the driver and recognizer threads through
/// `RecognizerTurns`, one holder at a time, behaves as if one thread had run it. Under
/// ThreadSanitizer (`tools/sanitize thread --filter EngineHandOverTests`) the hand-over is also
/// checked for races on every field the engine and its recognizers touch.
final class EngineHandOverTests: XCTestCase {
    /// The engine, its sink and the script's position: touched only by the stage's holder.
    final class Stage: @unchecked Sendable {
        let engine: GestureEngine
        let sink = RecordingSink()
        let steps: [(Int64, [(UInt8, Double, Double)]?)]
        var next = 0
        var byDriver = 0

        /// With `everyKind`, the built-in kinds the first script leaves out too (swipe, rotation,
        /// edge pan), so that each recognizer class's own fields (`TapFields`, `SwipeFields`, …)
        /// are handed over.
        init(_ steps: [(Int64, [(UInt8, Double, Double)]?)], everyKind: Bool = false) {
            self.steps = steps
            let root = Region(name: "screen", frame: Rect(x: 0, y: 0, width: 800, height: 480))
            engine = GestureEngine(root: root)
            let single = TapGestureRecognizer(name: "single")
            let double = TapGestureRecognizer(name: "double", taps: 2)
            single.require(toFail: double)  // S15
            let recognizers: [GestureRecognizer] =
                everyKind
                ? [
                    single, double, LongPressGestureRecognizer.builtIn(name: "press"),
                    SwipeGestureRecognizer.builtIn(name: "swipe", direction: .right),
                    RotationGestureRecognizer.builtIn(name: "rotation"),
                    EdgePanGestureRecognizer(name: "edge", edges: .left),
                ]
                : [
                    single, double, LongPressGestureRecognizer(name: "press"), PanGestureRecognizer(name: "pan"),
                    PinchGestureRecognizer(name: "pinch"),
                ]
            for r in recognizers { engine.add(r, to: root) }
            engine.sink = sink
        }

        /// Runs the script's next step (a frame, or the clock moved on), if any is left.
        func step(byDriver driver: Bool) -> Bool {
            guard next < steps.count else { return false }
            let (ms, contacts) = steps[next]
            next += 1
            if driver { byDriver += 1 }
            if let contacts {
                var f = TouchFrame(timestamp: .milliseconds(ms))
                for c in contacts { f.append(Contact(id: c.0, x: c.1, y: c.2)) }
                engine.process(f)
            } else {
                engine.advance(to: .milliseconds(ms))
            }
            return true
        }

        var log: [String] { sink.events.map { "\(engine.recognizerName($0.recognizer)):\($0.state)@\($0.time)" } }
    }

    /// Taps, double taps, long presses, pans and pinches, with the clock moved on between them.
    static func script() -> [(Int64, [(UInt8, Double, Double)]?)] {
        var steps: [(Int64, [(UInt8, Double, Double)]?)] = []
        var ms: Int64 = 0
        for round in 0..<40 {
            let x = Double(100 + (round % 10) * 50)
            func add(_ contacts: [(UInt8, Double, Double)]?) {
                ms += 20
                steps.append((ms, contacts))
            }
            switch round % 4 {
            case 0:
                add([(0, x, 100)])
                add([])  // a tap
            case 1:
                add([(0, x, 100)])
                add([])
                add([(0, x, 100)])
                add([])  // a double tap
            case 2:
                add([(0, x, 300)])
                ms += 600
                add(nil)
                add([])  // a long press
            default:
                for d in stride(from: 40.0, through: 140, by: 20) { add([(0, 400 - d, 240), (1, 400 + d, 240)]) }
                add([])  // a pinch
            }
            ms += 400
            add(nil)  // the tap windows close
        }
        return steps
    }

    /// Swipes (S2), rotations (S3), edge pans (S3), taps, double taps and long presses, with the
    /// clock moved on.
    static func everyKindScript() -> [(Int64, [(UInt8, Double, Double)]?)] {
        var steps: [(Int64, [(UInt8, Double, Double)]?)] = []
        var ms: Int64 = 0
        func add(_ contacts: [(UInt8, Double, Double)]?) {
            ms += 20
            steps.append((ms, contacts))
        }
        for round in 0..<42 {
            let y = Double(100 + (round % 6) * 50)
            switch round % 6 {
            case 0:
                for x in stride(from: 200.0, through: 400, by: 40) { add([(0, x, y)]) }
                add([])  // a fast swipe right
            case 1:
                for step in 0...6 {
                    let a = Double(step) * 0.08
                    add([(0, 400 - 100 * cos(a), 240 - 100 * sin(a)), (1, 400 + 100 * cos(a), 240 + 100 * sin(a))])
                }
                add([])  // a rotation by about half a radian
            case 2:
                for x in stride(from: 5.0, through: 125, by: 5) { add([(0, x, y)]) }
                add([])  // a slow pan from the left edge
            case 3:
                add([(0, 300, y)])
                add([])  // a tap
            case 4:
                add([(0, 300, y)])
                add([])
                add([(0, 300, y)])
                add([])  // a double tap
            default:
                add([(0, 300, y)])
                ms += 600
                add(nil)
                add([])  // a long press
            }
            ms += 400
            add(nil)  // the tap windows close
        }
        return steps
    }

    func testAnEngineHandedBetweenThreadsBehavesAsOnOneThread() {
        handOver(Stage(Self.script()), Stage(Self.script()))
    }

    /// The same hand-over with every built-in recognizer class, so that each one's gathered fields
    /// (`TapFields`, `LongPressFields`, `SwipeFields`, `TwoFingerFields`, `PanFields`,
    /// `EdgePanFields`; docs/ARCHITECTURE.md, "Unchecked storage") are read and written by both
    /// threads; every kind recognizes in the script.
    func testEveryRecognizerKindsFieldsHandedBetweenThreadsBehaveAsOnOneThread() {
        let alone = handOver(
            Stage(Self.everyKindScript(), everyKind: true), Stage(Self.everyKindScript(), everyKind: true))
        for name in ["single", "double", "press", "swipe", "rotation", "edge"] {
            XCTAssertTrue(
                alone.contains { $0.hasPrefix(name + ":") }, "\(name) takes part in the script: \(alone)")
        }
        XCTAssertTrue(alone.contains { $0.hasPrefix("swipe:recognized@") }, "S2: a swipe recognizes: \(alone)")
        XCTAssertTrue(alone.contains { $0.hasPrefix("edge:ended@") }, "S3: an edge pan ends: \(alone)")
        XCTAssertTrue(alone.contains { $0.hasPrefix("rotation:ended@") }, "S3: a rotation ends: \(alone)")
    }

    /// Runs `alone`'s script on one thread and `shared`'s between two, and checks that the logs
    /// agree. Returns `alone`'s log.
    @discardableResult
    private func handOver(_ alone: Stage, _ shared: Stage) -> [String] {
        while alone.step(byDriver: false) {}
        XCTAssertGreaterThan(alone.log.count, 40, "the script recognizes gestures: \(alone.log)")

        let turns = RecognizerTurns()
        let done = Atomic<Bool>(false)
        let group = DispatchGroup()
        // The recognizer thread: waits for the stage (`acquire`), runs one step, hands it back.
        DispatchQueue.global().async(group: group) {
            while !done.load(ordering: .relaxed) {
                turns.acquire()
                if !shared.step(byDriver: false) { done.store(true, ordering: .relaxed) }
                turns.release()
            }
        }
        // The driver thread: never waits (`tryAcquire`), runs a step whenever the stage is free.
        DispatchQueue.global().async(group: group) {
            while !done.load(ordering: .relaxed) {
                guard turns.tryAcquire() else { continue }
                if !shared.step(byDriver: true) { done.store(true, ordering: .relaxed) }
                turns.release()
            }
        }
        group.wait()
        turns.acquire()
        XCTAssertEqual(shared.log, alone.log, "every step ran once, in order, whichever thread held the stage")
        turns.release()
        return alone.log
    }
}
