import TouchCore

/// Delivery of touches to regions: withholding, releasing and cancelling (S22–S29).
extension GestureEngine {
    // MARK: region deliveries (S22–S29)

    func emitDelivery(_ s: Int, _ phase: DeliveryPhase, at p: Point) {
        let region = records[s].deliveryRegion
        guard region >= 0 else { return }
        records[s].lastDelivered = p
        if sinkTakesDeliveries {
            sink?.deliver(
                RegionDelivery(
                    time: now, region: region, phase: phase, touch: records[s].touch.id, location: p,
                    serial: records[s].touch.serial))
        }
        if phase == .ended, let control = regions[region].enclosingControl, control.frame.contains(p) {
            // S28: the control's default action (touch up inside).
            var e = GestureEvent(
                time: now, recognizer: control.index, kind: .control, state: .recognized, region: control.index,
                location: p, touches: 1)
            e.taps = 1
            e.control = control.index
            enqueue(e)
        }
        if phase == .ended || phase == .cancelled { regionActiveTouches[region] -= 1 }
    }

    func otherTouchDown(onRegion region: Int, except s: Int) -> Bool {
        for k in 0..<GestureEngine.touchTableSize where k != s && records[k].inUse && records[k].isDown {
            if records[k].deliveryRegion == region { return true }
        }
        return false
    }

    /// Whether a recognizer still undecided (S24/S25) holds this touch's `began` or `ended`.
    func isHeld(_ s: Int, began: Bool) -> Bool {
        var mask = records[s].receivers
        while mask != 0 {
            let i = mask.trailingZeroBitCount
            mask &= mask - 1
            let holds = withRecognizer(i) { r in
                r.committedState == .possible && r.isEnabled && (began ? r.delaysTouchesBegan : r.delaysTouchesEnded)
            }
            if holds { return true }
        }
        return false
    }

    func deliverPhasesToRegions() {
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
    func cancelOnRegion(_ s: Int) {
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

    /// S24/S25: delivers what was withheld once no undecided recognizer holds it (a test of two
    /// flags when nothing is withheld, the usual case).
    @inline(__always) func releaseHolds(_ s: Int) {
        if records[s].beganWithheld || records[s].endedWithheld { releaseWithheld(s) }
    }

    func releaseWithheld(_ s: Int) {
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
}
