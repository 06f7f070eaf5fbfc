import CLinux
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A Linux scheduling policy (`SCHED_OTHER`, `SCHED_FIFO`, `SCHED_RR`) as a small value.
package struct SchedulingPolicy: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: CInt
    package init(rawValue: CInt) { self.rawValue = rawValue }

    /// Normal time-sharing (`SCHED_OTHER`, CFS/EEVDF).
    package static let other = SchedulingPolicy(rawValue: CInt(SCHED_OTHER))
    /// Fixed-priority first-in first-out (`SCHED_FIFO`): runs until it blocks or a higher priority wakes.
    package static let fifo = SchedulingPolicy(rawValue: CInt(SCHED_FIFO))
    /// Fixed-priority round-robin (`SCHED_RR`): as FIFO, with a time slice among equal priorities.
    package static let roundRobin = SchedulingPolicy(rawValue: CInt(SCHED_RR))

    /// `SCHED_FIFO`, `SCHED_RR`, `SCHED_OTHER`.
    package var description: String {
        switch self {
        case .fifo: return "SCHED_FIFO"
        case .roundRobin: return "SCHED_RR"
        case .other: return "SCHED_OTHER"
        default: return "policy \(rawValue)"
        }
    }

    /// True for the fixed-priority (real-time) policies.
    package var isRealTime: Bool { self == .fifo || self == .roundRobin }
}

/// A real-time setting that the kernel refused: what was attempted and the `Errno`.
package struct RealTimeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was attempted, e.g. "SCHED_FIFO priority 60".
    package var operation: String
    package var errno: Errno

    package init(operation: String, errno: Errno) {
        self.operation = operation
        self.errno = errno
    }

    /// True when the process lacks the privilege (EPERM): not a bug, a deployment choice.
    package var isPermissionDenied: Bool { errno == .notPermitted }

    package var description: String { "\(operation): \(errno)" }
}

