import Gestures
import TouchCore
import XCTest

/// Drives an engine with frames at given milliseconds and records what comes out.
final class EngineHarness {
    let root = Region(name: "screen", frame: Rect(x: 0, y: 0, width: 800, height: 480))
    lazy var engine: GestureEngine = {
        let e = GestureEngine(root: root)
        e.sink = sink
        return e
    }()
    let sink = RecordingSink()

    func add(_ r: GestureRecognizer, to region: Region? = nil) { engine.add(r, to: region ?? root) }

    /// The `i`-th event recorded, or a thrown test failure naming what was recorded instead:
    /// a missing event fails one test, never traps the whole run.
    func event(_ i: Int, file: StaticString = #filePath, line: UInt = #line) throws -> GestureEvent {
        try XCTUnwrap(
            sink.events.indices.contains(i) ? sink.events[i] : nil, "no event \(i); recorded: \(log)",
            file: file, line: line)
    }

    /// A frame at `ms` with the given contacts (id, x, y).
    func frame(_ ms: Int64, _ contacts: (UInt8, Double, Double)...) {
        var f = TouchFrame(timestamp: .milliseconds(ms))
        for c in contacts { f.append(Contact(id: c.0, x: c.1, y: c.2)) }
        engine.process(f)
    }

    func cancel(_ ms: Int64) { engine.process(.cancel(at: .milliseconds(ms))) }

    /// A one-finger tap: down at `ms`, up `duration` ms later.
    func tap(at ms: Int64, x: Double = 100, y: Double = 100, duration: Int64 = 50, id: UInt8 = 0) {
        frame(ms, (id, x, y))
        frame(ms + duration)
    }

    func finish() { engine.drainTimers() }

    /// "name:state@ms" for every event.
    var log: [String] {
        sink.events.map { "\(engine.recognizerName($0.recognizer)):\($0.state)@\($0.time.microseconds / 1000)" }
    }

    /// "phase touch@ms" for every delivery.
    var deliveries: [String] { sink.deliveries.map { "\($0.phase)" } }
}
