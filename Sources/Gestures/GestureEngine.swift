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
    public private(set) var recognizers: [GestureRecognizer] = []
    public weak var sink: GestureEventSink?
    /// Pixels per point, for thresholds given in points.
    public let pixelsPerPoint: Double

    /// The instant of the frame or timer being handled.
    public private(set) var now: Instant = .zero

    /// One line of the diagnostic trace: why a recognizer failed, waited or was cancelled.
    public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
        public var time: Instant
        public var recognizer: String
        public var message: String
        public var description: String { "\(time.microseconds) \(recognizer): \(message)" }
    }

    /// When set, the engine reports every failure, hold and cancel with its reason — the answer
    /// to "why didn't my gesture fire?". Off by default; costs nothing when off.
    public var diagnostics: ((Diagnostic) -> Void)?

    func diagnose(_ r: GestureRecognizer, _ message: String) {
        diagnostics?(Diagnostic(time: now, recognizer: r.name, message: message))
    }

    /// Touches that landed outside the root region (ignored).
    public private(set) var touchesOutsideRoot = 0
    /// Actions dropped because more than `actionCapacity` happened in one step (never expected).
    public private(set) var droppedActions = 0
    /// Touches refused because the touch table was full (never expected).
    public private(set) var droppedTouches = 0

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

    /// The touch table, allocated once (a raw buffer: no copy-on-write or exclusivity checks per access).
    let records: UnsafeMutablePointer<TouchRecord>
    /// Records in use (bit = record index; the table has 32 entries).
    var inUseRecords: UInt32 = 0
    /// Tracking ids the engine tells apart: a contact's id is taken modulo this (ids 0…15).
    public static let trackingIDs = 16
    /// Controller tracking id → record index (ids 0…15), or -1.
    var slotForID: InlineArray<16, Int16> = InlineArray(repeating: -1)
    var nextSerial: UInt32 = 0
    var pending: ContiguousArray<GestureEvent>
    let actionCapacity = 256
    var regionActiveTouches: ContiguousArray<Int>
    var isProcessing = false
    var isDeliveringFrame = false
    var deferredMask: UInt64 = 0
    var relationsDirty = true
    /// For tap counts (S13): the last lifted touch.
    var lastTapEnd = Instant(microseconds: .min / 2)
    var lastTapLocation = Point.zero
    var lastTapCount = 0
    /// Window and distance within which a new touch continues a tap count.
    public var tapCountInterval: Int64 = 300_000
    public var tapCountDistance: Double

    /// An engine for the region tree under `root`.
    public init(root: Region, pixelsPerPoint: Double = 1) {
        self.root = root
        self.pixelsPerPoint = pixelsPerPoint
        regions = root.flattened()
        for (i, r) in regions.enumerated() { r.index = i }
        let blank = Touch(
            serial: 0, id: 0, phase: .began, location: .zero, previousLocation: .zero, startLocation: .zero,
            beganAt: .zero, timestamp: .zero, tapCount: 0, region: 0)
        records = .allocate(capacity: GestureEngine.touchTableSize)
        records.initialize(repeating: TouchRecord(touch: blank), count: GestureEngine.touchTableSize)
        pending = []
        pending.reserveCapacity(actionCapacity)
        regionActiveTouches = ContiguousArray(repeating: 0, count: regions.count)
        tapCountDistance = 45 * pixelsPerPoint
    }

    deinit {
        for r in recognizers {
            r.engineLink = nil
            r.regionLink = nil
        }
        records.deinitialize(count: GestureEngine.touchTableSize)
        records.deallocate()
    }

    /// Attaches `recognizer` to `region` (UIView.addGestureRecognizer). Set-up only.
    public func add(_ recognizer: GestureRecognizer, to region: Region) {
        precondition(recognizers.count < GestureEngine.maximumRecognizers, "GestureEngine.add: more than 64 recognizers")
        precondition(regions.contains { $0 === region }, "GestureEngine.add: region \(region.name) is not in this engine")
        precondition(recognizer.engine == nil, "GestureEngine.add: \(recognizer.name) is already installed")
        recognizer.engine = self
        recognizer.region = region
        recognizer.index = recognizers.count
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

    /// Recognizers whose timer is armed (bit = recognizer index), kept by `timerChanged`.
    var timerMask: UInt64 = 0
    /// Controller tracking ids whose finger is down (bit = id).
    var downIDs: UInt16 = 0

    func timerChanged(_ r: GestureRecognizer) {
        guard r.index >= 0 else { return }
        if r.timerDeadline == nil { timerMask &= ~(1 << UInt64(r.index)) } else { timerMask |= 1 << UInt64(r.index) }
    }

    // MARK: the loop's entry points

    /// Fires every timer due at or before `instant`, each at its own deadline, then moves the clock to `instant`.
    public func advance(to instant: Instant) {
        while let (r, deadline) = earliestTimer(), deadline <= instant {
            if deadline > now { now = deadline }
            r.timerDeadline = nil
            isProcessing = true
            if r.isEnabled && !r.committedState.isTerminal { r.timerFired() }
            finishStep()
        }
        if instant > now { now = instant }
    }

    /// Runs the clock on until no timer is pending (the end of a replay).
    public func drainTimers() {
        while let (_, deadline) = earliestTimer() { advance(to: deadline) }
    }

    /// Handles one frame: timers due before it, then touch phases (S8, S9, S13), recognizer
    /// callbacks, arbitration (S14–S21), region deliveries (S22–S29), actions (S5) and resets (S6).
    public func process(_ frame: TouchFrame) {
        advance(to: frame.timestamp)
        if frame.timestamp > now { now = frame.timestamp }
        prepareRelationsIfNeeded()
        isProcessing = true
        if frame.isCancel {
            cancelAllTouches()
            finishStep()
            return
        }
        var changed = false
        // Lifts: every finger down that the frame no longer reports.
        var reported: UInt16 = 0
        for i in 0..<frame.count { reported |= 1 << UInt16(frame[i].id & 0x0F) }
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
        for i in 0..<frame.count {
            let c = frame[i]
            let id = Int(c.id & 0x0F)
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
        if changed {
            isDeliveringFrame = true
            deliverPhasesToRecognizers()
            isDeliveringFrame = false
            resolveDeferredTransitions()
        }
        deliverPhasesToRegions()
        finishStep()
    }

    // MARK: touches

    private func beginTouch(_ c: Contact) -> Bool {
        guard let hit = root.hitTest(c.position) else {
            touchesOutsideRoot += 1
            return false
        }
        guard let s = freeRecord() else {
            droppedTouches += 1
            return false
        }
        nextSerial &+= 1
        let quick = now.microseconds(since: lastTapEnd) <= tapCountInterval
        let near = lastTapLocation.distance(to: c.position) <= tapCountDistance
        let tapCount = quick && near ? lastTapCount + 1 : 1
        inUseRecords |= 1 << UInt32(s)
        records[s] = TouchRecord(
            inUse: true,
            touch: Touch(
                serial: nextSerial, id: c.id, phase: .began, location: c.position, previousLocation: c.position,
                startLocation: c.position, beganAt: now, timestamp: now, tapCount: tapCount, region: hit.index),
            isDown: true)
        slotForID[Int(c.id & 0x0F)] = Int16(s)
        downIDs |= 1 << UInt16(c.id & 0x0F)
        // S8: recognizers of the hit region and its ancestors; S10 enabled; S20 shouldReceive.
        var mask: UInt64 = 0
        for r in recognizers {
            guard r.isEnabled, !r.committedState.isTerminal, let region = r.region, hit.isDescendant(of: region)
            else { continue }
            if let d = r.delegate, !d.gestureRecognizer(r, shouldReceive: records[s].touch) { continue }
            guard r.touchSlotCount < 16 else { continue }
            r.touchSlots[r.touchSlotCount] = Int16(s)
            r.touchSlotCount += 1
            r.isInvolved = true
            records[s].references += 1
            mask |= 1 << UInt64(r.index)
        }
        records[s].receivers = mask
        return true
    }

    private func freeRecord() -> Int? {
        for i in 0..<GestureEngine.touchTableSize where !records[i].inUse { return i }
        return nil
    }

    /// S9: a system cancel — every touch in progress is cancelled.
    private func cancelAllTouches() {
        var any = false
        downIDs = 0
        for id in 0..<GestureEngine.trackingIDs {
            let s = Int(slotForID[id])
            guard s >= 0 else { continue }
            records[s].isDown = false
            records[s].endedAt = now
            records[s].touch.phase = .cancelled
            records[s].touch.timestamp = now
            slotForID[id] = -1
            any = true
        }
        guard any else { return }
        for r in recognizers where r.isEnabled && !r.committedState.isTerminal {
            let set = phaseSet(of: r, .cancelled)
            if !set.isEmpty {
                if diagnostics != nil { diagnose(r, "system cancel: touches cancelled (S9)") }
                r.touchesCancelled(set)
            }
        }
        for s in 0..<GestureEngine.touchTableSize where records[s].inUse && records[s].touch.phase == .cancelled {
            cancelOnRegion(s)
            records[s].beganWithheld = false
            records[s].endedWithheld = false
        }
    }

    /// Whether the recognizer has a touch in `phase` this frame (cheaper than building the set).
    private func hasTouch(of r: GestureRecognizer, in phase: TouchPhase) -> Bool {
        let bit: UInt64 = 1 << UInt64(r.index)
        for k in 0..<r.touchSlotCount {
            let s = Int(r.touchSlots[k])
            guard s >= 0, records[s].inUse, records[s].receivers & bit != 0 else { continue }
            if records[s].touch.phase == phase && records[s].touch.timestamp == now { return true }
        }
        return false
    }

    /// The recognizer's touches in `phase` this frame.
    private func phaseSet(of r: GestureRecognizer, _ phase: TouchPhase) -> TouchSet {
        var set = TouchSet()
        for k in 0..<r.touchSlotCount {
            let s = Int(r.touchSlots[k])
            guard s >= 0, records[s].inUse, records[s].receivers & (1 << UInt64(r.index)) != 0 else { continue }
            let t = records[s].touch
            if t.phase == phase && t.timestamp == now { set.insert(t) }
        }
        return set
    }

    private func deliverPhasesToRecognizers() {
        // Which recognizers have a touch in each phase this frame: only those are called.
        var began: UInt64 = 0, moved: UInt64 = 0, ended: UInt64 = 0
        var live = inUseRecords
        while live != 0 {
            let s = live.trailingZeroBitCount
            live &= live - 1
            guard records[s].touch.timestamp == now else { continue }
            switch records[s].touch.phase {
            case .began: began |= records[s].receivers
            case .moved: moved |= records[s].receivers
            case .ended: ended |= records[s].receivers
            default: break
            }
        }
        for step in 0..<3 {
            let phase: TouchPhase = step == 0 ? .began : (step == 1 ? .moved : .ended)
            var mask = step == 0 ? began : (step == 1 ? moved : ended)
            while mask != 0 {
                let r = recognizers[mask.trailingZeroBitCount]
                mask &= mask - 1
                guard r.isEnabled, !r.committedState.isTerminal, hasTouch(of: r, in: phase) else { continue }
                let set = phaseSet(of: r, phase)
                switch phase {
                case .began: r.touchesBegan(set)
                case .moved: r.touchesMoved(set)
                default: r.touchesEnded(set)
                }
            }
        }
    }

    // MARK: region deliveries (S22–S29)

    private func emitDelivery(_ s: Int, _ phase: DeliveryPhase, at p: Point) {
        let region = records[s].deliveryRegion
        guard region >= 0 else { return }
        records[s].lastDelivered = p
        sink?.deliver(RegionDelivery(time: now, region: region, phase: phase, touch: records[s].touch.id, location: p))
        if phase == .ended, let control = regions[region].enclosingControl, control.frame.contains(p) {
            // S28: the control's default action (touch up inside).
            var e = GestureEvent(
                time: now, recognizer: control.index, kind: .control, state: .recognized, region: control.index,
                location: p, touches: 1)
            e.taps = 1
            enqueue(e)
        }
        if phase == .ended || phase == .cancelled { regionActiveTouches[region] -= 1 }
    }

    private func otherTouchDown(onRegion region: Int, except s: Int) -> Bool {
        for k in 0..<GestureEngine.touchTableSize where k != s && records[k].inUse && records[k].isDown {
            if records[k].deliveryRegion == region { return true }
        }
        return false
    }

    /// Whether a recognizer still undecided (S24/S25) holds this touch's `began` or `ended`.
    private func isHeld(_ s: Int, began: Bool) -> Bool {
        var mask = records[s].receivers
        while mask != 0 {
            let i = mask.trailingZeroBitCount
            mask &= mask - 1
            let r = recognizers[i]
            guard r.committedState == .possible, r.isEnabled else { continue }
            if began ? r.delaysTouchesBegan : r.delaysTouchesEnded { return true }
        }
        return false
    }

    private func deliverPhasesToRegions() {
        var live = inUseRecords
        while live != 0 {
            let s = live.trailingZeroBitCount
            live &= live - 1
            guard records[s].touch.timestamp == now else { continue }
            let t = records[s].touch
            switch t.phase {
            case .began:
                let region = t.region
                // S29: a single-touch region takes no second touch.
                if !regions[region].isMultipleTouchEnabled && otherTouchDown(onRegion: region, except: s) { continue }
                records[s].deliveryRegion = region
                regionActiveTouches[region] += 1
                if records[s].finishedOnRegion { continue }
                if isHeld(s, began: true) {
                    records[s].beganWithheld = true
                } else {
                    records[s].beganDelivered = true
                    emitDelivery(s, .began, at: t.location)
                }
            case .moved:
                if records[s].beganDelivered && !records[s].finishedOnRegion {
                    emitDelivery(s, .moved, at: t.location)
                }
            case .ended:
                guard records[s].deliveryRegion >= 0, !records[s].finishedOnRegion else { continue }
                if records[s].beganWithheld || isHeld(s, began: false) {
                    records[s].endedWithheld = true
                } else if records[s].beganDelivered {
                    records[s].finishedOnRegion = true
                    emitDelivery(s, .ended, at: t.location)
                }
            default:
                break
            }
        }
    }

    /// S23/S25: the region gets `cancelled` for a touch it was given; withheld deliveries are discarded.
    private func cancelOnRegion(_ s: Int) {
        guard !records[s].finishedOnRegion else { return }
        records[s].finishedOnRegion = true
        records[s].beganWithheld = false
        records[s].endedWithheld = false
        if records[s].beganDelivered {
            emitDelivery(s, .cancelled, at: records[s].touch.location)
        } else if records[s].deliveryRegion >= 0 {
            regionActiveTouches[records[s].deliveryRegion] -= 1
        }
    }

    /// S24/S25: delivers what was withheld once no undecided recognizer holds it.
    private func releaseHolds(_ s: Int) {
        guard records[s].inUse, records[s].deliveryRegion >= 0, !records[s].finishedOnRegion else { return }
        if records[s].beganWithheld && !isHeld(s, began: true) {
            records[s].beganWithheld = false
            records[s].beganDelivered = true
            let t = records[s].touch
            emitDelivery(s, .began, at: t.startLocation)
            if t.location != t.startLocation { emitDelivery(s, .moved, at: t.location) }
        }
        if !records[s].beganWithheld && records[s].endedWithheld && !isHeld(s, began: false) {
            records[s].endedWithheld = false
            records[s].finishedOnRegion = true
            emitDelivery(s, .ended, at: records[s].touch.location)
        }
    }

    // MARK: transitions and arbitration (S1–S3, S14–S21)

    /// Called by `GestureRecognizer.state`'s setter.
    func requestTransition(_ r: GestureRecognizer, to target: GestureState) {
        let current = r.committedState
        switch target {
        case .possible:
            return
        case .failed:
            r.deferredTransition = nil
            if current == .began || current == .changed {
                cancel(r)
            } else if current == .possible {
                fail(r)
            }
        case .began, .recognized:
            guard current == .possible else { return }
            if isDeliveringFrame && r.heldTransition == nil {
                // Decided after every recognizer has seen the frame, preventers first (S5, S14, S16).
                if r.deferredTransition == nil { r.deferredTransition = r.isContinuous ? .began : .recognized }
                deferredMask |= 1 << UInt64(r.index)
                return
            }
            if r.heldTransition != nil {
                r.heldEvent = makeEvent(r, target)
                return
            }
            // S2: discrete recognizers never begin; continuous ones never "recognize" directly.
            let wanted: GestureState = r.isContinuous ? .began : .recognized
            if let d = r.delegate, !d.gestureRecognizerShouldBegin(r) {
                if diagnostics != nil { diagnose(r, "failed: the delegate's shouldBegin returned false (S21)") }
                fail(r)
                return
            }  // S21
            if !r.gestureShouldBegin() {
                if diagnostics != nil {
                    diagnose(r, touchesAreOnControl(below: r) ? "failed: the touch is on a control, whose action wins (S28)" : "failed: gestureShouldBegin returned false (S21)")
                }
                fail(r)
                return
            }
            if let winner = firstRequirementSucceeded(r) {
                if diagnostics != nil { diagnose(r, "failed: \(winner.name) recognized, and this one requires it to fail (S15)") }
                fail(r)
                return
            }
            if let blocker = firstRequirementUndecided(r) {
                if diagnostics != nil { diagnose(r, "waiting: would be \(wanted), holding until \(blocker.name) fails (S15)") }
                r.heldTransition = wanted
                r.heldEvent = makeEvent(r, wanted)
                return
            }  // S15
            commit(r, wanted)
        case .changed:
            if r.deferredTransition != nil { return }
            if r.heldTransition != nil {
                r.heldEvent = makeEvent(r, .began)
            } else if current == .began || current == .changed {
                r.committedState = .changed
                enqueue(makeEvent(r, .changed))
            }
        case .ended:
            if r.deferredTransition != nil {
                if r.isContinuous { r.deferredTransition = .ended }
                return
            }
            if r.heldTransition != nil {
                if r.isContinuous { r.heldTransition = .ended }
            } else if current == .began || current == .changed {
                r.committedState = .ended
                enqueue(makeEvent(r, .ended))
            } else if current == .possible && !r.isContinuous {
                requestTransition(r, to: .recognized)
            }
        case .cancelled:
            r.deferredTransition = nil
            if current == .began || current == .changed {
                cancel(r)
            } else if current == .possible {
                fail(r)
            }
        }
    }

    /// Resolves the begin/recognize requests made while a frame was delivered: a requester that
    /// another requester could prevent waits until the preventers have been decided.
    private func resolveDeferredTransitions() {
        while deferredMask != 0 {
            var chosen = -1
            var mask = deferredMask
            while mask != 0 && chosen < 0 {
                let i = mask.trailingZeroBitCount
                mask &= mask - 1
                let r = recognizers[i]
                var preventable = false
                var others = deferredMask & ~(1 << UInt64(i))
                while others != 0 {
                    let o = recognizers[others.trailingZeroBitCount]
                    others &= others - 1
                    if !simultaneous(o, r) && o.canPrevent(r) && r.canBePrevented(by: o) {
                        preventable = true
                        break
                    }
                }
                if !preventable { chosen = i }
            }
            if chosen < 0 { chosen = deferredMask.trailingZeroBitCount }
            deferredMask &= ~(1 << UInt64(chosen))
            let r = recognizers[chosen]
            guard let target = r.deferredTransition else { continue }
            r.deferredTransition = nil
            guard r.committedState == .possible else { continue }
            if target == .ended {
                requestTransition(r, to: .began)
                if r.heldTransition != nil {
                    r.heldTransition = .ended
                } else if r.committedState == .began {
                    requestTransition(r, to: .ended)
                }
            } else {
                requestTransition(r, to: target)
            }
        }
    }

    private func cancel(_ r: GestureRecognizer) {
        r.committedState = .cancelled
        r.timerDeadline = nil
        enqueue(makeEvent(r, .cancelled))  // S4 decision: cancel sends an action
    }

    private func commit(_ r: GestureRecognizer, _ target: GestureState) {
        let wasHeld = r.heldTransition != nil
        let heldEvent = r.heldEvent
        r.heldTransition = nil
        r.heldEvent = nil
        if target == .ended {
            // Began and ended while waiting for a failure (S15): both actions now.
            r.committedState = .began
            var e = heldEvent ?? makeEvent(r, .began)
            e.time = now
            e.state = .began
            enqueue(e)
            r.committedState = .ended
            var end = e
            end.state = .ended
            enqueue(end)
        } else {
            r.committedState = target
            var e = wasHeld ? (heldEvent ?? makeEvent(r, target)) : makeEvent(r, target)
            e.time = now
            e.state = target
            enqueue(e)
        }
        // S23: cancel the region's touches of this gesture, or release what was withheld.
        for k in 0..<r.touchSlotCount {
            let s = Int(r.touchSlots[k])
            guard s >= 0, records[s].inUse, records[s].receivers & (1 << UInt64(r.index)) != 0 else { continue }
            if r.cancelsTouchesInView { cancelOnRegion(s) } else { releaseHolds(s) }
        }
        // S14: prevent the others still possible; S15: fail those waiting for this one. Every one
        // of them is failed before any failure releases a recognizer waiting for it, so that a
        // recognizer this one prevents is never released by a failure it caused.
        var forced: UInt64 = 0
        for o in recognizers where o !== r && o.committedState == .possible {
            if o.heldTransition != nil && requires(o, r) {
                if diagnostics != nil { diagnose(o, "failed: \(r.name) recognized, and this one requires it to fail (S15)") }
                forced |= 1 << UInt64(o.index)
                continue
            }
            guard o.isInvolved, !simultaneous(r, o) else { continue }
            if r.canPrevent(o) && o.canBePrevented(by: r) {
                if diagnostics != nil { diagnose(o, "failed: prevented by \(r.name), which recognized first (S14)") }
                forced |= 1 << UInt64(o.index)
            }
        }
        var mask = forced
        while mask != 0 {
            markFailed(recognizers[mask.trailingZeroBitCount])
            mask &= mask - 1
        }
        mask = forced
        while mask != 0 {
            releaseWaiters(on: recognizers[mask.trailingZeroBitCount])
            mask &= mask - 1
        }
    }

    private func fail(_ r: GestureRecognizer) {
        guard r.committedState == .possible else { return }
        markFailed(r)
        releaseWaiters(on: r)
    }

    /// `failed`, without yet releasing the recognizers waiting for this failure.
    private func markFailed(_ r: GestureRecognizer) {
        guard r.committedState == .possible else { return }
        r.committedState = .failed
        r.deferredTransition = nil
        r.heldTransition = nil
        r.heldEvent = nil
        r.timerDeadline = nil
        for k in 0..<r.touchSlotCount {
            let s = Int(r.touchSlots[k])
            if s >= 0 { releaseHolds(s) }
        }
    }

    /// S15: a recognizer waiting for `r`'s failure may now take its transition.
    private func releaseWaiters(on r: GestureRecognizer) {
        for h in recognizers where h.heldTransition != nil && h.committedState == .possible && requires(h, r) {
            reevaluate(h)
        }
    }

    private func reevaluate(_ h: GestureRecognizer) {
        guard let held = h.heldTransition else { return }
        if let winner = firstRequirementSucceeded(h) {
            if diagnostics != nil { diagnose(h, "failed: \(winner.name) recognized, and this one requires it to fail (S15)") }
            fail(h)
        } else if firstRequirementUndecided(h) == nil {
            if diagnostics != nil { diagnose(h, "released: every recognizer it required to fail has failed (S15)") }
            commit(h, held)
        }
    }

    /// Whether `h` must wait for `o` to fail (S15, S19).
    func requires(_ h: GestureRecognizer, _ o: GestureRecognizer) -> Bool {
        if h === o { return false }
        if h.requireMask & (1 << UInt64(o.index)) != 0 { return true }
        if h.shouldRequireFailure(of: o) || o.shouldBeRequiredToFail(by: h) { return true }
        if let d = h.delegate, d.gestureRecognizer(h, shouldRequireFailureOf: o) { return true }
        if let d = o.delegate, d.gestureRecognizer(o, shouldBeRequiredToFailBy: h) { return true }
        return false
    }

    private func firstRequirementUndecided(_ h: GestureRecognizer) -> GestureRecognizer? {
        for o in recognizers where o !== h && o.isInvolved && o.committedState == .possible && o.isEnabled {
            if requires(h, o) { return o }
        }
        return nil
    }

    private func firstRequirementSucceeded(_ h: GestureRecognizer) -> GestureRecognizer? {
        for o in recognizers where o !== h {
            switch o.committedState {
            case .began, .changed, .ended, .recognized: if requires(h, o) { return o }
            default: continue
            }
        }
        return nil
    }

    /// S17: either side's answer true, or named in the board file.
    func simultaneous(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        if a.simultaneousMask & (1 << UInt64(b.index)) != 0 || b.simultaneousMask & (1 << UInt64(a.index)) != 0 {
            return true
        }
        if let d = a.delegate, d.gestureRecognizer(a, shouldRecognizeSimultaneouslyWith: b) { return true }
        if let d = b.delegate, d.gestureRecognizer(b, shouldRecognizeSimultaneouslyWith: a) { return true }
        return false
    }

    private func prepareRelationsIfNeeded() {
        guard relationsDirty else { return }
        relationsDirty = false
        for r in recognizers {
            r.simultaneousMask = 0
            r.requireMask = 0
            for o in recognizers where o !== r {
                if r.simultaneousNames.contains(o.name) { r.simultaneousMask |= 1 << UInt64(o.index) }
                if r.failureRequirements.contains(where: { $0 === o }) { r.requireMask |= 1 << UInt64(o.index) }
            }
        }
    }

    func relationsChanged() { relationsDirty = true }

    /// S10: disabling cancels a continuous gesture in progress, fails an undecided one.
    func recognizerWasDisabled(_ r: GestureRecognizer) {
        let wasProcessing = isProcessing
        isProcessing = true
        if diagnostics != nil { diagnose(r, "disabled (S10)") }
        switch r.committedState {
        case .began, .changed: cancel(r)
        case .possible where r.isInvolved: fail(r)
        default: break
        }
        if !wasProcessing { finishStep() }
    }

    /// S11.
    func ignore(_ touch: Touch, by r: GestureRecognizer) {
        for s in 0..<GestureEngine.touchTableSize where records[s].inUse && records[s].touch.serial == touch.serial {
            records[s].receivers &= ~(1 << UInt64(r.index))
            releaseHolds(s)
        }
    }

    // MARK: actions and resets

    private func makeEvent(_ r: GestureRecognizer, _ state: GestureState) -> GestureEvent {
        var e = GestureEvent(
            time: now, recognizer: r.index, kind: r.kind, state: state, region: r.region?.index ?? 0,
            location: centroid(of: r), touches: countTouches(of: r))
        r.fillEvent(&e)
        return e
    }

    private func enqueue(_ e: GestureEvent) {
        guard pending.count < actionCapacity else {
            droppedActions += 1
            return
        }
        pending.append(e)
    }

    /// S5 dispatch, S6 resets, and the release of touches nobody needs any more.
    private func finishStep() {
        // A sequence is over when no finger is down: recognizers still undecided with nothing
        // to wait for (no timer, no held transition) fail, so that none is left hanging.
        if !hasTouchesDown {
            for r in recognizers
            where r.committedState == .possible && r.isInvolved && r.timerDeadline == nil && r.heldTransition == nil {
                if diagnostics != nil { diagnose(r, "failed: every finger lifted while it was still undecided") }
                fail(r)
            }
        }
        for i in 0..<pending.count {
            let e = pending[i]
            if e.kind != .control {
                let r = recognizers[e.recognizer]
                r.currentEvent = e
                for a in r.actions { a.body(r) }
                r.currentEvent = nil
            }
            sink?.emit(e)
        }
        pending.removeAll(keepingCapacity: true)
        for r in recognizers where r.committedState.isTerminal { resetRecognizer(r) }
        var live = inUseRecords
        while live != 0 {
            let s = live.trailingZeroBitCount
            live &= live - 1
            guard !records[s].isDown && records[s].references == 0 else { continue }
            releaseHolds(s)
            if !records[s].beganWithheld && !records[s].endedWithheld {
                if records[s].deliveryRegion >= 0 && !records[s].finishedOnRegion {
                    regionActiveTouches[records[s].deliveryRegion] -= 1
                }
                records[s].inUse = false
                inUseRecords &= ~(1 << UInt32(s))
            }
        }
        isProcessing = false
    }

    /// S6: back to `possible`, forgetting the touches it had (it gets no more updates for them).
    private func resetRecognizer(_ r: GestureRecognizer) {
        for k in 0..<r.touchSlotCount {
            let s = Int(r.touchSlots[k])
            guard s >= 0 else { continue }
            records[s].receivers &= ~(1 << UInt64(r.index))
            records[s].references -= 1
            r.touchSlots[k] = -1
        }
        r.touchSlotCount = 0
        r.isInvolved = false
        r.deferredTransition = nil
        r.heldTransition = nil
        r.heldEvent = nil
        r.timerDeadline = nil
        r.committedState = .possible
        r.reset()
        var live = inUseRecords
        while live != 0 {
            releaseHolds(live.trailingZeroBitCount)
            live &= live - 1
        }
    }

    /// The armed timer with the earliest deadline (the lowest index on a tie).
    private func earliestTimer() -> (GestureRecognizer, Instant)? {
        var mask = timerMask
        guard mask != 0 else { return nil }
        var best: (GestureRecognizer, Instant)? = nil
        while mask != 0 {
            let r = recognizers[mask.trailingZeroBitCount]
            mask &= mask - 1
            if let d = r.timerDeadline, best == nil || d < best!.1 { best = (r, d) }
        }
        return best
    }

    // MARK: queries for recognizers (S12)

    /// Touches of `r` that are down now or were lifted in the step being handled.
    private func isCurrent(_ s: Int, for r: GestureRecognizer) -> Bool {
        guard s >= 0, records[s].inUse, records[s].receivers & (1 << UInt64(r.index)) != 0 else { return false }
        return records[s].isDown || records[s].endedAt == now
    }

    func countTouches(of r: GestureRecognizer) -> Int {
        var n = 0
        for k in 0..<r.touchSlotCount where isCurrent(Int(r.touchSlots[k]), for: r) { n += 1 }
        return n
    }

    func centroid(of r: GestureRecognizer) -> Point {
        var sx = 0.0, sy = 0.0, n = 0.0
        for k in 0..<r.touchSlotCount {
            let s = Int(r.touchSlots[k])
            guard isCurrent(s, for: r) else { continue }
            sx += records[s].touch.location.x
            sy += records[s].touch.location.y
            n += 1
        }
        guard n > 0 else { return r.lastLocation }
        r.lastLocation = Point(x: sx / n, y: sy / n)
        return r.lastLocation
    }

    func touches(of r: GestureRecognizer) -> TouchSet {
        var set = TouchSet()
        for k in 0..<r.touchSlotCount {
            let s = Int(r.touchSlots[k])
            if isCurrent(s, for: r) { set.insert(records[s].touch) }
        }
        return set
    }

    func touch(of r: GestureRecognizer, at index: Int) -> Touch? {
        var i = 0
        for k in 0..<r.touchSlotCount {
            let s = Int(r.touchSlots[k])
            guard isCurrent(s, for: r) else { continue }
            if i == index { return records[s].touch }
            i += 1
        }
        return nil
    }

    /// S28: whether any of `r`'s touches is in a control region strictly inside `r`'s region.
    public func touchesAreOnControl(below r: GestureRecognizer) -> Bool {
        guard let mine = r.region else { return false }
        for k in 0..<r.touchSlotCount {
            let s = Int(r.touchSlots[k])
            guard s >= 0, records[s].inUse else { continue }
            if let control = regions[records[s].touch.region].enclosingControl, control !== mine,
                control.isDescendant(of: mine)
            {
                return true
            }
        }
        return false
    }

    /// The name of recognizer `index` (or, for a control event, of region `index`).
    public func recognizerName(_ index: Int) -> String { recognizers[index].name }
    public func regionName(_ index: Int) -> String { regions[index].name }
}
