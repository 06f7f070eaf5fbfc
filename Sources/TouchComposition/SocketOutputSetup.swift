import BoardConfig
import Gestures
import Logging
import TouchLinux
import TouchOutputs
import TouchService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Opens a board's `[[output]] type = "socket"` before any thread starts: a missing directory,
/// a path in use or an unknown group is one error naming the board and the socket.
enum SocketOutputSetup {
    static func channel(
        _ board: BoardDescription, _ d: SocketOutputDescription, names: EventNames, logger: Logger
    ) throws(ServiceError) -> OutputChannel {
        let server: UnixStreamServer
        do throws(UnixSocketError) {
            server = try UnixStreamServer(path: d.path, mode: mode_t(d.mode), group: d.group)
        } catch {
            throw .device(board: board.location, what: "output socket", reason: "\(error)")
        }
        let sink = SocketSink(server: server, log: { [logger] message in logger.notice("\(message)") })
        return OutputChannel(name: "socket \(d.path)", encoding: .json(EventJSONEncoder(names: names)), sink: sink)
    }
}
