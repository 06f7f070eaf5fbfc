import Gestures
import TouchComposition
import TouchCore
import TouchService
import XCTest

/// The recognizer thread's side of the event queue when the output thread is stuck.
final class EventQueueSinkTests: XCTestCase {
    func event(_ r: Int, _ state: GestureState, _ x: Double) -> GestureEvent {
        GestureEvent(
            time: .zero, recognizer: r, kind: r == 0 ? .pan : .tap, state: state, region: 0,
            location: Point(x: x, y: 0), touches: 1)
    }

    func testChangedEventsCoalesceIntoTheReserveAndNothingElseIsLost() {
        let sink = EventQueueSink(capacity: 16, wake: Wakeup(), recognizerSlots: 2)  // ring 16, reserve 4
        sink.emit(event(0, .began, 0))
        for i in 1...100 { sink.emit(event(0, .changed, Double(i))) }
        sink.emit(event(1, .recognized, -1))  // another recognizer's discrete event uses the reserve
        sink.emit(event(0, .ended, 101))
        var got: [String] = []
        while let e = sink.ring.tryPop() { got.append("\(e.recognizer) \(e.state) \(Int(e.location.x))") }
        XCTAssertEqual(
            got,
            ["0 began 0"] + (1...11).map { "0 changed \($0)" } + ["1 recognized -1", "0 changed 100", "0 ended 101"])
        XCTAssertEqual(sink.coalescedEvents, 88)
        XCTAssertEqual(sink.droppedEvents, 0)
    }
}
