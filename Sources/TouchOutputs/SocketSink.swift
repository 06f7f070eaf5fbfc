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

    /// Accepts waiting clients and closes those that hung up.
    package func flush() {
        clientsRefused += server.acceptPending(limit: maxClients)
        clientsLeft += server.dropHungUp()
    }

    /// Closes the clients and the listening socket and removes its file (`UnixStreamServer.close()`):
    /// clients see end-of-file and may connect to the next service on the same path.
    package func close() { server.close() }
}
