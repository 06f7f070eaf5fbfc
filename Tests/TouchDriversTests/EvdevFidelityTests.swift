import Foundation
import TouchCore
import TouchRing
import TouchService
import XCTest

@testable import TouchDrivers

/// The evdev input as the finger made it: multi-touch protocol A panels (contacts reassembled per
/// report, tracked by nearest neighbour) and the kernel's event times instead of the read's.
final class EvdevFidelityTests: XCTestCase {
    let syn = InputEvent.synReport
    let mtSync = InputEvent(type: EvdevCode.EV_SYN, code: EvdevCode.SYN_MT_REPORT, value: 0)
    func abs(_ code: UInt16, _ v: Int32) -> InputEvent { InputEvent(type: EvdevCode.EV_ABS, code: code, value: v) }
    /// One protocol A contact: its position, then SYN_MT_REPORT.
    func contact(_ x: Int32, _ y: Int32) -> [InputEvent] {
        [abs(EvdevCode.ABS_MT_POSITION_X, x), abs(EvdevCode.ABS_MT_POSITION_Y, y), mtSync]
    }

    let protocolA = EvdevGeometry(
        multiTouch: true, x: AxisRange(minimum: 0, maximum: 9600), y: AxisRange(minimum: 0, maximum: 7200),
        slotCount: 0, protocolA: true)

    func decode(_ d: inout EvdevDecoder, _ events: [InputEvent]) -> [TouchFrame] {
        let bytes = InputEvent.encode(events)
        var frames: [TouchFrame] = []
        _ = bytes.withUnsafeBytes { d.consume(bytes: $0, at: .milliseconds(1)) { frames.append($0) } }
        return frames
    }

    /// A two-finger tap on a protocol A panel is two touches down together, each keeping its id
    /// whatever order the packets come in, then every finger up.
    func testProtocolATwoFingerTapIsTwoTouches() {
        var d = EvdevDecoder(geometry: protocolA, rawWidth: 9601, rawHeight: 7201)
        let frames = decode(
            &d,
            contact(1000, 1000) + contact(5000, 5000) + [syn]
                + contact(5010, 5005) + contact(1002, 1001) + [syn]  // the other order, both moved a little
                + [mtSync, syn])  // the empty packet some devices send: no contact
        XCTAssertEqual(frames.map(\.count), [2, 2, 0])
        XCTAssertEqual(frames[0].contacts, [Contact(id: 0, x: 1000, y: 1000), Contact(id: 1, x: 5000, y: 5000)])
        XCTAssertEqual(frames[1].contact(withID: 0)?.position, Point(x: 1002, y: 1001), "nearest neighbour")
        XCTAssertEqual(frames[1].contact(withID: 1)?.position, Point(x: 5010, y: 5005))
        XCTAssertFalse(frames[2].isCancel)
    }

    /// One finger lifting while the other stays: the one that stays keeps its id; a finger
    /// landing far from any contact of the previous report is a new touch, not a jump.
    func testProtocolALiftAndFarLandingAreEndsAndNewTouches() {
        var d = EvdevDecoder(geometry: protocolA, rawWidth: 9601, rawHeight: 7201)
        let frames = decode(
            &d,
            contact(1000, 1000) + contact(5000, 5000) + [syn]
                + contact(5000, 5001) + [syn]
                + contact(9000, 100) + [syn])
        XCTAssertEqual(frames[1].contacts.map(\.id), [1], "the first finger lifted, the second keeps its id")
        XCTAssertEqual(frames[2].contacts.map(\.id), [0], "5000,5001 → 9000,100 is beyond reach: a new touch")
    }

    /// The real N-Trig recording (`data/evemu/ntrig-2-fingers.events`, whot/evemu-devices): one
    /// finger, then two (the new finger's packet first), then the first lifts, then all up.
    func testNTrigRecordingKeepsEachFingersIdentity() throws {
        let events = try evemuEvents("ntrig-2-fingers.events")
        var d = EvdevDecoder(geometry: protocolA, rawWidth: 9601, rawHeight: 7201)
        var frames: [TouchFrame] = []
        for (time, e) in events { if let f = d.consume(e, at: time) { frames.append(f) } }
        XCTAssertEqual(frames.map(\.count), [1, 2, 2, 1, 0])
        XCTAssertEqual(frames[0].contacts, [Contact(id: 0, position: Point(x: 1588, y: 6097), area: 360)])
        XCTAssertEqual(frames[1].contact(withID: 0)?.position, Point(x: 1588, y: 6087))
        XCTAssertEqual(frames[1].contact(withID: 1)?.position, Point(x: 7199, y: 2195))
        XCTAssertEqual(frames[3].contacts.map(\.id), [1], "the second finger stays")
        XCTAssertEqual(frames[3].contacts.first?.position, Point(x: 7183, y: 2192))
        XCTAssertEqual(frames[4].timestamp, Instant(microseconds: 1_357_751_034_709_837), "the record's time")
    }

