/// One event sink (`[[output]]`). A board without `[[output]]` gets `[.stdout]`.
package enum OutputDescription: Sendable, Equatable {
    /// `type = "stdout"`: gesture events as JSON lines (`formats.md` §2).
    case stdout
    /// `type = "uart"`: a serial port.
    case uart(UARTDescription)
    /// `type = "socket"`: a Unix stream socket; every client gets the stdout JSON lines.
    case socket(SocketOutputDescription)

    /// Its entry in the registry of output types.
    package var type: OutputType {
        switch self {
        case .stdout: .stdout
        case .uart: .uart
        case .socket: .socket
        }
    }
}

extension Sequence<OutputDescription> {
    /// Whether one of them is the event socket (`type = "socket"`), which `touchwire agent` and the
    /// WebSocket bridge read.
    package var includesEventSocket: Bool { contains { $0.type == .socket } }
}

/// A Unix stream socket sink (`[[output]] type = "socket"`).
package struct SocketOutputDescription: Sendable, Equatable {
    /// Absolute path of the socket (default `/run/touchwire/events.sock`).
    package var path: String
    /// Permission bits of the socket file (`mode = "0660"`, default 0o660): who may connect.
    package var mode: Int
    /// Group owning the socket file (`group = "kiosk"`); nil keeps the service's group.
    package var group: String?

    package static let defaultPath = "/run/touchwire/events.sock"

    package init(path: String = SocketOutputDescription.defaultPath, mode: Int = 0o660, group: String? = nil) {
        self.path = path
        self.mode = mode
        self.group = group
    }
}

/// How events are written to a UART.
package enum UARTFormat: String, Sendable, Equatable, CaseIterable {
    /// One line per event from `UARTDescription.template` (or `TextTemplate.default`), ended by "\n".
    case text
    /// The JSON line of `formats.md` §2.
    case json
    /// The binary frames of `docs/PROTOCOL.md` (sync, version, type, sequence, length, payload, CRC-16),
    /// decoded on a microcontroller by `tools/mcu/touchwire_frame.h`.
    case binary
}

/// The parity bit of a UART character.
package enum UARTParity: String, Sendable, Equatable, CaseIterable {
    case none, even, odd
}

/// A serial port sink.
package struct UARTDescription: Sendable, Equatable {
    /// The device node, an absolute path (`/dev/ttyUSB0`, `/dev/serial0`).
    package var device: String
    /// A standard rate from `UARTDescription.standardBaudRates` (default 115200).
    package var baud: Int
    package var format: UARTFormat
    /// For `.text` only; nil means `TextTemplate.default`.
    package var template: TextTemplate?
    /// Bits per character, 5…8 (default 8). A text or JSON format needs 8 (UTF-8); binary needs 8.
    package var dataBits: Int
    /// Default `.none`.
    package var parity: UARTParity
    /// 1 or 2 (default 1).
    package var stopBits: Int
    /// RTS/CTS hardware flow control (`rts_cts = true`; default off).
    package var rtsCts: Bool

    package init(
        device: String, baud: Int = 115_200, format: UARTFormat = .text, template: TextTemplate? = nil,
        dataBits: Int = 8, parity: UARTParity = .none, stopBits: Int = 1, rtsCts: Bool = false
    ) {
        self.device = device
        self.baud = baud
        self.format = format
        self.template = template
        self.dataBits = dataBits
        self.parity = parity
        self.stopBits = stopBits
        self.rtsCts = rtsCts
    }

    /// The rates termios can set on Linux from 1200 baud up (`B1200` … `B4000000`).
    package static let standardBaudRates: [Int] = [
        1200, 1800, 2400, 4800, 9600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 500_000, 576_000, 921_600,
        1_000_000, 1_152_000, 1_500_000, 2_000_000, 2_500_000, 3_000_000, 3_500_000, 4_000_000,
    ]
}
