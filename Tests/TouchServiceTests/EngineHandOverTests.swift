import Dispatch
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

        init(_ steps: [(Int64, [(UInt8, Double, Double)]?)]) {
            self.steps = steps
            let root = Region(name: "screen", frame: Rect(x: 0, y: 0, width: 800, height: 480))
            engine = GestureEngine(root: root)
            let single = TapGestureRecognizer(name: "single")
            let double = TapGestureRecognizer(name: "double", taps: 2)
            single.require(toFail: double)  // S15
            for r in [
                single, double, LongPressGestureRecognizer(name: "press"), PanGestureRecognizer(name: "pan"),
                PinchGestureRecognizer(name: "pinch"),
            ] as [GestureRecognizer] {
                engine.add(r, to: root)
            }
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

    func testAnEngineHandedBetweenThreadsBehavesAsOnOneThread() {
        let alone = Stage(Self.script())
        while alone.step(byDriver: false) {}
        XCTAssertGreaterThan(alone.log.count, 40, "the script recognizes gestures: \(alone.log)")

        let shared = Stage(Self.script())
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
    }
}
