import Gestures
import TouchCore
import TouchDrivers

/// What the UI receives in `[passthrough]`: the engine's region deliveries (S22–S27) with the UI
/// as every region's "view", turned back into touch frames.
///
/// - `began`/`moved` put the touch down at the delivered location; `ended` lifts it;
/// - `cancelled` (S23, a recognizer with `cancels_touches` recognized) lifts it too, reported in
///   `cancelledInReport` so the touchscreen marks it a palm first (libinput: TOUCH_CANCEL); as
///   the engine delivers nothing more for it, the UI sees no more of it;
/// - `delays_began` (S24) holds deliveries back until the recognizer fails, then releases them in
///   order: the UI sees the held frames then;
/// - deliveries to a region with `passthrough = false` are dropped: the UI never sees its touches.
///
/// A touch whose `ended` a recognizer withholds (`delays_ended`, S24) — with `liftsOnTime` (board
/// `held_ends = "on_time"`, the default) — lifts for the UI at the end of the frame in which its
/// finger lifted (`observe`, then `flush` after the engine processed that frame), an ordinary
/// lift: the UI sees the press as long as the finger made it, and a touch the engine cancels in
/// that same frame (a gesture recognized on the lift) still arrives as a cancel. What the engine
/// delivers for that touch afterwards (its held `ended`, or `cancelled` when the gesture
/// recognizes later) no longer reaches the UI. The engine's own deliveries are unchanged (S24).
///
/// Each physical touch (the delivery's `serial`) is its own UI contact: one contact id in the
/// frames (the controller's, unless the UI still shows an earlier touch with it: then the lowest
/// free one), so it lands with a tracking id of its own. Without `liftsOnTime` (`held_ends =
/// "delivered"`), when a recognizer withholds a touch's
/// `ended` (`delays_ended`, S24) and the next finger lands after that touch's finger lifted —
/// it has the same controller id, or the controller no longer reports the earlier one
/// (`observe`) — the new finger's deliveries wait until the earlier touch's end (or cancel) has
/// reached the UI: then it lands where it landed and moves to where it is now, as a held
/// `began` is released (a touch that ended meanwhile lands and lifts; one cancelled meanwhile
/// never reaches the UI). So the UI never sees two taps as one press, nor as two fingers at once.
///
/// Reports: deliveries of one instant for different touches make one report; a second delivery
/// for a contact already changed in the pending report (held deliveries released together, S24,
/// or a contact id lifted and taken again), or a later instant, first sends the pending report —
/// so the UI sees the held frames in order and every lift before the landing that follows it.
///
/// No I/O and no allocation: each finished report goes to `onFrame`; `flush` sends the pending one.
package final class PassthroughTracker {
    /// Region index → whether its touches reach the UI.
    package let forwarded: [Bool]
    /// Receives each report (the contacts the UI sees from then on).
    package var onFrame: ((TouchFrame) -> Void)?
    /// During `onFrame`: the contact ids (bit = id) that the report lifts because they were
    /// cancelled (S23), not ended.
    package private(set) var cancelledInReport: UInt64 = 0
    /// Touches that could not be followed (more than the table holds at once): not shown.
    package private(set) var touchesDropped = 0
    /// Whether a touch whose end is withheld (`delays_ended`) lifts for the UI when its finger
    /// lifts (board `held_ends = "on_time"`), rather than when the engine delivers its end.
    package let liftsOnTime: Bool
    private var visible: TouchFrame
    private var dirty = false
    /// Contact ids changed in the pending report (bit = id & 63).
    private var changed: UInt64 = 0
    private var pendingCancels: UInt64 = 0

    /// One physical touch the UI is shown, or that waits for an earlier touch's end.
    private struct Entry: BitwiseCopyable {
        var inUse = false
        var serial: UInt32 = 0
        /// The controller's id (what a later finger may reuse).
        var touch: UInt8 = 0
        /// The UI contact id while shown.
        var contact: UInt8 = 0
        var shown = false
        /// Waiting: where it landed and where it is; whether it ended or was cancelled meanwhile.
        var start = Point.zero
        var location = Point.zero
        var ended = false
        var cancelled = false
        /// Order of arrival (waiting touches are released oldest first).
        var order: UInt32 = 0
    }

    /// Controller ids down in the last frame observed (bit = id & 63); all until one is.
    private var down: UInt64 = ~0
    /// The last observed frame's instant (the UI's lift of a finger that lifted in it).
    private var observedAt = Instant.zero

    private static let capacity = 32
    private var entries = InlineArray<32, Entry>(repeating: Entry())
    private var arrivals: UInt32 = 0
    private var waiting = 0

    package init(forwarded: [Bool], liftsOnTime: Bool = true) {
        self.forwarded = forwarded
        self.liftsOnTime = liftsOnTime
        visible = TouchFrame(timestamp: .zero)
    }

    /// The frame the engine is about to process: which controller ids are down now, so a touch
    /// whose finger lifted is known even while its `ended` is withheld. Call it before
    /// `GestureEngine.process` (the recognizer stage and replay do); without it only a reused
    /// controller id tells.
    package func observe(_ frame: borrowing TouchFrame) {
        observedAt = frame.timestamp
        var ids: UInt64 = 0
        if !frame.isCancel {
            var i = 0
            while i < frame.count {
                ids |= 1 << UInt64(frame[i].id & 63)
                i += 1
            }
        }
        down = ids
    }

    package func deliver(_ d: RegionDelivery) {
        guard d.region >= 0, d.region < forwarded.count, forwarded[d.region] else { return }
        if dirty && d.time != visible.timestamp { release() }
        visible.timestamp = max(visible.timestamp, d.time)
        let e = entry(serial: d.serial)
        switch d.phase {
        case .began:
            guard e == nil else { return }
            guard let n = freeEntry() else {
                touchesDropped += 1
                return
            }
            arrivals &+= 1
            entries[n] = Entry(
                inUse: true, serial: d.serial, touch: d.touch, start: d.location, location: d.location, order: arrivals)
            if isBlocked(n) {
                waiting += 1
            } else {
                show(n)
            }
        case .moved:
            guard let e else { return }
            entries[e].location = d.location
            if entries[e].shown { move(e) }
        case .ended, .cancelled:
            guard let e else { return }
            entries[e].location = d.location
            if entries[e].shown {
                lift(e, cancelled: d.phase == .cancelled)
            } else {
                entries[e].ended = d.phase == .ended
                entries[e].cancelled = d.phase == .cancelled
            }
        }
    }

    /// After the engine processed a frame (or fired its timers): with `liftsOnTime`, lifts every
    /// shown touch whose finger is up although its end is withheld; then sends the pending report,
    /// if any, and releases the touches no longer waiting (each after the reports before it).
    package func flush() {
        if liftsOnTime { liftLiftedFingers() }
        release()
    }

    /// Lifts, as ordinary lifts at the observed frame's instant, the shown touches whose finger
    /// the last observed frame no longer reports (their `ended` withheld by a recognizer, S24).
    private func liftLiftedFingers() {
        var i = 0
        while i < Self.capacity {
            if entries[i].inUse && entries[i].shown && down & (1 << UInt64(entries[i].touch & 63)) == 0 {
                if dirty && visible.timestamp < observedAt { send() }
                visible.timestamp = max(visible.timestamp, observedAt)
                lift(i, cancelled: false)
            }
            i += 1
        }
    }

    /// Sends the pending report, if any, then releases the touches no longer waiting (each
    /// release after the reports before it).
    private func release() {
        send()
        guard waiting > 0 else { return }
        while let n = nextReleasable() {
            waiting -= 1
            if entries[n].cancelled {
                entries[n].inUse = false  // cancelled before the UI saw it: it never does
                continue
            }
            let location = entries[n].location
            entries[n].location = entries[n].start
            show(n)
            if location != entries[n].start {
                entries[n].location = location
                move(n)
            }
            if entries[n].ended { lift(n, cancelled: false) }
        }
        send()
    }

    // MARK: the UI's contacts

    private func send() {
        guard dirty else { return }
        dirty = false
        changed = 0
        cancelledInReport = pendingCancels
        pendingCancels = 0
        onFrame?(visible)
        cancelledInReport = 0
    }

    /// Marks contact `id` changed, sending the pending report first when it already changed it.
    private func touchContact(_ id: UInt8) {
        let bit: UInt64 = 1 << UInt64(id & 63)
        if dirty && changed & bit != 0 { send() }
        dirty = true
        changed |= bit
    }

    private func show(_ n: Int) {
        var used: UInt64 = 0
        var i = 0
        while i < visible.count {
            used |= 1 << UInt64(visible[i].id & 63)
            i += 1
        }
        // The controller's id when the UI has no contact with it, else the lowest free one.
        let own = entries[n].touch
        let id = own < 64 && used & (1 << UInt64(own)) == 0 ? own : UInt8((~used).trailingZeroBitCount)
        guard visible.count < TouchFrame.capacity && id < 64 else {
            touchesDropped += 1
            entries[n].inUse = false
            return
        }
        touchContact(id)
        entries[n].contact = id
        entries[n].shown = true
        visible.append(Contact(id: id, position: entries[n].location))
    }

    private func move(_ n: Int) {
        let id = entries[n].contact
        touchContact(id)
        var next = TouchFrame(timestamp: visible.timestamp)
        var i = 0
        while i < visible.count {
            var c = visible[i]
            i += 1
            if c.id == id { c.position = entries[n].location }
            next.append(c)
        }
        visible = next
    }

    private func lift(_ n: Int, cancelled: Bool) {
        let id = entries[n].contact
        touchContact(id)
        var next = TouchFrame(timestamp: visible.timestamp)
        var i = 0
        while i < visible.count {
            let c = visible[i]
            i += 1
            if c.id != id { next.append(c) }
        }
        visible = next
        if cancelled { pendingCancels |= 1 << UInt64(id & 63) } else { pendingCancels &= ~(1 << UInt64(id & 63)) }
        entries[n].inUse = false
    }

    // MARK: the table

    private func entry(serial: UInt32) -> Int? {
        var i = 0
        while i < Self.capacity {
            if entries[i].inUse && entries[i].serial == serial { return i }
            i += 1
        }
        return nil
    }

    private func freeEntry() -> Int? {
        var i = 0
        while i < Self.capacity {
            if !entries[i].inUse { return i }
            i += 1
        }
        return nil
    }

    /// An earlier touch whose finger has lifted has not reached its end in the UI: this touch's
    /// finger came after that one lifted, so it waits.
    private func isBlocked(_ n: Int) -> Bool {
        var i = 0
        while i < Self.capacity {
            if i != n && entries[i].inUse && isOlder(i, than: n) && hasLifted(i) { return true }
            i += 1
        }
        return false
    }

    private func isOlder(_ i: Int, than n: Int) -> Bool {
        Int32(bitPattern: entries[i].order &- entries[n].order) < 0
    }

    /// Entry `i`'s finger is up: the controller no longer reports its id, or a later touch has it.
    private func hasLifted(_ i: Int) -> Bool {
        if down & (1 << UInt64(entries[i].touch & 63)) == 0 { return true }
        var j = 0
        while j < Self.capacity {
            if j != i && entries[j].inUse && entries[j].touch == entries[i].touch && isOlder(i, than: j) { return true }
            j += 1
        }
        return false
    }

    /// The oldest waiting touch that no longer waits, if any.
    private func nextReleasable() -> Int? {
        var best = -1
        var i = 0
        while i < Self.capacity {
            if entries[i].inUse && !entries[i].shown && !isBlocked(i)
                && (best < 0 || Int32(bitPattern: entries[i].order &- entries[best].order) < 0)
            {
                best = i
            }
            i += 1
        }
        return best >= 0 ? best : nil
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

/// The virtual touchscreen the UI reads (`[passthrough]`): a `VirtualInputDevice` of the panel's
/// size (a uinput node in `run`, a `RecordingInputDevice` in tests), written with what
/// `PassthroughTracker` says the UI sees.
package final class PassthroughTouchscreen {
    package let device: any VirtualInputDevice
    private var encoder: MultiTouchEncoder
    private var events: [InputEvent] = []
    private var bytes: [UInt8] = []
    /// Reports the device did not take whole.
    package private(set) var failedReports = 0
    /// The engine's sink in the service (the engine holds it too).
    var sink: PassthroughSink?

    /// `device` is open, with `slots` slots and ABS_MT_TOOL_TYPE, so a cancelled touch reaches
    /// the UI as a cancel (`MultiTouchEncoder.marksCancels`).
    package init(device: any VirtualInputDevice, slots: Int) {
        self.device = device
        encoder = MultiTouchEncoder(slots: slots, marksCancels: true)
        events.reserveCapacity(128)
        bytes.reserveCapacity(128 * InputEvent.byteCount)
    }

    package var sysName: String { device.sysName }

    /// Removes the virtual touchscreen; frames written after it are lost.
    package func close() { device.close() }

    /// Writes the records taking the device to `frame`; `cancelled` (bit = contact id): the
    /// contacts it lifts as cancels (`PassthroughTracker.cancelledInReport`).
    package func write(_ frame: TouchFrame, cancelled: UInt64 = 0) {
        events.removeAll(keepingCapacity: true)
        encoder.encode(frame, cancelled: cancelled, into: &events)
        guard !events.isEmpty else { return }
        bytes.removeAll(keepingCapacity: true)
        for e in events { e.encode(into: &bytes) }
        if !bytes.withUnsafeBytes({ device.write($0) }) { failedReports += 1 }
    }
}

/// `[passthrough]` as the composition root hands it to the service: the touchscreen, open, and
/// which regions' touches reach the UI (region index → forwarded, in the engine's order).
package struct PassthroughOutput {
    package var screen: PassthroughTouchscreen
    package var forwarded: [Bool]
    /// `[passthrough] held_ends = "on_time"` (the default): see `PassthroughTracker.liftsOnTime`.
    package var liftsOnTime: Bool
    package init(screen: PassthroughTouchscreen, forwarded: [Bool], liftsOnTime: Bool = true) {
        self.screen = screen
        self.forwarded = forwarded
        self.liftsOnTime = liftsOnTime
    }
}

/// Puts the passthrough tracker between the engine and its sink, writing to the touchscreen.
enum PassthroughSetup {
    static func attach(
        _ output: PassthroughOutput, engine: GestureEngine, events: any GestureEventSink, stage: RecognizerStage
    ) -> PassthroughTouchscreen {
        let screen = output.screen
        let tracker = PassthroughTracker(forwarded: output.forwarded, liftsOnTime: output.liftsOnTime)
        tracker.onFrame = { [unowned screen, unowned tracker] frame in
            screen.write(frame, cancelled: tracker.cancelledInReport)
        }
        let sink = PassthroughSink(inner: events, tracker: tracker)
        screen.sink = sink
        engine.sink = sink
        stage.passthrough = tracker
        return screen
    }
}
