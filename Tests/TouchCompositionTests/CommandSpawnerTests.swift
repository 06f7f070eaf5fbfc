import BoardConfig
import Foundation
import Synchronization
import TouchComposition
import TouchCore
import TouchLinux
import XCTest

@testable import TouchService

/// The exec spawner on the host: argv passed as given (no shell), the environment cleared to what
/// the board lists, a timeout that kills, one instance per binding, exit status and stderr reported.
final class CommandSpawnerTests: XCTestCase {
    final class Collector: @unchecked Sendable {
        let runs = Mutex<[CommandSpawner.Run]>([])
        let logs = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
    }

    /// A started spawner of `commands` on `clock` (a `ManualClock`: timeouts and intervals pass
    /// only when the test moves it).
    func spawner(
        _ commands: [ExecCommand], environment: [String: String] = [:], user: String? = nil,
        clock: ManualClock = ManualClock()
    )
        -> (CommandSpawner, Collector)
    {
        let c = Collector()
        let s = CommandSpawner(
            commands: commands, names: commands.indices.map { "b\($0)" }, environment: environment, user: user,
            clock: clock,
            log: { line in c.logs.withLock { $0.append(line) } })
        s.onFinish = { run in
            c.runs.withLock { $0.append(run) }
            c.done.signal()
        }
        s.start()
        return (s, c)
    }

