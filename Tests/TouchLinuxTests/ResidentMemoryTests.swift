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

    /// The /proc/self/status reader the status file's `rss` comes from, on fixed text.
    func testStatusLinesAreReadByKeyAtALineStart() {
        let text = "Name:\ttouchwire\nVmHWM:\t   14544 kB\nVmRSS:\t    9472 kB\nRssAnon:\t 1200 kB\n"
        XCTAssertEqual(RealTime.procStatusKilobytes("VmRSS:", in: text), 9472)
        XCTAssertEqual(RealTime.procStatusKilobytes("VmHWM:", in: text), 14544)
        XCTAssertNil(RealTime.procStatusKilobytes("VmLck:", in: text), "no such line")
        XCTAssertNil(RealTime.procStatusKilobytes("Anon:", in: text), "a key matches only at a line start")
        XCTAssertNil(RealTime.procStatusKilobytes("Name:", in: text), "no digits")
        XCTAssertEqual(RealTime.procStatusKilobytes("VmRSS:", in: "VmRSS: 12 kB"), 12, "last line, no newline")
        XCTAssertNil(
            RealTime.procStatusKilobytes("VmRSS:", in: "VmRSS: 99999999999999999999999 kB\n"),
            "a number too large for Int is no value, not a trap")
    }
}
