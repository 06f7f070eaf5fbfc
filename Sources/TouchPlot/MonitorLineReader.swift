/// Splits `touchwire monitor`'s socket stream into lines (`formats.md` §2: one event per line),
/// with a bound: bytes are fed as they arrive, each byte is searched for a newline once, and an
/// unfinished line longer than `limit` (64 KiB by default) is an error instead of a buffer that grows
/// without end. Pure: the monitor owns the socket; the fuzz target (`tools/fuzz monitor`) feeds it
/// any bytes in any chunks.
package struct MonitorLineReader: Sendable {
    /// The longest line kept by default (an event line is about 200 bytes; the trace reader's line bound).
    package static let maximumLineBytes = 64 * 1024

    /// The longest line this reader keeps.
    package let limit: Int

    /// The bytes of the unfinished line.
    private var pending: [UInt8] = []
    /// How far into `pending` no newline was found.
    private var scanned = 0

    package init(limit: Int = MonitorLineReader.maximumLineBytes) { self.limit = max(1, limit) }

    /// The bytes of the line not yet ended by a newline.
    package var pendingCount: Int { pending.count }

    /// Appends `bytes` and calls `line` with each complete line (its text without the newline;
    /// invalid UTF-8 is replaced by U+FFFD) in order; `line` returns false to stop there, the rest
    /// staying buffered for the next call. Returns false when the unfinished line is longer than
    /// `limit` (the stream is not event lines; the reader should be dropped).
    package mutating func feed(_ bytes: some Collection<UInt8>, line: (Substring) -> Bool) -> Bool {
        pending.append(contentsOf: bytes)
        var start = 0
        var stopped = false
        while let newline = pending[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
            let text = String(decoding: pending[start..<newline], as: UTF8.self)
            start = newline + 1
            scanned = start
            if !line(text[...]) {
                stopped = true
                break
            }
        }
        pending.removeFirst(start)
        // After a stop the rest may still hold whole lines: the next call scans it from the start.
        scanned = stopped ? 0 : pending.count
        return stopped || pending.count <= limit
    }
}