    func testArgvIsPassedAsGivenAndTheEnvironmentIsOnlyTheBoards() throws {
        // The program (sh) prints its arguments and environment to stderr; spaces and quotes arrive untouched.
        let script = #"printf '%s|%s|%s|%s|%s' "$0" "$1" "$2" "$FOO" "${HOME-unset}" >&2; exit 3"#
        let (s, c) = spawner(
            [ExecCommand(argv: ["/bin/sh", "-c", script, "zero", "a b", "\"q\";$x"])],
            environment: ["FOO": "bar baz"])
        defer { s.stop() }
        s.request(0)
        XCTAssertEqual(c.done.wait(timeout: .now() + 30), .success)
        let run = try XCTUnwrap(c.runs.withLock { $0.first })
        XCTAssertEqual(run.stderr, #"zero|a b|"q";$x|bar baz|unset"#)
        XCTAssertEqual(run.exit, .exited(3))
        XCTAssertFalse(run.timedOut)
        XCTAssertTrue(c.logs.withLock { $0.last?.contains("exited with status 3; stderr: zero|a b") ?? false })
    }

    /// A program still running at its timeout (on the injected clock) is terminated and
    /// reported as timed out.
    func testTimeoutKillsTheProgram() throws {
        let clock = ManualClock()
        let (s, c) = spawner([ExecCommand(argv: ["/bin/sleep", "60"], timeoutMilliseconds: 100)], clock: clock)
        defer { s.stop() }
        s.request(0)
        XCTAssertTrue(waitFor(20) { s.runningCount == 1 }, "the program did not start")
        clock.advance(byMicroseconds: 100_000)
        XCTAssertEqual(c.done.wait(timeout: .now() + 30), .success, "the 60 s sleep was not stopped")
        let run = try XCTUnwrap(c.runs.withLock { $0.first })
        XCTAssertTrue(run.timedOut)
        XCTAssertEqual(run.exit, .signalled(SIGTERM))
    }

    /// At most one instance: a trigger while the program runs is skipped and logged.
    func testOneInstancePerBinding() throws {
        let clock = ManualClock()
        let (s, c) = spawner(
            [ExecCommand(argv: ["/bin/sleep", "60"], timeoutMilliseconds: 2000, minimumIntervalMilliseconds: 0)],
            clock: clock)
        defer { s.stop() }
        s.request(0)
        // Wait until it runs (the spawner logs nothing at start), then trigger again.
        let deadline = Date().addingTimeInterval(20)
        while s.runningCount == 0 && Date() < deadline { usleep(10_000) }
        s.request(0)
        while !c.logs.withLock({ $0.contains { $0.contains("still running; trigger skipped") } }) && Date() < deadline {
            usleep(10_000)
        }
        XCTAssertTrue(c.logs.withLock { $0.contains { $0.contains("still running; trigger skipped") } })
        clock.advance(byMicroseconds: 2_000_000)  // its timeout
        XCTAssertEqual(c.done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(c.runs.withLock { $0.count }, 1)
    }

    /// `min_interval_ms` is measured on the pipeline's clock, not read from one of the spawner's
    /// own: a trigger 999 ms (injected) after a start is skipped, one 1000 ms after runs.
    func testMinimumIntervalIsMeasuredOnTheInjectedClock() throws {
        let clock = ManualClock(.milliseconds(5000))
        let (s, c) = spawner([ExecCommand(argv: ["/bin/true"], minimumIntervalMilliseconds: 1000)], clock: clock)
        defer { s.stop() }
        s.request(0)
        XCTAssertEqual(c.done.wait(timeout: .now() + 30), .success)
        clock.advance(byMicroseconds: 999_000)
        s.request(0)
        XCTAssertTrue(
            waitFor(20) { c.logs.withLock { $0.contains { $0.contains("within min_interval_ms; skipped") } } })
        clock.advance(byMicroseconds: 1000)
        s.request(0)
        XCTAssertEqual(c.done.wait(timeout: .now() + 30), .success, "the trigger 1000 ms after the start did not run")
        XCTAssertEqual(c.runs.withLock { $0.map(\.exit) }, [.exited(0), .exited(0)])
    }

    func testMissingProgramIsReportedNotCrashed() throws {
        let (s, c) = spawner([ExecCommand(argv: ["/nonexistent/touchwire-program"])])
        defer { s.stop() }
        s.request(0)
        XCTAssertEqual(c.done.wait(timeout: .now() + 30), .success)
        let run = try XCTUnwrap(c.runs.withLock { $0.first })
        XCTAssertTrue(run.spawnError != nil || run.exit == .exited(127), "\(run)")
    }

    func testUserRunsThroughSetpriv() {
        let s = CommandSpawner(
            commands: [ExecCommand(argv: ["/usr/local/bin/kiosk-admin", "--show"])], names: ["b"], environment: [:],
            user: "kiosk", clock: ManualClock(), log: { _ in })
        XCTAssertEqual(
            s.spawnArguments(0),
            [
                "/usr/bin/setpriv", "--reuid=kiosk", "--regid=kiosk", "--init-groups", "--",
                "/usr/local/bin/kiosk-admin",
                "--show",
            ])
    }

    /// Issue 30, class 6: `--regid` got the user's name as a group; `nobody`'s primary group is
    /// `nogroup` on Debian, so setpriv failed on every run. The group goes by the number
    /// `getpwnam` gives.
    func testUserRunsInItsPrimaryGroupByNumber() throws {
        var pw = passwd()
        var found: UnsafeMutablePointer<passwd>? = nil
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r("nobody", &pw, &buffer, buffer.count, &found) == 0, found != nil else {
            throw XCTSkip("no user nobody on this machine")
        }
        let s = CommandSpawner(
            commands: [ExecCommand(argv: ["/bin/true"])], names: ["b"], environment: [:], user: "nobody",
            clock: ManualClock(), log: { _ in })
        XCTAssertEqual(
            s.spawnArguments(0),
            ["/usr/bin/setpriv", "--reuid=nobody", "--regid=\(pw.pw_gid)", "--init-groups", "--", "/bin/true"])
    }

    /// Issue 30, class 6: a program gets no ambient capabilities (which would survive its exec,
    /// CAP_SYS_NICE under the unit) and runs with no_new_privs (no set-user-ID gain). The
    /// program reports its own /proc status.
    func testChildrenGetNoAmbientCapabilitiesAndNoNewPrivileges() throws {
        let script = #"grep -E '^(CapAmb|NoNewPrivs):' /proc/$$/status >&2"#
        let (s, c) = spawner([ExecCommand(argv: ["/bin/sh", "-c", script])])
        defer { s.stop() }
        s.request(0)
        XCTAssertEqual(c.done.wait(timeout: .now() + 30), .success)
        let run = try XCTUnwrap(c.runs.withLock { $0.first })
        let fields = Dictionary(
            run.stderr.split(separator: "\n").compactMap { line -> (String, String)? in
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2 else { return nil }
                return (String(parts[0]), parts[1].trimmingCharacters(in: .whitespaces))
            }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(fields["NoNewPrivs"], "1", "the program could gain privileges: \(run.stderr)")
        XCTAssertEqual(fields["CapAmb"], "0000000000000000", "the program kept ambient capabilities")
    }

    /// Issue 30, class 6: the screen's last `on_command`, run when the display switch stops
    /// (the service stopping dark), is restricted as every other program: it ran on the stopping
    /// thread, which keeps what the process holds (no `no_new_privs`, the unit's ambient
    /// CAP_SYS_NICE/CAP_IPC_LOCK). The program writes its own /proc status to a file.
    func testTheLastOnCommandAtStopGetsNoNewPrivileges() throws {
        let own = (try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)) ?? ""
        if own.contains("NoNewPrivs:\t1") {
            throw XCTSkip("this test process already runs with no_new_privs: nothing a child could lose")
        }
        let dir = try makeTemporaryDirectory(self)
        let out = dir.appendingPathComponent("status").path
        let script = "grep -E '^(CapAmb|NoNewPrivs):' /proc/$$/status > '\(out)'"
        let spawner = CommandSpawner(
            commands: [ExecCommand(argv: ["/bin/true"]), ExecCommand(argv: ["/bin/sh", "-c", script])],
            names: ["display off_command", "display on_command"], environment: [:], user: nil, clock: ManualClock(),
            log: { _ in })
        let screen = DisplaySwitch(output: .commands(spawner), log: { _ in })
        screen.request(.off)
        screen.applyPending()
        screen.stop()
        let status = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(status.contains("NoNewPrivs:\t1"), "the last on_command could gain privileges: \(status)")
        XCTAssertTrue(status.contains("CapAmb:\t0000000000000000"), "it kept ambient capabilities: \(status)")
    }

    /// Issue 30, class 6: a program that leaves a background child behind (the shell exits at
    /// once, `sleep 1000` stays in its process group): stopping the spawner ends the group.
    func testStopEndsTheBackgroundChildrenOfAProgram() throws {
        let script = #"echo $$ >&2; sleep 1000 </dev/null >/dev/null 2>&1 &"#
        let (s, c) = spawner([ExecCommand(argv: ["/bin/sh", "-c", script])])
        var stopped = false
        defer { if !stopped { s.stop() } }
        s.request(0)
        XCTAssertEqual(c.done.wait(timeout: .now() + 30), .success)
        let run = try XCTUnwrap(c.runs.withLock { $0.first })
        XCTAssertEqual(run.exit, .exited(0))
        let pgid = try XCTUnwrap(pid_t(run.stderr), "no group id: \(run.stderr)")
        defer { ChildProcess.signalGroup(pgid, SIGKILL) }  // never leave the sleep behind
        XCTAssertTrue(ChildProcess.groupExists(pgid), "the background sleep is not running")
        s.stop()
        stopped = true
        // Generous polling: the verdict is whether the group ends, not how fast.
        XCTAssertTrue(waitFor(30) { !ChildProcess.groupExists(pgid) }, "the background sleep outlived the spawner")
    }
}

/// `run` refuses a board whose exec program is missing; `validate` only warns.
final class ExecBoardTests: XCTestCase {
    func board(program: String) throws -> BoardDescription {
        let text = simulatedBoardText(
            script: "demo", recognizers: ["tap"],
            extra: "[[binding]]\nrecognizer = \"tap\"\naction = \"exec\"\ncommand = [\"\(program)\", \"--show\"]\n")
        return try BoardLoader.parse(text, file: "e.toml", directory: "/tmp")
    }

    func testMissingProgramRefusesToStart() throws {
        let b = try board(program: "/nonexistent/kiosk-admin")
        XCTAssertEqual(
            ExecCheck.problems(b),
            ["e.toml: binding[0] \"tap\".command: /nonexistent/kiosk-admin is missing or not executable"])
        XCTAssertThrowsError(try Service(board: b, logger: quietLogger, stdout: CollectingSink())) {
            XCTAssertEqual(
                "\($0)", "e.toml: binding[0] \"tap\".command: /nonexistent/kiosk-admin is missing or not executable")
        }
        XCTAssertEqual(ExecCheck.problems(try board(program: "/bin/true")), [])
        let dir = try makeTemporaryDirectory(self)
        let plain = dir.appendingPathComponent("plain").path
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: plain, contents: Data("x".utf8), attributes: [.posixPermissions: 0o644]))
        XCTAssertEqual(ExecCheck.problems(try board(program: plain)).count, 1, "not executable")
    }

