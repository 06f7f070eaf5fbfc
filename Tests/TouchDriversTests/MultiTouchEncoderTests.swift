import TouchCore
import XCTest

@testable import TouchDrivers

/// The records the passthrough touchscreen (and the evdev-shaped simulated device) write for
/// frames: slots for any contact id, a report per lift before a slot is reused, cancels as palms.
final class MultiTouchEncoderTests: XCTestCase {
    let syn = InputEvent.synReport
    func abs(_ code: UInt16, _ v: Int32) -> InputEvent { InputEvent(type: EvdevCode.EV_ABS, code: code, value: v) }

    /// `[passthrough] slots = 2`: A in slot 0, B in slot 1; B lifts and C lands in the same frame
    /// (C has contact id 2). C is shown, in the slot B left, with a tracking id of its own, after
    /// B's lift has gone out.
    func testTwoSlotsAContactWithAHighIDTakesTheFreedSlot() {
        var encoder = MultiTouchEncoder(slots: 2)
        var events: [InputEvent] = []
        let a = Contact(id: 0, x: 10, y: 10)
        encoder.encode(TouchFrame(timestamp: .zero, contacts: [a, Contact(id: 1, x: 20, y: 20)]), into: &events)
        encoder.encode(TouchFrame(timestamp: .zero, contacts: [a, Contact(id: 2, x: 30, y: 30)]), into: &events)
        XCTAssertEqual(encoder.contactsLeftOut, 0)
        // A reader of the device (the kernel's slots, as EvdevDecoder reads them) sees C.
        var reader = EvdevDecoder(
            geometry: EvdevGeometry(
                multiTouch: true, x: AxisRange(minimum: 0, maximum: 99), y: AxisRange(minimum: 0, maximum: 99),
                slotCount: 2), rawWidth: 100, rawHeight: 100)
        var frames: [TouchFrame] = []
        for e in events { if let f = reader.consume(e, at: .zero) { frames.append(f) } }
        XCTAssertEqual(frames.last?.count, 2)
        XCTAssertEqual(frames.last?.contacts.map(\.position), [Point(x: 10, y: 10), Point(x: 30, y: 30)])
        XCTAssertEqual(frames.map(\.count), [2, 1, 2], "B's lift is a report of its own, before C lands")
        XCTAssertEqual(
            encoder.currentTrackingIDs, [1, 3], "C has its own tracking id (B had 2)")
    }

    /// A cancelled contact turns into a palm (ABS_MT_TOOL_TYPE = MT_TOOL_PALM, which libinput
    /// reports as TOUCH_CANCEL) in a report before its lift; a lifted one does not; the slot's
    /// next contact is a finger again.
    func testCancelledContactIsAPalmBeforeItLifts() {
        var encoder = MultiTouchEncoder(slots: 2, marksCancels: true)
        var events: [InputEvent] = []
        let down = TouchFrame(timestamp: .zero, contacts: [Contact(id: 0, x: 10, y: 10), Contact(id: 1, x: 50, y: 50)])
        encoder.encode(down, into: &events)
        events.removeAll()
        encoder.encode(
            TouchFrame(timestamp: .zero, contacts: [Contact(id: 1, x: 50, y: 50)]), cancelled: 1, into: &events)
        let palm = abs(EvdevCode.ABS_MT_TOOL_TYPE, EvdevCode.MT_TOOL_PALM)
        let lift = abs(EvdevCode.ABS_MT_TRACKING_ID, -1)
        XCTAssertEqual(
            events.prefix(3), [abs(EvdevCode.ABS_MT_SLOT, 0), palm, syn], "the palm, in a report of its own")
        XCTAssertEqual(Array(events.dropFirst(3).prefix(2)), [abs(EvdevCode.ABS_MT_SLOT, 0), lift])
        events.removeAll()
        encoder.encode(TouchFrame(timestamp: .zero), into: &events)
        XCTAssertFalse(events.contains(palm), "an ordinary lift is no cancel")
        events.removeAll()
        encoder.encode(TouchFrame(timestamp: .zero, contacts: [Contact(id: 0, x: 10, y: 10)]), into: &events)
        XCTAssertTrue(events.contains(abs(EvdevCode.ABS_MT_TOOL_TYPE, EvdevCode.MT_TOOL_FINGER)), "a finger again")
    }
}
