import SystemPackage
import TouchLinux

/// Where encoded messages go. A sink takes whole messages (text or JSON lines ending in "\n", or
/// binary frames) and delivers each whole or not at all; it never throws into the output loop and
/// never blocks it for long; failures are counted and logged by the sink.
package protocol LineSink: AnyObject {
    /// True while the sink still holds part of an earlier message and would drop a new one:
    /// the caller keeps (and coalesces) its messages meanwhile. The default is false.
    var isBackedUp: Bool { get }
    /// Takes one complete line. The bytes are only borrowed for the call.
    func write(_ line: UnsafeRawBufferPointer)
    /// Pushes out anything held back (a partly written line) and does any due housekeeping
    /// (a reconnect attempt). Call it when the output loop is idle. The default does nothing.
    func flush()
    /// Gives back what the sink holds exclusively (a listening socket and its path, a serial
    /// port) so a reloaded board can open it again; later lines are dropped. Idempotent. The
    /// default does nothing (stdout is not the sink's to close).
    func close()
    /// True when `write` returns at once whatever the reader does (a non-blocking descriptor, a
    /// UART, a socket): the thread that recognized may then write itself, right after the frame
    /// (`Service.writesOnRecognizerThread`). The default is false: the output thread writes.
    var neverBlocks: Bool { get }
    /// True when `flush` has periodic work to do (a socket accepting clients, a UART reopening
    /// a lost port): the output thread then wakes every 100 ms instead of every second. The
    /// default is false.
    var hasHousekeeping: Bool { get }
    /// Lines the sink's readers send (the event socket's `display …` commands, formats.md §6)
    /// are answered by `handler` from `flush`. The default ignores it: no reader writes back.
    func answerRequests(with handler: @escaping (String) -> String)
    /// The service stopped: put back what the sink changed in state it shares with others
    /// (stdout's blocking flag). The default does nothing.
    func serviceStopped()
}

extension LineSink {
    package func flush() {}
    package func close() {}
    package var isBackedUp: Bool { false }
    package var neverBlocks: Bool { false }
    package var hasHousekeeping: Bool { false }
    package func answerRequests(with handler: @escaping (String) -> String) {}
    package func serviceStopped() {}

    /// Writes the bytes of `line` (allocation-free for an array; for tests and tools).
    package func write(_ line: [UInt8]) {
        line.withUnsafeBytes { write($0) }
    }
}

