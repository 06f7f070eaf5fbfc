import TouchCore
import TouchSimulation
import XCTest

@testable import TouchDrivers

/// The evdev decoder on `input_event` byte streams as the kernel writes them.
final class EvdevDecoderTests: XCTestCase {
    let t = Instant.milliseconds(5)
    let mt = EvdevGeometry(
        multiTouch: true, x: AxisRange(minimum: 0, maximum: 4095), y: AxisRange(minimum: 0, maximum: 4095),
        slotCount: 10)

    func abs(_ code: UInt16, _ v: Int32) -> InputEvent { InputEvent(type: EvdevCode.EV_ABS, code: code, value: v) }
    func slot(_ s: Int32) -> InputEvent { abs(EvdevCode.ABS_MT_SLOT, s) }
    func track(_ id: Int32) -> InputEvent { abs(EvdevCode.ABS_MT_TRACKING_ID, id) }
    func x(_ v: Int32) -> InputEvent { abs(EvdevCode.ABS_MT_POSITION_X, v) }
    func y(_ v: Int32) -> InputEvent { abs(EvdevCode.ABS_MT_POSITION_Y, v) }
    let syn = InputEvent.synReport

    /// Decodes `events` as bytes; returns every frame.
    func decode(_ d: inout EvdevDecoder, _ events: [InputEvent]) -> [TouchFrame] {
        let bytes = InputEvent.encode(events)
        var frames: [TouchFrame] = []
        let used = bytes.withUnsafeBytes { d.consume(bytes: $0, at: t) { frames.append($0) } }
        XCTAssertEqual(used, bytes.count)
        return frames
    }

    func testRecordLayoutIsTheKernelsStructInputEvent() {
        // 64-bit: struct timeval (16 bytes), then type, code, value little-endian.
        XCTAssertEqual(InputEvent.byteCount, MemoryLayout<Int>.size == 8 ? 24 : 16)
        var bytes = [UInt8](repeating: 0xEE, count: 2 * MemoryLayout<Int>.size)  // a time the decoder ignores
        bytes += [0x03, 0x00, 0x39, 0x00, 0xFF, 0xFF, 0xFF, 0xFF]
        let e = bytes.withUnsafeBytes { InputEvent.decode($0, at: 0) }
        XCTAssertEqual(e, InputEvent(type: 3, code: 0x39, value: -1))
    }

    func testProtocolBTwoFingersScaledOntoTheRawRange() {
        var d = EvdevDecoder(geometry: mt, rawWidth: 800, rawHeight: 480)
        let frames = decode(
            &d,
            [
                slot(0), track(45), x(0), y(4095), syn,
                slot(1), track(46), x(4095), y(0), syn,
                slot(0), x(2048), syn,
                slot(0), track(-1), syn,
                slot(1), track(-1), syn,
            ])
        XCTAssertEqual(frames.count, 5)
        XCTAssertEqual(frames[0].contacts, [Contact(id: 0, x: 0, y: 479)])
        XCTAssertEqual(frames[1].contacts, [Contact(id: 0, x: 0, y: 479), Contact(id: 1, x: 799, y: 0)])
        XCTAssertEqual(frames[2].contacts.map(\.position.x), [2048.0 * 799 / 4095, 799])
        XCTAssertEqual(frames[3].contacts.map(\.id), [1], "the first finger lifted, the second keeps its id")
        XCTAssertTrue(frames[4].isEmpty && !frames[4].isCancel, "every finger up")
    }

    func testAxisWithOffsetMinimumAndOutOfRangeValuesClamp() {
        let g = EvdevGeometry(
            multiTouch: true, x: AxisRange(minimum: 100, maximum: 1100), y: AxisRange(minimum: -50, maximum: 950),
            slotCount: 2)
        var d = EvdevDecoder(geometry: g, rawWidth: 1001, rawHeight: 1001)
        let f = decode(&d, [slot(0), track(1), x(600), y(2000), syn])
        XCTAssertEqual(f.first?.contacts, [Contact(id: 0, x: 500, y: 1000)])
    }

