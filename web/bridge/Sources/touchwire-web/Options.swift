/// The bridge's settings: command-line flags over built-in defaults.
struct Options: Sendable {
    /// touchwire's event socket (`[[output]] type = "socket"`, formats §4).
    var socketPath = "/run/touchwire/events.sock"
    /// Where the WebSocket server listens: loopback unless asked otherwise.
    var listen = ListenAddress(host: "127.0.0.1", port: 8787)
    /// Exact origins (`http://127.0.0.1:8000`) allowed to connect; empty means "any loopback origin".
    var allowedOrigins: [String] = []
    /// At most this many WebSocket clients at once; one more is refused with 503.
    var maxClients = 8
    /// Events queued for one client that is not reading; one more and that client is dropped.
    var clientBuffer = 256

    static let usage = """
        usage: touchwire-web [--board FILE [--touchwire PATH]] [--socket PATH] [--listen HOST:PORT]
                             [--allow-origin ORIGIN]... [--max-clients N] [--client-buffer N]

        Serves touchwire's gesture events (the JSON lines of its Unix event socket, formats §2) as
        WebSocket text messages, one message per event, to web pages (web/touchwire.js).

          --board FILE          the settings of the board's [[output]] type = "websocket" and
                                its socket output (docs/formats.md §4), read and checked by
                                `touchwire validate --bridge-arguments FILE`; the other flags
                                override them (--allow-origin adds to the board's list)
          --touchwire PATH      the touchwire executable for --board (default: the one beside
                                touchwire-web, else touchwire on PATH)
          --socket PATH         touchwire's event socket (default /run/touchwire/events.sock);
                                reconnected with back-off whenever touchwire restarts
          --listen HOST:PORT    where to listen (default 127.0.0.1:8787, loopback only)
          --allow-origin ORIGIN a page origin allowed to connect, e.g. http://127.0.0.1:8000
                                (repeat for more; "null" for file:// pages, "*" for any).
                                Without one, only pages from loopback origins (localhost,
                                127.0.0.0/8, [::1], any port) may connect. Others get 403.
          --max-clients N       clients at once, 1...1024 (default 8); one more gets 503
          --client-buffer N     events queued for a client that does not read, 1...65536
                                (default 256); past that the client is disconnected
          -h, --help            this text

        HTTP: GET /status prints the bridge's counters as JSON; a WebSocket upgrade on any
        other path subscribes to the events. A page's text message that is one `display ...`
        command line (touch to wake) is passed to touchwire's socket; others are ignored.
        """

    /// Parses the command line (without the program name). A bad flag or value is one error message.
    static func parse(_ commandLine: [String]) throws(OptionError) -> Options? {
        var o = Options()
        // --board FILE: its arguments go first, so that the other flags override them.
        var arguments: [String] = []
        var board: String? = nil
        var touchwire: String? = nil
        var j = 0
        while j < commandLine.count {
            let arg = commandLine[j]
            if arg == "--board" || arg == "--touchwire" {
                guard j + 1 < commandLine.count else { throw OptionError("\(arg) needs a value") }
                if arg == "--board" { board = commandLine[j + 1] } else { touchwire = commandLine[j + 1] }
                j += 2
                continue
            }
            arguments.append(arg)
            j += 1
        }
        if arguments.contains("-h") || arguments.contains("--help") { return nil }
        if let board {
            let fromBoard = try BoardArguments.arguments(
                board: board, touchwire: touchwire ?? BoardArguments.defaultTouchwire())
            arguments = fromBoard + arguments
        } else if touchwire != nil {
            throw OptionError("--touchwire is used only with --board")
        }
        var i = 0
        func value(_ flag: String) throws(OptionError) -> String {
            i += 1
            guard i < arguments.count else { throw OptionError("\(flag) needs a value") }
            return arguments[i]
        }
        func integer(_ flag: String, _ range: ClosedRange<Int>) throws(OptionError) -> Int {
            let text = try value(flag)
            guard let n = Int(text), range.contains(n) else {
                throw OptionError(
                    "\(flag) must be an integer in \(range.lowerBound)...\(range.upperBound), got \"\(text)\"")
            }
            return n
        }
        while i < arguments.count {
            let arg = arguments[i]
            switch arg {
            case "-h", "--help": return nil
            case "--socket":
                let path = try value(arg)
                guard path.hasPrefix("/") else {
                    throw OptionError("--socket must be an absolute path, got \"\(path)\"")
                }
                guard path.utf8.count < 108 else {
                    throw OptionError("--socket is longer than a Unix socket path may be (107 bytes)")
                }
                o.socketPath = path
            case "--listen":
                o.listen = try ListenAddress.parse(try value(arg))
            case "--allow-origin":
                o.allowedOrigins.append(try OriginPolicy.normalizeAllowed(try value(arg)))
            case "--max-clients": o.maxClients = try integer(arg, 1...1024)
            case "--client-buffer": o.clientBuffer = try integer(arg, 1...65536)
            default:
                throw OptionError("unknown argument \"\(arg)\" (touchwire-web --help lists the options)")
            }
            i += 1
        }
        return o
    }
}

public struct OptionError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// `HOST:PORT`, `[IPv6]:PORT`.
struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    var host: String
    var port: Int

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// True for 127.0.0.0/8, ::1 and localhost.
    var isLoopback: Bool { OriginPolicy.isLoopbackHost(host) }

    static func parse(_ text: String) throws(OptionError) -> ListenAddress {
        var host: Substring
        var portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw OptionError("listen address must be HOST:PORT or [IPv6]:PORT, got \"\(text)\"")
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else {
                throw OptionError("listen address must be HOST:PORT (e.g. 127.0.0.1:8787), got \"\(text)\"")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty else { throw OptionError("listen address \"\(text)\" has no host") }
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw OptionError("listen port must be 1...65535, got \"\(portText)\" in \"\(text)\"")
        }
        return ListenAddress(host: String(host), port: port)
    }
}
