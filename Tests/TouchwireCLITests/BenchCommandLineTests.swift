import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `touchwire bench`, `status` and the real-time options as a user types them. Assertions are
/// on the shape of the output and the messages, never on the figures.
extension CommandLineTests {
    var kioskBoard: String { repositoryRoot.appendingPathComponent("boards/kiosk-sim.toml").path }

    func testBenchRejectsOutOfRangeArgumentsNamingTheOption() throws {
        let rate = try run(["bench", "--rate", "0"])
        XCTAssertNotEqual(rate.status, 0)
        XCTAssertTrue(rate.stderr.contains("--rate must be 1…1000 Hz, got 0"), rate.stderr)
        let seconds = try run(["bench", "--seconds", "40"])
        XCTAssertNotEqual(seconds.status, 0)
        XCTAssertTrue(seconds.stderr.contains("--seconds must be 1…25"), seconds.stderr)
        let nothing = try run(["bench", "--no-idle", "--no-load"])
        XCTAssertTrue(nothing.stderr.contains("leave nothing to run"), nothing.stderr)
        let rt = try run(["bench", "--board", kioskBoard, "--realtime", "deadline", "--seconds", "1"])
        XCTAssertEqual(rt.status, 2)
        XCTAssertEqual(rt.stderr, "touchwire: --realtime must be other, fifo or rr, got \"deadline\"\n")
    }

    func testBenchNeedsASimulatedController() throws {
        let board = repositoryRoot.appendingPathComponent("boards/pi-ft6236.toml").path
        let result = try run(["bench", "--board", board, "--seconds", "1"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("touchwire bench needs a simulated controller"), result.stderr)
    }

    func testBenchPrintsEveryFigureForEachPhase() throws {
        let result = try run([
            "bench", "--board", kioskBoard, "--rate", "100", "--seconds", "1", "--load-threads", "1",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let out = result.stdout
        XCTAssertTrue(out.hasPrefix("touchwire bench: board kiosk-sim, simulated controller at 100 Hz"), out)
        XCTAssertTrue(out.contains("== no competing load =="), out)
        XCTAssertTrue(out.contains("== competing load on every core =="), out)
        for label in [
            "count      p50      p90      p99    p99.9      max", "read→recognized", "read→write",
            "frames ", "µs per frame", "rss ", "read→write p99 under load:",
        ] {
            XCTAssertTrue(out.contains(label), "missing \(label) in\n\(out)")
        }
        XCTAssertTrue(result.stderr.contains("bench: phase 2, 1 busy thread(s)"), result.stderr)
    }

    func testBenchEngineOnlyCountsFramesForCallgrind() throws {
        let one = try run(["bench", "--board", kioskBoard, "--engine-only", "--passes", "1"])
        let two = try run(["bench", "--board", kioskBoard, "--engine-only", "--passes", "2"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertTrue(one.stdout.hasPrefix("engine only: 1 passes, "), one.stdout)
        let frames = { (s: String) in Int(s.split(separator: " ")[4]) ?? -1 }
        XCTAssertEqual(frames(two.stdout), 2 * frames(one.stdout))
        XCTAssertGreaterThan(frames(one.stdout), 200)
    }

    /// Issue 31: `bench` without --board outside the repository finds the kiosk board of the
    /// repository it was built in, rather than failing on a relative path.
    func testBenchOutsideTheRepositoryFindsItsDefaultBoard() throws {
        let dir = try makeTemporaryDirectory(self)
        let result = try run(["bench", "--engine-only", "--passes", "1"], in: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("engine only: 1 passes, "), result.stdout)
    }

    func testStatusWithoutAServiceSaysSo() throws {
        let result = try run(["status", "--file", "/nonexistent/touchwire.status"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.stderr,
            "touchwire: no status at /nonexistent/touchwire.status: is `touchwire "
                + "run` running (with --status-file /nonexistent/touchwire.status)?\n"
        )
    }

    /// Issue 31: a status file this user may not read is named as such (the errno), not as
    /// "is `touchwire run` running?".
    func testStatusNamesPermissionDenied() throws {
        try XCTSkipIf(getuid() == 0, "root reads every file; run the suite as a user to see EACCES")
        let dir = try makeTemporaryDirectory(self)
        let file = dir.appendingPathComponent("touchwire.status").path
        try "{}".write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(file, 0o000), 0)
        let result = try run(["status", "--file", file])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "touchwire: \(file): cannot read the status file (Permission denied)\n")
    }

    /// `run` writes the status file while it runs; `status` prints it; SIGTERM removes it.
    func testStatusReadsTheRunningService() throws {
        let dir = try makeTemporaryDirectory(self)
        let file = dir.appendingPathComponent("status.json").path
        let process = Process()
        process.executableURL = executable
        process.arguments = ["run", "--board", kioskBoard, "--status-file", file, "--cpus", "0"]
        process.standardOutput = FileHandle.nullDevice
        let err = Pipe()
        process.standardError = err
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var waited = 0
        while !FileManager.default.fileExists(atPath: file) && waited < 300 {  // up to 30 s on a loaded machine
            usleep(100_000)
            waited += 1
        }
        let status = try run(["status", "--file", file])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(
            status.stdout.hasPrefix("touchwire status: board kiosk-sim, controller ft5x06 (sim)"), status.stdout)
        XCTAssertTrue(status.stdout.contains("read→write"), status.stdout)
        XCTAssertTrue(
            status.stdout.contains("real-time   policy other (normal time-sharing), memory not locked, cpus 0"))
        let json = try run(["status", "--file", file, "--json"])
        XCTAssertTrue(json.stdout.hasPrefix("{"), json.stdout)
        process.terminate()
        process.waitUntilExit()
        let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(log.contains("real-time: policy other"), log)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file), "the status file goes with the service")
    }
}
