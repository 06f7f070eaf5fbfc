import BoardConfig
import Gestures
import TouchCore
import TouchDrivers
import TouchLinux

/// What the UI receives in `[passthrough]`: the engine's region deliveries (S22–S27) with the UI
/// as every region's "view", turned back into touch frames.
///
/// - `began`/`moved` put the touch down at the delivered location; `ended` lifts it;
/// - `cancelled` (S23, a recognizer with `cancels_touches` recognized) lifts it too — the UI
///   sees the touch end and, as the engine delivers nothing more for it, no more of it;
/// - `delays_began` (S24) holds deliveries back until the recognizer fails, then releases them in
///   order: the UI sees the held frames then;
/// - deliveries to a region with `passthrough = false` are dropped: the UI never sees its touches.
///
/// Reports: deliveries of one instant for different touches make one report; a second delivery
/// for a touch already changed in the pending report (held deliveries released together, S24),
/// or a later instant, first sends the pending report — so the UI sees the held frames in order.
///
/// No I/O and no allocation: each finished report goes to `onFrame`; `flush` sends the pending one.
package final class PassthroughTracker {
    /// Region index → whether its touches reach the UI.
    package let forwarded: [Bool]
    /// Receives each report (the contacts the UI sees from then on).
    package var onFrame: ((TouchFrame) -> Void)?
    private var visible: TouchFrame
    private var dirty = false
    /// Touch ids changed in the pending report (bit = id & 63).
    private var changed: UInt64 = 0

    package init(forwarded: [Bool]) {
        self.forwarded = forwarded
        visible = TouchFrame(timestamp: .zero)
    }

    /// Regions of `board` in the engine's order, forwarded unless marked `passthrough = false`.
    package convenience init(board: BoardDescription, engine: GestureEngine) {
        self.init(forwarded: engine.regions.map { r in board.region(named: r.name)?.passthrough ?? true })
    }

    package func deliver(_ d: RegionDelivery) {
        guard d.region >= 0, d.region < forwarded.count, forwarded[d.region] else { return }
        let bit: UInt64 = 1 << UInt64(d.touch & 63)
        if dirty && (d.time != visible.timestamp || changed & bit != 0) { flush() }
        var next = TouchFrame(timestamp: d.time)
        var i = 0
        var found = false
        while i < visible.count {
            var c = visible[i]
            i += 1
            if c.id == d.touch {
                found = true
                if d.phase == .ended || d.phase == .cancelled { continue }
                c.position = d.location
            }
            next.append(c)
        }
        if !found && (d.phase == .began || d.phase == .moved) {
            next.append(Contact(id: d.touch, position: d.location))
        }
        if !found && (d.phase == .ended || d.phase == .cancelled) { return }
        visible = next
        dirty = true
        changed |= bit
    }

    /// Sends the pending report, if any.
    package func flush() {
        guard dirty else { return }
        dirty = false
        changed = 0
        onFrame?(visible)
    }
}

/// A sink in front of another: actions go on to `inner`, deliveries go to a `PassthroughTracker`.
package final class PassthroughSink: GestureEventSink {
    package let inner: (any GestureEventSink)?
    package let tracker: PassthroughTracker

    package init(inner: (any GestureEventSink)?, tracker: PassthroughTracker) {
        self.inner = inner
        self.tracker = tracker
    }

    package func emit(_ event: GestureEvent) { inner?.emit(event) }

    package func deliver(_ delivery: RegionDelivery) {
        inner?.deliver(delivery)
        tracker.deliver(delivery)
    }
}

/// The virtual touchscreen the UI reads (`[passthrough]`): a uinput device of the panel's size,
/// written with what `PassthroughTracker` says the UI sees.
package final class PassthroughTouchscreen {
    private let device: UInputDevice
    private var encoder: MultiTouchEncoder
    private var events: [InputEvent] = []
    private var bytes: [UInt8] = []
    /// Reports the kernel did not take whole.
    package private(set) var failedReports = 0
    /// The engine's sink in the service (the engine holds it too).
    var sink: PassthroughSink?

    package init(name: String, width: Int, height: Int, slots: Int) throws(UInputError) {
        device = try UInputDevice.touchscreen(name: name, width: width, height: height, slots: slots)
        encoder = MultiTouchEncoder(slots: slots)
        events.reserveCapacity(128)
        bytes.reserveCapacity(128 * InputEvent.byteCount)
    }

    package var sysName: String { device.sysName }

    /// Removes the virtual touchscreen (`UInputDevice.destroy()`); frames written after it are lost.
    package func close() { device.destroy() }

    package func write(_ frame: TouchFrame) {
        events.removeAll(keepingCapacity: true)
        encoder.encode(frame, into: &events)
        guard !events.isEmpty else { return }
        bytes.removeAll(keepingCapacity: true)
        for e in events { e.encode(into: &bytes) }
        if !bytes.withUnsafeBytes({ device.write($0) }) { failedReports += 1 }
    }
}

/// Creates a board's `[passthrough]` touchscreen before anything starts (a missing /dev/uinput or
/// a permission problem is one error) and puts the tracker between the engine and its sink.
enum PassthroughSetup {
    static func attach(
        _ board: BoardDescription, engine: GestureEngine, events: any GestureEventSink, stage: RecognizerStage
    ) throws(PipelineSetupError) -> PassthroughTouchscreen? {
        guard let p = board.passthrough else { return nil }
        let screen: PassthroughTouchscreen
        do throws(UInputError) {
            screen = try PassthroughTouchscreen(
                name: p.name, width: board.panel.width, height: board.panel.height,
                slots: p.slots ?? board.controller?.chip.maxContacts ?? 10)
        } catch {
            throw .passthrough(board: board.location, reason: "\(error)")
        }
        let tracker = PassthroughTracker(board: board, engine: engine)
        tracker.onFrame = { [unowned screen] frame in screen.write(frame) }
        let sink = PassthroughSink(inner: events, tracker: tracker)
        screen.sink = sink
        engine.sink = sink
        stage.passthrough = tracker
        return screen
    }
}
