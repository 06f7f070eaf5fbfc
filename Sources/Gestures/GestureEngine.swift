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
    /// The engine's mutable fields (`recognizers`, `sink`, `now`, the masks…; the properties
    /// forwarding to them are in GestureEngine+Fields.swift): its only `@exclusivity(unchecked)`
    /// stored property, touched only by the thread holding the recognizer stage
    /// (docs/ARCHITECTURE.md, "Unchecked storage").
    @exclusivity(unchecked) var fields: EngineFields
    /// Pixels per point, for thresholds given in points.
    public let pixelsPerPoint: Double

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

    func diagnose(_ r: GestureRecognizer, _ message: String, _ kind: Diagnostic.Kind = .failed) {
        diagnostics?(Diagnostic(time: now, recognizer: r.name, message: message, kind: kind))
    }

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

    /// The recognizers by index without reference counting (`RecognizerTable`'s contract):
    /// `recognizers` keeps each one alive; reading one here on the per-frame path costs no
    /// retain/release.
    let table: RecognizerTable
    /// Each recognizer's armed timer deadline in microseconds, or `Int64.max` (by index; kept by
    /// `timerChanged`): the deadline loop reads this table instead of the recognizers.
    let deadlines: UnsafeMutablePointer<Int64>

    /// Recognizer `i`, unretained (the `recognizers` array owns it for the engine's lifetime).
    @inline(__always) func recognizer(_ i: Int) -> GestureRecognizer { table[i] }
    /// `body(recognizer i)` with a guaranteed reference: no retain/release around the call.
    @inline(__always) func withRecognizer<R>(_ i: Int, _ body: (GestureRecognizer) -> R) -> R {
        table.with(i, body)
    }

    /// Two touch sets, allocated once, that phase deliveries are built in (`deliverPhasesToRecognizers`):
    /// the set of every touch in a phase, and one for a recognizer receiving only some of them.
    /// Built in place and handed to the callbacks from here: no 900-byte set copied per call.
    let phaseSets: UnsafeMutablePointer<TouchSet>

    /// The touch table, allocated once (a raw buffer: no copy-on-write or exclusivity checks per access).
    let records: UnsafeMutablePointer<TouchRecord>
    /// Tracking ids the engine tells apart (controllers report 0…9, GT911 up to 15): a contact's
    /// id is taken modulo this (`trackingSlot`). The one place the limit is written; the tables
    /// sized by it (`slotForID`, the `downIDs` bit set) are checked against it in `init`.
    public static let trackingIDs = 16

    /// The table index of tracking id `id`.
    @inline(__always) static func trackingSlot(_ id: UInt8) -> Int { Int(id) % trackingIDs }
    /// The actions of the step being handled (`actionCapacity` of them at most), allocated once:
    /// a plain buffer and a count, emptied by resetting the count.
    let pending: UnsafeMutablePointer<GestureEvent>
    let actionCapacity: Int

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
        table = RecognizerTable()
        deadlines = .allocate(capacity: GestureEngine.maximumRecognizers)
        deadlines.initialize(repeating: .max, count: GestureEngine.maximumRecognizers)
        phaseSets = .allocate(capacity: 2)
        phaseSets.initialize(repeating: TouchSet(), count: 2)
        pending = .allocate(capacity: actionCapacity)
        fields = EngineFields(regionCount: regions.count, tapCountDistance: 45 * pixelsPerPoint)
        precondition(slotForID.count == GestureEngine.trackingIDs && UInt16.bitWidth == GestureEngine.trackingIDs)
    }

    deinit {
        for r in recognizers {
            r.engine = nil  // the owner clears the links it handed out (`UnownedLink`)
            r.region = nil
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
        table.install(recognizer, at: recognizers.count)
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
            withRecognizer(i) { r in
                r.timerDeadline = nil
                isProcessing = true
                if r.isEnabled && !r.committedState.isTerminal { r.timerFired() }
            }
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
