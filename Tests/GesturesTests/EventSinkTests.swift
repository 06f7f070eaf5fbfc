import Gestures
import TouchCore
import XCTest

/// What a sink receives (S4, S22): every action, read in place or by value, and region deliveries
/// only when it takes them.
final class EventSinkTests: XCTestCase {
    /// Takes actions only; counts the deliveries that still reach it.
    private final class ActionsOnlySink: GestureEventSink {
        var events: [GestureEvent] = []
        var deliveries = 0
        func emit(_ event: GestureEvent) { events.append(event) }
        func deliver(_ delivery: RegionDelivery) { deliveries += 1 }
        var takesRegionDeliveries: Bool { false }
    }

    /// Reads each action where the engine queued it.
    private final class InPlaceSink: GestureEventSink {
        var events: [GestureEvent] = []
        var byValue = 0
        func emit(_ event: GestureEvent) { byValue += 1 }
        func emit(eventAt event: UnsafePointer<GestureEvent>) { events.append(event.pointee) }
    }

    private func drag(_ h: EngineHarness) {
        h.add(PanGestureRecognizer(name: "pan"))
        h.add(TapGestureRecognizer(name: "tap"))
        h.frame(0, (0, 100, 100))
        for k in 1...10 { h.frame(Int64(10 * k), (0, 100 + 5 * Double(k), 100)) }
        h.frame(110)
        h.finish()
    }

    // S4: a pan's began, changed… ended reach a sink that takes no deliveries; S22: the region's
    // touches are not delivered to it, and are again once a sink that takes them is set.
    func testASinkTakingNoDeliveriesGetsEveryActionAndNoDelivery() {
        let reference = EngineHarness()
        drag(reference)
        XCTAssertGreaterThanOrEqual(reference.sink.deliveries.count, 2)

        let h = EngineHarness()
        let actionsOnly = ActionsOnlySink()
        h.engine.sink = actionsOnly
        drag(h)
        XCTAssertEqual(actionsOnly.events, reference.sink.events)
        XCTAssertEqual(actionsOnly.deliveries, 0)

        h.engine.sink = h.sink
        h.frame(200, (1, 300, 300))
        h.frame(250)
        XCTAssertEqual(h.sink.deliveries.first?.phase, .began)
        XCTAssertEqual(h.sink.deliveries.count, 2, "began, then ended or cancelled")
    }

    // S4: a sink reading actions in place gets the same actions, and `emit(_:)` is not called.
    func testASinkReadingInPlaceGetsTheSameActions() {
        let reference = EngineHarness()
        drag(reference)
        let h = EngineHarness()
        let inPlace = InPlaceSink()
        h.engine.sink = inPlace
        drag(h)
        XCTAssertEqual(inPlace.events, reference.sink.events)
        XCTAssertEqual(inPlace.byValue, 0)
        XCTAssertGreaterThan(inPlace.events.count, 5)
    }
}
