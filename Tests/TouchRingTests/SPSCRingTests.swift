import Foundation
import TouchCore
import XCTest

@testable import TouchRing

final class SPSCRingTests: XCTestCase {
    func testCapacityRoundsUpToPowerOfTwo() {
        XCTAssertEqual(SPSCRing<Int>(minimumCapacity: 5).capacity, 8)
        XCTAssertEqual(SPSCRing<Int>(minimumCapacity: 8).capacity, 8)
        XCTAssertEqual(SPSCRing<Int>(minimumCapacity: 1).capacity, 2)
    }

    func testEmptyPopsNilAndFullRefusesAndCounts() {
        let ring = SPSCRing<Int>(minimumCapacity: 4)
        XCTAssertNil(ring.tryPop())
        for i in 0..<4 { XCTAssertTrue(ring.tryPush(i)) }
        XCTAssertFalse(ring.tryPush(99))
        XCTAssertFalse(ring.tryPush(100))
        XCTAssertEqual(ring.refusedCount, 2)
        XCTAssertEqual(ring.highWaterMark, 4)
        XCTAssertEqual((0..<4).compactMap { _ in ring.tryPop() }, [0, 1, 2, 3])
        XCTAssertNil(ring.tryPop())
    }

    /// `status` shows the frame ring's high-water: a consumer that keeps up must leave it at 1, not at
    /// the number of pushes since the producer last looked at the consumer's index.
    func testHighWaterIsTrueOccupancyNotPushCount() {
        let ring = SPSCRing<Int>(minimumCapacity: 256)
        for i in 0..<10_000 {
            XCTAssertTrue(ring.tryPush(i))
            XCTAssertEqual(ring.tryPop(), i)
        }
        XCTAssertEqual(ring.highWaterMark, 1)
        for i in 0..<3 { ring.tryPush(i) }
        XCTAssertEqual(ring.highWaterMark, 3)
        while ring.tryPop() != nil {}
        for i in 0..<2 { ring.tryPush(i) }
        XCTAssertEqual(ring.highWaterMark, 3, "the mark never falls")
    }

    func testWrapAroundKeepsOrder() {
        let ring = SPSCRing<Int>(minimumCapacity: 4)
        var expected = 0
        var next = 0
        for round in 0..<1000 {
            let n = round % 4 + 1
            for _ in 0..<n { if ring.tryPush(next) { next += 1 } }
            while let v = ring.tryPop() {
                XCTAssertEqual(v, expected)
                expected += 1
            }
        }
        XCTAssertEqual(expected, next)
        XCTAssertGreaterThan(next, 2000)
    }

    /// Two threads: every value arrives once, in order; refused pushes are exactly the missing ones.
    func testTwoThreadStressKeepsOrderAndCountsDrops() {
        let ring = SPSCRing<Int>(minimumCapacity: 64)
        let total = 200_000
        let done = DispatchSemaphore(value: 0)
        // Written by the consumer thread only, read after join.
        final class Box: @unchecked Sendable { var received: [Int] = [] }
        let box = Box()
        box.received.reserveCapacity(total)
        let accepted = ManagedAtomicCounter()
        let producer = Thread {
            for i in 0..<total where ring.tryPush(i) { accepted.increment() }
            while !ring.tryPush(-1) {}
            done.signal()
        }
        let consumer = Thread {
            while true {
                guard let v = ring.tryPop() else { continue }
                if v == -1 { break }
                box.received.append(v)
            }
            done.signal()
        }
        producer.start()
        consumer.start()
        done.wait()
        done.wait()
        XCTAssertEqual(box.received.count, accepted.value)
        XCTAssertEqual(box.received, box.received.sorted())
        XCTAssertEqual(Set(box.received).count, box.received.count)
        // Every value the producer could not push was counted as refused (the end marker may add retries).
        XCTAssertGreaterThanOrEqual(ring.refusedCount, total - accepted.value)
        XCTAssertEqual(box.received.count + (total - accepted.value), total)
    }
}

/// A counter written by one thread and read after it has finished.
final class ManagedAtomicCounter: @unchecked Sendable {
    // Written only by the producer thread; read after the semaphore join (happens-before).
    private(set) var value = 0
    func increment() { value += 1 }
}

final class FrameQueueTests: XCTestCase {
    private func frame(_ ms: Int64, _ ids: UInt8...) -> TouchFrame {
        TouchFrame(timestamp: .milliseconds(ms), contacts: ids.map { Contact(id: $0, x: 10, y: 10) })
    }

