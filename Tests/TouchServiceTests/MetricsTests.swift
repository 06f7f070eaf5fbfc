import BoardConfig
import Foundation
import Synchronization
import TouchComposition
import TouchCore
import TouchService
import TouchSimulation
import XCTest

/// The built-in timing: samples land in the histograms, the status block and file show them.
/// Every clock here is injected, so no assertion depends on how fast the machine is.
final class MetricsTests: XCTestCase {
    func testSamplesReachTheHistogramsOnlyWhenCollected() {
        let clock = ManualClock()
        let m = PipelineMetrics(clock: clock)
        for i in 1...100 {
            clock.now = Instant(microseconds: Int64(i) * 1000 + Int64(i))
            m.frameRecognized(readAt: Instant(microseconds: Int64(i) * 1000))  // i µs after the read
        }
        m.eventWritten(eventTime: Instant(microseconds: 0), issuedAt: Instant(microseconds: 250))
        XCTAssertEqual(m.readToRecognized.totalCount, 0, "the hot threads only push samples")
        XCTAssertEqual(m.collect(), 101)
        let r = LatencySummary(m.readToRecognized)
        XCTAssertEqual(r.count, 100)
        XCTAssertEqual(r.p50, 50)
        XCTAssertEqual(r.p99, 99)
        XCTAssertEqual(r.max, 100)
        XCTAssertEqual(LatencySummary(m.readToWrite).p50, 250)
        XCTAssertEqual(m.lostSamples, 0)
        // What the status file and bench show: the same percentiles, and the exact mean (1…100 µs).
        let s = m.readToRecognizedSummary
        XCTAssertEqual([s.count, s.p50, s.p99, s.max], [100, 50, 99, 100])
        XCTAssertEqual(s.mean, 50.5)
        XCTAssertEqual(m.readToWriteSummary.p50, 250)
        XCTAssertEqual(m.readToWriteSummary.mean, 250)
    }

    func testSummariesChangeOnlyWithNewSamples() {
        let clock = ManualClock()
        let m = PipelineMetrics(clock: clock)
        XCTAssertEqual(m.readToWriteSummary, LatencySummary(), "no sample yet: all zero")
        m.eventWritten(eventTime: .zero, issuedAt: Instant(microseconds: 40))
        m.collect()
        let first = m.readToWriteSummary
        XCTAssertEqual([first.count, first.max], [1, 40])
        XCTAssertEqual(m.collect(), 0)
        XCTAssertEqual(m.readToWriteSummary, first, "an idle collect keeps the summary")
        m.eventWritten(eventTime: .zero, issuedAt: Instant(microseconds: 60))
        m.collect()
        XCTAssertEqual([m.readToWriteSummary.count, m.readToWriteSummary.max], [2, 60])
        XCTAssertEqual(m.readToWriteSummary.mean, 50)
        XCTAssertEqual(m.readToRecognizedSummary.count, 0, "the other histogram got no sample")
    }

    func testSamplesBeyondTheRingAreCountedNotWaitedFor() {
        let m = PipelineMetrics(sampleCapacity: 4, clock: ManualClock())
        for _ in 0..<10 { m.eventWritten(eventTime: .zero, issuedAt: Instant(microseconds: 5)) }
        XCTAssertEqual(m.lostSamples, 6)
        XCTAssertEqual(m.collect(), 4)
    }

    func testNegativeAndHugeLatenciesAreClamped() {
        let m = PipelineMetrics(clock: ManualClock())
        m.eventWritten(eventTime: Instant(microseconds: 10), issuedAt: .zero)
        m.eventWritten(eventTime: .zero, issuedAt: Instant(microseconds: 1 << 40))
        m.collect()
        XCTAssertEqual(m.readToWrite.totalCount, 2)
        XCTAssertEqual(m.readToWrite.min, 0)
        XCTAssertGreaterThanOrEqual(m.readToWrite.max, PipelineMetrics.highestTrackableMicroseconds)
        XCTAssertEqual(
            m.readToWriteSummary.mean, Double(PipelineMetrics.highestTrackableMicroseconds) / 2,
            "the mean is of the clamped samples (0 and the highest trackable value)")
    }

    func sampleSnapshot() -> MetricsSnapshot {
        MetricsSnapshot(
            board: "kiosk-sim", controller: "ft5x06 (sim)", pid: 4242, uptime: 12.34, updated: 1000,
            framesRead: 2400, framesPerSecond: 200, framesQueued: 1100, readErrors: 0,
            frameRing: RingSummary(capacity: 256, highWater: 2, dropped: 0, other: 0),
            eventRing: RingSummary(capacity: 1024, highWater: 3, dropped: 1, other: 4), eventsWritten: 900,
            readToRecognized: LatencySummary(count: 1100, p50: 8, p90: 12, p99: 30, p999: 55, max: 80, mean: 9.14),
            readToWrite: LatencySummary(count: 900, p50: 25, p90: 40, p99: 70, p999: 120, max: 150, mean: 27.5),
            lostSamples: 0, threads: ["driver SCHED_FIFO 60", "recognizer SCHED_FIFO 58", "output SCHED_FIFO 56"],
            realtime: "policy fifo (driver 60, recognizer 58, output 56), memory locked, any cpu",
            warnings: [], processCPUSeconds: 0.354, residentBytes: 8 * 1_048_576)
    }

