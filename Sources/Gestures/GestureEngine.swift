import TouchCore

/// Routes touches to regions and recognizers and arbitrates between recognizers, with the
/// semantics of UIKit's gesture system (`gesture-semantics.md` S1–S29).
///
/// The loop hands it frames (`process(_:)`) and the passage of time (`advance(to:)`); it never
/// reads a clock, so a trace replays to the same events on every run. After `init` and the
/// `add` calls nothing on the per-frame path allocates: touches live in a fixed table, touch
/// sets are fixed-capacity values, and actions queue in storage reserved up front.
public final class GestureEngine {
    /// The most recognizers one engine holds (relations are kept as 64-bit masks).
    public static let maximumRecognizers = 64
    /// Touches remembered at once: fingers down plus lifted touches a recognizer still holds.
    public static let touchTableSize = 32

    public let root: Region
    /// Every region, depth first from the root; `Region.index` is the position here.
    public let regions: [Region]
    @exclusivity(unchecked) public internal(set) var recognizers: [GestureRecognizer] = []
    /// Receives the actions' events and the region deliveries. Held strongly (until issue 16's
    /// fourth pass it was weak: a weak load and a slow release on every step with events); set
    /// it to nil to let go of the sink, and a sink must not hold its engine strongly.
    @exclusivity(unchecked) public var sink: GestureEventSink? {
        didSet { sinkTakesDeliveries = sink?.takesRegionDeliveries ?? false }
    }
    /// `sink?.takesRegionDeliveries`, read when the sink is set.
    @exclusivity(unchecked) var sinkTakesDeliveries = false
    /// Pixels per point, for thresholds given in points.
    public let pixelsPerPoint: Double

    /// The instant of the frame or timer being handled.
    @exclusivity(unchecked) public internal(set) var now: Instant = .zero

    /// One line of the diagnostic trace: why a recognizer failed, waited or was cancelled.
    public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
        /// What the line reports, whatever its wording: a reader (`plot --timeline`) goes by this,
        /// never by the message's first word (a recognizer's own `fail(because:)` reason reads
        /// "finger moved 23 pt, …", not "failed: …").
        public enum Kind: Sendable, Equatable {
            /// The recognizer failed (S2/S3): it is out of this gesture.
            case failed
            /// It would change state but holds the transition until another fails (S15).
            case waiting
            /// Every recognizer it required to fail has failed: the held transition is committed.
            case released
            /// Its touches were cancelled by the system (S9).
            case cancelled
            /// It was disabled (S10).
            case disabled
        }

        public var time: Instant
        public var recognizer: String
        public var message: String
        public var kind: Kind
        public var description: String { "\(time.microseconds) \(recognizer): \(message)" }

