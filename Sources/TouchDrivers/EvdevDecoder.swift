import TouchCore

/// An absolute axis as `EVIOCGABS` reports it (`struct input_absinfo`: minimum and maximum).
package struct AxisRange: Hashable, Sendable, BitwiseCopyable {
    package var minimum: Int32
    package var maximum: Int32
    package init(minimum: Int32, maximum: Int32) {
        self.minimum = minimum
        self.maximum = maximum
    }

    /// `value` scaled from this range onto `0 … size − 1` (values outside the range are clamped).
    @inlinable package func scale(_ value: Int32, to size: Int) -> Double {
        let span = Double(maximum) - Double(minimum)
        guard span > 0 else { return 0 }
        let v = min(max(Double(value), Double(minimum)), Double(maximum))
        return (v - Double(minimum)) * Double(max(size - 1, 0)) / span
    }
}

/// What the decoder needs to know about a device: its axes and which protocol it speaks —
/// multi-touch protocol B (`ABS_MT_SLOT`), multi-touch protocol A (`ABS_MT_POSITION_X/Y` and
/// `SYN_MT_REPORT`, no slots) or single touch (`ABS_X`, `ABS_Y`, `BTN_TOUCH`).
package struct EvdevGeometry: Hashable, Sendable {
    /// True for multi-touch (protocol B, or protocol A with `protocolA`); false for a single-touch device.
    package var multiTouch: Bool
    /// Multi-touch protocol A: contacts come as `SYN_MT_REPORT`-separated packets, without slots;
    /// the decoder tracks them itself (nearest neighbour). Implies `multiTouch`.
    package var protocolA: Bool
    /// ABS_MT_POSITION_X (multi-touch) or ABS_X (single-touch).
    package var x: AxisRange
    /// ABS_MT_POSITION_Y or ABS_Y.
    package var y: AxisRange
    /// Number of slots (ABS_MT_SLOT maximum + 1); 1 for single-touch, `EvdevDecoder.maxSlots` for
    /// protocol A. At most `EvdevDecoder.maxSlots` are tracked.
    package var slotCount: Int

    package init(multiTouch: Bool, x: AxisRange, y: AxisRange, slotCount: Int, protocolA: Bool = false) {
        self.multiTouch = multiTouch || protocolA
        self.protocolA = protocolA
        self.x = x
        self.y = y
        self.slotCount = protocolA ? EvdevDecoder.maxSlots : max(1, slotCount)
    }

    /// "multi-touch protocol B, 10 slots", "multi-touch protocol A", "single-touch": for logs and `probe --input`.
    package var protocolDescription: String {
        protocolA ? "multi-touch protocol A" : multiTouch ? "multi-touch, \(slotCount) slots" : "single-touch"
    }
}

/// The kernel's state of the touches after a gap (`SYN_DROPPED`): what `EVIOCGMTSLOTS` gives per
/// slot (tracking id, x, y) for a multi-touch device, or `EVIOCGKEY`'s BTN_TOUCH and the ABS_X/ABS_Y
/// values for a single-touch one (slot 0).
package struct EvdevSnapshot: Hashable, Sendable {
    /// Tracking id per slot, -1 when the slot is empty. Single-touch: `[0]` when BTN_TOUCH is down, `[-1]` when up.
    package var trackingIDs: [Int32]
    package var xs: [Int32]
    package var ys: [Int32]

    package init(trackingIDs: [Int32], xs: [Int32], ys: [Int32]) {
        self.trackingIDs = trackingIDs
        self.xs = xs
        self.ys = ys
    }
}

