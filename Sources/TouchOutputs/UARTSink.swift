import TouchCore
import TouchLinux

/// Lines to a UART through a non-blocking `SerialPort`, surviving a peer that is slow or goes away.
///
/// - Never blocks and never throws: the port is non-blocking, and every failure becomes a
///   counter and, on a change of state, one log line.
/// - Partial writes: the unwritten tail of the current line is kept and sent first, by the
///   next `write` or `flush`, so the peer only ever sees whole lines in order.
/// - Full buffer: a line the port takes none of is kept whole, like a tail.
///   (A dropping spell ends when a new line is taken whole; spells are logged at most once a second.) While a tail is
///   still waiting (`isBackedUp`), further lines are dropped whole and counted in `droppedLines`
///   (one log line when dropping starts, one when it stops) — the output stage checks
///   `isBackedUp` first and holds its events back instead.
/// - Disconnection (`SerialError.disconnected`, e.g. an unplugged USB adapter, or any other
///   write error): the port is closed, the line in progress is dropped, and reopening is tried
///   on later `write`/`flush` calls with a back-off of 100 ms doubling to 5 s, using the
///   original path and configuration. Lines arriving meanwhile are dropped and counted.
///
/// Not Sendable: one output thread owns it.
package final class UARTSink: LineSink {
    /// Never waits for a reader (a full buffer keeps or drops lines).
    package var neverBlocks: Bool { true }
    /// `flush` reopens a lost port.
    package var hasHousekeeping: Bool { true }
    /// The device reopened after a disconnection.
    package let path: String
    package let configuration: SerialConfiguration
    /// Lines whose last byte the port accepted.
    package private(set) var writtenLines = 0
    /// Lines dropped whole: buffer full, disconnected, or cut short by a disconnection.
    package private(set) var droppedLines = 0
    /// Failed reopen attempts since the last disconnection.
    package private(set) var reconnectAttempts = 0
    /// When the next reopen will be tried (nil while connected).
    package private(set) var nextReconnect: Instant?
    /// True while a port is open.
    package var isConnected: Bool { port != nil }
    /// Bytes of the current line still to send.
    package var pendingByteCount: Int { pending.count - pendingStart }
    /// True while part of a line waits for room in the port's buffer.
    package var isBackedUp: Bool { port != nil && pendingByteCount > 0 }

    /// The first reconnect delay, and its cap.
    package static let initialBackoffMicroseconds: Int64 = 100_000
    package static let maximumBackoffMicroseconds: Int64 = 5_000_000

    private var port: SerialPort?
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var backoff: Int64 = UARTSink.initialBackoffMicroseconds
    private var dropping = false
    private var droppedAtDropStart = 0
    private var lastFailure = ""
    private var lastDropLog: Instant?
    private var spellLogged = false
    private let clock: any TouchClock
    private let log: (String) -> Void

    /// A sink on an open port. `clock` is read to schedule reconnects and to pace the drop log (the
    /// service's clock; the real one only by default); `log` receives one line per change of state.
    package init(
        port: consuming SerialPort, clock: any TouchClock = SystemClock.shared,
        log: @escaping (String) -> Void = StandardError.log
    ) {
        self.path = port.path
        self.configuration = port.configuration
        self.port = consume port
        self.clock = clock
        self.log = log
        pending.reserveCapacity(256)
    }

    /// A sink on `path`: opens it now if it can; if not, logs why and starts disconnected,
    /// retrying with the usual back-off. An invalid configuration (a non-standard baud rate)
    /// is thrown, since retrying cannot fix it.
    package init(
        path: String, configuration: SerialConfiguration, clock: any TouchClock = SystemClock.shared,
        log: @escaping (String) -> Void = StandardError.log
    ) throws(SerialError) {
        self.path = path
        self.configuration = configuration
        self.clock = clock
        self.log = log
        pending.reserveCapacity(256)
        do throws(SerialError) {
            port = try SerialPort(path: path, configuration: configuration)
        } catch {
            if case .unsupportedConfiguration = error { throw error }
            port = nil
            lastFailure = "\(error)"
            nextReconnect = clock.now.advanced(byMicroseconds: backoff)
            log("uart \(path): not connected (\(error)); retrying")
        }
    }

    package func write(_ line: UnsafeRawBufferPointer) {
        guard !line.isEmpty else { return }
        if port == nil { reconnectIfDue() }
        guard port != nil else {
            droppedLines += 1
            return
        }
        if pendingByteCount > 0 {
            sendPending()
            if pendingByteCount > 0 || port == nil {
                drop()
                return
            }
        }
        let written: Int
        do throws(SerialError) {
            written = try port?.write(line) ?? 0
        } catch {
            disconnect(error, droppedLine: true)
            return
        }
        if written == line.count {
            writtenLines += 1
            endDropping()
        } else {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: line[written...]))
        }
    }

    package func flush() {
        if port == nil {
            reconnectIfDue()
        } else if pendingByteCount > 0 {
            sendPending()
        }
    }

    /// Sends what it can of the pending tail; a completed tail counts as a written line.
    private func sendPending() {
        var failure: SerialError?
        let written = pending.withUnsafeBytes { raw -> Int in
            do throws(SerialError) {
                return try port?.write(UnsafeRawBufferPointer(rebasing: raw[pendingStart...])) ?? 0
            } catch {
                failure = error
                return 0
            }
        }
        if let failure {
            disconnect(failure, droppedLine: true)
            return
        }
        pendingStart += written
        if pendingByteCount == 0 {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            writtenLines += 1
            // Not "sending again" yet: only a new line taken whole ends a dropping spell, so a
            // buffer that frees a few bytes at a time does not flood the log.
        }
    }

    private func drop() {
        if !dropping {
            dropping = true
            droppedAtDropStart = droppedLines
            // Rate-limited: a buffer that fills and frees in bursts logs one spell per second at most.
            let now = clock.now
            if let last = lastDropLog, now.microseconds(since: last) < 1_000_000 {
                spellLogged = false
            } else {
                spellLogged = true
                lastDropLog = now
                log("uart \(path): output buffer full; dropping whole lines")
            }
        }
        droppedLines += 1
    }

    private func endDropping() {
        guard dropping else { return }
        dropping = false
        if spellLogged { log("uart \(path): sending again after dropping \(droppedLines - droppedAtDropStart) lines") }
    }

    private func disconnect(_ error: SerialError, droppedLine: Bool) {
        port = nil  // closes the descriptor
        if droppedLine { droppedLines += 1 }
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
        dropping = false
        backoff = UARTSink.initialBackoffMicroseconds
        reconnectAttempts = 0
        lastFailure = "\(error)"
        nextReconnect = clock.now.advanced(byMicroseconds: backoff)
        log("uart \(path): disconnected (\(error)); reconnecting with back-off")
    }

    /// Closes the port for good (a board reload opens the device again in the next service):
    /// no reconnects afterwards; later lines are dropped and counted.
    package func close() {
        isClosed = true
        port = nil
        nextReconnect = nil
        pending.removeAll()
        pendingStart = 0
    }
    /// True after `close()`.
    package private(set) var isClosed = false

    private func reconnectIfDue() {
        guard !isClosed else { return }
        let now = clock.now
        guard let due = nextReconnect, now >= due else { return }
        do throws(SerialError) {
            port = try SerialPort(path: path, configuration: configuration)
            nextReconnect = nil
            backoff = UARTSink.initialBackoffMicroseconds
            log("uart \(path): connected (\(configuration)) after \(reconnectAttempts + 1) attempts")
            reconnectAttempts = 0
        } catch {
            reconnectAttempts += 1
            backoff = min(backoff * 2, UARTSink.maximumBackoffMicroseconds)
            nextReconnect = now.advanced(byMicroseconds: backoff)
            let failure = "\(error)"
            if failure != lastFailure {  // a new reason is a new state; the same one is not logged again
                lastFailure = failure
                log("uart \(path): still not connected (\(error))")
            }
        }
    }
}
