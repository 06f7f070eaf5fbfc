import TouchCore

/// Turns successive `TouchFrame`s into the multi-touch protocol B records a kernel driver emits
/// (`input_mt`): per changed contact its slot, a new tracking id when it lands, changed
/// positions, tracking id -1 when it lifts; then `BTN_TOUCH` and the single-touch `ABS_X`/`ABS_Y`
/// of the contact in the lowest slot, and `SYN_REPORT`. Pure; coordinates are written as given
/// (rounded), so the receiving device's axes must be the frame's pixel range.
///
/// Slots: a contact keeps the slot it landed in. A new contact takes the slot of its own id when
/// that is free, else the lowest free slot; contact ids need not be below `slots`. A slot whose
/// contact lifts in the same frame is reused only after the lift has gone out in a report of its
/// own, so every touch has its own tracking id (a reader never sees one contact jump to another
/// one's place). A contact finding no slot at all is left out (`contactsLeftOut`).
///
/// Cancels: an input device cannot cancel a touch, but libinput turns a contact whose
/// `ABS_MT_TOOL_TYPE` becomes `MT_TOOL_PALM` into TOUCH_CANCEL. With `marksCancels` (the device
/// declares `ABS_MT_TOOL_TYPE` up to `MT_TOOL_PALM`), a contact lifted by a cancel frame or listed
/// in `cancelled` first turns into a palm in a report of its own, then lifts; a slot's next
/// contact is a finger again. Without it, a cancel lifts every contact.
///
/// Used by the passthrough touchscreen (what the UI receives) and the evdev-shaped simulated device.
package struct MultiTouchEncoder: Sendable {
    package let slots: Int
    /// Cancelled contacts become `MT_TOOL_PALM` before they lift.
    package let marksCancels: Bool
    var trackingIDs: [Int32]
    var xs: [Int32]
    var ys: [Int32]
    /// Slot → the contact id in it, -1 when empty.
    var contactInSlot: [Int16]
    /// Slot → its `ABS_MT_TOOL_TYPE` is `MT_TOOL_PALM` now.
    var palm: [Bool]
    var nextTrackingID: Int32 = 1
    var touching = false
    var singleX: Int32 = -1
    var singleY: Int32 = -1
    /// Contacts that found no free slot.
    package private(set) var contactsLeftOut = 0

    package init(slots: Int, marksCancels: Bool = false) {
        self.slots = max(1, slots)
        self.marksCancels = marksCancels
        trackingIDs = [Int32](repeating: -1, count: self.slots)
        xs = [Int32](repeating: 0, count: self.slots)
        ys = [Int32](repeating: 0, count: self.slots)
        contactInSlot = [Int16](repeating: -1, count: self.slots)
        palm = [Bool](repeating: false, count: self.slots)
    }

    /// Slot → tracking id now (-1 empty): what `EVIOCGMTSLOTS` would report.
    package var currentTrackingIDs: [Int32] { trackingIDs }
    package var currentXs: [Int32] { xs }
    package var currentYs: [Int32] { ys }

    /// Appends the records taking the device from the previous frame to `frame` (nothing when no
    /// contact changed): one report, or two when a lift must go out before a landing or a cancel
    /// marks palms. `cancelled`: contact ids (bit = id, ids below 64) whose lift is a cancel.
    /// `map` scales a coordinate.
    package mutating func encode(
        _ frame: TouchFrame, cancelled: UInt64 = 0, into out: inout [InputEvent],
        mapX: (Double) -> Int32 = { Int32($0.rounded()) }, mapY: (Double) -> Int32 = { Int32($0.rounded()) }
    ) {
        var reportStart = out.count
        // 1. Lifts (cancelled ones as palms first, in a report of their own).
        var freed: UInt64 = 0
        var palms = false
        for slot in 0..<slots where contactInSlot[slot] >= 0 {
            let id = UInt8(contactInSlot[slot])
            guard frame.isCancel || frame.contact(withID: id) == nil else { continue }
            freed |= 1 << UInt64(slot)
            let isCancel = frame.isCancel || (id < 64 && cancelled & (1 << UInt64(id)) != 0)
            if marksCancels && isCancel && !palm[slot] {
                out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_SLOT, value: Int32(slot)))
                out.append(
                    InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_TOOL_TYPE, value: EvdevCode.MT_TOOL_PALM))
                palm[slot] = true
                palms = true
            }
        }
        if palms {
            out.append(.synReport)
            reportStart = out.count
        }
        for slot in 0..<slots where freed & (1 << UInt64(slot)) != 0 {
            out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_SLOT, value: Int32(slot)))
            out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_TRACKING_ID, value: -1))
            trackingIDs[slot] = -1
            contactInSlot[slot] = -1
        }
        // 2. Contacts that stay: changed positions.
        for slot in 0..<slots where contactInSlot[slot] >= 0 {
            guard let c = frame.contact(withID: UInt8(contactInSlot[slot])) else { continue }
            let x = mapX(c.position.x)
            let y = mapY(c.position.y)
            guard x != xs[slot] || y != ys[slot] else { continue }
            out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_SLOT, value: Int32(slot)))
            if x != xs[slot] {
                out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_POSITION_X, value: x))
            }
            if y != ys[slot] {
                out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_POSITION_Y, value: y))
            }
            xs[slot] = x
            ys[slot] = y
        }
        // 3. New contacts.
        if !frame.isCancel {
            var i = 0
            while i < frame.count {
                let c = frame[i]
                i += 1
                guard slot(of: c.id) == nil else { continue }
                var chosen = -1
                let own = Int(c.id)
                if own < slots && contactInSlot[own] < 0 && freed & (1 << UInt64(own)) == 0 {
                    chosen = own
                } else {
                    chosen = lowestFreeSlot(excluding: freed) ?? -1
                }
                if chosen < 0, let reused = lowestFreeSlot(excluding: 0) {
                    // Only slots lifted in this frame are free: the lifts go out first.
                    finishReport(into: &out)
                    reportStart = out.count
                    freed = 0
                    chosen = reused
                }
                guard chosen >= 0 else {
                    contactsLeftOut += 1
                    continue
                }
                let x = mapX(c.position.x)
                let y = mapY(c.position.y)
                out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_SLOT, value: Int32(chosen)))
                if palm[chosen] {
                    out.append(
                        InputEvent(
                            type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_TOOL_TYPE, value: EvdevCode.MT_TOOL_FINGER))
                    palm[chosen] = false
                }
                trackingIDs[chosen] = nextTrackingID
                nextTrackingID = nextTrackingID >= 65535 ? 1 : nextTrackingID + 1
                out.append(
                    InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_TRACKING_ID, value: trackingIDs[chosen]))
                out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_POSITION_X, value: x))
                out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_POSITION_Y, value: y))
                contactInSlot[chosen] = Int16(c.id)
                xs[chosen] = x
                ys[chosen] = y
            }
        }
        if out.count > reportStart { finishReport(into: &out) }
    }

    /// The slot holding contact `id`, if any.
    func slot(of id: UInt8) -> Int? {
        for s in 0..<slots where contactInSlot[s] == Int16(id) { return s }
        return nil
    }

    func lowestFreeSlot(excluding mask: UInt64) -> Int? {
        for s in 0..<slots where contactInSlot[s] < 0 && (s >= 64 || mask & (1 << UInt64(s)) == 0) { return s }
        return nil
    }

    /// `BTN_TOUCH` and the single-touch axes (the contact in the lowest slot) when they changed, then `SYN_REPORT`.
    mutating func finishReport(into out: inout [InputEvent]) {
        var first = -1
        for s in 0..<slots where contactInSlot[s] >= 0 {
            first = s
            break
        }
        let down = first >= 0
        if down != touching {
            out.append(InputEvent(type: EvdevCode.EV_KEY, code: EvdevCode.BTN_TOUCH, value: down ? 1 : 0))
            touching = down
        }
        if down {
            let (x, y) = (xs[first], ys[first])
            if x != singleX { out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_X, value: x)) }
            if y != singleY { out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_Y, value: y)) }
            (singleX, singleY) = (x, y)
        }
        out.append(.synReport)
    }
}