    /// A slot lifted and touched again inside one report is a new touch (a new id), not a jump.
    func testSlotReusedWithinOneReportGetsANewContactID() {
        var d = EvdevDecoder(geometry: mt, rawWidth: 4096, rawHeight: 4096)
        let frames = decode(
            &d,
            [
                slot(0), track(7), x(100), y(100), syn,
                slot(0), track(-1), track(8), x(3000), y(3000), syn,
            ])
        XCTAssertEqual(frames[0].contacts.map(\.id), [0])
        XCTAssertEqual(frames[1].contacts, [Contact(id: 1, x: 3000, y: 3000)])
    }

    func testEventsWithoutSynReportMakeNoFrameAndOtherTypesAreIgnored() {
        var d = EvdevDecoder(geometry: mt, rawWidth: 4096, rawHeight: 4096)
        let frames = decode(
            &d,
            [
                slot(0), track(1), x(10), y(10),
                InputEvent(type: EvdevCode.EV_KEY, code: EvdevCode.BTN_TOUCH, value: 1),
                InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_X, value: 999),  // single-touch emulation
            ])
        XCTAssertTrue(frames.isEmpty)
        XCTAssertEqual(decode(&d, [syn]).first?.contacts, [Contact(id: 0, x: 10, y: 10)])
    }

    func testSingleTouchDeviceWithBTNTouch() {
        let g = EvdevGeometry(
            multiTouch: false, x: AxisRange(minimum: 0, maximum: 799), y: AxisRange(minimum: 0, maximum: 479),
            slotCount: 1)
        var d = EvdevDecoder(geometry: g, rawWidth: 800, rawHeight: 480)
        let key = { (v: Int32) in InputEvent(type: EvdevCode.EV_KEY, code: EvdevCode.BTN_TOUCH, value: v) }
        let frames = decode(
            &d,
            [
                key(1), abs(EvdevCode.ABS_X, 10), abs(EvdevCode.ABS_Y, 20), syn,
                abs(EvdevCode.ABS_X, 30), syn,
                key(0), syn,
            ])
        XCTAssertEqual(frames.map(\.contacts), [[Contact(id: 0, x: 10, y: 20)], [Contact(id: 0, x: 30, y: 20)], []])
    }

    /// SYN_DROPPED: records up to the next SYN_REPORT are thrown away; a finger still down under
    /// the same tracking id continues from the kernel's position, with no cancel and no lift.
    func testDropWithTouchStillDownContinues() {
        var d = EvdevDecoder(geometry: mt, rawWidth: 4096, rawHeight: 4096)
        _ = decode(&d, [slot(0), track(5), x(100), y(100), syn])
        let during = decode(&d, [InputEvent.synDropped, slot(0), x(9999), syn])
        XCTAssertTrue(during.isEmpty)
        XCTAssertTrue(d.needsResync)
        XCTAssertTrue(decode(&d, [slot(0), x(300), syn]).isEmpty, "nothing is decoded before the resync")
        let f = d.resync(EvdevSnapshot(trackingIDs: [5, -1], xs: [200, 0], ys: [150, 0]), at: t)
        XCTAssertEqual(f?.contacts, [Contact(id: 0, x: 200, y: 150)])
        XCTAssertEqual(f?.isCancel, false)
        XCTAssertEqual(d.dropsSeen, 1)
    }

    /// A finger that lifted during the gap: its lift was never seen, so the touch is cancelled
    /// (S9) — never an invented lift that would complete a tap.
    func testDropThatLostALiftCancelsInsteadOfInventingOne() {
        var d = EvdevDecoder(geometry: mt, rawWidth: 4096, rawHeight: 4096)
        _ = decode(&d, [slot(0), track(5), x(100), y(100), syn])
        _ = decode(&d, [InputEvent.synDropped, syn])
        let f = d.resync(EvdevSnapshot(trackingIDs: [-1], xs: [0], ys: [0]), at: t)
        XCTAssertEqual(f?.isCancel, true)
        XCTAssertEqual(f?.count, 0)
    }

    /// A finger replaced during the gap (same slot, new tracking id): cancelled; the new finger's
    /// landing point is unknown, so it is ignored until it lifts; the next touch is reported.
    func testDropThatReplacedATouchCancelsAndIgnoresTheNewOneUntilItLifts() {
        var d = EvdevDecoder(geometry: mt, rawWidth: 4096, rawHeight: 4096)
        _ = decode(&d, [slot(0), track(5), x(100), y(100), syn])
        _ = decode(&d, [InputEvent.synDropped, syn])
        XCTAssertEqual(d.resync(EvdevSnapshot(trackingIDs: [6], xs: [500], ys: [500]), at: t)?.isCancel, true)
        let moving = decode(&d, [slot(0), x(600), syn])
        XCTAssertEqual(moving.map(\.count), [0], "the untrusted touch is not reported")
        let after = decode(&d, [slot(0), track(-1), syn, slot(0), track(7), x(50), y(60), syn])
        XCTAssertEqual(after.map(\.contacts), [[], [Contact(id: 0, x: 50, y: 60)]])
    }

    /// A touch that began during the gap (nothing was down before) is ignored; no cancel is needed.
    func testTouchBegunDuringDropIsIgnoredWithoutCancel() {
        var d = EvdevDecoder(geometry: mt, rawWidth: 4096, rawHeight: 4096)
        _ = decode(&d, [InputEvent.synDropped, syn])
        let f = d.resync(EvdevSnapshot(trackingIDs: [9], xs: [1], ys: [1]), at: t)
        XCTAssertEqual(f?.isCancel, false)
        XCTAssertEqual(f?.count, 0)
    }

    func testSlotsBeyondTheTrackedRangeAreIgnoredAndCounted() {
        var d = EvdevDecoder(geometry: mt, rawWidth: 4096, rawHeight: 4096)
        let frames = decode(&d, [slot(40), track(3), x(1), y(1), syn])
        XCTAssertEqual(frames.first?.count, 0)
        XCTAssertEqual(d.contactsIgnored, 1)
    }
}