/// Turns a stream of `input_event` records into `TouchFrame`s. Pure: no I/O, no clock, no
/// allocation per event (tested on bytes; the device and the simulated device feed it the same way).
///
/// Multi-touch protocol B (kernel `Documentation/input/multi-touch-protocol.rst`): `ABS_MT_SLOT`
/// selects a slot, `ABS_MT_TRACKING_ID` ≥ 0 starts a contact in it and -1 ends it,
/// `ABS_MT_POSITION_X/Y` (and `ABS_MT_PRESSURE`, `ABS_MT_TOUCH_MAJOR`) update it, `SYN_REPORT`
/// closes a frame. Single-touch devices: `BTN_TOUCH` 1/0 and `ABS_X`/`ABS_Y`. On a multi-touch
/// device the single-touch emulation events are ignored.
///
/// Multi-touch protocol A (no slots; older USB HID panels such as N-Trig): each contact's values
/// end with `SYN_MT_REPORT`, a report lists every contact down, and a report with none means
/// every finger is up. The decoder gives the contacts slots itself, as the kernel's `input-mt`
/// (`input_mt_assign_slots`) and mtdev do: by `ABS_MT_TRACKING_ID` when the device sends one,
/// else each contact continues the nearest contact of the previous report (closest pairs
/// first), within a quarter of the axes' larger span; a contact with no partner is a new touch,
/// a previous contact with none has lifted.
///
/// Contact ids: each new tracking id gets the lowest contact id (0…9) that is neither held by
/// another contact nor was in the previous frame, so a slot that is lifted and touched again
/// between two reports shows as one touch ending and another beginning — never as a jump.
///
/// `SYN_DROPPED` (the kernel's buffer overflowed): everything up to and including the next
/// `SYN_REPORT` is discarded (`evdev` documentation), then `needsResync` is set; the caller
/// reads the kernel's state (`EVIOCGMTSLOTS` / `EVIOCGKEY`) and passes it to `resync`. A touch
/// still down under the same tracking id continues; if a touch that was reported vanished or
/// was replaced during the gap, its end was not seen, so the frame is a system cancel (S9) —
/// never an invented lift that could fire a tap. Touches that began during the gap (their
/// landing point unknown) and touches still down after a cancel are ignored until they lift.
package struct EvdevDecoder: Sendable {
    /// The most slots tracked; events for higher slots are ignored and counted.
    package static let maxSlots = 16

    @usableFromInline struct Slot: Sendable, BitwiseCopyable {
        var trackingID: Int32 = -1
        var x: Int32 = 0
        var y: Int32 = 0
        var pressure: Int32 = 0
        var major: Int32 = 0
        /// The tracking id `contactID` was assigned for; -1 when none.
        var assignedTrackingID: Int32 = -1
        var contactID: UInt8 = 0
        /// Not reported until it lifts (began during a gap, or outlived a cancel).
        var ignored = false
    }

    package let geometry: EvdevGeometry
    /// The raw range of the frames: axes are scaled onto `0 … rawWidth − 1` × `0 … rawHeight − 1`.
    package let rawWidth: Int
    package let rawHeight: Int

    /// One protocol A contact's values, gathered until its `SYN_MT_REPORT`.
    @usableFromInline struct Packet: Sendable, BitwiseCopyable {
        var x: Int32 = 0
        var y: Int32 = 0
        var pressure: Int32 = 0
        var major: Int32 = 0
        var trackingID: Int32 = -1
        var hasPosition = false
    }

    var slots = InlineArray<16, Slot>(repeating: Slot())
    /// Protocol A: the contacts of the report being read, and the one being gathered.
    var packets = InlineArray<16, Packet>(repeating: Packet())
    var packetCount = 0
    var packet = Packet()
    /// Protocol A: the tracking id given to the next new contact (the device sends none).
    var nextTrackingID: Int32 = 0
    /// Protocol A after a gap: contacts are ignored until a report with none.
    var ignoreUntilEmpty = false
    var currentSlot = 0
    var singleDown = false
    /// Between SYN_DROPPED and the SYN_REPORT that ends the gap.
    var discarding = false
    /// Contact ids in the last frame returned (bit n = id n).
    var lastIDs: UInt16 = 0
    var lastWasEmpty = true

    /// Set at the SYN_REPORT after a SYN_DROPPED: call `resync` with the kernel's state before going on.
    package private(set) var needsResync = false
    /// SYN_DROPPED records seen.
    package private(set) var dropsSeen = 0
    /// Events for slots beyond `maxSlots`, and contacts beyond a frame's capacity, ignored.
    package private(set) var contactsIgnored = 0

    package init(geometry: EvdevGeometry, rawWidth: Int, rawHeight: Int) {
        self.geometry = geometry
        self.rawWidth = max(rawWidth, 1)
        self.rawHeight = max(rawHeight, 1)
    }

    /// Feeds one record. Returns the frame a `SYN_REPORT` completes (empty: every finger up; a
    /// cancel never comes from here), nil otherwise.
    package mutating func consume(_ event: InputEvent, at timestamp: Instant) -> TouchFrame? {
        if event.type == EvdevCode.EV_SYN {
            if event.code == EvdevCode.SYN_DROPPED {
                discarding = true
                dropsSeen += 1
                return nil
            }
            if event.code == EvdevCode.SYN_MT_REPORT {
                if geometry.protocolA && !discarding && !needsResync { endPacket() }
                return nil
            }
            guard event.code == EvdevCode.SYN_REPORT else { return nil }
            if discarding {
                discarding = false
                needsResync = true
                packetCount = 0
                packet = Packet()
                return nil
            }
            if needsResync { return nil }
            if geometry.protocolA { assignPackets() }
            return frame(at: timestamp)
        }
        if discarding || needsResync { return nil }
        if geometry.protocolA {
            guard event.type == EvdevCode.EV_ABS else { return nil }
            switch event.code {
            case EvdevCode.ABS_MT_POSITION_X:
                packet.x = event.value
                packet.hasPosition = true
            case EvdevCode.ABS_MT_POSITION_Y:
                packet.y = event.value
                packet.hasPosition = true
            case EvdevCode.ABS_MT_PRESSURE: packet.pressure = event.value
            case EvdevCode.ABS_MT_TOUCH_MAJOR: packet.major = event.value
            case EvdevCode.ABS_MT_TRACKING_ID: packet.trackingID = event.value
            default: break
            }
            return nil
        }
        if geometry.multiTouch {
            guard event.type == EvdevCode.EV_ABS else { return nil }
            if event.code == EvdevCode.ABS_MT_SLOT {
                currentSlot = Int(event.value)
                return nil
            }
            guard currentSlot >= 0 && currentSlot < Self.maxSlots else {
                if event.code == EvdevCode.ABS_MT_TRACKING_ID && event.value >= 0 { contactsIgnored += 1 }
                return nil
            }
            switch event.code {
            case EvdevCode.ABS_MT_TRACKING_ID:
                slots[currentSlot].trackingID = event.value
                if event.value < 0 { slots[currentSlot].ignored = false }
            case EvdevCode.ABS_MT_POSITION_X: slots[currentSlot].x = event.value
            case EvdevCode.ABS_MT_POSITION_Y: slots[currentSlot].y = event.value
            case EvdevCode.ABS_MT_PRESSURE: slots[currentSlot].pressure = event.value
            case EvdevCode.ABS_MT_TOUCH_MAJOR: slots[currentSlot].major = event.value
            default: break
            }
            return nil
        }
        switch (event.type, event.code) {
        case (EvdevCode.EV_KEY, EvdevCode.BTN_TOUCH):
            singleDown = event.value != 0
            slots[0].trackingID = singleDown ? 0 : -1
            if !singleDown {
                slots[0].ignored = false
                slots[0].assignedTrackingID = -1
            }
        case (EvdevCode.EV_ABS, EvdevCode.ABS_X): slots[0].x = event.value
        case (EvdevCode.EV_ABS, EvdevCode.ABS_Y): slots[0].y = event.value
        case (EvdevCode.EV_ABS, EvdevCode.ABS_PRESSURE): slots[0].pressure = event.value
        default: break
        }
        return nil
    }

    /// Applies the kernel's state after a gap (see the type's documentation). Returns a system
    /// cancel when a reported touch was lost, else the frame of the touches that continue; nil
    /// when `needsResync` was not set. Slots missing from `snapshot` count as empty.
    package mutating func resync(_ snapshot: EvdevSnapshot, at timestamp: Instant) -> TouchFrame? {
        guard needsResync else { return nil }
        needsResync = false
        if geometry.protocolA { return resyncProtocolA(at: timestamp) }
        var lost = false
        var s = 0
        while s < Self.maxSlots {
            let old = slots[s]
            let new = s < snapshot.trackingIDs.count ? snapshot.trackingIDs[s] : -1
            let reported =
                old.trackingID >= 0 && !old.ignored && old.assignedTrackingID == old.trackingID
                && (lastIDs & (1 << UInt16(old.contactID))) != 0
            if reported && new != old.trackingID { lost = true }
            slots[s].trackingID = new
            if new >= 0 {
                if s < snapshot.xs.count { slots[s].x = snapshot.xs[s] }
                if s < snapshot.ys.count { slots[s].y = snapshot.ys[s] }
                if new != old.trackingID { slots[s].ignored = true }
            } else {
                slots[s].ignored = false
            }
            s += 1
        }
        if !geometry.multiTouch { singleDown = slots[0].trackingID >= 0 }
        guard lost else { return frame(at: timestamp) }
        s = 0
        while s < Self.maxSlots {
            if slots[s].trackingID >= 0 { slots[s].ignored = true }
            slots[s].assignedTrackingID = -1
            s += 1
        }
        lastIDs = 0
        lastWasEmpty = true
        return .cancel(at: timestamp)
    }

    /// Protocol A after a gap: the device has no state to read, and every report lists every
    /// contact. Touches that were reported are cancelled (their ends may be lost); what is down
    /// now is ignored until a report with no contact.
    mutating func resyncProtocolA(at timestamp: Instant) -> TouchFrame {
        let reported = lastIDs != 0
        var s = 0
        while s < Self.maxSlots {
            slots[s].trackingID = -1
            slots[s].assignedTrackingID = -1
            slots[s].ignored = false
            s += 1
        }
        ignoreUntilEmpty = true
        lastIDs = 0
        lastWasEmpty = true
        return reported ? .cancel(at: timestamp) : TouchFrame(timestamp: timestamp)
    }

    /// Protocol A: `SYN_MT_REPORT` closes a contact's packet (one without a position is the
    /// empty packet some devices send for "no contact", and is dropped).
    mutating func endPacket() {
        defer { packet = Packet() }
        guard packet.hasPosition else { return }
        guard packetCount < Self.maxSlots else {
            contactsIgnored += 1
            return
        }
        packets[packetCount] = packet
        packetCount += 1
    }

    /// Protocol A at `SYN_REPORT`: matches the report's packets to the slots of the previous
    /// report (tracking id, else nearest neighbour, closest pairs first, within `maxDistance`),
    /// lifts the slots left without a packet and starts a slot for each packet left without one.
    mutating func assignPackets() {
        endPacket()
        let n = packetCount
        packetCount = 0
        var matchedSlots: UInt32 = 0
        var matchedPackets: UInt32 = 0
        // By the device's tracking id, when it sends one.
        var p = 0
        while p < n {
            let id = packets[p].trackingID
            if id >= 0 {
                var s = 0
                while s < Self.maxSlots {
                    if matchedSlots & (1 << UInt32(s)) == 0 && slots[s].trackingID == id {
                        matchedSlots |= 1 << UInt32(s)
                        matchedPackets |= 1 << UInt32(p)
                        take(p, into: s)
                        break
                    }
                    s += 1
                }
            }
            p += 1
        }
        // Nearest neighbour, closest pair first, for packets without a tracking id.
        let limit = maxDistanceSquared
        while true {
            var best = Double.infinity
            var bestSlot = -1
            var bestPacket = -1
            var s = 0
            while s < Self.maxSlots {
                defer { s += 1 }
                guard slots[s].trackingID >= 0, matchedSlots & (1 << UInt32(s)) == 0 else { continue }
                p = 0
                while p < n {
                    defer { p += 1 }
                    guard matchedPackets & (1 << UInt32(p)) == 0, packets[p].trackingID < 0 else { continue }
                    // In Double: two Int32 apart by up to 2^32 would overflow Int64 once squared.
                    let dx = Double(packets[p].x) - Double(slots[s].x)
                    let dy = Double(packets[p].y) - Double(slots[s].y)
                    let d = dx * dx + dy * dy
                    if d < best {
                        (best, bestSlot, bestPacket) = (d, s, p)
                    }
                }
            }
            guard bestSlot >= 0, best <= limit else { break }
            matchedSlots |= 1 << UInt32(bestSlot)
            matchedPackets |= 1 << UInt32(bestPacket)
            take(bestPacket, into: bestSlot)
        }
        // Previous contacts without a packet lifted.
        var s = 0
        while s < Self.maxSlots {
            if slots[s].trackingID >= 0 && matchedSlots & (1 << UInt32(s)) == 0 {
                slots[s].trackingID = -1
                slots[s].ignored = false
            }
            s += 1
        }
        // New contacts take free slots.
        p = 0
        while p < n {
            defer { p += 1 }
            guard matchedPackets & (1 << UInt32(p)) == 0 else { continue }
            s = 0
            while s < Self.maxSlots && (slots[s].trackingID >= 0 || matchedSlots & (1 << UInt32(s)) != 0) { s += 1 }
            guard s < Self.maxSlots else {
                contactsIgnored += 1
                continue
            }
            matchedSlots |= 1 << UInt32(s)
            var id = packets[p].trackingID
            if id < 0 {
                id = nextTrackingID
                nextTrackingID = nextTrackingID == Int32.max ? 0 : nextTrackingID + 1
            }
            slots[s].trackingID = id
            slots[s].ignored = ignoreUntilEmpty
            take(p, into: s)
        }
        if n == 0 { ignoreUntilEmpty = false }
    }

    /// Protocol A: slot `s` takes packet `p`'s values.
    mutating func take(_ p: Int, into s: Int) {
        slots[s].x = packets[p].x
        slots[s].y = packets[p].y
        slots[s].pressure = packets[p].pressure
        slots[s].major = packets[p].major
    }

    /// Protocol A: the farthest a contact moves from one report to the next and stays the same
    /// touch (squared, in device units): a quarter of the larger axis span.
    var maxDistanceSquared: Double {
        let span = max(
            Double(geometry.x.maximum) - Double(geometry.x.minimum),
            Double(geometry.y.maximum) - Double(geometry.y.minimum))
        let d = max(span / 4, 1)
        return d * d
    }

    /// The frame of the contacts down now, assigning contact ids to new tracking ids.
    mutating func frame(at timestamp: Instant) -> TouchFrame {
        var out = TouchFrame(timestamp: timestamp)
        var used: UInt16 = 0
        var s = 0
        // Contacts that keep their id first, so a new one never takes an id still held.
        while s < Self.maxSlots {
            let slot = slots[s]
            if slot.trackingID >= 0 && !slot.ignored && slot.assignedTrackingID == slot.trackingID {
                used |= 1 << UInt16(slot.contactID)
            }
            s += 1
        }
        s = 0
        while s < Self.maxSlots {
            defer { s += 1 }
            let slot = slots[s]
            guard slot.trackingID >= 0 && !slot.ignored else {
                slots[s].assignedTrackingID = -1
                continue
            }
            if slot.assignedTrackingID != slot.trackingID {
                guard let id = freeID(used: used) else {
                    contactsIgnored += 1
                    slots[s].ignored = true
                    continue
                }
                slots[s].contactID = id
                slots[s].assignedTrackingID = slot.trackingID
                used |= 1 << UInt16(id)
            }
            let c = Contact(
                id: slots[s].contactID,
                position: Point(x: geometry.x.scale(slot.x, to: rawWidth), y: geometry.y.scale(slot.y, to: rawHeight)),
                pressure: UInt16(clamping: slot.pressure), area: UInt16(clamping: slot.major))
            if !out.append(c) { contactsIgnored += 1 }
        }
        lastIDs = used
        lastWasEmpty = out.isEmpty
        return out
    }

    /// The lowest id in 0…9 not in `used` and not in the previous frame; else the lowest not in `used`.
    func freeID(used: UInt16) -> UInt8? {
        var id: UInt16 = 0
        while id < UInt16(TouchFrame.capacity) {
            if (used | lastIDs) & (1 << id) == 0 { return UInt8(id) }
            id += 1
        }
        id = 0
        while id < UInt16(TouchFrame.capacity) {
            if used & (1 << id) == 0 { return UInt8(id) }
            id += 1
        }
        return nil
    }

    /// Decodes every whole record of `bytes`, handing each completed frame to `body`. Returns the
    /// number of bytes consumed (a multiple of `InputEvent.byteCount`; a trailing partial record is left).
    package mutating func consume(
        bytes: UnsafeRawBufferPointer, at timestamp: Instant, _ body: (TouchFrame) -> Void
    ) -> Int {
        var offset = 0
        while offset + InputEvent.byteCount <= bytes.count {
            let event = InputEvent.decode(bytes, at: offset)
            offset += InputEvent.byteCount
            if let f = consume(event, at: timestamp) { body(f) }
        }
        return offset
    }
}
