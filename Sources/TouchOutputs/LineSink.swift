import SystemPackage
import TouchLinux

/// Where encoded messages go. A sink takes whole messages (text or JSON lines ending in "\n", or
/// binary frames) and delivers each whole or not at all; it never throws into the output loop and
/// never blocks it for long; failures are counted and logged by the sink.
public protocol LineSink: AnyObject {
    /// True while the sink still holds part of an earlier message and would drop a new one:
    /// the caller keeps (and coalesces) its messages meanwhile. The default is false.
    var isBackedUp: Bool { get }
    /// Takes one complete line. The bytes are only borrowed for the call.
    func write(_ line: UnsafeRawBufferPointer)
    /// Pushes out anything held back (a partly written line) and does any due housekeeping
    /// (a reconnect attempt). Call it when the output loop is idle. The default does nothing.
    func flush()
}

extension LineSink {
    public func flush() {}
    public var isBackedUp: Bool { false }

    /// Writes the bytes of `line` (allocation-free for an array; for tests and tools).
    public func write(_ line: [UInt8]) {
        line.withUnsafeBytes { write($0) }
    }
}

/// JSON lines on standard output (`formats.md` §2: stdout carries nothing else).
///
/// Each line is handed to write(2) as soon as it arrives — "flushed per line", so a consumer
/// reading the pipe sees whole events without delay. Partial writes are completed; a
/// non-blocking descriptor that stays full for `timeoutMilliseconds`, or an error such as EPIPE,
/// loses the line and is counted in `failedLines` (the first failure is logged).
public final class StandardOutputSink: LineSink {
    /// The descriptor written to (not owned: never closed by the sink).
    public let descriptor: FileDescriptor
    /// How long one line may wait for a full descriptor.
    public let timeoutMilliseconds: Int
    /// Lines that could not be written.
    public private(set) var failedLines = 0
    /// Lines written completely.
    public private(set) var writtenLines = 0
    /// The error of the latest failed line.
    public private(set) var lastError: Errno?
    private let log: (String) -> Void

    /// A sink on `descriptor` (standard output unless told otherwise).
    public init(
        descriptor: FileDescriptor = .standardOutput, timeoutMilliseconds: Int = 1000,
        log: @escaping (String) -> Void = StandardError.log
    ) {
        self.descriptor = descriptor
        self.timeoutMilliseconds = timeoutMilliseconds
        self.log = log
    }

    /// The corresponding C function is `write` (and `poll` while the descriptor is full).
    public func write(_ line: UnsafeRawBufferPointer) {
        do throws(Errno) {
            try DescriptorIO.writeAll(descriptor, line, timeoutMilliseconds: timeoutMilliseconds)
            writtenLines += 1
        } catch {
            if lastError == nil { log("stdout: cannot write events (\(error)); dropping lines") }
            lastError = error
            failedLines += 1
        }
    }
}

/// Diagnostics on standard error (one line each), where `formats.md` §2 wants them.
public enum StandardError {
    /// Writes `message` and a newline to fd 2; errors are ignored (there is nowhere left to report them).
    /// The corresponding C function is `write`.
    public static func log(_ message: String) {
        var bytes = Array(message.utf8)
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBytes { raw in
            _ = try? DescriptorIO.writeAll(.standardError, raw, timeoutMilliseconds: 100)
        }
    }
}