/// `EvdevController` over the evdev-shaped simulated device: the same frames come out as went in.
final class EvdevControllerTests: XCTestCase {
    func frame(_ ms: Int64, _ contacts: [Contact]) -> TouchFrame {
        TouchFrame(timestamp: .milliseconds(ms), contacts: contacts)
    }

    func testFramesInEqualFramesOutThroughTheSimulatedDevice() throws {
        let device = SimulatedInputDevice(scriptWidth: 800, scriptHeight: 480)
        let controller = EvdevController(source: device, rawWidth: 800, rawHeight: 480, timing: .immediate)
        try controller.start()
        XCTAssertEqual(controller.identity?.resolutionWidth, 800)
        // Issue 31: "controller ready: …" names the device file, never an I2C address "at 0x00".
        let ready = try XCTUnwrap(controller.identity?.description)
        XCTAssertTrue(ready.hasPrefix("evdev \"") && ready.contains(" on \(device.path) ("), ready)
        XCTAssertFalse(ready.contains("0x00"), ready)
        let script = [
            frame(0, [Contact(id: 0, x: 10, y: 20)]),
            frame(10, [Contact(id: 0, x: 15, y: 20), Contact(id: 1, x: 700, y: 400)]),
            frame(20, [Contact(id: 1, x: 710, y: 400)]),
            frame(30, []),
        ]
        var out: [TouchFrame] = []
        for f in script {
            device.present(f)
            while let read = try controller.readFrame(at: f.timestamp) { out.append(read) }
        }
        XCTAssertEqual(out.map(\.contacts), script.map(\.contacts))
        XCTAssertNil(try controller.readFrame(at: .milliseconds(40)), "nothing new: no frame")
    }