    /// The message names the exec binding by its place in the board's `[[binding]]` list, GPIO
    /// bindings counted: a user reads `binding[2]` and finds the third table. It counted only the
    /// key and exec bindings, pointing at a GPIO binding's table.
    func testMissingProgramIsNamedByItsPlaceInTheBoard() throws {
        let gpio = "[[binding]]\nrecognizer = \"tap\"\naction = \"pulse\"\ngpio = { chip = \"sim\", line = LINE }\n\n"
        let text = simulatedBoardText(
            script: "demo", recognizers: ["tap"],
            extra: gpio.replacingOccurrences(of: "LINE", with: "1") + gpio.replacingOccurrences(of: "LINE", with: "2")
                + "[[binding]]\nrecognizer = \"tap\"\naction = \"exec\"\ncommand = [\"/nonexistent/x\"]\n")
        let b = try BoardLoader.parse(text, file: "e.toml", directory: "/tmp")
        XCTAssertEqual(
            ExecCheck.problems(b), ["e.toml: binding[2] \"tap\".command: /nonexistent/x is missing or not executable"])
    }

    /// Issue 30, class 6: under the unit (no CAP_SETUID/CAP_SETGID) `[exec] user` failed every
    /// run with exit 127 and no warning; validate and run now name it and point to the agent.
    func testExecUserIsRefusedWhenTheProcessCannotChangeUser() throws {
        let text = simulatedBoardText(
            script: "demo", recognizers: ["tap"],
            extra: "[[binding]]\nrecognizer = \"tap\"\naction = \"exec\"\ncommand = [\"/bin/true\"]\n"
                + "[exec]\nuser = \"root\"\n")
        let b = try BoardLoader.parse(text, file: "e.toml", directory: "/tmp")
        XCTAssertEqual(ExecCheck.problems(b, canChangeUser: true), [])
        let problems = ExecCheck.problems(b, canChangeUser: false)
        XCTAssertEqual(problems.count, 1)
        let expected = "e.toml: exec.user: this process cannot run programs as \"root\""
        XCTAssertTrue(problems.first?.hasPrefix(expected) ?? false)
        XCTAssertTrue(problems.first?.contains("touchwire agent") ?? false, "\(problems)")
    }

