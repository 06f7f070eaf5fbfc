import ArgumentParser
import BoardConfig
import FoundationEssentials
import TouchLinux

/// `touchwire display on|off|status|keep-awake [SECONDS|off]`: speaks the event socket's one-line
/// protocol (docs/formats.md §6) to the running service and prints its reply.
struct Display: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Switch the running service's display on or off, keep it awake, or print its state.",
        discussion: """
            Talks to the service's event socket ([[output]] type = "socket"; --socket, else the board's, \
            else \(Monitor.defaultSocket)). Exit status 1 when the service refuses or does not answer.
            """)

    @Argument(help: "on | off | status | keep-awake")
    var command: String

    @Argument(help: "With keep-awake: SECONDS, or off (default: until keep-awake off).")
    var argument: String?

    @Option(name: .long, help: "The service's event socket.")
    var socket: String?

    @Option(name: .long, help: "Take the socket path from this board file's socket output.")
    var board: String?

    func validate() throws {
        guard ["on", "off", "status", "keep-awake"].contains(command) else {
            throw ValidationError("unknown display command \"\(command)\"; use on, off, status or keep-awake")
        }
        if argument != nil && command != "keep-awake" {
            throw ValidationError("only keep-awake takes an argument")
        }
    }

    func run() throws {
        var path = socket ?? Monitor.defaultSocket
        if socket == nil, let board {
            let description = try loadBoard(board)
            for case .socket(let s) in description.outputs { path = s.path }
        }
        let line = (["display", command] + (argument.map { [$0] } ?? [])).joined(separator: " ")
        let reply: String
        do throws(UnixConnectionError) {
            let connection = try UnixStreamConnection(connectingTo: path)
            try connection.write(Array((line + "\n").utf8))
            reply = try Self.readReply(connection, timeoutMilliseconds: 3000)
        } catch {
            throw fail("display: \(error) (is the service running with a socket output?)")
        }
        guard !reply.isEmpty else { throw fail("display: \(path): no reply within 3 s") }
        print(reply)
        if reply.hasPrefix(#"{"reply":"error""#) { throw ExitCode(1) }
    }

    /// The first line starting `{"reply":` (event lines that arrive meanwhile are skipped); "" on timeout.
    static func readReply(_ c: borrowing UnixStreamConnection, timeoutMilliseconds: Int) throws(UnixConnectionError)
        -> String
    {
        var pending: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { chunk.deallocate() }
        var waited = 0
        while waited < timeoutMilliseconds {
            guard let n = try c.read(into: chunk, timeoutMilliseconds: 100) else { return "" }
            if n == 0 {
                waited += 100
                continue
            }
            pending += chunk[0..<n]
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let text = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(...end)
                if text.hasPrefix(#"{"reply":"#) { return text }
            }
        }
        return ""
    }
}
