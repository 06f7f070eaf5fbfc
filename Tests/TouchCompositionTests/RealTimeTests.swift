import BoardConfig
import Foundation
import TouchComposition
import TouchLinux
import TouchService
import XCTest

/// `[realtime]` in board files and the `--realtime …` options: parsing, validation, and what a
/// user reads when a setting is refused. Nothing here asserts on timing or needs privilege.
final class RealTimeTests: XCTestCase {
    let head = """
        [panel]
        width = 800
        height = 480
        [[region]]
        name = "screen"
        frame = [0, 0, 800, 480]
        [[recognizer]]
        name = "tap"
        kind = "tap"
        region = "screen"

        """

    func parse(_ realtime: String) throws(BoardFileError) -> BoardDescription {
        try BoardLoader.parse(head + realtime, file: "rt.toml", directory: "/")
    }

    func issues(_ realtime: String) -> [String] {
        do {
            _ = try parse(realtime)
            return []
        } catch {
            return error.issues.map(\.description)
        }
    }

    func testBoardWithoutRealtimeSectionRequestsNothing() throws {
        let board = try parse("")
        XCTAssertEqual(board.realtime, RealTimeDescription())
        XCTAssertTrue(board.realtime.isDefault)
        XCTAssertEqual(board.realtime.summary, "policy other (normal time-sharing), memory not locked, any cpu")
    }

    func testRealtimeSectionIsRead() throws {
        let board = try parse(
            """
            [realtime]
            policy = "fifo"
            driver_priority = 70
            recognizer_priority = 69
            output_priority = 0
            lock_memory = true
            cpus = [1]
            """)
        XCTAssertEqual(
            board.realtime,
            RealTimeDescription(
                policy: .fifo, driverPriority: 70, recognizerPriority: 69, outputPriority: 0, lockMemory: true,
                cpus: [1]))
        XCTAssertEqual(
            board.realtime.summary,
            "policy fifo (driver 70, recognizer 69, output normal), memory locked, cpus 1")
    }