        public init(time: Instant, recognizer: String, message: String, kind: Kind) {
            self.time = time
            self.recognizer = recognizer
            self.message = message
            self.kind = kind
        }
    }

    /// When set, the engine reports every failure, hold and cancel with its reason — the answer
    /// to "why didn't my gesture fire?". Off by default; costs nothing when off.
    @exclusivity(unchecked) public var diagnostics: ((Diagnostic) -> Void)?

    func diagnose(_ r: GestureRecognizer, _ message: String, _ kind: Diagnostic.Kind = .failed) {
        diagnostics?(Diagnostic(time: now, recognizer: r.name, message: message, kind: kind))
    }

    /// Touches that landed outside the root region (ignored).
    @exclusivity(unchecked) public internal(set) var touchesOutsideRoot = 0
    /// Actions dropped because more than `actionCapacity` happened in one step (never expected).
    @exclusivity(unchecked) public internal(set) var droppedActions = 0
    /// Touches refused because the touch table was full (never expected).
    @exclusivity(unchecked) public internal(set) var droppedTouches = 0

    // MARK: storage allocated once

    struct TouchRecord {
        var inUse = false
        var touch: Touch
        var isDown = false
        var endedAt = Instant(microseconds: -1)
        /// Recognizers receiving this touch (bit = recognizer index).
        var receivers: UInt64 = 0
        /// Region delivery state (S22–S27).
        var deliveryRegion = -1
        var beganDelivered = false
        var beganWithheld = false
        var endedWithheld = false
        var finishedOnRegion = false
        var lastDelivered = Point.zero
        /// Recognizers whose touch list holds this record.
        var references = 0
    }

    /// The recognizer table without reference counting, allocated once (capacity
    /// `maximumRecognizers`): `recognizers` keeps each one alive; reading one from here on the
    /// per-frame path costs no retain/release (`recognizer(_:)`).
    let table: UnsafeMutablePointer<Unmanaged<GestureRecognizer>>
    /// Each recognizer's armed timer deadline in microseconds, or `Int64.max` (by index; kept by
    /// `timerChanged`): the deadline loop reads this table instead of the recognizers.
    let deadlines: UnsafeMutablePointer<Int64>

    /// Recognizer `i`, unretained (the `recognizers` array owns it for the engine's lifetime).
    @inline(__always) func recognizer(_ i: Int) -> GestureRecognizer { table[i].takeUnretainedValue() }
    /// `body(recognizer i)` with a guaranteed reference: no retain/release around the call.
    @inline(__always) func withRecognizer<R>(_ i: Int, _ body: (GestureRecognizer) -> R) -> R {
        table[i]._withUnsafeGuaranteedRef(body)
    }

    /// Two touch sets, allocated once, that phase deliveries are built in (`deliverPhasesToRecognizers`):
    /// the set of every touch in a phase, and one for a recognizer receiving only some of them.
    /// Built in place and handed to the callbacks from here: no 900-byte set copied per call.
    let phaseSets: UnsafeMutablePointer<TouchSet>

    /// The touch table, allocated once (a raw buffer: no copy-on-write or exclusivity checks per access).
    let records: UnsafeMutablePointer<TouchRecord>
    /// Records in use (bit = record index; the table has 32 entries).
    @exclusivity(unchecked) var inUseRecords: UInt32 = 0
    /// Tracking ids the engine tells apart (controllers report 0…9, GT911 up to 15): a contact's
    /// id is taken modulo this (`trackingSlot`). The one place the limit is written; the tables
    /// sized by it (`slotForID`, the `downIDs` bit set) are checked against it in `init`.
    public static let trackingIDs = 16

    /// The table index of tracking id `id`.
    @inline(__always) static func trackingSlot(_ id: UInt8) -> Int { Int(id) % trackingIDs }
    /// Controller tracking id → record index (ids 0…15), or -1.
    @exclusivity(unchecked) var slotForID: InlineArray<16, Int16> = InlineArray(repeating: -1)
    @exclusivity(unchecked) var nextSerial: UInt32 = 0
    /// The actions of the step being handled (`actionCapacity` of them at most), allocated once:
    /// a plain buffer and a count, emptied by resetting the count.
    let pending: UnsafeMutablePointer<GestureEvent>
    @exclusivity(unchecked) var pendingCount = 0
    let actionCapacity: Int
    @exclusivity(unchecked) var regionActiveTouches: ContiguousArray<Int>
    /// By region index: the recognizers attached to that region or an ancestor (bit = index), the
    /// only ones a touch landing there is offered to (S8). Rebuilt with the relations.
    @exclusivity(unchecked) var recognizersOver: ContiguousArray<UInt64>
    @exclusivity(unchecked) var isProcessing = false
    @exclusivity(unchecked) var isDeliveringFrame = false
    @exclusivity(unchecked) var deferredMask: UInt64 = 0
    @exclusivity(unchecked) var relationsDirty = true
    /// For tap counts (S13): the last lifted touch.
    @exclusivity(unchecked) var lastTapEnd = Instant(microseconds: .min / 2)
    @exclusivity(unchecked) var lastTapLocation = Point.zero
    @exclusivity(unchecked) var lastTapCount = 0
    /// Window and distance within which a new touch continues a tap count.
    @exclusivity(unchecked) public var tapCountInterval: Int64 = 300_000
    @exclusivity(unchecked) public var tapCountDistance: Double

    /// The actions one step queues at most by default (`init`'s `actionCapacity`).
    public static let defaultActionCapacity = 256

    /// An engine for the region tree under `root`. `actionCapacity`: the actions one step may
    /// queue (S5), allocated once (a microcontroller's firmware takes fewer: docs/mcu.md);
    /// beyond it they are dropped and counted (`droppedActions`).
    public init(root: Region, pixelsPerPoint: Double = 1, actionCapacity: Int = GestureEngine.defaultActionCapacity) {
        precondition(actionCapacity > 0, "GestureEngine: actionCapacity must be positive")
        self.actionCapacity = actionCapacity
        self.root = root
        self.pixelsPerPoint = pixelsPerPoint
        regions = root.flattened()
        for (i, r) in regions.enumerated() { r.index = i }
        let blank = Touch(
            serial: 0, id: 0, phase: .began, location: .zero, previousLocation: .zero, startLocation: .zero,
            beganAt: .zero, timestamp: .zero, tapCount: 0, region: 0)
        records = .allocate(capacity: GestureEngine.touchTableSize)
        records.initialize(repeating: TouchRecord(touch: blank), count: GestureEngine.touchTableSize)
        table = .allocate(capacity: GestureEngine.maximumRecognizers)
        deadlines = .allocate(capacity: GestureEngine.maximumRecognizers)
        deadlines.initialize(repeating: .max, count: GestureEngine.maximumRecognizers)
        phaseSets = .allocate(capacity: 2)
        phaseSets.initialize(repeating: TouchSet(), count: 2)
        pending = .allocate(capacity: actionCapacity)
        regionActiveTouches = ContiguousArray(repeating: 0, count: regions.count)
        recognizersOver = ContiguousArray(repeating: 0, count: regions.count)
        tapCountDistance = 45 * pixelsPerPoint
        precondition(slotForID.count == GestureEngine.trackingIDs && UInt16.bitWidth == GestureEngine.trackingIDs)
    }

    deinit {
        for r in recognizers {
            r.engineLink = nil
            r.regionLink = nil
        }
        records.deinitialize(count: GestureEngine.touchTableSize)
        records.deallocate()
        table.deallocate()
        deadlines.deallocate()
        phaseSets.deallocate()
        pending.deallocate()
    }

    /// Attaches `recognizer` to `region` (UIView.addGestureRecognizer). Set-up only.
    public func add(_ recognizer: GestureRecognizer, to region: Region) {
        precondition(
            recognizers.count < GestureEngine.maximumRecognizers, "GestureEngine.add: more than 64 recognizers")
        precondition(
            regions.contains { $0 === region }, "GestureEngine.add: region \(region.name) is not in this engine")
        precondition(recognizer.engine == nil, "GestureEngine.add: \(recognizer.name) is already installed")
        recognizer.engine = self
        recognizer.region = region
        recognizer.index = recognizers.count
        table[recognizers.count] = Unmanaged.passUnretained(recognizer)
        deadlines[recognizers.count] = recognizer.timerDeadline?.microseconds ?? .max
        if recognizer.timerDeadline != nil { timerMask |= 1 << UInt64(recognizer.index) }
        earliestTimerIndex = -1
        if recognizer.committedState.isTerminal { terminalMask |= 1 << UInt64(recognizer.index) }
        if recognizer.heldTransition != nil { heldMask |= 1 << UInt64(recognizer.index) }
        recognizer.measuredStamp = 0  // no measure from another engine counts here
        recognizers.append(recognizer)
        relationsDirty = true
    }

    /// The recognizer named `name`.
    public func recognizer(named name: String) -> GestureRecognizer? { recognizers.first { $0.name == name } }
    /// The region named `name`.
    public func region(named name: String) -> Region? { regions.first { $0.name == name } }

    /// The earliest pending timer deadline, or nil when no timer is armed — the loop sleeps until then.
    public var nextDeadline: Instant? { earliestTimer()?.1 }

    /// True while any finger is down.
    public var hasTouchesDown: Bool { downIDs != 0 }

    /// Recognizers that reached a terminal state since their last reset (bit = index; set by
    /// `GestureRecognizer.committedState`): the only ones `finishStep` resets.
    @exclusivity(unchecked) var terminalMask: UInt64 = 0
    /// Recognizers that received a touch since their last reset (bit = index; `isInvolved`).
    @exclusivity(unchecked) var involvedMask: UInt64 = 0

    /// The armed timer due first (recognizer index), or -1 when not known: found by
    /// `earliestTimer` once, forgotten by `timerChanged`, so the deadline loop rarely scans.
    @exclusivity(unchecked) var earliestTimerIndex = -1

    /// Recognizers holding a transition until others fail (bit = index; `heldTransition` keeps it).
    @exclusivity(unchecked) var heldMask: UInt64 = 0

    /// Recognizers whose timer is armed (bit = recognizer index), kept by `timerChanged`.
    @exclusivity(unchecked) var timerMask: UInt64 = 0
    /// Controller tracking ids whose finger is down (bit = id).
    @exclusivity(unchecked) var downIDs: UInt16 = 0
    /// Changes whenever something a recognizer's centroid or touch count depends on may have
    /// changed: the instant, a touch record, a recognizer's touch list or receivers. Recognizers
    /// keep the last measure with the stamp it was made at (`GestureRecognizer.measuredStamp`).
    @exclusivity(unchecked) var touchStamp: UInt64 = 1

    func timerChanged(_ r: GestureRecognizer) {
        guard r.index >= 0 else { return }
        earliestTimerIndex = -1
        if let d = r.timerDeadline {
            timerMask |= 1 << UInt64(r.index)
            deadlines[r.index] = d.microseconds
        } else {
            timerMask &= ~(1 << UInt64(r.index))
            deadlines[r.index] = .max
        }
    }

    // MARK: the loop's entry points

    /// Fires every timer due at or before `instant`, each at its own deadline, then moves the clock to `instant`.
    public func advance(to instant: Instant) { advance(to: instant, holding: 0) }

    /// `advance(to:)`, except that the timers of the recognizers in `held` (bit = index) due
    /// exactly at `instant` stay armed: they are fired after the frame at `instant` (see `process`).
    @inline(__always) func advance(to instant: Instant, holding held: UInt64) {
        // No timer due by `instant` (the usual case), known from the remembered earliest one:
        // the clock moves on without a search or a call.
        if held == 0
            && (timerMask == 0 || (earliestTimerIndex >= 0 && deadlines[earliestTimerIndex] > instant.microseconds))
        {
            if instant > now { now = instant }
            touchStamp &+= 1
        } else {
            fireTimers(upTo: instant, holding: held)
        }
    }

    /// `advance(to:holding:)` when a timer may be due.
    func fireTimers(upTo instant: Instant, holding held: UInt64) {
        while let (i, deadline) = earliestTimer(holding: held, at: instant), deadline <= instant {
            if deadline > now { now = deadline }
            touchStamp &+= 1
            unowned(unsafe) let r = recognizer(i)
            r.timerDeadline = nil
            isProcessing = true
            if r.isEnabled && !r.committedState.isTerminal { r.timerFired() }
            finishStep()
        }
        if instant > now { now = instant }
        touchStamp &+= 1
    }

    /// Runs the clock on until no timer is pending (the end of a replay).
    public func drainTimers() {
        while let (_, deadline) = earliestTimer() { advance(to: deadline) }
    }

    /// Handles one frame: timers due before it, then touch phases (S8, S9, S13), recognizer
    /// callbacks, arbitration (S14–S21), region deliveries (S22–S29), actions (S5) and resets (S6).
    ///
    /// A timer due at the frame's very instant fires before the frame (a tap's window closes
    /// at `max_interval_ms`: a touch landing then is too late), except the timer of a
    /// recognizer holding a touch that the frame lifts or cancels: a frame reports the contacts
    /// at its instant, so those fingers are no longer down then, and the recognizer learns it
    /// before its timer fires ("Time" in gesture-semantics.md). A long press lifted or cancelled
    /// exactly `min_duration_ms` after its touch began therefore fails instead of beginning
    /// with no finger down (S3, S9).
    public func process(_ frame: TouchFrame) {
        withUnsafePointer(to: frame) { process(frameAt: $0) }
    }

    /// `process(_:)` on a frame read where it lies (the frame ring's slot): no copy of the frame.
    package func process(frameAt frame: UnsafePointer<TouchFrame>) {
        // (A frame stamped before `now` is handled at `now`, after every timer due by then.)
        let timestamp = frame.pointee.timestamp
        let held = timerMask == 0 || downIDs == 0 || timestamp < now ? 0 : receiversOfTouchesEnded(by: frame)
        advance(to: timestamp, holding: held)
        apply(frame)
        // The timers held back above (unless the frame disarmed them), and any due now that it armed.
        if held != 0 { advance(to: now) }
    }

    /// Recognizers (bit = index) receiving a touch that `frame` lifts or cancels.
    func receiversOfTouchesEnded(by frame: UnsafePointer<TouchFrame>) -> UInt64 {
        var ending = downIDs
        if !frame.pointee.isCancel {
            for i in 0..<frame.pointee.count {
                ending &= ~(1 << UInt16(GestureEngine.trackingSlot(frame.pointee[i].id)))
            }
        }
        var mask: UInt64 = 0
        while ending != 0 {
            let s = Int(slotForID[ending.trailingZeroBitCount])
            ending &= ending - 1
            if s >= 0 { mask |= records[s].receivers }
        }
        return mask
    }

    func apply(_ frame: UnsafePointer<TouchFrame>) {
        if frame.pointee.timestamp > now { now = frame.pointee.timestamp }
        touchStamp &+= 1
        prepareRelationsIfNeeded()
        isProcessing = true
        if frame.pointee.isCancel {
            cancelAllTouches()
            finishStep()
            return
        }
        var changed = false
        // Lifts: every finger down that the frame no longer reports.
        var reported: UInt16 = 0
        let count = frame.pointee.count
        for i in 0..<count { reported |= 1 << UInt16(GestureEngine.trackingSlot(frame.pointee[i].id)) }
        var lifted = downIDs & ~reported
        while lifted != 0 {
            let id = lifted.trailingZeroBitCount
            lifted &= lifted - 1
            let s = Int(slotForID[id])
            downIDs &= ~(1 << UInt16(id))
            if s >= 0 {
                records[s].isDown = false
                records[s].endedAt = now
                records[s].touch.phase = .ended
                records[s].touch.previousLocation = records[s].touch.location
                records[s].touch.timestamp = now
                slotForID[id] = -1
                lastTapEnd = now
                lastTapLocation = records[s].touch.location
                lastTapCount = records[s].touch.tapCount
                changed = true
            }
        }
        // Moves and new touches.
        for i in 0..<count {
            let c = frame.pointee[i]
            let id = GestureEngine.trackingSlot(c.id)
            let s = Int(slotForID[id])
            if s >= 0 {
                records[s].touch.previousLocation = records[s].touch.location
                records[s].touch.timestamp = now
                if records[s].touch.location != c.position {
                    records[s].touch.location = c.position
                    records[s].touch.phase = .moved
                    changed = true
                } else {
                    records[s].touch.phase = .stationary
                }
            } else if beginTouch(c) {
                changed = true
            }
        }
        touchStamp &+= 1  // the frame's moves and lifts
        if changed {
            isDeliveringFrame = true
            deliverPhasesToRecognizers()
            isDeliveringFrame = false
            if deferredMask != 0 { resolveDeferredTransitions() }
        }
        deliverPhasesToRegions()
        finishStep()
    }
}