    func testStatusBlockShowsEveryFigure() {
        let text = sampleSnapshot().render(now: 1000.4)
        XCTAssertEqual(
            text,
            """
            touchwire status: board kiosk-sim, controller ft5x06 (sim), pid 4242, up 12.3 s, updated 0.4 s ago
            frames      read 2400 (200.0/s), queued 1100, read errors 0
            frame ring  high-water 2/256, dropped 0, overflows 0
            event ring  high-water 3/1024, dropped 1, coalesced 4; events written 900
            latency µs            count      p50      p90      p99    p99.9      max     mean
            read→recognized        1100        8       12       30       55       80      9.1
            read→write              900       25       40       70      120      150     27.5
            threads     driver SCHED_FIFO 60, recognizer SCHED_FIFO 58, output SCHED_FIFO 56
            real-time   policy fifo (driver 60, recognizer 58, output 56), memory locked, any cpu
            process     cpu 0.35 s, rss 8.0 MiB

            """)
    }

    func testSnapshotRoundTripsThroughJSONAndTellsStaleness() throws {
        let snap = sampleSnapshot()
        let decoded = try XCTUnwrap(MetricsSnapshot.decode(Data(snap.json().utf8)))
        XCTAssertEqual(decoded, snap)
        XCTAssertNil(snap.staleness(now: 1002, alive: true))
        XCTAssertEqual(snap.staleness(now: 1010, alive: true), "the status is 10 s old: the service may be stuck")
        XCTAssertEqual(
            snap.staleness(now: 1001, alive: false), "the service (pid 4242) is not running; this is its last status")
        XCTAssertNil(MetricsSnapshot.decode(Data("{}".utf8)))
    }

    /// The status file's JSON is written by hand (not JSONEncoder): text with quotes, backslashes,
    /// newlines and control characters, and fractional numbers, still read back as written.
    func testStatusJSONEscapesTextAndRoundTrips() throws {
        var snap = sampleSnapshot()
        snap.board = "kiosk \"lobby\" \\ east\nline\u{01}\tend é"
        snap.warnings = ["real-time: cannot set \"fifo\"", ""]
        snap.uptime = 0.1 + 0.2
        snap.readToWrite.mean = 1e-7
        snap.framesPerSecond = .nan
        let json = snap.json()
        XCTAssertFalse(json.contains("\n"), "one line")
        XCTAssertTrue(json.hasPrefix("{\"board\":"), "keys sorted: \(json)")
        let decoded = try XCTUnwrap(MetricsSnapshot.decode(Data(json.utf8)), json)
        snap.framesPerSecond = 0  // JSON has no NaN: written as 0
        XCTAssertEqual(decoded, snap)
    }

    /// The pipeline stepped by hand on an injected clock: frames and events are sampled, and the
    /// status file holds what `touchwire status` prints.
    func testServiceSamplesFramesAndEventsAndWritesTheStatusFile() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let board = try tapBoard(script: "tap.jsonl", directory: dir)
        let clock = ManualClock()
        let service = try Service(
            board: board, logger: quietLogger,
            settings: ServiceSettings(statusFile: dir.appendingPathComponent("status.json").path),
            stdout: CollectingSink(), clock: clock)
        XCTAssertTrue(service.driver.start(at: .zero))
        for ms in stride(from: Int64(0), through: 500, by: 10) {
            clock.now = .milliseconds(ms)
            service.driver.poll(at: clock.now)
            service.recognizer.step(now: clock.now)
            service.output.drain(clock: clock)
        }
        service.publishSnapshot()
        let snap = try XCTUnwrap(service.latestSnapshot)
        XCTAssertEqual(snap.readToRecognized.count, UInt64(service.driver.framesQueued))
        XCTAssertEqual(snap.readToRecognized.max, 0, "the injected clock did not move during a step")
        XCTAssertEqual(snap.readToWrite.count, 1, "the tap")
        XCTAssertEqual(snap.frameRing.capacity, 256)
        XCTAssertEqual(snap.board, board.name)
        let file = try XCTUnwrap(FileManager.default.contents(atPath: service.statusFile!))
        XCTAssertEqual(MetricsSnapshot.decode(file)?.readToWrite.count, 1)
    }
}