    /// Protocol A after SYN_DROPPED: there is no state to read; the touches reported are
    /// cancelled (S9) and what is down is ignored until every finger is up.
    func testProtocolAOverflowCancelsAndIgnoresUntilEmpty() {
        var d = EvdevDecoder(geometry: protocolA, rawWidth: 9601, rawHeight: 7201)
        XCTAssertEqual(decode(&d, contact(1000, 1000) + [syn]).map(\.count), [1])
        XCTAssertTrue(decode(&d, [.synDropped] + contact(1000, 1000) + [syn]).isEmpty)
        XCTAssertTrue(d.needsResync)
        XCTAssertEqual(d.resync(EvdevSnapshot(trackingIDs: [], xs: [], ys: []), at: .milliseconds(2))?.isCancel, true)
        XCTAssertEqual(decode(&d, contact(1001, 1000) + [syn]).map(\.count), [0], "ignored until it lifts")
        XCTAssertEqual(decode(&d, [syn] + contact(3000, 3000) + [syn]).map(\.count), [0, 1])
    }

    /// Bad input never crashes: positions at the ends of Int32 on a full-range axis, more
    /// packets than slots, a position-less packet, tracking ids repeated within a report.
    func testProtocolAExtremeInputDecodesWithoutCrashing() {
        let full = AxisRange(minimum: .min, maximum: .max)
        var d = EvdevDecoder(
            geometry: EvdevGeometry(multiTouch: true, x: full, y: full, slotCount: 0, protocolA: true), rawWidth: 800,
            rawHeight: 480)
        var events = contact(.min, .min) + contact(.max, .max) + [syn] + contact(.max, .min) + [syn]
        for i in 0..<20 { events += contact(Int32(i) * 1000, 0) }
        events += [syn, mtSync, abs(EvdevCode.ABS_MT_TRACKING_ID, 3)] + contact(5, 5)
        events += [abs(EvdevCode.ABS_MT_TRACKING_ID, 3)] + contact(6, 6) + [syn]
        let frames = decode(&d, events)
        XCTAssertEqual(frames.map(\.count), [2, 1, 10, 2])
        XCTAssertGreaterThan(d.contactsIgnored, 0, "contacts beyond the slots and the frame are counted")
    }

    /// The records of an evemu recording in `data/evemu/` with their times.
    func evemuEvents(_ file: String) throws -> [(Instant, InputEvent)] {
        let root = repositoryRoot
        let text = try String(contentsOf: root.appendingPathComponent("data/evemu/\(file)"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ")
            guard f.count == 5, f[0] == "E:", let type = UInt16(f[2], radix: 16), let code = UInt16(f[3], radix: 16),
                let value = Int32(f[4])
            else { return nil }
            let parts = f[1].split(separator: ".")
            let us = (Int64(parts[0]) ?? 0) * 1_000_000 + (Int64(parts[1]) ?? 0)
            return (Instant(microseconds: us), InputEvent(type: type, code: code, value: value))
        }
    }

    // MARK: kernel timestamps

    /// An input device whose records carry times on CLOCK_MONOTONIC (EVIOCSCLOCKID accepted).
    final class TimedSource: InputEventSource {
        let path = "/dev/input/event3"
        var bytes: [UInt8] = []
        var offset = 0
        var monotonicTimestamps = true
        func queue(_ events: [InputEvent], at time: Instant) { for e in events { e.encode(into: &bytes, time: time) } }
        func describe() throws(InputDeviceError) -> (name: String, geometry: EvdevGeometry) {
            let axis = AxisRange(minimum: 0, maximum: 799)
            return ("panel", EvdevGeometry(multiTouch: true, x: axis, y: axis, slotCount: 10))
        }
        func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputDeviceError) -> Int {
            let n = min(buffer.count, bytes.count - offset)
            for i in 0..<n { buffer[i] = bytes[offset + i] }
            offset += n
            return n
        }
        func snapshot(slotCount: Int, multiTouch: Bool) throws(InputDeviceError) -> EvdevSnapshot {
            EvdevSnapshot(trackingIDs: [], xs: [], ys: [])
        }
        func waitReadable(timeoutMicroseconds: Int64) -> Bool { offset < bytes.count }
    }

