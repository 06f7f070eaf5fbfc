import TouchLinux
import XCTest

/// `bench` prints the resident set and its peak: the peak can never be below the current figure,
/// and it remembers memory that has since been given back.
final class ResidentMemoryTests: XCTestCase {
    func testPeakIsNeverBelowCurrentAndRemembersFreedMemory() throws {
        let before = RealTime.residentMemory()
        guard before.current > 0 else { throw XCTSkip("no /proc/self/status VmRSS here") }
        XCTAssertGreaterThanOrEqual(before.peak, before.current)
        let size = 64 << 20
        let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
        block.initializeMemory(as: UInt8.self, repeating: 1, count: size)  // touch every page
        let during = RealTime.residentMemory()
        block.deallocate()
        let after = RealTime.residentMemory()
        XCTAssertGreaterThanOrEqual(during.current, before.current + size / 2)
        // The kernel's RSS counters are per-CPU approximations (tens of kB apart between two reads):
        // across reads the peak is compared with a margin; within one read it is exact by construction.
        XCTAssertGreaterThanOrEqual(after.peak, during.current - (1 << 20))
        XCTAssertGreaterThanOrEqual(after.peak, after.current)
    }
}