    func testFramesPassThroughInOrder() {
        let q = FrameQueue(capacity: 4)
        XCTAssertTrue(q.offer(frame(1, 0)))
        XCTAssertTrue(q.offer(frame(2)))
        XCTAssertEqual(q.poll()?.timestamp, .milliseconds(1))
        XCTAssertEqual(q.poll()?.count, 0)
        XCTAssertNil(q.poll())
    }

    /// Overflow never loses a lift: the newest snapshot is kept and delivered after a system cancel.
    func testOverflowKeepsNewestSnapshotAndCancelsTouchesInProgress() {
        let q = FrameQueue(capacity: 4)
        for ms in 1...4 { XCTAssertTrue(q.offer(frame(Int64(ms), 0))) }
        XCTAssertFalse(q.offer(frame(5, 0)))  // full: kept aside
        XCTAssertFalse(q.offer(frame(6)))  // the lift replaces it
        XCTAssertEqual(q.droppedFrames, 1)
        XCTAssertEqual(q.overflowCount, 1)
        XCTAssertTrue(q.hasPending)
        for ms in 1...4 { XCTAssertEqual(q.poll()?.timestamp, .milliseconds(Int64(ms))) }
        q.flush()
        let cancel = q.poll()
        XCTAssertEqual(cancel?.isCancel, true)
        let lift = q.poll()
        XCTAssertEqual(lift?.timestamp, .milliseconds(6))
        XCTAssertEqual(lift?.count, 0)
        XCTAssertFalse(q.hasPending)
        XCTAssertNil(q.poll())
    }

    /// `FrameQueueProducer`'s contract (docs/ARCHITECTURE.md, "Unchecked storage"): the kept frame
    /// and the overflow flag are the producer thread's alone, and reach the consumer only through
    /// the ring. A producer offering faster than a consumer polls (so the 4-slot ring overflows
    /// again and again): whatever the interleaving, every frame is delivered once, in order, or
    /// counted as dropped; each overflow delivers one cancel followed by the kept snapshot of the
    /// same time; and the last frame (a lift) always arrives. Under ThreadSanitizer (`tools/sanitize
    /// thread --filter FrameQueueTests`) a read of the producer's state by the consumer is reported.
    func testTwoThreadOverflowDeliversOrCountsEveryFrame() {
        let q = FrameQueue(capacity: 4)
        let total = 20_000
        let done = DispatchSemaphore(value: 0)
        // Written by the consumer thread only, read after join.
        final class Box: @unchecked Sendable { var received: [TouchFrame] = [] }
        let box = Box()
        box.received.reserveCapacity(total * 2)
        let producer = Thread {
            for ms in 1...total {
                let contacts = ms == total ? [] : [Contact(id: 0, x: 10, y: 10)]
                q.offer(TouchFrame(timestamp: .milliseconds(Int64(ms)), contacts: contacts))
                q.flush()
            }
            while q.hasPending { q.flush() }  // the consumer makes room: the kept lift goes out
            done.signal()
        }
        let consumer = Thread {
            while true {
                guard let f = q.poll() else { continue }
                box.received.append(f)
                if !f.isCancel && f.timestamp == .milliseconds(Int64(total)) { break }
            }
            done.signal()
        }
        producer.start()
        consumer.start()
        done.wait()
        done.wait()
        let frames = box.received.filter { !$0.isCancel }
        let cancels = box.received.count - frames.count
        XCTAssertEqual(frames.count + q.droppedFrames, total, "every frame delivered or counted dropped")
        XCTAssertEqual(frames.map(\.timestamp), frames.map(\.timestamp).sorted(), "in order")
        XCTAssertEqual(Set(frames.map(\.timestamp)).count, frames.count, "each once")
        XCTAssertEqual(frames.last?.count, 0, "the lift arrived last")
        XCTAssertEqual(cancels, q.overflowCount, "one cancel per overflow")
        for (i, f) in box.received.enumerated() where f.isCancel {
            guard i + 1 < box.received.count else {
                XCTFail("a cancel came last, without its kept snapshot")
                break
            }
            let next = box.received[i + 1]
            XCTAssertFalse(next.isCancel, "a cancel is followed by the kept snapshot")
            XCTAssertEqual(next.timestamp, f.timestamp, "the cancel carries the kept snapshot's time")
        }
    }
}
