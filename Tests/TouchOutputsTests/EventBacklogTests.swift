import Gestures
import TouchCore
import TouchOutputs
import XCTest

final class EventBacklogTests: XCTestCase {
    /// A slow peer gets the latest pan position; began/ended of every recognizer are all kept, in order.
    func testChangedEventsCoalesceOthersAreKept() {
        let backlog = EventBacklog(capacity: 16, recognizerSlots: 8)
        backlog.push(panEvent(.began, t: 0))
        for i in 1...50 { backlog.push(panEvent(.changed, t: Int64(i), x: Double(i))) }
        backlog.push(doubleTapEvent())  // another recognizer in between
        for i in 51...60 { backlog.push(panEvent(.changed, t: Int64(i), x: Double(i))) }
        backlog.push(panEvent(.ended, t: 61))
        backlog.push(panEvent(.began, t: 62))  // a new pan: its changed must not merge into the old one
        backlog.push(panEvent(.changed, t: 63, x: 63))
        var got: [String] = []
        while let e = backlog.popFirst() { got.append("\(e.recognizer) \(e.state) \(Int(e.location.x))") }
        XCTAssertEqual(
            got, ["3 began 420", "3 changed 60", "1 recognized 401", "3 ended 420", "3 began 420", "3 changed 63"])
        XCTAssertEqual(backlog.coalescedCount, 59)
        XCTAssertEqual(backlog.droppedCount, 0)
    }

    /// When full of discrete events, the oldest goes and is counted; nothing blocks.
    func testFullBacklogCountsDrops() {
        let backlog = EventBacklog(capacity: 4, recognizerSlots: 8)
        for i in 0..<6 {
            var e = doubleTapEvent()
            e.time = Instant(microseconds: Int64(i))
            backlog.push(e)
        }
        backlog.push(panEvent(.changed))  // no room and nothing to merge with: dropped
        XCTAssertEqual(backlog.droppedCount, 3)
        var times: [Int64] = []
        while let e = backlog.popFirst() { times.append(e.time.microseconds) }
        XCTAssertEqual(times, [2, 3, 4, 5])
    }
}
