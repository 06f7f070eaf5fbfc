import TouchCore

/// Touches: the table, new touches, system cancels, and delivery of phases to recognizers (S8–S13).
extension GestureEngine {
    // MARK: touches

    func beginTouch(_ c: Contact) -> Bool {
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
        slotForID[GestureEngine.trackingSlot(c.id)] = Int16(s)
        touchStamp &+= 1
        downIDs |= 1 << UInt16(GestureEngine.trackingSlot(c.id))
        // S8: recognizers of the hit region and its ancestors; S10 enabled; S20 shouldReceive.
        var mask: UInt64 = 0
        var candidates = recognizersOver[hit.index]
        while candidates != 0 {
            let i = candidates.trailingZeroBitCount
            candidates &= candidates - 1
            withRecognizer(i) { r in
                guard r.isEnabled, !r.committedState.isTerminal else { return }
                if r.hasDelegate, let d = r.delegate, !d.gestureRecognizer(r, shouldReceive: records[s].touch) {
                    return
                }
                guard r.touchSlotCount < GestureRecognizer.maximumTouches else { return }
                r.touchSlots[r.touchSlotCount] = Int16(s)
                r.touchSlotCount += 1
                touchStamp &+= 1
                r.isInvolved = true
                records[s].references += 1
                mask |= 1 << UInt64(i)
            }
        }
        records[s].receivers = mask
        touchStamp &+= 1
        involvedMask |= mask
        return true
    }

    func freeRecord() -> Int? {
        for i in 0..<GestureEngine.touchTableSize where !records[i].inUse { return i }
        return nil
    }

    /// S9: a system cancel — every touch in progress is cancelled.
    func cancelAllTouches() {
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
        touchStamp &+= 1
        guard any else { return }
        for r in recognizers where r.isEnabled && !r.committedState.isTerminal {
            let set = phaseSet(of: r, .cancelled)
            if !set.isEmpty {
                if diagnostics != nil { diagnose(r, "system cancel: touches cancelled (S9)", .cancelled) }
                r.touchesCancelled(set)
            }
        }
        for s in 0..<GestureEngine.touchTableSize where records[s].inUse && records[s].touch.phase == .cancelled {
            cancelOnRegion(s)
            records[s].beganWithheld = false
            records[s].endedWithheld = false
        }
    }

    /// The recognizer's touches in `phase` this frame.
    func phaseSet(of r: GestureRecognizer, _ phase: TouchPhase) -> TouchSet {
        var set = TouchSet()
        for k in 0..<r.touchSlotCount {
            let s = Int(r.touchSlots[k])
            guard s >= 0, records[s].inUse, records[s].receivers & (1 << UInt64(r.index)) != 0 else { continue }
            let t = records[s].touch
            if t.phase == phase && t.timestamp == now { set.insert(t) }
        }
        return set
    }

    /// Builds in `set` the touches of `records` (bit = record index) whose receivers include
    /// `bit` (all of them when `bit` is 0), in the order they began: the order of each
    /// recognizer's own touch list, so the set equals `phaseSet` for a recognizer receiving them.
    func buildOrderedSet(_ set: UnsafeMutablePointer<TouchSet>, records: UInt32, receiving bit: UInt64) {
        set.pointee.removeAll()
        var remaining = records
        while remaining != 0 {
            var first = remaining.trailingZeroBitCount
            var m = remaining & (remaining - 1)
            while m != 0 {
                let s = m.trailingZeroBitCount
                m &= m - 1
                if Int32(bitPattern: self.records[s].touch.serial &- self.records[first].touch.serial) < 0 { first = s }
            }
            remaining &= ~(1 << UInt32(first))
            if bit == 0 || self.records[first].receivers & bit != 0 { set.pointee.insert(self.records[first].touch) }
        }
    }

    func deliverPhasesToRecognizers() {
        // Which recognizers have a touch in each phase this frame (only those are called), and
        // which records are in each phase.
        var began: UInt64 = 0
        var moved: UInt64 = 0
        var ended: UInt64 = 0
        var beganRecords: UInt32 = 0
        var movedRecords: UInt32 = 0
        var endedRecords: UInt32 = 0
        var live = inUseRecords
        while live != 0 {
            let s = live.trailingZeroBitCount
            live &= live - 1
            guard records[s].touch.timestamp == now else { continue }
            switch records[s].touch.phase {
            case .began:
                began |= records[s].receivers
                beganRecords |= 1 << UInt32(s)
            case .moved:
                moved |= records[s].receivers
                movedRecords |= 1 << UInt32(s)
            case .ended:
                ended |= records[s].receivers
                endedRecords |= 1 << UInt32(s)
            default: break
            }
        }
        // Phases in this order; a phase no live recognizer receives costs one test.
        if began & ~terminalMask != 0 { deliver(.began, to: began, records: beganRecords) }
        if moved & ~terminalMask != 0 { deliver(.moved, to: moved, records: movedRecords) }
        if ended & ~terminalMask != 0 { deliver(.ended, to: ended, records: endedRecords) }
    }

    /// Calls the phase's callback of each recognizer in `receivers` (bit = index) with the touches
    /// of `inPhase` (bit = record index) it still receives.
    @inline(__always) func deliver(_ phase: TouchPhase, to receivers: UInt64, records inPhase: UInt32) {
        let shared = phaseSets
        let own = phaseSets + 1
        // Recognizers already failed, cancelled or ended this sequence are not visited (S6).
        var mask = receivers & ~terminalMask
        // The set of every touch in the phase, built once and handed to each recognizer that
        // receives all of them (the usual case); one that receives only some gets its own.
        var sharedBuilt = false
        while mask != 0 {
            let i = mask.trailingZeroBitCount
            mask &= mask - 1
            withRecognizer(i) { r in
                guard r.isEnabled, !r.committedState.isTerminal else { return }
                let bit: UInt64 = 1 << UInt64(i)
                if phase == .moved && r.readsOnlyTouchCount {
                    // A built-in's `moved()` needs no count: is any moved touch still its own?
                    // (Receivers are read now, not when the masks were made: a callback may have
                    // ignored a touch, S11.)
                    guard !r.ignoresMoves else { return }  // a call that would do nothing
                    var m = inPhase
                    while m != 0 {
                        if records[m.trailingZeroBitCount].receivers & bit != 0 {
                            r.moved()
                            return
                        }
                        m &= m - 1
                    }
                    return
                }
                if phase == .moved && r.ignoresMoves { return }
                var received = 0
                var receivesAll = true
                var m = inPhase
                while m != 0 {
                    let s = m.trailingZeroBitCount
                    m &= m - 1
                    if records[s].receivers & bit != 0 { received += 1 } else { receivesAll = false }
                }
                guard received > 0 else { return }
                if r.readsOnlyTouchCount {  // a built-in that needs no set: none is built or copied
                    if phase == .began {
                        r.began(count: min(received, TouchSet.capacity))
                    } else {
                        r.ended(count: min(received, TouchSet.capacity))
                    }
                    return
                }
                let set: UnsafeMutablePointer<TouchSet>
                if receivesAll {
                    if !sharedBuilt {
                        buildOrderedSet(shared, records: inPhase, receiving: 0)
                        sharedBuilt = true
                    }
                    set = shared
                } else {
                    buildOrderedSet(own, records: inPhase, receiving: bit)
                    set = own
                }
                switch phase {
                case .began: r.touchesBegan(set.pointee)
                case .moved: r.touchesMoved(set.pointee)
                default: r.touchesEnded(set.pointee)
                }
            }
        }
    }
}