/// JSON lines on standard output (`formats.md` §2: stdout carries nothing else).
///
/// Each line is handed to write(2) as soon as it arrives — "flushed per line", so a consumer
/// reading the pipe sees whole events without delay. Two modes:
///
/// - `.blocking` (replay, tools): partial writes are completed and a full pipe is waited for,
///   so no line is ever lost while the reader lives; the output is byte-identical every run.
/// - `.nonBlocking` (`touchwire run`): the sink sets `O_NONBLOCK` on the descriptor (and puts
///   the old flag back in `restoreBlocking()` or deinit, since the open file description may be
///   shared with the shell). It never waits: a line the pipe takes only part of keeps its tail
///   (`isBackedUp`), sent first by the next `write`/`flush`, so the reader only ever sees whole
///   lines; while a tail waits, new lines are lost whole and counted in `failedLines` (logged
///   once per dropping spell). A reader that stops reading therefore costs lines on stdout,
///   never a stalled GPIO/UART output or a stuck shutdown.
///
/// Closed stdout: after a write error other than "full" (EPIPE once the reader is gone, as in
/// `touchwire run | head -1`, or EBADF/EIO) the sink is `isClosed`: it logs once and makes no
/// further write calls; later lines are counted in `failedLines`. The service keeps running:
/// GPIO and UART outputs are the point of it, and stdout is only one observer.
package final class StandardOutputSink: LineSink {
    /// How the sink treats a full descriptor; see the type's documentation.
    package enum Mode: Sendable { case blocking, nonBlocking }
    /// The descriptor written to (not owned: never closed by the sink).
    package let descriptor: FileDescriptor
    package let mode: Mode
    /// `.blocking` only: how long one line may wait when the descriptor is non-blocking and full.
    package let timeoutMilliseconds: Int
    /// Lines lost: the reader was not keeping up, stdout is closed, or a write failed.
    package private(set) var failedLines = 0
    /// Lines written completely.
    package private(set) var writtenLines = 0
    /// The error of the latest failed line.
    package private(set) var lastError: Errno?
    /// True after a write error that ends stdout for good (EPIPE, EBADF, …): no more writes are tried.
    package private(set) var isClosed = false
    /// Bytes of the current line still to send (`.nonBlocking`).
    package var pendingByteCount: Int { pending.count - pendingStart }
    package var isBackedUp: Bool { !isClosed && pendingByteCount > 0 }

    private let log: (String) -> Void
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var dropping = false
    private var restoreFlagTo: Bool?

    /// A sink on `descriptor` (standard output unless told otherwise). In `.nonBlocking` mode
    /// `O_NONBLOCK` is set now; if that fails the sink logs it and stays blocking.
    package init(
        descriptor: FileDescriptor = .standardOutput, mode: Mode = .blocking, timeoutMilliseconds: Int = 1000,
        log: @escaping (String) -> Void = StandardError.log
    ) {
        self.descriptor = descriptor
        self.mode = mode
        self.timeoutMilliseconds = timeoutMilliseconds
        self.log = log
        if mode == .nonBlocking {
            pending.reserveCapacity(512)
            do throws(Errno) {
                let was = try DescriptorIO.setNonBlocking(descriptor, true)
                if !was { restoreFlagTo = false }
                descriptorIsNonBlocking = true
            } catch {
                log("stdout: cannot make it non-blocking (\(error)); a reader that stops may delay outputs")
            }
        }
    }

    deinit { restoreBlocking() }

    /// True when `.nonBlocking` mode got `O_NONBLOCK` on the descriptor: `write` then never waits.
    package private(set) var descriptorIsNonBlocking = false
    /// In `.nonBlocking` mode (the flag set): a full pipe costs lines, never a wait.
    package var neverBlocks: Bool { descriptorIsNonBlocking }
    /// `restoreBlocking()`.
    package func serviceStopped() { restoreBlocking() }

    /// Puts back the descriptor's blocking flag as it was before `init` (idempotent).
    package func restoreBlocking() {
        guard let flag = restoreFlagTo else { return }
        restoreFlagTo = nil
        _ = try? DescriptorIO.setNonBlocking(descriptor, flag)
    }

    /// The corresponding C function is `write` (and `poll` in `.blocking` mode while full).
    package func write(_ line: UnsafeRawBufferPointer) {
        guard !line.isEmpty else { return }
        guard !isClosed else {
            failedLines += 1
            return
        }
        if mode == .blocking {
            do throws(Errno) {
                try DescriptorIO.writeAll(descriptor, line, timeoutMilliseconds: timeoutMilliseconds)
                writtenLines += 1
            } catch {
                fail(error)
            }
            return
        }
        if pendingByteCount > 0 {
            sendPending()
            if pendingByteCount > 0 || isClosed {
                drop()
                return
            }
        }
        var written = 0
        while written < line.count {
            switch Result(catching: { () throws(Errno) in
                try DescriptorIO.write(descriptor, UnsafeRawBufferPointer(rebasing: line[written...]))
            }) {
            case .success(let n): written += n
            case .failure(let e) where e == .resourceTemporarilyUnavailable || e == .wouldBlock:
                pending.removeAll(keepingCapacity: true)
                pendingStart = 0
                pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: line[written...]))
                return
            case .failure(let e):
                fail(e)
                return
            }
        }
        lineDone()
    }

    /// Sends the waiting tail of a line, if any.
    package func flush() {
        if pendingByteCount > 0 && !isClosed { sendPending() }
    }

    private func sendPending() {
        while pendingByteCount > 0 {
            let result = pending.withUnsafeBytes { raw in
                Result(catching: { () throws(Errno) in
                    try DescriptorIO.write(descriptor, UnsafeRawBufferPointer(rebasing: raw[pendingStart...]))
                })
            }
            switch result {
            case .success(let n): pendingStart += n
            case .failure(let e) where e == .resourceTemporarilyUnavailable || e == .wouldBlock: return
            case .failure(let e):
                pending.removeAll(keepingCapacity: true)
                pendingStart = 0
                fail(e)
                return
            }
        }
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
        lineDone()
    }

    private func lineDone() {
        writtenLines += 1
        if dropping {
            dropping = false
            log("stdout: reader caught up; \(failedLines) lines lost in all")
        }
    }

    private func drop() {
        failedLines += 1
        if !dropping {
            dropping = true
            log("stdout: the reader is not keeping up; dropping lines (counted) so other outputs carry on")
        }
    }

    private func fail(_ error: Errno) {
        let first = lastError == nil
        lastError = error
        failedLines += 1
        if error == .timedOut || error == .resourceTemporarilyUnavailable || error == .wouldBlock {
            if first { log("stdout: a line waited longer than \(timeoutMilliseconds) ms; dropping it (counted)") }
            return
        }
        isClosed = true
        log("stdout: cannot write events (\(error)); stdout output stopped, the other outputs carry on")
    }
}

/// Diagnostics on standard error (one line each), where `formats.md` §2 wants them.
package enum StandardError {
    /// Writes `message` and a newline to fd 2; errors are ignored (there is nowhere left to report them).
    /// The corresponding C function is `write`.
    package static func log(_ message: String) {
        var bytes = Array(message.utf8)
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBytes { raw in
            _ = try? DescriptorIO.writeAll(.standardError, raw, timeoutMilliseconds: 100)
        }
    }
}
