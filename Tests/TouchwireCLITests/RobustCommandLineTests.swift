import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 17 #2, #5, #6, #7 as a user meets them: the `touchwire` executable never traps on a
/// number, a board or a status file, and every terminating signal cleans up like SIGTERM.
final class RobustCommandLineTests: XCTestCase, TouchwireCommandLine {
    /// Each value used to trap (SIGILL) converting to microseconds; now a usage error naming the option.
    func testHugeOrNonFiniteNumbersAreUsageErrors() throws {
        let cases: [[String]] = [
            ["record", "--board", demoBoard, "-o", "/dev/null", "--seconds", "1e300"],
            ["record", "--board", demoBoard, "-o", "/dev/null", "--seconds", "inf"],
            ["record", "--board", demoBoard, "-o", "/dev/null", "--seconds", "9.3e12"],
            ["record", "--board", demoBoard, "-o", "/dev/null", "--seconds", "nan"],
            ["calibrate", "--board", demoBoard, "--timeout", "9300000000000"],
            ["calibrate", "--board", demoBoard, "--max-residual", "nan"],
            ["calibrate", "--board", demoBoard, "--max-movement", "-inf"],
        ]
        for arguments in cases {
            let r = try run(arguments)
            XCTAssertFalse(r.signalled, "\(arguments)")
            XCTAssertEqual(r.status, 64, "\(arguments): \(r.stderr)")
            let option = arguments[arguments.count - 2]
            XCTAssertTrue(r.stderr.contains(option), "\(arguments): \(r.stderr)")
        }
    }

    func statusText(_ overrides: [String: String]) -> String {
        var fields: [String: String] = [
            "board": "\"b\"", "controller": "\"ft6x36 (sim)\"", "pid": "\(getpid())", "uptime": "1.5",
            "updated": "\(Date().timeIntervalSince1970)", "framesRead": "10", "framesPerSecond": "100",
            "framesQueued": "5", "readErrors": "0",
            "frameRing": #"{"capacity":256,"highWater":1,"dropped":0,"other":0}"#,
            "eventRing": #"{"capacity":1024,"highWater":1,"dropped":0,"other":0}"#, "eventsWritten": "3",
            "readToRecognized": #"{"count":1,"p50":1,"p90":1,"p99":1,"p999":1,"max":1,"mean":1}"#,
            "readToWrite": #"{"count":1,"p50":1,"p90":1,"p99":1,"p999":1,"max":1,"mean":1}"#, "lostSamples": "0",
            "threads": #"["driver other"]"#, "realtime": "\"policy other\"", "warnings": "[]",
            "processCPUSeconds": "0.1", "residentBytes": "1000",
        ]
        for (k, v) in overrides { fields[k] = v }
        return "{" + fields.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }

