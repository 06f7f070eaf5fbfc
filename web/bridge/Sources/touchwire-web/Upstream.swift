import Logging
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// "No such file or directory" for a system call's error, else the error as it describes itself.
func describe(_ error: any Error) -> String {
    if let io = error as? IOError { return String(cString: strerror(io.errnoCode)) }
    return "\(error)"
}

/// Reads touchwire's Unix event socket and hands each line to the hub; reconnects with back-off
/// (100 ms doubling to 2 s) when touchwire is not there yet, restarts or closes the socket.
struct Upstream: Sendable {
    let path: String
    let hub: Hub
    let group: any EventLoopGroup
    let logger: Logger
    /// A line longer than this is not an event (formats §2 lines are a few hundred bytes): skipped.
    static let maximumLine = 64 * 1024

    func run() async {
        var delay = Duration.milliseconds(100)
        var saidWaiting = false
        while !Task.isCancelled {
            do {
                let channel = try await ClientBootstrap(group: group).connect(unixDomainSocketPath: path) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
                logger.info("reading touchwire's events from \(path)")
                hub.upstream(connected: true)
                delay = .milliseconds(100)
                saidWaiting = false
                hub.upstream(channel: channel.channel)
                try await channel.executeThenClose { inbound, _ in
                    try await readLines(inbound)
                }
                hub.upstream(channel: nil)
                hub.upstream(connected: false)
                if Task.isCancelled { break }
                logger.notice("touchwire closed \(path); reconnecting")
            } catch {
                hub.upstream(channel: nil)
                hub.upstream(connected: false)
                if Task.isCancelled { break }
                if !saidWaiting {
                    logger.warning("cannot read \(path) (\(describe(error))); retrying until touchwire is there")
                    saidWaiting = true
                }
            }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(2))
        }
    }

    private func readLines(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>) async throws {
        var splitter = LineSplitter(maximumLine: Self.maximumLine)
        for try await chunk in inbound {
            if splitter.append(chunk, each: { hub.broadcast($0) }) {
                logger.warning("skipped a line of more than \(Self.maximumLine) bytes from \(path)")
            }
        }
    }
}

/// Cuts touchwire's byte stream into its lines (formats §2: one JSON event per line), each one
/// WebSocket message: whatever the chunks' boundaries, every complete line once, in order,
/// without its newline; empty lines are left out; a line longer than `maximumLine` is skipped
/// whole (up to its newline), and the lines after it are not.
public struct LineSplitter {
    public let maximumLine: Int
    private var pending = ByteBuffer()
    private var skipping = false

    public init(maximumLine: Int) { self.maximumLine = maximumLine }

    /// Hands every line `chunk` completes to `each`. Returns true when it started skipping an
    /// over-long line.
    public mutating func append(_ chunk: ByteBuffer, each: (String) -> Void) -> Bool {
        var chunk = chunk
        pending.writeBuffer(&chunk)
        while let newline = pending.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - pending.readerIndex
            let line = pending.readString(length: length) ?? ""
            pending.moveReaderIndex(forwardBy: 1)
            if skipping {
                skipping = false
            } else if !line.isEmpty {
                each(line)
            }
        }
        if pending.readableBytes > maximumLine {
            pending.clear()
            let started = !skipping
            skipping = true
            return started
        }
        pending.discardReadBytes()
        return false
    }
}
