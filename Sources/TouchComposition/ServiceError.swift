import Gestures
import TouchCore
import TouchLinux
import TouchService
import TouchTrace

/// Why a command could not build or start what it was asked to: each case names what failed, where
/// (board file, key, path) and, in its description, what to do about it. The lower layers' typed
/// errors (`I2CError`, `GPIOError`, `SerialError`, `TraceError`) are carried, not flattened.
package enum ServiceError: Error, CustomStringConvertible {
    /// A recognizer kind this build cannot make.
    case unsupportedKind(board: String, recognizer: String, kind: GestureKind)
    /// A controller chip this build cannot drive.
    case unsupportedChip(board: String, chip: String)
    /// The board has no `[controller]`: it can be replayed, not run.
    case noController(board: String)
    /// `bus = "sim"` without a `[simulation]` section.
    case noSimulation(board: String)
    /// A command that needs the simulated controller (`bench`) was given a board with real hardware.
    case notSimulated(board: String, command: String)
    /// The controller's I2C adapter could not be opened.
    case controllerBus(board: String, path: String, error: I2CError)
    /// The simulation's trace (`[simulation] script`) could not be read.
    case simulationScript(board: String, error: TraceError)
    /// A UART output could not be opened or configured.
    case uart(board: String, device: String, error: SerialError)
    /// A binding's GPIO line could not be requested.
    case bindingLine(board: String, binding: Int, recognizer: String, error: GPIOError)
    /// A trace file could not be created or written.
    case traceFile(error: TraceError)
    /// A file the command needs could not be opened.
    case file(path: String, purpose: String, reason: String)
    /// A command-line value outside what the command accepts.
    case argument(option: String, value: String, expected: String)
    /// A device the board names could not be opened or is not what the key says (an input
    /// device that is not a touchscreen, a socket path that cannot be bound).
    case device(board: String, what: String, reason: String)
    /// The pipeline could not open what it assembles itself (passthrough, virtual keyboard, exec).
    case pipeline(PipelineSetupError)

    package var description: String {
        switch self {
        case .unsupportedKind(let board, let r, let k):
            "\(board): recognizer \"\(r)\": kind \(k) is not available in this build"
        case .unsupportedChip(let board, let chip):
            "\(board): controller.chip: \(chip) is not available in this build"
        case .noController(let board):
            "\(board): [controller]: missing; this board can be replayed but not run (add a [controller] section)"
        case .noSimulation(let board):
            "\(board): bus = \"sim\" needs a [simulation] section (e.g. script = \"demo\")"
        case .notSimulated(let board, let command):
            "\(board): touchwire \(command) needs a simulated controller (controller.bus = \"sim\"),"
                + " e.g. boards/kiosk-sim.toml"
        case .controllerBus(let board, _, let error):
            "\(board): controller.bus: \(error) (list the adapters with `touchwire probe`)"
        case .simulationScript(let board, let error):
            "\(board): simulation.script: \(error)"
        case .uart(let board, let device, let error):
            "\(board): output uart \(device): \(error)"
        case .bindingLine(let board, let index, let recognizer, let error):
            "\(board): binding[\(index)] \"\(recognizer)\".gpio: \(error)"
        case .traceFile(let error):
            "\(error)"
        case .file(let path, let purpose, let reason):
            "cannot open \(path) (\(purpose)): \(reason)"
        case .device(let board, let what, let reason):
            "\(board): \(what): \(reason)"
        case .pipeline(let error):
            "\(error)"
        case .argument(let option, let value, let expected):
            "\(option) must be \(expected), got \(value)"
        }
    }
}
