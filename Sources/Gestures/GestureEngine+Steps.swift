import TouchCore

/// The end of each step — actions (S5), resets (S6), timers — and the queries recognizers make (S12).
extension GestureEngine {
    // MARK: actions and resets

    func makeEvent(_ r: GestureRecognizer, _ state: GestureState) -> GestureEvent {
        var e = GestureEvent(
            time: now, recognizer: r.index, kind: r.kind, state: state, region: r.regionIndex,
            location: centroid(of: r), touches: countTouches(of: r))
        r.fillEvent(&e)
        return e
    }

    /// `enqueue(makeEvent(r, state))`, with the event built where it is queued (no 136-byte
    /// copy) for a built-in recognizer (`readsOnlyTouchCount`: its `fillEvent` queues nothing).
    /// A subclass's `fillEvent` may set `state`, queueing an action of its own first: it keeps
    /// the two steps, so the order of actions is the same either way.
    func enqueueEvent(_ r: GestureRecognizer, _ state: GestureState) {
        guard r.readsOnlyTouchCount && pendingCount < actionCapacity else {
            enqueue(makeEvent(r, state))
            return
        }
        let slot = pending + pendingCount
        slot.initialize(
            to: GestureEvent(
                time: now, recognizer: r.index, kind: r.kind, state: state, region: r.regionIndex,
                location: centroid(of: r), touches: countTouches(of: r)))
        r.fillEvent(&slot.pointee)
        pendingCount += 1
    }

    func enqueue(_ e: GestureEvent) {
        guard pendingCount < actionCapacity else {
            droppedActions += 1
            return
        }
        (pending + pendingCount).initialize(to: e)
        pendingCount += 1
    }

