import TouchCore

/// Transitions and arbitration between recognizers (S1–S3, S14–S21).
extension GestureEngine {
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
            if r.hasDelegate, let d = r.delegate, !d.gestureRecognizerShouldBegin(r) {
                if diagnostics != nil { diagnose(r, "failed: the delegate's shouldBegin returned false (S21)") }
                fail(r)
                return
            }  // S21
            if !r.gestureShouldBegin() {
                if diagnostics != nil {
                    diagnose(
                        r,
                        touchesAreOnControl(below: r)
                            ? "failed: the touch is on a control, whose action wins (S28)"
                            : "failed: gestureShouldBegin returned false (S21)")
                }
                fail(r)
                return
            }
            if let winner = firstRequirementSucceeded(r) {
                if diagnostics != nil {
                    diagnose(r, "failed: \(winner.name) recognized, and this one requires it to fail (S15)")
                }
                fail(r)
                return
            }
            if let blocker = firstRequirementUndecided(r) {
                if diagnostics != nil {
                    diagnose(r, "waiting: would be \(wanted), holding until \(blocker.name) fails (S15)", .waiting)
                }
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
                enqueueEvent(r, .changed)
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
                enqueueEvent(r, .ended)
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
    func resolveDeferredTransitions() {
        while deferredMask != 0 {
            var chosen = -1
            var mask = deferredMask
            while mask != 0 && chosen < 0 {
                let i = mask.trailingZeroBitCount
                mask &= mask - 1
                var preventable = false
                var others = deferredMask & ~(1 << UInt64(i))
                while others != 0 && !preventable {
                    let j = others.trailingZeroBitCount
                    others &= others - 1
                    preventable = withRecognizer(i) { r in
                        withRecognizer(j) { o in !simultaneous(o, r) && o.canPrevent(r) && r.canBePrevented(by: o) }
                    }
                }
                if !preventable { chosen = i }
            }
            if chosen < 0 { chosen = deferredMask.trailingZeroBitCount }
            deferredMask &= ~(1 << UInt64(chosen))
            withRecognizer(chosen) { r in
                guard let target = r.deferredTransition else { return }
                r.deferredTransition = nil
                guard r.committedState == .possible else { return }
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
    }

    func cancel(_ r: GestureRecognizer) {
        r.committedState = .cancelled
        r.timerDeadline = nil
        enqueueEvent(r, .cancelled)  // S4 decision: cancel sends an action
    }

    func commit(_ r: GestureRecognizer, _ target: GestureState) {
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
        // (Each other recognizer is read through a guaranteed reference: no retain per question.)
        var forced: UInt64 = 0
        for i in 0..<recognizers.count {
            let force = withRecognizer(i) { o -> Bool in
                guard o !== r && o.committedState == .possible else { return false }
                if o.heldTransition != nil && requires(o, r) {
                    if diagnostics != nil {
                        diagnose(o, "failed: \(r.name) recognized, and this one requires it to fail (S15)")
                    }
                    return true
                }
                guard o.isInvolved, !simultaneous(r, o) else { return false }
                if r.canPrevent(o) && o.canBePrevented(by: r) {
                    if diagnostics != nil {
                        diagnose(o, "failed: prevented by \(r.name), which recognized first (S14)")
                    }
                    return true
                }
                return false
            }
            if force { forced |= 1 << UInt64(i) }
        }
        var mask = forced
        while mask != 0 {
            withRecognizer(mask.trailingZeroBitCount) { markFailed($0) }
            mask &= mask - 1
        }
        mask = forced
        while mask != 0 {
            withRecognizer(mask.trailingZeroBitCount) { releaseWaiters(on: $0) }
            mask &= mask - 1
        }
    }

    func fail(_ r: GestureRecognizer) {
        guard r.committedState == .possible else { return }
        markFailed(r)
        releaseWaiters(on: r)
    }

    /// `failed`, without yet releasing the recognizers waiting for this failure.
    func markFailed(_ r: GestureRecognizer) {
        guard r.committedState == .possible else { return }
        r.committedState = .failed
        r.deferredTransition = nil
        r.heldTransition = nil
        r.hasHeldEvent = false
        if r.timerDeadline != nil { r.timerDeadline = nil }
        for k in 0..<r.touchSlotCount {
            let s = Int(r.touchSlots[k])
            if s >= 0 { releaseHolds(s) }
        }
    }

    /// S15: a recognizer waiting for `r`'s failure may now take its transition.
    func releaseWaiters(on r: GestureRecognizer) {
        // In index order, each one's hold read when it is visited (a release may decide others):
        // the recognizers not holding a transition are not visited.
        var next = 0
        while next < 64 {
            let candidates = heldMask & (UInt64.max << UInt64(next))
            guard candidates != 0 else { break }
            let i = candidates.trailingZeroBitCount
            next = i + 1
            withRecognizer(i) { h in
                if h.heldTransition != nil && h.committedState == .possible && requires(h, r) { reevaluate(h) }
            }
        }
    }

    func reevaluate(_ h: GestureRecognizer) {
        guard let held = h.heldTransition else { return }
        if let winner = firstRequirementSucceeded(h) {
            if diagnostics != nil {
                diagnose(h, "failed: \(winner.name) recognized, and this one requires it to fail (S15)")
            }
            fail(h)
        } else if firstRequirementUndecided(h) == nil {
            if diagnostics != nil {
                diagnose(h, "released: every recognizer it required to fail has failed (S15)", .released)
            }
            commit(h, held)
        }
    }

    /// Whether `h` must wait for `o` to fail (S15, S19).
    func requires(_ h: GestureRecognizer, _ o: GestureRecognizer) -> Bool {
        if h === o { return false }
        if h.requireMask & (1 << UInt64(o.index)) != 0 { return true }
        if h.shouldRequireFailure(of: o) || o.shouldBeRequiredToFail(by: h) { return true }
        if h.hasDelegate, let d = h.delegate, d.gestureRecognizer(h, shouldRequireFailureOf: o) { return true }
        if o.hasDelegate, let d = o.delegate, d.gestureRecognizer(o, shouldBeRequiredToFailBy: h) { return true }
        return false
    }

    func firstRequirementUndecided(_ h: GestureRecognizer) -> GestureRecognizer? {
        for i in 0..<recognizers.count {
            let found = withRecognizer(i) { o in
                o !== h && o.isInvolved && o.committedState == .possible && o.isEnabled && requires(h, o)
            }
            if found { return recognizer(i) }
        }
        return nil
    }

    func firstRequirementSucceeded(_ h: GestureRecognizer) -> GestureRecognizer? {
        for i in 0..<recognizers.count {
            let found = withRecognizer(i) { o -> Bool in
                guard o !== h else { return false }
                switch o.committedState {
                case .began, .changed, .ended, .recognized: return requires(h, o)
                default: return false
                }
            }
            if found { return recognizer(i) }
        }
        return nil
    }

    /// S17: either side's answer true, or named in the board file.
    func simultaneous(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        if a.simultaneousMask & (1 << UInt64(b.index)) != 0 || b.simultaneousMask & (1 << UInt64(a.index)) != 0 {
            return true
        }
        if a.hasDelegate, let d = a.delegate, d.gestureRecognizer(a, shouldRecognizeSimultaneouslyWith: b) {
            return true
        }
        if b.hasDelegate, let d = b.delegate, d.gestureRecognizer(b, shouldRecognizeSimultaneouslyWith: a) {
            return true
        }
        return false
    }

    /// Resolves the relations and the regions' recognizer masks after a change (a flag test per frame).
    @inline(__always) func prepareRelationsIfNeeded() {
        if relationsDirty { prepareRelations() }
    }

    func prepareRelations() {
        relationsDirty = false
        for j in regions.indices { recognizersOver[j] = 0 }
        for (i, r) in recognizers.enumerated() {
            guard let mine = r.region else { continue }
            for (j, region) in regions.enumerated() where region.isDescendant(of: mine) {
                recognizersOver[j] |= 1 << UInt64(i)
            }
        }
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
        if diagnostics != nil { diagnose(r, "disabled (S10)", .disabled) }
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
            touchStamp &+= 1
            releaseHolds(s)
        }
    }
}
