/// Why the pipeline could not open a device it assembles itself (the `[passthrough]` touchscreen,
/// the virtual keyboard of key bindings) or accept a board's exec bindings: names the board, the
/// part, and the reason, with what to do where there is something to do.
package enum PipelineSetupError: Error, CustomStringConvertible, Equatable {
    /// `[passthrough]`: the virtual touchscreen could not be created through /dev/uinput.
    case passthrough(board: String, reason: String)
    /// `action = "key"`: the virtual keyboard could not be created through /dev/uinput.
    case keyboard(board: String, reason: String)
    /// `action = "exec"`: a program of an exec binding cannot be run (missing, not executable,
    /// unknown user); `problem` is the same line `validate` prints as a warning.
    case exec(problem: String)

    package var description: String {
        switch self {
        case .passthrough(let board, let reason): "\(board): passthrough: \(reason)"
        case .keyboard(let board, let reason): "\(board): key binding: \(reason)"
        case .exec(let problem): problem
        }
    }
}