    /// S5 dispatch, S6 resets, and the release of touches nobody needs any more.
    func finishStep() {
        // A sequence is over when no finger is down: recognizers still undecided with nothing
        // to wait for (no timer, no held transition) fail, so that none is left hanging.
        if !hasTouchesDown {
            var involved = involvedMask
            while involved != 0 {
                let i = involved.trailingZeroBitCount
                involved &= involved - 1
                withRecognizer(i) { r in
                    guard
                        r.committedState == .possible && r.isInvolved && timerMask & (1 << UInt64(i)) == 0
                            && r.heldTransition == nil
                    else { return }
                    if diagnostics != nil { diagnose(r, "failed: every finger lifted while it was still undecided") }
                    fail(r)
                }
            }
        }
        if pendingCount > 0 {
            // The sink is read once per step, again only after actions ran (an action may
            // replace it): one retain per step, none per event.
            var out = sink
            // Events enqueued by the actions themselves are not sent (as before: the count is read once).
            // Each event is read where it lies (actions only append after `count`).
            for i in 0..<pendingCount {
                if pending[i].kind != .control {
                    let ran = withRecognizer(pending[i].recognizer) { r -> Bool in
                        guard !r.actions.isEmpty else { return false }
                        r.currentEvent = pending[i]
                        for a in r.actions { a.body(r) }
                        r.currentEvent = nil
                        return true
                    }
                    if ran { out = sink }
                }
                out?.emit(eventAt: pending + i)
            }
            pendingCount = 0
        }
        // S6, in index order; one that turns terminal while an earlier one resets waits for the next step.
        var next = 0
        while next < 64 {
            let candidates = terminalMask & (UInt64.max << UInt64(next))
            guard candidates != 0 else { break }
            let i = candidates.trailingZeroBitCount
            terminalMask &= ~(1 << UInt64(i))
            next = i + 1
            withRecognizer(i) { r in if r.committedState.isTerminal { resetRecognizer(r) } }
        }
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
                touchStamp &+= 1
                inUseRecords &= ~(1 << UInt32(s))
            }
        }
        isProcessing = false
    }

    /// S6: back to `possible`, forgetting the touches it had (it gets no more updates for them).
    func resetRecognizer(_ r: GestureRecognizer) {
        for k in 0..<r.touchSlotCount {
            let s = Int(r.touchSlots[k])
            guard s >= 0 else { continue }
            records[s].receivers &= ~(1 << UInt64(r.index))
            records[s].references -= 1
            r.touchSlots[k] = -1
        }
        r.touchSlotCount = 0
        touchStamp &+= 1
        r.isInvolved = false
        involvedMask &= ~(1 << UInt64(r.index))
        r.deferredTransition = nil
        r.heldTransition = nil
        r.hasHeldEvent = false
        if r.timerDeadline != nil { r.timerDeadline = nil }
        r.committedState = .possible
        r.reset()
        var live = inUseRecords
        while live != 0 {
            releaseHolds(live.trailingZeroBitCount)
            live &= live - 1
        }
    }

    /// The armed timer with the earliest deadline (the lowest index on a tie) as (recognizer
    /// index, deadline), leaving out the timers of recognizers in `held` (bit = index) due at or
    /// after `instant`. Reads the engine's deadline table only.
    func earliestTimer(holding held: UInt64 = 0, at instant: Instant = .zero) -> (Int, Instant)? {
        var mask = timerMask
        guard mask != 0 else { return nil }
        if held == 0 && earliestTimerIndex >= 0 {
            return (earliestTimerIndex, Instant(microseconds: deadlines[earliestTimerIndex]))
        }
        var best = -1
        var bestDeadline = Int64.max
        while mask != 0 {
            let i = mask.trailingZeroBitCount
            mask &= mask - 1
            let d = deadlines[i]
            if held & (1 << UInt64(i)) != 0 && d >= instant.microseconds { continue }
            if best < 0 || d < bestDeadline {
                best = i
                bestDeadline = d
            }
        }
        if held == 0 { earliestTimerIndex = best }
        return best < 0 ? nil : (best, Instant(microseconds: bestDeadline))
    }

    // MARK: queries for recognizers (S12)

    /// Touches of `r` that are down now or were lifted in the step being handled.
    func isCurrent(_ s: Int, for r: GestureRecognizer) -> Bool {
        guard s >= 0, records[s].inUse, records[s].receivers & (1 << UInt64(r.index)) != 0 else { return false }
        return records[s].isDown || records[s].endedAt == now
    }

    func countTouches(of r: GestureRecognizer) -> Int {
        if r.measuredStamp != touchStamp { measureTouches(of: r) }
        return r.currentTouchCount
    }

    func centroid(of r: GestureRecognizer) -> Point {
        if r.measuredStamp != touchStamp { measureTouches(of: r) }
        return r.lastLocation
    }

    /// Counts `r`'s current touches and, when there are any, stores their centroid in
    /// `lastLocation` (which otherwise keeps the last one); valid until `touchStamp` changes.
    func measureTouches(of r: GestureRecognizer) {
        var sx = 0.0
        var sy = 0.0
        var n = 0
        for k in 0..<r.touchSlotCount {
            let s = Int(r.touchSlots[k])
            guard isCurrent(s, for: r) else { continue }
            sx += records[s].touch.location.x
            sy += records[s].touch.location.y
            n += 1
        }
        if n > 0 { r.lastLocation = Point(x: sx / Double(n), y: sy / Double(n)) }
        r.currentTouchCount = n
        r.measuredStamp = touchStamp
    }

    /// The centroid of `r`'s current touches that are still down (not lifted or cancelled in
    /// this step), or nil when none is — without building a set.
    func centroidOfTouchesDown(of r: GestureRecognizer) -> Point? {
        var sx = 0.0
        var sy = 0.0
        var n = 0.0
        let bit: UInt64 = 1 << UInt64(r.index)
        for k in 0..<r.touchSlotCount {
            // Current and not lifted or cancelled in this step: down (a lift or cancel clears
            // `isDown` as it sets the phase).
            let s = Int(r.touchSlots[k])
            guard s >= 0, records[s].inUse, records[s].isDown, records[s].receivers & bit != 0 else { continue }
            sx += records[s].touch.location.x
            sy += records[s].touch.location.y
            n += 1
        }
        return n > 0 ? Point(x: sx / n, y: sy / n) : nil
    }

    /// The locations of `r`'s touches still down (not lifted or cancelled) when there are exactly
    /// two, in the order `r` received them — what pinch and rotation measure, without building a set.
    func downPair(of r: GestureRecognizer) -> (Point, Point)? {
        var first = Point.zero
        var second = Point.zero
        var found = 0
        let bit: UInt64 = 1 << UInt64(r.index)
        for k in 0..<r.touchSlotCount {
            let s = Int(r.touchSlots[k])  // current and still down, as in `centroidOfTouchesDown`
            guard s >= 0, records[s].inUse, records[s].isDown, records[s].receivers & bit != 0 else { continue }
            if found == 0 {
                first = records[s].touch.location
            } else if found == 1 {
                second = records[s].touch.location
            }
            found += 1
        }
        return found == 2 ? (first, second) : nil
    }

    /// The first of `r`'s touches moved in this frame (in the order they began, as in its moved
    /// set) that is more than `distance` from where it went down — a tap's check, without a set.
    func firstMovedTouch(of r: GestureRecognizer, fartherThan distance: Double) -> Touch? {
        for k in 0..<r.touchSlotCount {
            let s = Int(r.touchSlots[k])
            guard s >= 0, records[s].inUse, records[s].receivers & (1 << UInt64(r.index)) != 0 else { continue }
            guard records[s].touch.phase == .moved && records[s].touch.timestamp == now else { continue }
            if records[s].touch.location.distance(to: records[s].touch.startLocation) > distance {
                return records[s].touch
            }
        }
        return nil
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
