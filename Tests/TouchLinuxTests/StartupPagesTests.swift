import Foundation
import Synchronization
import TouchLinux
import XCTest

final class StartupPagesTests: XCTestCase {
    /// Only executable mappings of files are released: data, read-only data (RELRO, written by
    /// relocations before it was protected), anonymous memory, the stack and the vDSO are kept.
    func testOnlyExecutableFileMappingsAreChosen() {
        let maps = """
            00400000-00410000 r--p 00000000 08:01 123 /usr/bin/touchwire
            00410000-00c00000 r-xp 00010000 08:01 123 /usr/bin/touchwire
            00c00000-00d00000 r--p 00800000 08:01 123 /usr/bin/touchwire
            00d00000-00e00000 rw-p 00900000 08:01 123 /usr/bin/touchwire
            01000000-01100000 rw-p 00000000 00:00 0                          [heap]
            7f0000000000-7f0000020000 rw-p 00000000 00:00 0
            7f0000100000-7f0000200000 r-xp 00028000 08:01 456                /usr/lib/x86_64-linux-gnu/libc.so.6
            7f0000300000-7f0000301000 r-xp 00000000 00:00 0
            7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                  [stack]
            7ffd00100000-7ffd00102000 r-xp 00000000 00:00 0                  [vdso]
            ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0          [vsyscall]
            garbage line
            """
        XCTAssertEqual(
            StartupPages.executableFileMappings(in: maps),
            [
                .init(start: 0x0041_0000, end: 0x00c0_0000),
                .init(start: 0x7f00_0010_0000, end: 0x7f00_0020_0000),
            ])
    }

    /// Read-only data is released only where it is still the file's: of the read-only file
    /// mappings, only the present pages whose pagemap entry says file page (bit 61), never a
    /// private copy (a relocated RELRO page: bit 61 clear), in runs of neighbouring pages.
    func testReadOnlyDataIsReleasedOnlyWhereItIsStillTheFile() {
        let maps = """
            00400000-00410000 r--p 00000000 08:01 123 /usr/bin/touchwire
            00410000-00c00000 r-xp 00010000 08:01 123 /usr/bin/touchwire
            00c00000-00d00000 r--p 00800000 08:01 123 /usr/bin/touchwire
            00d00000-00e00000 rw-p 00900000 08:01 123 /usr/bin/touchwire
            7f0000000000-7f0000020000 r--p 00000000 00:00 0
            7ffd00100000-7ffd00102000 r--p 00000000 00:00 0                  [vvar]
            """
        XCTAssertEqual(
            StartupPages.readOnlyFileMappings(in: maps),
            [.init(start: 0x0040_0000, end: 0x0041_0000), .init(start: 0x00c0_0000, end: 0x00d0_0000)])
        let file: UInt64 = 1 << 63 | 1 << 61 | 0x1234
        let copy: UInt64 = 1 << 63 | 0x5678
        let swapped: UInt64 = 1 << 62
        XCTAssertEqual(
            StartupPages.filePageRuns(
                start: 0x1000, pageSize: 0x1000, entries: [file, file, copy, 0, swapped, file, copy, file, file]),
            [.init(start: 0x1000, end: 0x3000), .init(start: 0x6000, end: 0x7000), .init(start: 0x8000, end: 0xa000)])
        XCTAssertEqual(StartupPages.filePageRuns(start: 0x1000, pageSize: 0x1000, entries: [copy, 0]), [])
    }

    /// Releasing the code pages of the running process (this test's) keeps it running: the code is
    /// faulted back in on its next use, and the resident set does not grow from it.
    func testReleasingTheCodeOfARunningProcessIsHarmless() {
        let before = RealTime.residentBytes()
        let released = StartupPages.release()
        XCTAssertGreaterThan(released, 0, "this process has executable file mappings")
        XCTAssertEqual([3, 1, 2].sorted(), [1, 2, 3], "code still runs after the release")
        // Read-only data and relocated pointers read back as before (a dropped relocated page
        // would bring back the file's unrelocated bytes: a crash or garbage here).
        XCTAssertEqual("\(StartupPages.Mapping(start: 1, end: 3).bytes) bytes", "2 bytes")
        XCTAssertEqual(String(describing: StartupPagesTests.self), "StartupPagesTests")
        XCTAssertGreaterThan(StartupPages.release(), 0, "a second release is harmless too")
        XCTAssertLessThanOrEqual(RealTime.residentBytes(), before + 4 << 20)
    }
}

final class NamedThreadTests: XCTestCase {
    /// The thread runs its body once, under its name as `top -H` and `ps -L` show it (the kernel
    /// keeps 15 bytes of it).
    func testThreadRunsItsBodyUnderItsName() throws {
        let name = Mutex<String?>(nil)
        let done = expectation(description: "body ran")
        try NamedThread.start(name: "touchwire-recognizer") {
            let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
            name.withLock { $0 = comm.trimmingCharacters(in: .whitespacesAndNewlines) }
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(name.withLock { $0 }, "touchwire-recog")
    }
}
