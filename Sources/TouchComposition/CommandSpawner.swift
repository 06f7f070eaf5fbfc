import BoardConfig
import Dispatch
import FoundationEssentials
import Synchronization
import SystemPackage
import TouchCore
import TouchLinux
import TouchService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs exec bindings' programs on its own ordinary (never real-time) thread, so the real-time
/// threads never fork: they only `request` a binding, which sets a flag.
///
/// Per binding: at most one instance at a time (a trigger while it runs is skipped and logged);
/// a trigger closer than `minimumIntervalMilliseconds` to the previous start is skipped; a run
/// still going after `timeoutMilliseconds` gets SIGTERM, then SIGKILL one second later. Each run
/// ends with one log line: the exit status (or signal) and what it wrote to stderr (≤ 4 KB).
/// Programs get exactly `environment` (nothing of the service's) and, with a `user`, run through
/// `setpriv --reuid --regid --init-groups` as that user, in its primary group.
package final class CommandSpawner: @unchecked Sendable {
    /// One finished run, for logs and tests.
    package struct Run: Sendable, Equatable {
        package var binding: Int
        package var exit: ChildExit?
        package var timedOut: Bool
        package var stderr: String
        /// Set when the program could not be started at all.
        package var spawnError: String?
    }

    package let commands: [ExecCommand]
    package let environment: [String]
    package let user: String?
    /// Called on the spawner thread after each run.
    package var onFinish: (@Sendable (Run) -> Void)?
    private let log: @Sendable (String) -> Void
    private let names: [String]
    /// Times `min_interval_ms`, `timeout_ms` and the SIGKILL second (read on the spawner thread).
    private let clock: any TouchClock

    // Shared with the requesting thread: one flag per binding.
    private let pending: Mutex<[Bool]>
    private let wake = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(false)
    /// Signalled by the thread when it has ended every group (see `stop`).
    private let stopped = DispatchSemaphore(value: 0)

    // Spawner thread only.
    private var children: [ChildProcess?]
    private var started: [Instant?]
    private var stderrText: [[UInt8]]
    private var terminatedAt: [Instant?]
    /// Process groups started and maybe still alive (a program's background children outlive it).
    private var groups: [pid_t] = []

    /// `names[i]` names binding `i` in logs; `clock` is the pipeline's (the real one in `run`).
    package init(
        commands: [ExecCommand], names: [String], environment: [String: String], user: String?,
        clock: any TouchClock, log: @escaping @Sendable (String) -> Void
    ) {
        self.clock = clock
        self.commands = commands
        self.names = names
        self.environment = environment.keys.sorted().map { "\($0)=\(environment[$0]!)" }
        self.user = user
        self.log = log
        pending = Mutex([Bool](repeating: false, count: commands.count))
        children = [ChildProcess?](repeating: nil, count: commands.count)
        started = [Instant?](repeating: nil, count: commands.count)
        stderrText = [[UInt8]](repeating: [], count: commands.count)
        terminatedAt = [Instant?](repeating: nil, count: commands.count)
    }

    /// Asks for binding `index` to run. Never blocks for long, never allocates, never forks.
    package func request(_ index: Int) {
        pending.withLock { if index >= 0 && index < $0.count { $0[index] = true } }
        wake.signal()
    }

    /// Starts the spawner thread.
    package func start() {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        do { try NamedThread.start(name: "touchwire-spawner") { [self] in loop() } } catch {
            log("commands: no spawner thread (\(error)): bound programs will not run")
            running.store(false, ordering: .releasing)
        }
    }

    /// Stops the thread and returns when it has ended: the process group of every program it
    /// started (background grandchildren included) gets SIGTERM, then SIGKILL after
    /// `Self.terminationGraceMilliseconds`; the programs are reaped. Calling it again is a no-op.
    package func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        // Bounded: the thread gives up on groups after the grace plus the SIGKILL wait.
        _ = stopped.wait(timeout: .now() + .milliseconds(Self.terminationGraceMilliseconds + 3000))
    }

    /// How long the groups get between SIGTERM and SIGKILL when the spawner stops.
    package static let terminationGraceMilliseconds = 1000

    /// The argv actually spawned for binding `index` (with the `setpriv` prefix for a `user`).
    package func spawnArguments(_ index: Int) -> [String] {
        guard let user else { return commands[index].argv }
        // The user's primary group by number: a group named as the user may not exist, or be another.
        let group = ChildProcess.primaryGroupID(of: user).map { "\($0)" } ?? user
        return ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(group)", "--init-groups", "--"] + commands[index].argv
    }

    /// Runs program `index` on a short-lived thread restricted as the spawner thread is (no
    /// ambient capabilities, `no_new_privs`: both per thread, so never on the caller's thread,
    /// which may hold the service's CAP_SYS_NICE/CAP_IPC_LOCK) and returns when it has ended, or
    /// was killed (its process group) after its timeout. For a last program after `stop()`:
    /// `DisplaySwitch.stop`'s `on_command`. The wait is real time: a bound, no verdict.
    package func runToEnd(_ index: Int) {
        guard commands.indices.contains(index) else { return }
        let done = DispatchSemaphore(value: 0)
        do {
            try NamedThread.start(name: "touchwire-lastrun") { [self] in
                defer { done.signal() }
                do throws(Errno) { try ChildProcess.restrictSpawningThread() } catch {
                    log("\(names[index]): cannot restrict the thread (\(error)): \(commands[index].argv[0]) not run")
                    return
                }
                waitForOneRun(index)
            }
        } catch {
            log("\(names[index]): no thread (\(error)): \(commands[index].argv[0]) not run")
            return
        }
        done.wait()
    }

    /// Spawns program `index` on this (restricted) thread and waits for it, up to its timeout.
    private func waitForOneRun(_ index: Int) {
        let child: ChildProcess
        do throws(Errno) {
            child = try ChildProcess(argv: spawnArguments(index), environment: environment)
        } catch {
            log("\(names[index]): cannot start \(commands[index].argv[0]): \(error)")
            return
        }
        var waited = 0
        var stderr: [UInt8] = []
        while child.poll() == nil {
            child.readStderr(into: &stderr)
            if waited >= commands[index].timeoutMilliseconds {
                ChildProcess.signalGroup(child.pid, SIGKILL)
                child.signal(SIGKILL)
                log("\(names[index]): \(commands[index].argv[0]) timed out; killed")
                return
            }
            usleep(10_000)
            waited += 10
        }
    }

    private func loop() {
        defer { stopped.signal() }
        do throws(Errno) { try ChildProcess.restrictSpawningThread() } catch {
            log("commands: cannot restrict the spawner thread (\(error)): bound programs will not run")
            while running.load(ordering: .acquiring) { _ = wake.wait(timeout: .now() + .milliseconds(500)) }
            return
        }
        while running.load(ordering: .acquiring) {
            _ = wake.wait(timeout: .now() + .milliseconds(anyRunning ? 20 : 500))
            let requested = pending.withLock { p -> [Bool] in
                let copy = p
                for i in p.indices { p[i] = false }
                return copy
            }
            for (i, wanted) in requested.enumerated() where wanted { launch(i) }
            tend()
        }
        endAllGroups()
    }

    /// SIGTERM to every group still alive, SIGKILL to those left after the grace, then reaps.
    private func endAllGroups() {
        groups.removeAll { !ChildProcess.groupExists($0) }
        for g in groups { ChildProcess.signalGroup(g, SIGTERM) }
        // Real time here (not the injected clock): a bound on how long stopping takes, no verdict.
        var waited = 0
        while waited < Self.terminationGraceMilliseconds {
            for i in children.indices { if children[i]?.poll() != nil { finish(i, timedOut: false) } }
            groups.removeAll { !ChildProcess.groupExists($0) }
            if groups.isEmpty { break }
            usleep(10_000)
            waited += 10
        }
        for g in groups { ChildProcess.signalGroup(g, SIGKILL) }
        for i in children.indices where children[i] != nil {
            children[i]?.signal(SIGKILL)
            finish(i, timedOut: false)
        }
        groups.removeAll()
    }

    private var anyRunning: Bool { children.contains { $0 != nil } }

    /// Programs running now (read from any thread; for tests and status).
    package var runningCount: Int { runningNow.load(ordering: .relaxed) }
    private let runningNow = Atomic<Int>(0)

    private func launch(_ i: Int) {
        let now = clock.now
        if children[i] != nil {
            log("exec binding \"\(names[i])\": still running; trigger skipped")
            return
        }
        if let last = started[i],
            now.microseconds(since: last) < Self.microseconds(commands[i].minimumIntervalMilliseconds)
        {
            log("exec binding \"\(names[i])\": triggered again within min_interval_ms; skipped")
            return
        }
        started[i] = now
        stderrText[i] = []
        terminatedAt[i] = nil
        do throws(Errno) {
            let child = try ChildProcess(argv: spawnArguments(i), environment: environment)
            groups.removeAll { !ChildProcess.groupExists($0) }
            groups.append(child.pid)
            children[i] = child
            runningNow.add(1, ordering: .relaxed)
        } catch {
            let run = Run(binding: i, exit: nil, timedOut: false, stderr: "", spawnError: "\(error)")
            log("exec binding \"\(names[i])\": cannot start \(commands[i].argv[0]): \(error)")
            onFinish?(run)
        }
    }

    private func tend() {
        let now = clock.now
        for i in children.indices {
            guard let child = children[i] else { continue }
            child.readStderr(into: &stderrText[i])
            if child.poll() != nil {
                finish(i, timedOut: terminatedAt[i] != nil)
                continue
            }
            guard let start = started[i] else { continue }
            if terminatedAt[i] == nil,
                now.microseconds(since: start) >= Self.microseconds(commands[i].timeoutMilliseconds)
            {
                child.signal(SIGTERM)
                terminatedAt[i] = now
            } else if let t = terminatedAt[i], now.microseconds(since: t) >= 1_000_000 {
                child.signal(SIGKILL)
            }
        }
    }

    /// `milliseconds` in µs, saturating (a board's absurd timeout never traps).
    private static func microseconds(_ milliseconds: Int) -> Int64 {
        let (us, overflow) = Int64(clamping: milliseconds).multipliedReportingOverflow(by: 1000)
        return overflow ? (milliseconds < 0 ? Int64.min : Int64.max) : us
    }

    private func finish(_ i: Int, timedOut: Bool) {
        guard let child = children[i] else { return }
        child.readStderr(into: &stderrText[i])
        let exit = child.poll()
        let text = trimmingWhitespace(String(decoding: stderrText[i], as: UTF8.self))
        children[i] = nil
        runningNow.subtract(1, ordering: .relaxed)
        var line = "exec binding \"\(names[i])\": \(commands[i].argv[0]) "
        line +=
            timedOut
            ? "timed out after \(commands[i].timeoutMilliseconds) ms (\(exit.map { "\($0)" } ?? "killed"))"
            : (exit.map { "\($0)" } ?? "ended")
        if !text.isEmpty { line += "; stderr: \(text)" }
        log(line)
        onFinish?(Run(binding: i, exit: exit, timedOut: timedOut, stderr: text, spawnError: nil))
    }
}
