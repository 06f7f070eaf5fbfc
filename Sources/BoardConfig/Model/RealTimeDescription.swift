/// `[realtime]`: how the service's threads are scheduled and whether its memory is locked.
///
/// Applied when the service starts; a setting the process lacks the privilege for is logged as
/// a warning and the service runs without it (it is never a reason not to start).
package struct RealTimeDescription: Sendable, Equatable {
    /// The scheduling policy of the pipeline threads.
    package enum Policy: String, Sendable, Equatable, CaseIterable {
        /// Normal time-sharing (the default): no privilege needed.
        case other
        /// `SCHED_FIFO`: a thread runs until it sleeps or a higher priority wakes.
        case fifo
        /// `SCHED_RR`: as `fifo`, time-sliced among threads of equal priority.
        case rr
    }

    package var policy: Policy
    /// Priority of the driver thread (1…99) under `fifo`/`rr`.
    package var driverPriority: Int
    /// Priority of the recognizer thread (1…99) under `fifo`/`rr`.
    package var recognizerPriority: Int
    /// Priority of the output thread (1…99) under `fifo`/`rr`; 0 keeps it on normal time-sharing.
    package var outputPriority: Int
    /// `mlockall(MCL_CURRENT | MCL_FUTURE)` at start.
    package var lockMemory: Bool
    /// CPUs the pipeline threads are pinned to; empty: any CPU.
    package var cpus: [Int]

    package static let defaultDriverPriority = 60
    package static let defaultRecognizerPriority = 58
    package static let defaultOutputPriority = 56

    package init(
        policy: Policy = .other, driverPriority: Int = Self.defaultDriverPriority,
        recognizerPriority: Int = Self.defaultRecognizerPriority, outputPriority: Int = Self.defaultOutputPriority,
        lockMemory: Bool = false, cpus: [Int] = []
    ) {
        self.policy = policy
        self.driverPriority = driverPriority
        self.recognizerPriority = recognizerPriority
        self.outputPriority = outputPriority
        self.lockMemory = lockMemory
        self.cpus = cpus
    }

    /// Nothing requested: normal scheduling, memory not locked, any CPU.
    package var isDefault: Bool { policy == .other && !lockMemory && cpus.isEmpty }

    /// "policy fifo (driver 60, recognizer 58, output 56), memory locked, cpus 1".
    package var summary: String {
        var parts: [String] = []
        switch policy {
        case .other: parts.append("policy other (normal time-sharing)")
        case .fifo, .rr:
            let output = outputPriority == 0 ? "output normal" : "output \(outputPriority)"
            parts.append(
                "policy \(policy.rawValue) (driver \(driverPriority), recognizer \(recognizerPriority), \(output))")
        }
        parts.append(lockMemory ? "memory locked" : "memory not locked")
        parts.append(cpus.isEmpty ? "any cpu" : "cpus " + cpus.map(String.init).joined(separator: ","))
        return parts.joined(separator: ", ")
    }
}
