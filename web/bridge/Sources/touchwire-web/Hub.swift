import Logging
import NIOCore
import Synchronization

/// The subscribed pages and the fan-out of each event line to them.
///
/// Every client has its own bounded queue (`clientBuffer` events). The upstream reader only ever
/// appends to these queues, under a short lock, and never waits for a client: a client whose
/// queue is full is a client that stopped reading, and it is disconnected at once (its channel
/// closed, so a write stuck on its full socket fails too). The other clients and the reading of
/// touchwire's socket go on at their own pace.
public final class Hub: Sendable {
    struct Client {
        let continuation: AsyncStream<String>.Continuation
        let channel: any Channel
        let origin: String
    }

    struct Counters: Sendable {
        var clients: [Int: Client] = [:]
        var nextID = 0
        var events = 0
        var dropped = 0
        var refusedOrigin = 0
        var refusedFull = 0
        var upstreamConnected = false
        var upstreamConnections = 0
        var upstreamChannel: (any Channel)? = nil
        var commands = 0
        var commandsRefused = 0
    }

    public let maxClients: Int
    let clientBuffer: Int
    let socketPath: String
    let logger: Logger
    private let state = Mutex(Counters())

    public init(maxClients: Int, clientBuffer: Int, socketPath: String, logger: Logger) {
        self.maxClients = maxClients
        self.clientBuffer = clientBuffer
        self.socketPath = socketPath
        self.logger = logger
    }

    /// Whether one more client may subscribe.
    public var hasRoom: Bool { state.withLock { $0.clients.count < maxClients } }

    /// Subscribes a client: its queue of event lines, or nil when `maxClients` are subscribed.
    public func attach(channel: any Channel, origin: String) -> (id: Int, lines: AsyncStream<String>)? {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(clientBuffer))
        let id: Int? = state.withLock {
            guard $0.clients.count < maxClients else {
                $0.refusedFull += 1
                return nil
            }
            let id = $0.nextID
            $0.nextID += 1
            $0.clients[id] = Client(continuation: continuation, channel: channel, origin: origin)
            return id
        }
        guard let id else { return nil }
        logger.info("client \(id) connected (origin \(origin)); \(count) of \(maxClients)")
        return (id, stream)
    }

    /// Unsubscribes a client that left (or was dropped).
    public func detach(_ id: Int) {
        let client = state.withLock { $0.clients.removeValue(forKey: id) }
        if let client {
            client.continuation.finish()
            logger.info("client \(id) disconnected; \(count) of \(maxClients)")
        }
    }

    public var count: Int { state.withLock { $0.clients.count } }

    /// Queues one event line for every client; drops the clients whose queue is full.
    public func broadcast(_ line: String) {
        var stalled: [(Int, Client)] = []
        state.withLock {
            $0.events += 1
            for (id, client) in $0.clients {
                if case .dropped = client.continuation.yield(line) {
                    stalled.append((id, client))
                }
            }
            for (id, _) in stalled {
                $0.clients.removeValue(forKey: id)
                $0.dropped += 1
            }
        }
        for (id, client) in stalled {
            logger.warning(
                "client \(id) (origin \(client.origin)) dropped: it did not read \(clientBuffer) queued events")
            client.continuation.finish()
            client.channel.close(promise: nil)
        }
    }

    func refused(origin: String?) {
        state.withLock { $0.refusedOrigin += 1 }
        logger.warning("refused a WebSocket from origin \(origin ?? "(none)"): not in allowed_origins (403)")
    }

    func refusedFull(origin: String?) {
        state.withLock { $0.refusedFull += 1 }
        logger.warning("refused a WebSocket from origin \(origin ?? "(none)"): \(maxClients) clients already (503)")
    }

    func upstream(connected: Bool) {
        state.withLock {
            $0.upstreamConnected = connected
            if connected { $0.upstreamConnections += 1 }
        }
    }

    func upstream(channel: (any Channel)?) {
        state.withLock { $0.upstreamChannel = channel }
    }

    /// The longest command line a page may send.
    static let maximumCommand = 128

    /// Whether `text`, a message from a page, is a command to pass to touchwire: one line of
    /// printable ASCII starting with `display ` (touch to wake's commands on the event socket), at
    /// most `maximumCommand` bytes. Anything else from a page is ignored.
    public static func isCommand(_ text: String) -> Bool {
        text.hasPrefix("display ") && text.utf8.count <= maximumCommand
            && text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7f }
    }

    /// Passes a page's command line to touchwire's socket. Never waits: when touchwire is not there
    /// or not reading, the command is dropped (and counted). Returns whether it went out.
    func forward(command: String, from id: Int) -> Bool {
        let channel: (any Channel)? = state.withLock {
            guard let channel = $0.upstreamChannel, channel.isWritable else {
                $0.commandsRefused += 1
                return nil
            }
            $0.commands += 1
            return channel
        }
        guard let channel else {
            logger.warning(
                "client \(id): command \"\(command)\" dropped: touchwire's socket is not connected or not reading")
            return false
        }
        channel.writeAndFlush(ByteBuffer(string: command + "\n"), promise: nil)
        logger.info("client \(id): command \"\(command)\" passed to touchwire")
        return true
    }

    /// `GET /status`: one JSON object.
    public func statusJSON() -> String {
        state.withLock { s in
            """
            {"socket":\(jsonString(socketPath)),"upstream":"\(s.upstreamConnected ? "connected" : "waiting")",\
            "upstream_connections":\(s.upstreamConnections),"events":\(s.events),"clients":\(s.clients.count),\
            "max_clients":\(maxClients),"client_buffer":\(clientBuffer),"clients_dropped":\(s.dropped),\
            "refused_origin":\(s.refusedOrigin),"refused_full":\(s.refusedFull),\
            "commands":\(s.commands),"commands_dropped":\(s.commandsRefused)}

            """
        }
    }
}

/// A JSON string literal.
func jsonString(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case _ where u.value < 0x20: out += "\\u00" + (u.value < 16 ? "0" : "") + String(u.value, radix: 16)
        default: out.unicodeScalars.append(u)
        }
    }
    return out + "\""
}