    /// Numbers in the status file used to trap `touchwire status`; escape codes reached the terminal raw.
    func testStatusFileNumbersAreRangeCheckedAndTextIsSanitised() throws {
        let dir = try makeTemporaryDirectory(self)
        let file = dir.appendingPathComponent("status.json").path
        try statusText([:]).write(toFile: file, atomically: true, encoding: .utf8)
        let good = try run(["status", "--file", file])
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertTrue(good.stdout.hasPrefix("touchwire status: board b,"), good.stdout)
        let mean = #"{"count":1,"p50":1,"p90":1,"p99":1,"p999":1,"max":1,"mean":1e300}"#
        for (key, value, name) in [
            ("uptime", "1e300", "uptime"), ("updated", "1e300", "updated"),
            ("framesPerSecond", "1e300", "framesPerSecond"),
            ("readToWrite", mean, "readToWrite.mean"), ("uptime", "-1", "uptime"),
            ("framesRead", "-5", "framesRead"),
        ] {
            try statusText([key: value]).write(toFile: file, atomically: true, encoding: .utf8)
            let r = try run(["status", "--file", file])
            XCTAssertFalse(r.signalled, key)
            XCTAssertEqual(r.status, 1, "\(key): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(name) && r.stderr.contains(file), "\(key): \(r.stderr)")
        }
        try statusText(["board": #""\u001b]0;pwned\u0007\u001b[2J""#, "warnings": #"["\u001b[31mred"]"#])
            .write(toFile: file, atomically: true, encoding: .utf8)
        let escaped = try run(["status", "--file", file])
        XCTAssertEqual(escaped.status, 0, escaped.stderr)
        XCTAssertFalse(escaped.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, escaped.stdout)
        XCTAssertTrue(escaped.stdout.contains("\\u{1B}[2J"), escaped.stdout)
        let device = try run(["status", "--file", "/dev/zero"])
        XCTAssertEqual(device.status, 1)
        XCTAssertTrue(device.stderr.contains("not a regular file"), device.stderr)
    }

    /// Issue 30, class 5: `status` accepted negative counters and quantiles of 2⁶⁴−1.
    func testStatusRefusesNegativeCountersAndAbsurdLatencies() throws {
        let dir = try makeTemporaryDirectory(self)
        let file = dir.appendingPathComponent("status.json").path
        let huge = #"{"count":1,"p50":1,"p90":1,"p99":1,"p999":1,"max":18446744073709551615,"mean":1}"#
        let disorder = #"{"count":1,"p50":9,"p90":1,"p99":1,"p999":1,"max":9,"mean":1}"#
        for (key, value, expected) in [
            ("reloads", "-1", "reloads is -1; a count cannot be negative"),
            ("reinitialisations", "-3", "reinitialisations is -3"),
            ("readToWrite", huge, "readToWrite.max is 18446744073709551615 µs"),
            ("readToRecognized", disorder, "readToRecognized quantiles are not in order"),
        ] {
            try statusText([key: value]).write(toFile: file, atomically: true, encoding: .utf8)
            let r = try run(["status", "--file", file])
            XCTAssertFalse(r.signalled, key)
            XCTAssertEqual(r.status, 1, "\(key): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(expected) && r.stderr.contains(file), "\(key): \(r.stderr)")
        }
    }

    /// `validate` rejects what `run` would: too many recognizers (run used to trap), a sim GPIO
    /// offset the in-memory chip lacks, and a trace script `run` cannot read.
    func testValidateRejectsWhatRunRejects() throws {
        let dir = try makeTemporaryDirectory(self)
        var recognizers = ""
        for i in 0..<65 { recognizers += "[[recognizer]]\nname = \"t\(i)\"\nkind = \"tap\"\nregion = \"screen\"\n" }
        let many = dir.appendingPathComponent("many.toml").path
        try simulatedBoardText(script: "demo", recognizers: []).appending(recognizers)
            .write(toFile: many, atomically: true, encoding: .utf8)
        try "not a trace\n".write(to: dir.appendingPathComponent("bad.jsonl"), atomically: true, encoding: .utf8)
        let badScript = dir.appendingPathComponent("script.toml").path
        try simulatedBoardText(script: "bad.jsonl", recognizers: ["tap"])
            .write(toFile: badScript, atomically: true, encoding: .utf8)
        for (file, expected) in [(many, "more than the limit of 64"), (badScript, "bad.jsonl")] {
            for command in [["validate", file], ["replay", "/dev/null", "--board", file], ["run", "--board", file]]
            where !(command[0] == "replay" && file == badScript) {
                let r = try run(command)
                XCTAssertFalse(r.signalled, "\(command)")
                XCTAssertEqual(r.status, command[0] == "run" && file == badScript ? 1 : 2, "\(command): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains(expected), "\(command): \(r.stderr)")
            }
        }
    }

    /// Runs the demo board with a line held active from the start, sends `signal` once the
    /// service is up, and checks the clean exit: status 0, the line inactive, the status file gone.
    func checkCleanStop(on signalNumber: Int32, name: String) throws {
        let dir = try makeTemporaryDirectory(self)
        let board = dir.appendingPathComponent("held.toml").path
        let binding = """
            [[binding]]
            recognizer = "tap"
            action = "toggle"
            initial = true
            gpio = { chip = "sim", line = 3 }
            """
        try simulatedBoardText(script: "demo", recognizers: ["tap"], extra: binding)
            .write(toFile: board, atomically: true, encoding: .utf8)
        let status = dir.appendingPathComponent("status.json").path
        let process = Process()
        process.executableURL = executable
        process.arguments = ["run", "--board", board, "--status-file", status]
        process.standardOutput = FileHandle.nullDevice
        let err = Pipe()
        process.standardError = err
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var waited = 0
        while !FileManager.default.fileExists(atPath: status) && waited < 600 {  // a guard, not a verdict
            usleep(100_000)
            waited += 1
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: status), "the service never started")
        kill(process.processIdentifier, signalNumber)
        // A guard against a hang, not a verdict: a service that ignores the signal fails here.
        var left = 600
        while process.isRunning && left > 0 {
            usleep(100_000)
            left -= 1
        }
        if process.isRunning {
            XCTFail("\(name) did not stop the service")
            kill(process.processIdentifier, SIGKILL)
        }
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit, "\(name) killed the service:\n\(stderr)")
        XCTAssertEqual(process.terminationStatus, 0, stderr)
        XCTAssertTrue(stderr.contains("signal \(name): stopping"), stderr)
        XCTAssertTrue(stderr.contains("gpio sim:3: requested, active"), stderr)
        XCTAssertTrue(stderr.contains("gpio sim:3: inactive"), "\(name) left the line held:\n\(stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: status), "\(name) left the status file")
    }

    func testSIGQUITStopsCleanly() throws { try checkCleanStop(on: SIGQUIT, name: "SIGQUIT") }
    func testSIGUSR2StopsCleanly() throws { try checkCleanStop(on: SIGUSR2, name: "SIGUSR2") }
    func testSIGALRMStopsCleanly() throws { try checkCleanStop(on: SIGALRM, name: "SIGALRM") }
    func testSIGTERMStillStopsCleanly() throws { try checkCleanStop(on: SIGTERM, name: "SIGTERM") }
}
