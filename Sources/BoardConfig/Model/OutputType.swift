/// The registry of output types a board file can name (`[[output]] type`, `formats.md` §4).
///
/// Each type is declared here once: the board reader finds it by `boardName` and reads its table
/// by an exhaustive switch (`OutputReader`), `validate`'s messages list `allCases`, each
/// `OutputDescription` maps back here (`OutputDescription.type`), the service's output factory
/// switches exhaustively over `OutputDescription`, and `RegistryTests` checks that every type
/// loads and has its name and keys in `formats.md`. Adding a type: CONTRIBUTING.md, "Adding an
/// output type".
package enum OutputType: Sendable, CaseIterable, Hashable, CustomStringConvertible {
    case stdout, uart, socket, websocket

    /// The name written in a board file (`type = "uart"`).
    package var boardName: String {
        switch self {
        case .stdout: "stdout"
        case .uart: "uart"
        case .socket: "socket"
        case .websocket: "websocket"
        }
    }

    package var description: String { boardName }

    /// The type's keys beside `type` (`formats.md` §4); any other key is unknown.
    package var keys: [String] {
        switch self {
        case .stdout: []
        case .uart: ["device", "baud", "format", "template", "data_bits", "parity", "stop_bits", "rts_cts"]
        case .socket: ["path", "mode", "group"]
        case .websocket: ["listen", "allowed_origins", "max_clients", "client_buffer"]
        }
    }

    /// Whether the service itself writes to it (`OutputFactory`). A websocket output is served by
    /// the separate bridge `touchwire-web` from the board's socket output (docs/web.md), so the
    /// service only validates it and keeps it in `BoardDescription.webSocket`.
    package var isServiceOutput: Bool {
        switch self {
        case .stdout, .uart, .socket: true
        case .websocket: false
        }
    }

    /// "a uart output": how messages name an output of this type.
    package var outputPhrase: String { "a \(boardName) output" }

    /// The type named `name` in a board file.
    package init?(boardName name: String) {
        guard let type = Self.allCases.first(where: { $0.boardName == name }) else { return nil }
        self = type
    }

    /// Every board name, in declaration order (for "supported: …" messages).
    package static var boardNames: [String] { allCases.map(\.boardName) }

    /// Every key some type has (an output whose type is unknown is judged against these).
    package static var allKeys: [String] {
        var keys: [String] = []
        for type in allCases { for key in type.keys where !keys.contains(key) { keys.append(key) } }
        return keys
    }
}
