import Foundation
import TouchComposition
import TouchService
import XCTest

final class PrometheusFormatTests: XCTestCase {
    func snapshot() -> MetricsSnapshot {
        MetricsSnapshot(
            board: "kiosk \"lobby\"", controller: "ft5x06 (sim)", pid: 4242, uptime: 12.5, updated: 1000,
            framesRead: 2400, framesPerSecond: 200, framesQueued: 1100, readErrors: 3,
            frameRing: RingSummary(capacity: 256, highWater: 2, dropped: 5, other: 1),
            eventRing: RingSummary(capacity: 1024, highWater: 3, dropped: 1, other: 4), eventsWritten: 900,
            readToRecognized: LatencySummary(count: 1100, p50: 8, p90: 12, p99: 30, p999: 55, max: 80, mean: 9.5),
            readToWrite: LatencySummary(
                count: 900, p50: 25, p90: 40, p99: 70, p999: 1_250_000, max: 1_500_000, mean: 27.5),
            lostSamples: 0, threads: [], realtime: "", warnings: ["no SCHED_FIFO"], processCPUSeconds: 0.354,
            residentBytes: 8_388_608, controllerState: "missing", reinitialisations: 2, reloads: 1)
    }

    func value(_ samples: [PrometheusSample], _ name: String, _ extra: [String: String] = [:]) -> Double? {
        samples.first { sample in sample.name == name && extra.allSatisfy { k, v in sample.labels[k] == v } }?.value
    }

    /// What a fleet dashboard reads: every figure of the status block, parsed back from the text.
    func testRenderingParsesBackToTheSnapshotFigures() throws {
        let (samples, types, helps) = parsePrometheus(PrometheusFormat.render(snapshot()))
        XCTAssertFalse(samples.isEmpty)
        for s in samples {
            XCTAssertEqual(s.labels["board"], "kiosk \"lobby\"", "\(s.name) carries the escaped board label")
            let family = s.name.replacingOccurrences(of: "_sum", with: "").replacingOccurrences(of: "_count", with: "")
            XCTAssertNotNil(types[family], "\(s.name) has a TYPE line")
            XCTAssertTrue(helps.contains(family), "\(s.name) has a HELP line")
        }
        XCTAssertEqual(value(samples, "touchwire_frames_read_total"), 2400)
        XCTAssertEqual(value(samples, "touchwire_frames_per_second"), 200)
        XCTAssertEqual(value(samples, "touchwire_read_errors_total"), 3)
        XCTAssertEqual(value(samples, "touchwire_frames_dropped_total"), 5)
        XCTAssertEqual(value(samples, "touchwire_events_dropped_total"), 1)
        XCTAssertEqual(value(samples, "touchwire_events_written_total"), 900)
        XCTAssertEqual(value(samples, "touchwire_controller_reinitialisations_total"), 2)
        XCTAssertEqual(value(samples, "touchwire_reloads_total"), 1)
        XCTAssertEqual(value(samples, "touchwire_controller_state", ["state": "missing"]), 1)
        XCTAssertEqual(value(samples, "touchwire_controller_state", ["state": "running"]), 0)
        XCTAssertEqual(value(samples, "touchwire_info", ["controller": "ft5x06 (sim)", "pid": "4242"]), 1)
        XCTAssertEqual(types["touchwire_read_to_write_seconds"], "summary")
        XCTAssertEqual(types["touchwire_frames_read_total"], "counter")
        XCTAssertEqual(value(samples, "touchwire_read_to_recognized_seconds", ["quantile": "0.5"]), 0.000008)
        XCTAssertEqual(value(samples, "touchwire_read_to_write_seconds", ["quantile": "0.999"]), 1.25)
        XCTAssertEqual(value(samples, "touchwire_read_to_recognized_seconds_count"), 1100)
        let sum = try XCTUnwrap(value(samples, "touchwire_read_to_recognized_seconds_sum"))
        XCTAssertEqual(sum, 0.01045, accuracy: 1e-9)
        XCTAssertEqual(value(samples, "touchwire_warnings"), 1)
        XCTAssertEqual(value(samples, "touchwire_resident_bytes"), 8_388_608)
    }

    /// A board file named with CR LF (issue 30, class 5): the label was escaped by Character, and
    /// "\r\n" is one Character that matched nothing, so the name's line break went into the file
    /// raw and its second half read as a sample of its own.
    func testABoardNameWithCRLFCannotInjectALine() throws {
        var s = snapshot()
        s.board = "lobby\r\ntouchwire_injected 1\r\n# \u{1B}[2J\u{2028}x"
        s.controller = "ft\r\nfake 2"
        let text = PrometheusFormat.render(s)
        let (samples, _, _) = parsePrometheus(text)
        XCTAssertFalse(samples.contains { $0.name == "touchwire_injected" || $0.name == "fake" }, text)
        XCTAssertFalse(text.unicodeScalars.contains { $0 == "\r" || $0 == "\u{1B}" || $0 == "\u{2028}" }, text)
        for line in text.split(separator: "\n") {
            XCTAssertTrue(
                line.hasPrefix("touchwire_") || line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE "), "\(line)")
        }
        let info = try XCTUnwrap(samples.first { $0.name == "touchwire_frames_read_total" })
        XCTAssertEqual(info.labels["board"], "lobby\u{FFFD}\ntouchwire_injected 1\u{FFFD}\n# \u{FFFD}[2J\u{FFFD}x")
    }

    /// A status file of an older version (no controller state, reinitialisations, reloads) still renders.
    func testOlderSnapshotWithoutTheNewFields() throws {
        var s = snapshot()
        s.controllerState = nil
        s.reinitialisations = nil
        s.reloads = nil
        let json = s.json()
        XCTAssertFalse(json.contains("reloads"))
        let decoded = try XCTUnwrap(MetricsSnapshot.decode(Data(json.utf8)))
        let (samples, _, _) = parsePrometheus(PrometheusFormat.render(decoded))
        XCTAssertNil(value(samples, "touchwire_controller_state"), "an unknown state is not guessed")
        XCTAssertEqual(value(samples, "touchwire_reloads_total"), 0)
    }
}
