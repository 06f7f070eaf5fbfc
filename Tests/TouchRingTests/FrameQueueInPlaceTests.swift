import TouchCore
import XCTest

@testable import TouchRing

/// The frame ring copies only a frame's held contacts into a slot and hands the consumer the
/// slot itself: a slot reused by a frame with fewer contacts must read as that frame alone.
final class FrameQueueInPlaceTests: XCTestCase {
    private func frame(_ ms: Int64, _ contacts: Int) -> TouchFrame {
        var f = TouchFrame(timestamp: .milliseconds(ms))
        for i in 0..<contacts { f.append(Contact(id: UInt8(i), x: Double(10 * i + 1), y: Double(ms))) }
        return f
    }

    func testAReusedSlotShowsOnlyTheNewFramesContacts() {
        let queue = FrameQueue(capacity: 4)  // 4 slots: every 4th frame reuses one
        var t: Int64 = 0
        for round in 0..<6 {
            for contacts in [10, 3, 0, 1] {
                let sent = frame(t, (contacts + round) % 11)
                XCTAssertTrue(queue.offer(sent))
                guard let got = queue.first() else { return XCTFail("no frame at \(t) ms") }
                XCTAssertEqual(got.pointee, sent, "frame at \(t) ms")
                XCTAssertEqual(got.pointee.contacts, sent.contacts)
                queue.removeFirst()
                t += 10
            }
        }
        XCTAssertNil(queue.first())
    }

    func testFirstKeepsTheFrameUntilRemovedAndOrderIsKept() {
        let queue = FrameQueue(capacity: 4)
        queue.offer(frame(0, 2))
        queue.offer(frame(10, 1))
        XCTAssertEqual(queue.first()?.pointee.timestamp, .milliseconds(0))
        XCTAssertEqual(queue.first()?.pointee.count, 2, "first() does not consume")
        queue.removeFirst()
        XCTAssertEqual(queue.first()?.pointee, frame(10, 1))
        queue.removeFirst()
        XCTAssertNil(queue.first())
    }

    /// Overflow keeps the newest snapshot aside (its held contacts only) and delivers it after a cancel.
    func testOverflowDeliversACancelThenTheNewestSnapshotInFull() {
        let queue = FrameQueue(capacity: 4)
        for i in 0..<4 { XCTAssertTrue(queue.offer(frame(Int64(i) * 10, 10))) }
        XCTAssertFalse(queue.offer(frame(40, 2)))
        XCTAssertFalse(queue.offer(frame(50, 3)))
        XCTAssertEqual(queue.droppedFrames, 1)
        for i in 0..<4 {
            XCTAssertEqual(queue.first()?.pointee.timestamp, .milliseconds(Int64(i) * 10))
            queue.removeFirst()
        }
        XCTAssertNil(queue.first())
        queue.flush()
        XCTAssertEqual(queue.first()?.pointee.isCancel, true)
        queue.removeFirst()
        XCTAssertEqual(queue.first()?.pointee, frame(50, 3))
        queue.removeFirst()
        XCTAssertNil(queue.first())
    }
}