    /// The tap of a simulated run triggers its exec binding; the program runs on the spawner thread.
    func testTapRunsTheProgram() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let marker = dir.appendingPathComponent("ran").path
        let text = simulatedBoardText(
            script: "tap.jsonl", recognizers: ["tap"],
            extra:
                "[[binding]]\nrecognizer = \"tap\"\naction = \"exec\"\ncommand = [\"/usr/bin/touch\", \"\(marker)\"]\n")
        let b = try BoardLoader.parse(text, file: "e.toml", directory: dir.path)
        let clock = ManualClock()
        let service = try Service(board: b, logger: quietLogger, stdout: CollectingSink(), clock: clock)
        let spawner = try XCTUnwrap(service.output.commands?.spawner as? CommandSpawner)
        let done = DispatchSemaphore(value: 0)
        spawner.onFinish = { _ in done.signal() }
        spawner.start()
        defer { spawner.stop() }
        XCTAssertTrue(service.driver.start(at: .zero))
        for ms in stride(from: Int64(0), through: 300, by: 10) {
            clock.now = .milliseconds(ms)
            service.driver.poll(at: clock.now)
            service.recognizer.step(now: clock.now)
            service.output.drain(clock: clock)
        }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertTrue(FileManager.default.fileExists(atPath: marker))
    }
}

/// Issue 30, class 6: a child gets no descriptor above stderr, even one the service opened
/// without FD_CLOEXEC (it used to inherit it: an open device or socket handed to any program).
final class ChildDescriptorTests: XCTestCase {
    func testAChildDoesNotInheritADescriptorWithoutCloseOnExec() throws {
        let leaked = open("/dev/null", O_RDONLY)  // no O_CLOEXEC, on purpose
        XCTAssertGreaterThan(leaked, 2)
        defer { close(leaked) }
        XCTAssertEqual(fcntl(leaked, F_GETFD) & FD_CLOEXEC, 0)
        // Exit 7 when the descriptor is open in the child, 0 when it is not.
        let child = try ChildProcess(
            argv: ["/bin/sh", "-c", "if [ -e /proc/self/fd/\(leaked) ]; then exit 7; fi; exit 0"], environment: [])
        XCTAssertTrue(waitFor(30) { child.poll() != nil }, "the child did not end")
        XCTAssertEqual(child.poll(), .exited(0), "the child saw descriptor \(leaked)")
    }
}