/// Scheduling, memory locking, CPU affinity and resource usage of the calling thread or process.
///
/// Each system call is made once, here. Nothing in this file allocates after the first call,
/// but none of it belongs in a per-frame path: call it when a thread starts or stops.
package enum RealTime {
    /// The priorities `policy` accepts (1…99 for FIFO/RR on Linux, 0…0 for OTHER).
    /// The corresponding C functions are `sched_get_priority_min` and `sched_get_priority_max`.
    package static func priorityRange(_ policy: SchedulingPolicy) -> ClosedRange<Int> {
        let lo = sched_get_priority_min(policy.rawValue)
        let hi = sched_get_priority_max(policy.rawValue)
        guard lo >= 0, hi >= lo else { return 0...0 }
        return Int(lo)...Int(hi)
    }

    /// Sets the calling thread's policy and priority. `.other` resets to normal time-sharing.
    /// The corresponding C function is `pthread_setschedparam(pthread_self(), …)`.
    package static func setCurrentThreadScheduling(_ policy: SchedulingPolicy, priority: Int) throws(RealTimeError) {
        var param = sched_param()
        param.sched_priority = CInt(clamping: policy.isRealTime ? priority : 0)
        let rc = pthread_setschedparam(pthread_self(), policy.rawValue, &param)
        if rc != 0 {
            let what = policy.isRealTime ? "\(policy) priority \(priority)" : "\(policy)"
            throw RealTimeError(operation: what, errno: Errno(rawValue: rc))
        }
    }

    /// Sets how late the kernel may fire the calling thread's timed waits (`nanosleep`, a futex or
    /// `poll` timeout), in nanoseconds. Normal threads get 50 µs by default, so the kernel can merge
    /// wake-ups; `SCHED_FIFO`/`SCHED_RR` threads get none. The pipeline threads ask for 1 ns: a
    /// timer-fired event (a long press's `began`) and a simulated INT edge are then on time.
    /// The corresponding C function is `prctl(PR_SET_TIMERSLACK, nanoseconds)`.
    package static func setCurrentThreadTimerSlack(nanoseconds: UInt) throws(RealTimeError) {
        if tw_set_timer_slack(nanoseconds) != 0 {
            throw RealTimeError(operation: "PR_SET_TIMERSLACK", errno: .lastError)
        }
    }

    /// The calling thread's policy and priority.
    /// The corresponding C function is `pthread_getschedparam(pthread_self(), …)`.
    package static func currentThreadScheduling() -> (policy: SchedulingPolicy, priority: Int) {
        var policy: CInt = 0
        var param = sched_param()
        guard pthread_getschedparam(pthread_self(), &policy, &param) == 0 else { return (.other, 0) }
        return (SchedulingPolicy(rawValue: policy), Int(param.sched_priority))
    }

    /// Locks every current and future page of the process in RAM, so a page fault never
    /// stalls the recognizer loop. The corresponding C function is `mlockall(MCL_CURRENT | MCL_FUTURE)`.
    package static func lockAllMemory() throws(RealTimeError) {
        if mlockall(CInt(MCL_CURRENT | MCL_FUTURE)) != 0 {
            throw RealTimeError(operation: "mlockall", errno: .lastError)
        }
    }

    /// Undoes `lockAllMemory`. The corresponding C function is `munlockall`.
    package static func unlockAllMemory() { _ = munlockall() }

    /// Bytes of the process locked in RAM now (`VmLck` in /proc/self/status).
    package static var lockedMemoryBytes: Int {
        procStatusKilobytes("VmLck:").map { $0 * 1024 } ?? 0
    }

    /// Pins the calling thread to `cpus` (CPU numbers from 0). An empty list allows every CPU.
    /// The corresponding C function is `sched_setaffinity(0, …)` (0: the calling thread).
    package static func setCurrentThreadAffinity(_ cpus: [Int]) throws(RealTimeError) {
        var mask = [UInt64](repeating: 0, count: maskWords)
        let list = cpus.isEmpty ? Array(0..<onlineCPUCount) : cpus
        for cpu in list {
            guard cpu >= 0, cpu < maskWords * 64 else {
                throw RealTimeError(operation: "CPU affinity \(cpus)", errno: .invalidArgument)
            }
            mask[cpu / 64] |= 1 << UInt64(cpu % 64)
        }
        if tw_set_thread_affinity(mask, CInt(maskWords)) != 0 {
            throw RealTimeError(operation: "CPU affinity \(cpus)", errno: .lastError)
        }
    }

    /// The CPUs the calling thread may run on. The corresponding C function is `sched_getaffinity(0, …)`.
    package static func currentThreadAffinity() -> [Int] {
        var mask = [UInt64](repeating: 0, count: maskWords)
        guard tw_get_thread_affinity(&mask, CInt(maskWords)) == 0 else { return [] }
        return (0..<(maskWords * 64)).filter { mask[$0 / 64] & (1 << UInt64($0 % 64)) != 0 }
    }

    /// 1024 CPUs, as glibc's `cpu_set_t`.
    private static let maskWords = 16

    /// CPUs online now. The corresponding C function is `sysconf(_SC_NPROCESSORS_ONLN)`.
    package static var onlineCPUCount: Int { max(1, Int(sysconf(CInt(_SC_NPROCESSORS_ONLN)))) }

    /// User + system CPU time of the calling thread so far, µs.
    /// The corresponding C function is `getrusage(RUSAGE_THREAD, …)`.
    package static func currentThreadCPUMicroseconds() -> Int64 { max(0, Int64(tw_thread_cpu_us())) }

    /// User + system CPU time of the whole process so far, µs.
    /// The corresponding C function is `getrusage(RUSAGE_SELF, …)`.
    package static func processCPUMicroseconds() -> Int64 { max(0, Int64(tw_process_cpu_us(nil))) }

    /// The process's peak resident set size, bytes (`ru_maxrss`).
    package static func peakResidentBytes() -> Int {
        var kb = 0
        _ = tw_process_cpu_us(&kb)
        return kb * 1024
    }

    /// The process's resident set size now, bytes (`VmRSS` in /proc/self/status).
    package static func residentBytes() -> Int { procStatusKilobytes("VmRSS:").map { $0 * 1024 } ?? 0 }

    /// The bytes malloc has handed out and not had back (glibc's `mallinfo2().uordblks`: the main
    /// arena and the threads' arenas, not blocks mmapped on their own). Unlike the resident set it
    /// does not move with page reuse and fragmentation, so a leak of a few bytes a call shows.
    package static func allocatedHeapBytes() -> Int { Int(mallinfo2().uordblks) }

    /// The resident set size now and its peak, bytes, from one read of /proc/self/status (`VmRSS`,
    /// `VmHWM`), so that `peak >= current` always holds. (`ru_maxrss` and `VmRSS` come from
    /// counters the kernel updates at different times: read apart, the peak can lag the current.)
    package static func residentMemory() -> (current: Int, peak: Int) {
        let text = readSmallFile("/proc/self/status") ?? ""
        let current = (procStatusKilobytes("VmRSS:", in: text) ?? 0) * 1024
        let hwm = (procStatusKilobytes("VmHWM:", in: text) ?? 0) * 1024
        return (current, max(current, hwm))
    }

    /// A "Key:   123 kB" line of /proc/self/status, in kB.
    private static func procStatusKilobytes(_ key: String) -> Int? {
        guard let text = readSmallFile("/proc/self/status") else { return nil }
        return procStatusKilobytes(key, in: text)
    }

    /// Scans bytes, not `Character`s: the metrics thread reads VmRSS every second, and splitting
    /// the file into grapheme-checked lines cost ~0.6 M instructions a read (most of an idle
    /// service's CPU). The digits after the key, or nil (no such line, no digit, overflow).
    package static func procStatusKilobytes(_ key: String, in text: String) -> Int? {
        let bytes = Array(text.utf8)
        let k = Array(key.utf8)
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            if end - start >= k.count && bytes[start..<(start + k.count)].elementsEqual(k) {
                var value: Int? = nil
                for b in bytes[(start + k.count)..<end] where b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                    let (times10, o1) = (value ?? 0).multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times10.addingReportingOverflow(Int(b - UInt8(ascii: "0")))
                    if o1 || o2 { return nil }
                    value = sum
                }
                return value
            }
            start = end + 1
        }
        return nil
    }

    /// The whole of a small text file (procfs), or nil.
    static func readSmallFile(_ path: String) -> String? {
        guard case .success(let fd) = system_open(path, O_RDONLY | O_CLOEXEC) else { return nil }
        defer { _ = system_close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let r = chunk.withUnsafeMutableBytes { system_read(fd, $0) }
            guard case .success(let n) = r, n > 0 else { break }
            bytes += chunk[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
