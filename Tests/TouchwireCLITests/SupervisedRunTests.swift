import Foundation
import TouchComposition
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `touchwire run` as systemd starts it (`Type=notify`, `WatchdogSec=`, `RuntimeDirectory=`),
/// reloaded with SIGHUP; `touchwire status --prometheus`; `touchwire --version`.
final class SupervisedRunTests: XCTestCase, TouchwireCommandLine {
    func testNotifyReloadStatusAndPrometheusFilesAsUnderSystemd() throws {
        let dir = try makeTemporaryDirectory(self)
        let runtime = dir.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let prom = dir.appendingPathComponent("touchwire.prom").path
        let file = dir.appendingPathComponent("board.toml")
        let good =
            simulatedBoardText(script: "demo", recognizers: ["tap", "pan"]) + """
                [metrics]
                prometheus_file = "\(prom)"
                """
        try good.write(to: file, atomically: true, encoding: .utf8)
        let listener = try NotifyListener(path: dir.appendingPathComponent("notify").path)

        let process = Process()
        process.executableURL = executable
        process.arguments = ["run", "--board", file.path]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = listener.address
        environment["WATCHDOG_USEC"] = "2000000"
        environment["RUNTIME_DIRECTORY"] = runtime.path
        process.environment = environment
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        var got = listener.receive(
            until: { m in
                m.contains { $0.hasPrefix("READY=1") } && m.contains("WATCHDOG=1")
            }, seconds: 60)
        XCTAssertTrue(got.contains { $0.hasPrefix("READY=1") }, "\(got)")
        XCTAssertTrue(got.contains("WATCHDOG=1"), "\(got)")

        // The status file appears in $RUNTIME_DIRECTORY, mode 0640; the Prometheus file too.
        let status = runtime.appendingPathComponent("touchwire.status").path
        let deadline = Date().addingTimeInterval(30)
        while !(FileManager.default.fileExists(atPath: status) && FileManager.default.fileExists(atPath: prom)),
            Date() < deadline
        {
            usleep(50_000)
        }
        let mode = (try FileManager.default.attributesOfItem(atPath: status)[.posixPermissions] as? Int) ?? 0
        XCTAssertEqual(mode, 0o640)
        let promText = try String(contentsOfFile: prom, encoding: .utf8)
        XCTAssertTrue(promText.contains("touchwire_frames_read_total{board=\"board\"}"), promText)
        // The first status file may be written while the controller is still starting: poll until
        // it says running (a slow machine only takes longer; the verdict does not depend on it).
        var running: Double?
        let runningDeadline = Date().addingTimeInterval(30)
        repeat {
            let printed = try run(["status", "--file", status, "--prometheus"])
            XCTAssertEqual(printed.status, 0, printed.stderr)
            let (samples, _, _) = parsePrometheus(printed.stdout)
            running =
                samples.first { $0.name == "touchwire_controller_state" && $0.labels["state"] == "running" }?
                .value
            if running != 1 { usleep(100_000) }
        } while running != 1 && Date() < runningDeadline
        XCTAssertEqual(running, 1)

        // SIGHUP with a broken board: refused, shown in STATUS=; then a fixed one: reloaded.
        try good.replacingOccurrences(of: "height = 480", with: "height = -5").write(
            to: file, atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        got = listener.receive(until: { $0.contains { $0.hasPrefix("STATUS=reload refused") } }, seconds: 30)
        XCTAssertTrue(got.contains { $0.hasPrefix("STATUS=reload refused: 1 problem(s)") }, "\(got)")
        XCTAssertTrue(process.isRunning, "a refused reload leaves the service running")
        try good.write(to: file, atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        got = listener.receive(until: { $0.contains { $0.hasPrefix("READY=1") } }, seconds: 30)
        XCTAssertTrue(got.contains { $0.hasPrefix("RELOADING=1") }, "\(got)")
        XCTAssertTrue(got.contains { $0.hasPrefix("READY=1") }, "READY=1 again once the new board runs: \(got)")

        process.interrupt()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, stderr)
        XCTAssertTrue(stderr.contains("reload refused: \(file.path):") && stderr.contains(": panel.height"), stderr)
        XCTAssertTrue(stderr.contains("reloaded \(file.path)"), stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: status), "the status file is removed on exit")
    }

    /// A status directory that cannot be written: one warning, the service runs on.
    func testUnwritableStatusDirectoryIsOneWarning() throws {
        let dir = try makeTemporaryDirectory(self)
        let file = dir.appendingPathComponent("board.toml")
        try simulatedBoardText(script: "demo", recognizers: ["tap"]).write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["run", "--board", file.path]
        var environment = ProcessInfo.processInfo.environment
        environment["RUNTIME_DIRECTORY"] = dir.appendingPathComponent("missing").path
        process.environment = environment
        let err = Pipe()
        let out = Pipe()
        process.standardError = err
        process.standardOutput = out
        try process.run()
        // The demo's first event on stdout shows the pipeline runs; then a few status periods pass.
        var seen = Data()
        let deadline = Date().addingTimeInterval(30)
        while !String(decoding: seen, as: UTF8.self).contains("\n"), Date() < deadline {
            seen.append(out.fileHandleForReading.availableData)
        }
        sleep(2)  // more status periods: the warning must still appear only once (not a verdict on timing)
        process.interrupt()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, stderr)
        XCTAssertFalse(seen.isEmpty, "the service ran")
        XCTAssertEqual(stderr.components(separatedBy: "cannot write").count - 1, 1, stderr)
    }

    /// A board with errors at start: exit status 2, each error once on stderr (the journal), no READY.
    func testBoardWithErrorsAtStartExitsNonZeroNamingEachErrorOnce() throws {
        let dir = try makeTemporaryDirectory(self)
        let file = dir.appendingPathComponent("board.toml")
        try simulatedBoardText(script: "demo", recognizers: ["tap"])
            .replacingOccurrences(of: "width = 800", with: "width = 0")
            .replacingOccurrences(of: "kind = \"tap\"", with: "kind = \"tapp\"")
            .write(to: file, atomically: true, encoding: .utf8)
        let result = try run(["run", "--board", file.path, "--status-file", ""])
        XCTAssertEqual(result.status, 2, result.stderr)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, result.stderr)
        XCTAssertEqual(Set(lines).count, lines.count, "each error once: \(result.stderr)")
        XCTAssertTrue(lines.contains { $0.contains("\(file.path):2: panel.width") }, result.stderr)
        XCTAssertTrue(
            lines.contains { $0.hasPrefix("touchwire: \(file.path):") && $0.contains(": recognizer[0] \"tap\".kind") },
            result.stderr)
    }

    func testVersion() throws {
        let result = try run(["--version"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdout.hasPrefix("touchwire "), result.stdout)
        let pattern = #"^touchwire \d+\.\d+\.\d+ \(Swift \d"#
        let match = result.stdout.range(of: pattern, options: String.CompareOptions.regularExpression)
        XCTAssertNotNil(match, result.stdout)
    }
}
