import FoundationEssentials

/// Why a status file cannot be shown: one line naming the file and, when it is a bad value, the field.
package struct StatusFileError: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Reads the status file `touchwire status` prints (`MetricsSnapshot` as JSON), trusting nothing
/// in it: the file is bounded in size (`maximumBytes`), every number is checked against a range a
/// running service can produce (so no later conversion can trap), and every text field is made
/// safe for a terminal (`TerminalText.sanitized`).
package enum StatusFileReader {
    /// The largest status file read (a real one is about 1 KB).
    package static let maximumBytes = 64 * 1024

    /// The snapshot in the file at `path`: only a regular file of at most `maximumBytes` is read
    /// (a device such as /dev/zero would never end).
    package static func read(path: String) throws(StatusFileError) -> MetricsSnapshot {
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
            throw StatusFileError("no status at \(path): is `touchwire run` running (with --status-file \(path))?")
        }
        return try decode(data, file: path)
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
        for (name, value) in counts where value < 0 {
            throw StatusFileError("\(file): \(name) is \(value); a count cannot be negative")
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

/// Text from a file made safe to print on a terminal.
package enum TerminalText {
    /// `text` with every control character (ESC of an escape sequence, CR, BEL, newlines, C1
    /// controls) shown as a visible `\u{1B}` escape, cut to `limit` characters.
    package static func sanitized(_ text: String, limit: Int = 200) -> String {
        var out = ""
        var n = 0
        for scalar in text.unicodeScalars {
            if n >= limit {
                out += "…"
                break
            }
            if scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .format
                    && scalar.value != 0x200D
            {
                out += scalar.escaped(asASCII: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
            n += 1
        }
        return out
    }
}
