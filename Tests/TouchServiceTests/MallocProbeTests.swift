import MallocInterposerSwift
import XCTest

final class MallocProbeTests: XCTestCase {
    func testInterposerCountsAllocations() {
        MallocInterposerSwift.initialize()
        MallocInterposerSwift.hook()
        let a = [Int](repeating: 1, count: Int.random(in: 100...200))
        MallocInterposerSwift.unhook()
        XCTAssertEqual(a.count > 0, true)
        XCTAssertGreaterThan(MallocInterposerSwift.getStatistics().mallocCount, 0)
    }
}
