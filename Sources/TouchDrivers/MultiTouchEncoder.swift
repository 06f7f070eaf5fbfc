import TouchCore

/// Turns successive `TouchFrame`s into the multi-touch protocol B records a kernel driver emits
/// (`input_mt`): per changed contact its slot (the contact id), a new tracking id when it lands,
/// changed positions, tracking id -1 when it lifts; then `BTN_TOUCH` and the single-touch
/// `ABS_X`/`ABS_Y` of the first contact, and `SYN_REPORT`. Pure; coordinates are written as
/// given (rounded), so the receiving device's axes must be the frame's pixel range. A cancel
/// frame lifts every contact: an input device cannot cancel.
///
/// Used by the passthrough touchscreen (what the UI receives) and the evdev-shaped simulated device.
package struct MultiTouchEncoder: Sendable {
    package let slots: Int
    var trackingIDs: [Int32]
    var xs: [Int32]
    var ys: [Int32]
    var nextTrackingID: Int32 = 1
    var touching = false
    var singleX: Int32 = -1
    var singleY: Int32 = -1

    package init(slots: Int) {
        self.slots = max(1, slots)
        trackingIDs = [Int32](repeating: -1, count: self.slots)
        xs = [Int32](repeating: 0, count: self.slots)
        ys = [Int32](repeating: 0, count: self.slots)
    }

    /// Slot → tracking id now (-1 empty): what `EVIOCGMTSLOTS` would report.
    package var currentTrackingIDs: [Int32] { trackingIDs }
    package var currentXs: [Int32] { xs }
    package var currentYs: [Int32] { ys }

    /// Appends the records taking the device from the previous frame to `frame` (nothing when no
    /// contact changed). Contacts with an id ≥ `slots` are left out. `map` scales a coordinate.
    package mutating func encode(
        _ frame: TouchFrame, into out: inout [InputEvent],
        mapX: (Double) -> Int32 = { Int32($0.rounded()) }, mapY: (Double) -> Int32 = { Int32($0.rounded()) }
    ) {
        let start = out.count
        var firstX: Int32? = nil
        var firstY: Int32? = nil
        for slot in 0..<slots {
            let contact = frame.isCancel || slot > Int(UInt8.max) ? nil : frame.contact(withID: UInt8(slot))
            var selected = false
            func select() {
                if !selected {
                    out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_SLOT, value: Int32(slot)))
                }
                selected = true
            }
            if let c = contact {
                let x = mapX(c.position.x)
                let y = mapY(c.position.y)
                if firstX == nil { (firstX, firstY) = (x, y) }
                if trackingIDs[slot] < 0 {
                    select()
                    trackingIDs[slot] = nextTrackingID
                    nextTrackingID = nextTrackingID >= 65535 ? 1 : nextTrackingID + 1
                    let id = trackingIDs[slot]
                    out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_TRACKING_ID, value: id))
                    out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_POSITION_X, value: x))
                    out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_POSITION_Y, value: y))
                } else {
                    if x != xs[slot] {
                        select()
                        out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_POSITION_X, value: x))
                    }
                    if y != ys[slot] {
                        select()
                        out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_POSITION_Y, value: y))
                    }
                }
                xs[slot] = x
                ys[slot] = y
            } else if trackingIDs[slot] >= 0 {
                select()
                trackingIDs[slot] = -1
                out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_TRACKING_ID, value: -1))
            }
        }
        guard out.count > start else { return }
        let down = firstX != nil
        if down != touching {
            out.append(InputEvent(type: EvdevCode.EV_KEY, code: EvdevCode.BTN_TOUCH, value: down ? 1 : 0))
            touching = down
        }
        if let x = firstX, let y = firstY {
            if x != singleX { out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_X, value: x)) }
            if y != singleY { out.append(InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_Y, value: y)) }
            (singleX, singleY) = (x, y)
        }
        out.append(.synReport)
    }
}