    func down(_ x: Int32) -> [InputEvent] {
        [
            abs(EvdevCode.ABS_MT_SLOT, 0), abs(EvdevCode.ABS_MT_TRACKING_ID, 4), abs(EvdevCode.ABS_MT_POSITION_X, x),
            abs(EvdevCode.ABS_MT_POSITION_Y, 100), syn,
        ]
    }
    var up: [InputEvent] { [abs(EvdevCode.ABS_MT_TRACKING_ID, -1), syn] }

    /// A 913 ms press read late (the process was stopped, both reports are read at once) stays a
    /// 913 ms press: the frames queued for the engine carry the kernel's times, not the read's.
    func testFramesCarryTheKernelsTimesThroughTheDriverStage() {
        let source = TimedSource()
        let controller = EvdevController(source: source, rawWidth: 800, rawHeight: 800, timing: .immediate)
        let frames = FrameQueue(capacity: 16)
        let stage = DriverStage(controller: controller, frames: frames, log: { _ in })
        XCTAssertTrue(stage.start(at: .zero))
        source.queue(down(100), at: .milliseconds(1_000))
        source.queue(up, at: .milliseconds(1_913))
        var queued: [TouchFrame] = []
        for _ in 0..<3 {
            stage.poll(at: .milliseconds(5_000), edge: true)
            frames.flush()
            while let f = frames.poll() { queued.append(f) }
        }
        XCTAssertEqual(queued.map(\.count), [1, 0])
        XCTAssertEqual(queued.map(\.timestamp), [.milliseconds(1_000), .milliseconds(1_913)])
    }

    /// After SYN_DROPPED the resync frame is stamped when read, and the frames after it never
    /// go back before it (the engine's time only moves forward).
    func testFramesAfterAnOverflowNeverGoBackInTime() throws {
        let source = TimedSource()
        let controller = EvdevController(source: source, rawWidth: 800, rawHeight: 800, timing: .immediate)
        try controller.start()
        source.queue(down(100), at: .milliseconds(1_000))
        XCTAssertEqual(try controller.readFrame(at: .milliseconds(1_001))?.timestamp, .milliseconds(1_000))
        source.queue([.synDropped, syn], at: .milliseconds(1_500))
        source.queue(down(150), at: .milliseconds(1_600))
        let resync = try XCTUnwrap(controller.readFrame(at: .milliseconds(3_000)))
        XCTAssertEqual(resync.timestamp, .milliseconds(3_000))
        let next = try XCTUnwrap(controller.readFrame(at: .milliseconds(3_001)))
        XCTAssertGreaterThanOrEqual(next.timestamp, resync.timestamp)
    }

    /// Times never after the read (a clock the device did not switch is not trusted past it),
    /// never going back; a source without monotonic times is stamped when read.
    func testKernelTimesAreClampedAndIgnoredWithoutAMonotonicClock() throws {
        let source = TimedSource()
        let controller = EvdevController(source: source, rawWidth: 800, rawHeight: 800, timing: .immediate)
        try controller.start()
        source.queue(down(100), at: .milliseconds(9_000))
        source.queue(down(200), at: .milliseconds(500))
        XCTAssertEqual(try controller.readFrame(at: .milliseconds(2_000))?.timestamp, .milliseconds(2_000))
        XCTAssertEqual(try controller.readFrame(at: .milliseconds(2_001))?.timestamp, .milliseconds(2_000))
        let plain = TimedSource()
        plain.monotonicTimestamps = false
        let other = EvdevController(source: plain, rawWidth: 800, rawHeight: 800, timing: .immediate)
        try other.start()
        plain.queue(down(100), at: .milliseconds(1_000))
        XCTAssertEqual(try other.readFrame(at: .milliseconds(3_000))?.timestamp, .milliseconds(3_000))
    }
}
