import FoundationEssentials
import SystemPackage
import TouchCore
import TouchLinux
import TouchService

/// Why a status file cannot be shown: one line naming the file and, when it is a bad value, the field.
package struct StatusFileError: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Reads the status file `touchwire status` prints (`MetricsSnapshot` as JSON), trusting nothing
/// in it: the file is bounded in size (`maximumBytes`), every number is checked against a range a
/// running service can produce (counts ≥ 0, latencies ≤ 10¹² µs in quantile order, so no later
/// conversion can trap), and every text field is made
/// safe for a terminal (`TerminalText.sanitized`).
package enum StatusFileReader {
    /// The largest status file read (a real one is about 1 KB).
    package static let maximumBytes = 64 * 1024

    /// The snapshot in the file at `path`: only a regular file of at most `maximumBytes` is read
    /// (a device such as /dev/zero would never end).
    package static func read(path: String) throws(StatusFileError) -> MetricsSnapshot {
        if let error = RuntimeDirectory.readError(path) { throw unreadable(path, error) }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw StatusFileError("no status at \(path): is `touchwire run` running (with --status-file \(path))?")
        }
        if let type = attributes[.type] as? FileAttributeType, type != .typeRegular {
            throw StatusFileError("\(path) is not a regular file; not a status file")
        }
        let sizeValue = attributes[.size]
        let size =
            (sizeValue as? Int64) ?? (sizeValue as? UInt64).map { Int64(clamping: $0) }
            ?? (sizeValue as? Int).map(Int64.init) ?? (sizeValue as? UInt).map { Int64(clamping: $0) }
        if let size, size > Int64(maximumBytes) {
            throw StatusFileError("\(path): \(size) bytes, more than a status file's \(maximumBytes)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw unreadable(path, RuntimeDirectory.readError(path) ?? .ioError)
        }
        return try decode(data, file: path)
    }

    /// The error for a status file `stat(2)` or `access(2)` refused: only a missing file asks
    /// whether the service runs; any other errno is named (a 0640 file in a 0750 directory:
    /// "Permission denied").
    private static func unreadable(_ path: String, _ error: Errno) -> StatusFileError {
        if error == .noSuchFileOrDirectory {
            return StatusFileError("no status at \(path): is `touchwire run` running (with --status-file \(path))?")
        }
        return StatusFileError("\(path): cannot read the status file (\(error))")
    }

    /// The snapshot in `data` (the contents of `file`, which names it in errors).
    package static func decode(_ data: Data, file: String) throws(StatusFileError) -> MetricsSnapshot {
        guard data.count <= maximumBytes else {
            throw StatusFileError("\(file): \(data.count) bytes, more than a status file's \(maximumBytes)")
        }
        guard var snap = MetricsSnapshot.decode(data) else {
            throw StatusFileError("\(file) is not a touchwire status snapshot")
        }
        let day = 86_400.0
        let checks: [(String, Double, ClosedRange<Double>)] = [
            ("uptime", snap.uptime, 0...(100 * 365 * day)),
            ("updated", snap.updated, 0...4_102_444_800),  // up to the year 2100
            ("framesPerSecond", snap.framesPerSecond, 0...1_000_000),
            ("processCPUSeconds", snap.processCPUSeconds, 0...(100 * 365 * day * 1024)),
            ("readToRecognized.mean", snap.readToRecognized.mean, 0...1e12),
            ("readToWrite.mean", snap.readToWrite.mean, 0...1e12),
        ]
        for (name, value, range) in checks where !(value.isFinite && range.contains(value)) {
            throw StatusFileError(
                "\(file): \(name) is \(value), outside \(range.lowerBound)…\(range.upperBound); "
                    + "not a status this service wrote")
        }
        let counts: [(String, Int)] = [
            ("framesRead", snap.framesRead), ("framesQueued", snap.framesQueued), ("readErrors", snap.readErrors),
            ("eventsWritten", snap.eventsWritten), ("lostSamples", snap.lostSamples),
            ("residentBytes", snap.residentBytes), ("frameRing.capacity", snap.frameRing.capacity),
            ("frameRing.highWater", snap.frameRing.highWater), ("frameRing.dropped", snap.frameRing.dropped),
            ("frameRing.other", snap.frameRing.other), ("eventRing.capacity", snap.eventRing.capacity),
            ("eventRing.highWater", snap.eventRing.highWater), ("eventRing.dropped", snap.eventRing.dropped),
            ("eventRing.other", snap.eventRing.other),
        ]
        let optionalCounts: [(String, Int?)] = [
            ("reinitialisations", snap.reinitialisations), ("reloads", snap.reloads),
        ]
        for (name, value) in counts + optionalCounts.compactMap({ n, v in v.map { (n, $0) } }) where value < 0 {
            throw StatusFileError("\(file): \(name) is \(value); a count cannot be negative")
        }
        // Latencies in µs: at most 10¹² (11.6 days, the means' bound); samples at most 2⁵³ (a
        // million a second for 285 years); quantiles in order. 2⁶⁴−1 is no latency a service measured.
        for (name, l) in [("readToRecognized", snap.readToRecognized), ("readToWrite", snap.readToWrite)] {
            let quantiles: [(String, UInt64)] = [
                ("p50", l.p50), ("p90", l.p90), ("p99", l.p99), ("p999", l.p999), ("max", l.max),
            ]
            for (q, value) in quantiles where value > 1_000_000_000_000 {
                throw StatusFileError(
                    "\(file): \(name).\(q) is \(value) µs, more than 10¹² µs; not a status this service wrote")
            }
            guard l.count <= 1 << 53 else {
                throw StatusFileError(
                    "\(file): \(name).count is \(l.count), more than 2⁵³; not a status this service wrote")
            }
            guard l.p50 <= l.p90, l.p90 <= l.p99, l.p99 <= l.p999, l.p999 <= l.max else {
                throw StatusFileError("\(file): \(name) quantiles are not in order (p50 ≤ p90 ≤ p99 ≤ p999 ≤ max)")
            }
        }
        guard snap.pid > 0 else { throw StatusFileError("\(file): pid is \(snap.pid); not a process id") }
        snap.board = TerminalText.sanitized(snap.board)
        snap.controller = TerminalText.sanitized(snap.controller)
        snap.realtime = TerminalText.sanitized(snap.realtime)
        snap.threads = snap.threads.map { TerminalText.sanitized($0) }
        snap.warnings = snap.warnings.map { TerminalText.sanitized($0) }
        return snap
    }
}
