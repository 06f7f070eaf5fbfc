/// `[[output]] type = "websocket"`: the settings of the WebSocket bridge for web kiosks
/// (`touchwire-web`, docs/web.md), which serves the events of the board's socket output to pages.
///
/// The service itself only validates them: the bridge is a separate executable (so that the
/// service's footprint and its allocation-free loop stay as they are) that reads this table with
/// `touchwire-web --board FILE`.
package struct WebSocketOutputDescription: Sendable, Equatable {
    /// `listen = "HOST:PORT"` (default `127.0.0.1:8787`, loopback).
    package var host: String
    package var port: Int
    /// `allowed_origins`: normalized origins (`http://127.0.0.1:8000`, `null`, `*`); empty means any
    /// loopback origin.
    package var allowedOrigins: [String]
    /// `max_clients`, 1…1024 (default 8).
    package var maxClients: Int
    /// `client_buffer`: events queued for a client that does not read, 1…65536 (default 256).
    package var clientBuffer: Int

    package static let defaultHost = "127.0.0.1"
    package static let defaultPort = 8787

    package init(
        host: String = WebSocketOutputDescription.defaultHost, port: Int = WebSocketOutputDescription.defaultPort,
        allowedOrigins: [String] = [], maxClients: Int = 8, clientBuffer: Int = 256
    ) {
        self.host = host
        self.port = port
        self.allowedOrigins = allowedOrigins
        self.maxClients = maxClients
        self.clientBuffer = clientBuffer
    }
}

/// The command line of the bridge for a board: `touchwire validate --bridge-arguments FILE` prints
/// it, one argument per line, and `touchwire-web --board FILE` runs that (so the board is read and
/// validated by this package alone).
package enum WebSocketBridgeArguments {
    package static func make(_ ws: WebSocketOutputDescription, _ outputs: [OutputDescription]) -> [String] {
        var args: [String] = []
        for case .socket(let socket) in outputs {
            args += ["--socket", socket.path]
            break
        }
        let host = ws.host.contains(":") ? "[\(ws.host)]" : ws.host
        args += ["--listen", "\(host):\(ws.port)"]
        for origin in ws.allowedOrigins { args += ["--allow-origin", origin] }
        args += ["--max-clients", String(ws.maxClients), "--client-buffer", String(ws.clientBuffer)]
        return args
    }
}