    func testBadRealtimeValuesAreReportedWithTheirKeyPaths() {
        XCTAssertEqual(
            issues("[realtime]\npolicy = \"deadline\""),
            [#"rt.toml:12: realtime.policy: must be "other", "fifo" or "rr", got "deadline""#])
        XCTAssertTrue(
            issues("[realtime]\npolicy = \"rr\"\ndriver_priority = 100").first?.contains("realtime.driver_priority")
                ?? false)
        XCTAssertEqual(
            issues("[realtime]\nrecognizer_priority = 50"),
            [
                #"rt.toml:12: realtime.recognizer_priority: has no effect "#
                    + #"with policy = "other"; set policy = "fifo" or "rr""#
            ])
        XCTAssertEqual(issues("[realtime]\ncpus = [1, 1]"), ["rt.toml:12: realtime.cpus: lists CPU 1 twice"])
        XCTAssertEqual(
            issues("[realtime]\ncpus = 1"),
            ["rt.toml:12: realtime.cpus: expected an array of CPU numbers such as [1] or [2, 3], got an integer"])
        XCTAssertTrue(issues("[realtime]\nmlock = true").first?.contains("mlock") ?? false, "unknown keys are reported")
    }

    func testCommandLineOverridesTheBoard() throws {
        let board = RealTimeDescription(policy: .fifo, driverPriority: 70, cpus: [1])
        let d = try RealTimeOverrides(policy: "rr", recognizerPriority: 40, lockMemory: true, cpus: "any")
            .applied(to: board).get()
        XCTAssertEqual(
            d, RealTimeDescription(policy: .rr, driverPriority: 70, recognizerPriority: 40, lockMemory: true))
        XCTAssertEqual(try RealTimeOverrides().applied(to: board).get(), board, "no flag: the board's settings")
    }

    func testBadCommandLineValuesNameTheOption() {
        func message(_ o: RealTimeOverrides) -> String? {
            if case .failure(let e) = o.applied(to: RealTimeDescription()) { return e.description }
            return nil
        }
        XCTAssertEqual(message(.init(policy: "realtime")), #"--realtime must be other, fifo or rr, got "realtime""#)
        XCTAssertEqual(message(.init(driverPriority: 0)), "--driver-priority must be in 1…99, got 0")
        XCTAssertEqual(message(.init(outputPriority: 120)), "--output-priority must be in 0…99, got 120")
        XCTAssertEqual(message(.init(cpus: "1,x")), #"--cpus takes CPU numbers such as 1 or 2,3 (or any), got "1,x""#)
        XCTAssertEqual(message(.init(cpus: "2,2")), "--cpus lists CPU 2 twice")
        XCTAssertEqual(try RealTimeOverrides.parseCPUs(" 0, 3 ").get(), [0, 3])
    }

    func testEachThreadAsksForItsOwnPriority() {
        let d = RealTimeDescription(policy: .fifo, driverPriority: 60, recognizerPriority: 58, outputPriority: 0)
        XCTAssertEqual(RealTimeSetup.request(for: .driver, in: d)?.1, 60)
        XCTAssertEqual(RealTimeSetup.request(for: .recognizer, in: d)?.0, .fifo)
        XCTAssertNil(RealTimeSetup.request(for: .output, in: d), "output_priority = 0 keeps normal scheduling")
        XCTAssertNil(RealTimeSetup.request(for: .driver, in: RealTimeDescription()))
        XCTAssertEqual(RealTimeSetup.request(for: .output, in: RealTimeDescription(policy: .rr))?.0, .roundRobin)
    }

    /// Without privilege the user reads what was refused, what grants it, and that the service goes on.
    func testRefusalWarningsSayWhatGrantsThePrivilege() {
        let refused = RealTimeError(operation: "SCHED_FIFO priority 58", errno: .notPermitted)
        let sched = RealTimeSetup.warning(
            for: refused,
            setting: "the recognizer thread's scheduling")
        XCTAssertEqual(
            sched,
            "real-time: cannot set the recognizer thread's scheduling (SCHED_FIFO priority 58): \(refused.errno); "
                + "needs root, CAP_SYS_NICE or RLIMIT_RTPRIO (systemd: LimitRTPRIO=99); continuing without it")
        let lock = RealTimeSetup.warning(
            for: RealTimeError(operation: "mlockall", errno: .noMemory), setting: "memory locking")
        XCTAssertTrue(lock.contains("CAP_IPC_LOCK"), lock)
        XCTAssertTrue(lock.contains("LimitMEMLOCK=infinity"), lock)
        XCTAssertTrue(lock.hasSuffix("continuing without it"))
        XCTAssertTrue(RealTimeError(operation: "x", errno: .notPermitted).isPermissionDenied)
    }

    /// Normal scheduling on an unpinned thread never needs privilege, so it never warns.
    func testDefaultSettingsApplyWithoutWarnings() {
        let warnings = Box<[RealTimeMessage]>([])
        let done = DispatchSemaphore(value: 0)
        let t = Thread {
            warnings.value = RealTimeSetup.applyToCurrentThread(.recognizer, RealTimeDescription())
            done.signal()
        }
        t.start()
        done.wait()
        XCTAssertEqual(warnings.value, [])
        let process = RealTimeSetup.applyToProcess(RealTimeDescription())
        XCTAssertEqual(process.map(\.isWarning), [false], "only the summary line")
        XCTAssertTrue(process[0].text.hasPrefix("real-time: policy other"))
    }

    func testPinningToCPUZeroAndBackIsVisible() throws {
        let before = RealTime.currentThreadAffinity()
        try XCTSkipIf(before.isEmpty, "sched_getaffinity unavailable")
        let done = DispatchSemaphore(value: 0)
        let pinned = Box<[Int]>([])
        let error = Box<RealTimeError?>(nil)
        let t = Thread {
            do throws(RealTimeError) {
                try RealTime.setCurrentThreadAffinity([0])
                pinned.value = RealTime.currentThreadAffinity()
            } catch let e {
                error.value = e
            }
            done.signal()
        }
        t.start()
        done.wait()
        XCTAssertNil(error.value)
        XCTAssertEqual(pinned.value, [0])
        XCTAssertEqual(RealTime.currentThreadAffinity(), before, "only the other thread was pinned")
    }

    func testPriorityRangeOfTheRealTimePolicies() {
        XCTAssertEqual(RealTime.priorityRange(.fifo), 1...99)
        XCTAssertEqual(RealTime.priorityRange(.roundRobin), 1...99)
        XCTAssertEqual(SchedulingPolicy.fifo.description, "SCHED_FIFO")
    }
}

/// A value handed between a test and a thread it starts and waits for.
final class Box<T>: @unchecked Sendable {
    // @unchecked Sendable: written by the started thread before it signals, read after the wait.
    var value: T
    init(_ value: T) { self.value = value }
}