    /// Several reports queued between two reads come out one per read, in order (a quick tap is never merged away).
    func testQueuedReportsComeOutOnePerRead() throws {
        let device = SimulatedInputDevice(scriptWidth: 800, scriptHeight: 480)
        let controller = EvdevController(source: device, rawWidth: 800, rawHeight: 480, timing: .immediate)
        try controller.start()
        device.present(frame(0, [Contact(id: 0, x: 10, y: 20)]))
        device.present(frame(5, []))
        XCTAssertNotNil(controller.interruptInput)
        XCTAssertNotNil(try controller.interruptInput?.waitForEdge(timeoutMicroseconds: 0))
        XCTAssertEqual(try controller.readFrame(at: .zero)?.count, 1)
        XCTAssertNotNil(try controller.interruptInput?.waitForEdge(timeoutMicroseconds: 0), "a frame is still buffered")
        XCTAssertEqual(try controller.readFrame(at: .zero)?.count, 0)
        XCTAssertNil(try controller.interruptInput?.waitForEdge(timeoutMicroseconds: 0))
    }

    /// The kernel's buffer overflows while a finger that was reported lifts: the controller reads
    /// the device state and cancels; it never reports the lift it did not see.
    func testOverflowResyncsFromTheDeviceState() throws {
        let device = SimulatedInputDevice(scriptWidth: 800, scriptHeight: 480)
        let controller = EvdevController(source: device, rawWidth: 800, rawHeight: 480, timing: .immediate)
        try controller.start()
        device.present(frame(0, [Contact(id: 0, x: 10, y: 20)]))
        XCTAssertEqual(try controller.readFrame(at: .zero)?.count, 1)
        device.present(frame(5, [Contact(id: 0, x: 50, y: 20)]))
        device.present(frame(10, []))
        device.overflow()
        // The kernel's rule: ignore everything up to the next SYN_REPORT, then read the state.
        XCTAssertNil(try controller.readFrame(at: .milliseconds(10)))
        device.present(frame(20, [Contact(id: 0, x: 300, y: 300)]))
        let f = try controller.readFrame(at: .milliseconds(20))
        XCTAssertEqual(f?.isCancel, true, "the reported touch ended unseen: cancelled, not lifted")
        XCTAssertEqual(controller.dropsSeen, 1)
        // The finger that landed in the gap is not reported (its landing point is unknown) until it lifts.
        device.present(frame(30, [Contact(id: 0, x: 320, y: 300)]))
        XCTAssertEqual(try controller.readFrame(at: .milliseconds(30))?.count, 0)
        device.present(frame(40, []))
        device.present(frame(50, [Contact(id: 0, x: 100, y: 100)]))
        XCTAssertEqual(try controller.readFrame(at: .milliseconds(50))?.count, 0)
        XCTAssertEqual(try controller.readFrame(at: .milliseconds(50))?.contacts, [Contact(id: 0, x: 100, y: 100)])
    }

    func testSingleTouchSimulatedDeviceWithScaledAxes() throws {
        let g = EvdevGeometry(
            multiTouch: false, x: AxisRange(minimum: 0, maximum: 1598), y: AxisRange(minimum: 0, maximum: 958),
            slotCount: 1)
        let device = SimulatedInputDevice(geometry: g, scriptWidth: 800, scriptHeight: 480)
        let controller = EvdevController(source: device, rawWidth: 800, rawHeight: 480, timing: .immediate)
        try controller.start()
        device.present(frame(0, [Contact(id: 3, x: 400, y: 240)]))
        XCTAssertEqual(try controller.readFrame(at: .zero)?.contacts, [Contact(id: 0, x: 400, y: 240)])
        device.present(frame(10, []))
        XCTAssertEqual(try controller.readFrame(at: .zero)?.count, 0)
    }
}
