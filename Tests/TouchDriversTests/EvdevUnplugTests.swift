import TouchCore
import TouchDrivers
import TouchRing
import TouchService
import XCTest

/// A Linux input device that goes away mid-touch (a USB panel unplugged, its driver unbound):
/// the touch in progress is cancelled (S9), the reason is logged once, and when a device of the
/// same name is back the driver stage's restart reopens it and the next touch is read.
final class EvdevUnplugTests: XCTestCase {
    /// An input device whose records the test queues; it can be unplugged and plugged back.
    final class PluggableSource: InputEventSource {
        var path = "/dev/input/event5"
        var plugged = true
        var reopens = 0
        private var bytes: [UInt8] = []
        private var offset = 0

        func queue(_ events: [InputEvent]) { bytes += InputEvent.encode(events) }

        func describe() throws(InputDeviceError) -> (name: String, geometry: EvdevGeometry) {
            guard plugged else { throw .failed(path: path, operation: "EVIOCGBIT", errno: 19) }
            let axis = AxisRange(minimum: 0, maximum: 799)
            return ("usb panel", EvdevGeometry(multiTouch: true, x: axis, y: axis, slotCount: 10))
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputDeviceError) -> Int {
            guard plugged else { throw .unplugged(path: path) }
            let n = min(buffer.count, bytes.count - offset)
            for i in 0..<n { buffer[i] = bytes[offset + i] }
            offset += n
            return n
        }

        func snapshot(slotCount: Int, multiTouch: Bool) throws(InputDeviceError) -> EvdevSnapshot {
            EvdevSnapshot(trackingIDs: [], xs: [], ys: [])
        }

        func waitReadable(timeoutMicroseconds: Int64) -> Bool { !plugged || offset < bytes.count }

        func reopen() throws(InputDeviceError) {
            reopens += 1
            guard plugged else { throw .missing(path: path) }
            path = "/dev/input/event6"  // the replugged panel got a new node
            bytes = []
            offset = 0
        }
    }

    func touch(_ slot: Int32, id: Int32, x: Int32, y: Int32) -> [InputEvent] {
        [
            InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_SLOT, value: slot),
            InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_TRACKING_ID, value: id),
            InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_POSITION_X, value: x),
            InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_POSITION_Y, value: y), .synReport,
        ]
    }

    var lift: [InputEvent] {
        [
            InputEvent(type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_TRACKING_ID, value: -1), .synReport,
        ]
    }

    func testUnpluggedMidTouchCancelsLogsAndReopensWhenBack() {
        let source = PluggableSource()
        let controller = EvdevController(source: source, rawWidth: 800, rawHeight: 800, timing: .immediate)
        let frames = FrameQueue(capacity: 64)
        var logs: [String] = []
        let stage = DriverStage(controller: controller, frames: frames, log: { logs.append($0) })
        XCTAssertTrue(stage.start(at: .zero))
        var queued: [TouchFrame] = []
        func poll(_ ms: Int64) {
            stage.poll(at: .milliseconds(ms))
            frames.flush()
            while let f = frames.poll() { queued.append(f) }
        }
        source.queue(touch(0, id: 7, x: 100, y: 200))
        poll(10)
        XCTAssertEqual(queued.last?.count, 1, "the finger is down")

        source.plugged = false
        for ms in stride(from: Int64(20), through: 60, by: 10) { poll(ms) }
        XCTAssertEqual(queued.count, 2)
        XCTAssertTrue(queued.last?.isCancel ?? false, "S9: the touch in progress is cancelled, not lifted (no tap)")
        guard case .missing(let why) = stage.state else { return XCTFail("\(stage.state)") }
        XCTAssertTrue(why.contains("input device /dev/input/event5 went away (unplugged?)"), why)
        XCTAssertTrue(logs.contains { $0.contains("/dev/input/event5 went away (unplugged?)") }, "\(logs)")

        // Still away: the restarts (with back-off) try to reopen it, and nothing is queued.
        for ms in stride(from: Int64(70), through: 1_000, by: 10) { poll(ms) }
        XCTAssertGreaterThan(source.reopens, 0)
        XCTAssertEqual(queued.count, 2)

        source.plugged = true
        for ms in stride(from: Int64(1_010), through: 6_000, by: 10) { poll(ms) }
        XCTAssertEqual(stage.state, .running)
        XCTAssertTrue(logs.last?.contains("/dev/input/event6") ?? false, "the restart names the new node: \(logs)")
        source.queue(touch(0, id: 8, x: 300, y: 400))
        poll(6_010)
        source.queue(lift)
        poll(6_020)
        XCTAssertEqual(queued.count, 4, "the next touch after the replug is read: \(queued)")
        XCTAssertEqual(queued[2].contacts.first?.position, Point(x: 300, y: 400))
        XCTAssertTrue(queued[3].isEmpty && !queued[3].isCancel, "and lifts")
    }
}
