import TouchLinux

/// Event lines to every client of a Unix stream socket (`[[output]] type = "socket"`): each
/// client receives the same JSON lines as stdout, from the moment it connects.
///
/// Never slows the output thread: sockets are non-blocking and a line is handed to each
/// client's kernel buffer with one `send`. A client whose buffer cannot take a whole line (it
/// does not read) is disconnected and counted in `slowClientsDropped` — a partial line would
/// corrupt its stream, and holding lines for it would let one stuck reader grow the service.
/// New clients are accepted on every write and every idle `flush()`.
package final class SocketSink: LineSink {
    /// Never waits for a reader (a full buffer keeps or drops lines).
    package var neverBlocks: Bool { true }
    /// `flush` accepts new clients.
    package var hasHousekeeping: Bool { true }
    package let server: UnixStreamServer
    /// The most clients served at once; more are closed at connect.
    package let maxClients: Int
    /// Clients disconnected because their buffer was full.
    package private(set) var slowClientsDropped = 0
    /// Clients that went away (EPIPE, ECONNRESET, hang-up).
    package private(set) var clientsLeft = 0
    /// Connections turned away over `maxClients`.
    package private(set) var clientsRefused = 0
    /// Lines written (to however many clients were connected).
    package private(set) var lines = 0
    private let log: (String) -> Void

    package init(server: UnixStreamServer, maxClients: Int = 32, log: @escaping (String) -> Void = StandardError.log) {
        self.server = server
        self.maxClients = maxClients
        self.log = log
    }

    /// Clients connected now.
    package var clientCount: Int { server.clients.count }

    /// Sends `line` to every client; see the type's contract.
    package func write(_ line: UnsafeRawBufferPointer) {
        clientsRefused += server.acceptPending(limit: maxClients)
        lines += 1
        var i = 0
        while i < server.clients.count {
            switch server.send(line, toClient: i) {
            case .sent:
                i += 1
            case .full:
                server.disconnect(client: i)
                slowClientsDropped += 1
                log("socket \(server.path): a client stopped reading; disconnected (\(slowClientsDropped) so far)")
            case .closed:
                server.disconnect(client: i)
                clientsLeft += 1
            }
        }
    }

    /// Accepts waiting clients, answers the lines they sent (`onRequest`) and closes those that hung up.
    package func flush() {
        clientsRefused += server.acceptPending(limit: maxClients)
        if let onRequest { answerRequests(onRequest) }
        clientsLeft += server.dropHungUp()
    }

    /// Called (on the thread that flushes: the output thread) with each line a client sends, without
    /// its newline; the returned line (no newline) is sent back to that client only. Nil: client
    /// input is read and ignored. Admission is the socket file's: only a process that the file's
    /// `mode` and `group` let write it can connect.
    package var onRequest: ((String) -> String)?
    /// Sets `onRequest`.
    package func answerRequests(with handler: @escaping (String) -> String) { onRequest = handler }
    /// Bytes of a line not ended yet, per client descriptor (a line is at most 1 KiB).
    private var partial: [CInt: [UInt8]] = [:]

    private func answerRequests(_ handler: (String) -> String) {
        if !partial.isEmpty {  // clients dropped meanwhile: a new client may get the same descriptor
            partial = partial.filter { server.clients.contains($0.key) }
        }
        var chunk = [UInt8](repeating: 0, count: 1024)
        var i = 0
        while i < server.clients.count {
            let fd = server.clients[i]
            guard let n = chunk.withUnsafeMutableBytes({ server.receive(fromClient: i, into: $0) }) else {
                partial[fd] = nil
                i += 1  // dropHungUp closes it
                continue
            }
            guard n > 0 else {
                i += 1
                continue
            }
            var pending = partial[fd] ?? []
            var replies: [UInt8] = []
            for b in chunk[0..<n] {
                if b == UInt8(ascii: "\n") {
                    let line = String(decoding: pending, as: UTF8.self)
                    pending.removeAll(keepingCapacity: true)
                    if !line.allSatisfy({ $0 == " " || $0 == "\r" }) {
                        replies += Array(handler(line).utf8) + [UInt8(ascii: "\n")]
                    }
                } else if pending.count < 1024 {
                    pending.append(b)
                }
            }
            partial[fd] = pending.isEmpty ? nil : pending
            if !replies.isEmpty, replies.withUnsafeBytes({ server.send($0, toClient: i) }) != .sent {
                partial[fd] = nil
                server.disconnect(client: i)
                clientsLeft += 1
                continue
            }
            i += 1
        }
    }

    /// Closes the clients and the listening socket and removes its file (`UnixStreamServer.close()`):
    /// clients see end-of-file and may connect to the next service on the same path.
    package func close() { server.close() }
}
