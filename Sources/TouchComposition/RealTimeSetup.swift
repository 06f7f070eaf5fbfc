import BoardConfig
import FoundationEssentials
import TouchLinux
import TouchService

/// Command-line overrides of a board's `[realtime]` section (`touchwire run` / `bench`).
/// Nil fields keep the board's value.
package struct RealTimeOverrides: Sendable, Equatable {
    package var policy: String?
    package var driverPriority: Int?
    package var recognizerPriority: Int?
    package var outputPriority: Int?
    package var lockMemory: Bool?
    /// "1" or "2,3"; "" or "any" clears the board's pinning.
    package var cpus: String?

    package init(
        policy: String? = nil, driverPriority: Int? = nil, recognizerPriority: Int? = nil, outputPriority: Int? = nil,
        lockMemory: Bool? = nil, cpus: String? = nil
    ) {
        self.policy = policy
        self.driverPriority = driverPriority
        self.recognizerPriority = recognizerPriority
        self.outputPriority = outputPriority
        self.lockMemory = lockMemory
        self.cpus = cpus
    }

    /// The board's settings with these overrides applied, or the first problem, naming the option.
    package func applied(to board: RealTimeDescription) -> Result<RealTimeDescription, RealTimeOptionError> {
        var d = board
        if let policy {
            guard let p = RealTimeDescription.Policy(rawValue: policy) else {
                return .failure(.init("--realtime must be other, fifo or rr, got \"\(policy)\""))
            }
            d.policy = p
        }
        for (flag, value, range) in [
            ("--driver-priority", driverPriority, 1...99), ("--recognizer-priority", recognizerPriority, 1...99),
            ("--output-priority", outputPriority, 0...99),
        ] {
            if let value, !range.contains(value) {
                return .failure(.init("\(flag) must be in \(range.lowerBound)…\(range.upperBound), got \(value)"))
            }
        }
        if let v = driverPriority { d.driverPriority = v }
        if let v = recognizerPriority { d.recognizerPriority = v }
        if let v = outputPriority { d.outputPriority = v }
        if let v = lockMemory { d.lockMemory = v }
        if let cpus {
            switch Self.parseCPUs(cpus) {
            case .success(let list): d.cpus = list
            case .failure(let e): return .failure(e)
            }
        }
        return .success(d)
    }

    /// "1" → [1], "2,3" → [2, 3], "" / "any" → [] (no pinning).
    package static func parseCPUs(_ text: String) -> Result<[Int], RealTimeOptionError> {
        let trimmed = trimmingWhitespace(text)
        if trimmed.isEmpty || trimmed == "any" { return .success([]) }
        var out: [Int] = []
        for part in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let p = trimmingWhitespace(part)
            guard let n = Int(p), (0...1023).contains(n) else {
                return .failure(.init("--cpus takes CPU numbers such as 1 or 2,3 (or any), got \"\(text)\""))
            }
            guard !out.contains(n) else { return .failure(.init("--cpus lists CPU \(n) twice")) }
            out.append(n)
        }
        return .success(out)
    }
}

/// A real-time command-line option that cannot be used; the message names the option.
package struct RealTimeOptionError: Error, Equatable, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Applies `[realtime]` to the process and to each pipeline thread, and says what happened.
///
/// Every refusal is a warning, never a failure: without privilege the service still runs, on
/// normal scheduling, and the message says what would grant it.
package enum RealTimeSetup {
    /// The policy and priority `thread` asks for under `d` (nil: leave it on normal scheduling).
    package static func request(for thread: PipelineThread, in d: RealTimeDescription) -> (SchedulingPolicy, Int)? {
        let policy: SchedulingPolicy
        switch d.policy {
        case .other: return nil
        case .fifo: policy = .fifo
        case .rr: policy = .roundRobin
        }
        switch thread {
        case .driver: return (policy, d.driverPriority)
        case .recognizer: return (policy, d.recognizerPriority)
        case .output: return d.outputPriority == 0 ? nil : (policy, d.outputPriority)
        }
    }

    /// Process-wide settings (mlockall), once at start. Returns the lines to log, each marked as
    /// a warning or not.
    package static func applyToProcess(_ d: RealTimeDescription) -> [RealTimeMessage] {
        var out: [RealTimeMessage] = [.init(text: "real-time: \(d.summary)", isWarning: false)]
        if d.lockMemory {
            do throws(RealTimeError) {
                try RealTime.lockAllMemory()
            } catch {
                out.append(.init(text: warning(for: error, setting: "memory locking"), isWarning: true))
            }
        }
        let online = RealTime.onlineCPUCount
        if let bad = d.cpus.first(where: { $0 >= online }) {
            out.append(
                .init(
                    text: "real-time: cpus: CPU \(bad) is not online (this machine has \(online)); "
                        + "threads are pinned to the CPUs that exist, or not pinned",
                    isWarning: true))
        }
        return out
    }

    /// Per-thread settings, called on `thread` itself as it starts. Returns the warnings (empty: all applied).
    package static func applyToCurrentThread(_ thread: PipelineThread, _ d: RealTimeDescription) -> [RealTimeMessage] {
        var out: [RealTimeMessage] = []
        // Always, whatever the policy: the default 50 µs slack is paid by every timed wake-up.
        try? RealTime.setCurrentThreadTimerSlack(nanoseconds: 1)
        if !d.cpus.isEmpty {
            let online = RealTime.onlineCPUCount
            let usable = d.cpus.filter { $0 < online }
            if !usable.isEmpty {
                do throws(RealTimeError) {
                    try RealTime.setCurrentThreadAffinity(usable)
                } catch {
                    out.append(
                        .init(
                            text: warning(for: error, setting: "the \(thread) thread's CPU affinity"), isWarning: true))
                }
            }
        }
        if let (policy, priority) = request(for: thread, in: d) {
            do throws(RealTimeError) {
                try RealTime.setCurrentThreadScheduling(policy, priority: priority)
            } catch {
                out.append(
                    .init(text: warning(for: error, setting: "the \(thread) thread's scheduling"), isWarning: true))
            }
        }
        return out
    }

    /// The text of a refused setting: what was refused, why, and how to grant it.
    package static func warning(for error: RealTimeError, setting: String) -> String {
        var text = "real-time: cannot set \(setting) (\(error.operation)): \(error.errno)"
        if error.errno == .notPermitted || (error.operation == "mlockall" && error.errno == .noMemory) {
            if error.operation == "mlockall" {
                text += "; needs root, CAP_IPC_LOCK or a large enough RLIMIT_MEMLOCK (systemd: LimitMEMLOCK=infinity)"
            } else {
                text += "; needs root, CAP_SYS_NICE or RLIMIT_RTPRIO (systemd: LimitRTPRIO=99)"
            }
        }
        text += "; continuing without it"
        return text
    }

    /// The calling thread's scheduling as the status shows it: "SCHED_FIFO 58", "SCHED_OTHER".
    package static func describeCurrentThread() -> String {
        let (policy, priority) = RealTime.currentThreadScheduling()
        return policy.isRealTime ? "\(policy) \(priority)" : "\(policy)"
    }
}

/// `text` without leading and trailing white space (spaces, tabs, newlines: Unicode's
/// `isWhitespace`). Foundation's `trimmingCharacters(in:)` would link all of Foundation.
package func trimmingWhitespace(_ text: some StringProtocol) -> String {
    guard let first = text.firstIndex(where: { !$0.isWhitespace }),
        let last = text.lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(text[first...last])
}
