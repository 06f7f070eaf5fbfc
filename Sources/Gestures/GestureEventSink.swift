/// Receives the engine's output on the recognizer loop: actions (S4) in dispatch order and,
/// when asked for, region deliveries (S22–S27). Implementations must not block or allocate
/// if the loop is to stay real-time (the service's sink pushes into a lock-free queue).
public protocol GestureEventSink: AnyObject {
    func emit(_ event: GestureEvent)
    /// `emit(_:)` of an event read where it lies in the engine's action queue, valid for the
    /// call only: the engine calls this one. By default it calls `emit(event.pointee)`; a sink
    /// may read the event in place instead (no copy of the 136-byte value per action).
    func emit(eventAt event: UnsafePointer<GestureEvent>)
    func deliver(_ delivery: RegionDelivery)
    /// False for a sink whose `deliver` does nothing: the engine then builds no delivery for it.
    /// Read when the sink is set (`GestureEngine.sink`). Default true.
    var takesRegionDeliveries: Bool { get }
}

extension GestureEventSink {
    public var takesRegionDeliveries: Bool { true }
    public func emit(eventAt event: UnsafePointer<GestureEvent>) { emit(event.pointee) }
    public func deliver(_ delivery: RegionDelivery) {}
}

/// Collects everything in arrays — for tests and tools, not the real-time loop.
public final class RecordingSink: GestureEventSink {
    public private(set) var events: [GestureEvent] = []
    public private(set) var deliveries: [RegionDelivery] = []
    /// Events and deliveries interleaved in the order they happened.
    public enum Item: Equatable {
        case event(GestureEvent)
        case delivery(RegionDelivery)
    }
    public private(set) var items: [Item] = []

    public init() {}
    public func emit(_ event: GestureEvent) {
        events.append(event)
        items.append(.event(event))
    }
    public func deliver(_ delivery: RegionDelivery) {
        deliveries.append(delivery)
        items.append(.delivery(delivery))
    }
    public func removeAll() {
        events.removeAll()
        deliveries.removeAll()
        items.removeAll()
    }
}
