import BoardConfig
import Gestures
import Logging
import TouchLinux
import TouchOutputs
import TouchService

/// Builds the output stage's `CommandActuator` from a board's key and exec bindings.
enum CommandSetup {
    /// The actuator of `board`'s key/exec bindings (nil when it has none): checks every program
    /// and opens the keyboard through `devices`, so a missing /dev/uinput or a missing program is
    /// one error and nothing starts. With `execByAgents` (`run --exec-by-agents`) no exec binding
    /// is the service's: `touchwire agent` runs them all, fed by the board's socket output, which
    /// must then exist.
    static func make(
        _ board: BoardDescription, names: EventNames, devices: any OutputDevices, logger: Logger,
        execByAgents: Bool = false
    ) throws(PipelineSetupError) -> CommandActuator? {
        if execByAgents, let problem = ExecCheck.agentsCannotListen(board) { throw .exec(problem: problem) }
        guard !board.commandBindings.isEmpty else { return nil }
        if let problem = ExecCheck.problems(board).first { throw .exec(problem: problem) }
        var bindings: [CommandActuator.Binding] = []
        var commands: [ExecCommand] = []
        var commandNames: [String] = []
        for b in board.commandBindings {
            // `session = true`: `touchwire agent` runs it in the user's session, never the service;
            // with `execByAgents`, the system runner (`touchwire agent --bindings service`) runs the rest.
            if case .exec(let c) = b.action, c.runsInSession || execByAgents { continue }
            let isControl = names.recognizers.firstIndex(of: b.recognizer) == nil
            let table = isControl ? names.regions : names.recognizers
            let index = table.firstIndex(of: b.recognizer) ?? -1
            let action: CommandActuator.Binding.Action
            switch b.action {
            case .key(_, let codes):
                action = .keys(codes)
            case .exec(let command):
                action = .exec(commands.count)
                commands.append(command)
                commandNames.append(b.recognizer)
            }
            bindings.append(
                CommandActuator.Binding(
                    recognizer: index, isControl: isControl, state: b.state.gestureState, action: action))
        }
        let codes = CommandActuator.keyCodes(of: bindings)
        var keyboard: VirtualKeyboard? = nil
        if !codes.isEmpty {
            do throws(UInputError) {
                keyboard = VirtualKeyboard(device: try devices.keyboard(keys: codes))
            } catch {
                throw .keyboard(board: board.location, reason: "\(error)")
            }
        }
        var runner: (any CommandRunner)? = nil
        if !commands.isEmpty {
            runner = devices.commands(
                commands, names: commandNames, environment: board.exec.environment, user: board.exec.user,
                log: { [logger] line in logger.notice("\(line)") })
        }
        return CommandActuator(bindings: bindings, keyboard: keyboard, spawner: runner)
    }
}

/// The checks `validate` reports as warnings and `run` refuses to start on: exec programs that
/// are missing or not executable, an `[exec] user` that does not exist, or one this process
/// cannot switch to (`canChangeUser`: CAP_SETUID and CAP_SETGID, which the shipped unit lacks).
package enum ExecCheck {
    /// Under `run --exec-by-agents`: the first exec binding, or else `[display]`'s commands, of a
    /// board without a socket output (the agents read events from it), as one line naming the
    /// file and the binding or key; nil when the board has neither or has a socket output.
    package static func agentsCannotListen(_ board: BoardDescription) -> String? {
        guard !board.outputs.includesEventSocket else { return nil }
        for b in board.commandBindings {
            guard case .exec = b.action else { continue }
            return "\(board.location): the exec binding of \"\(b.recognizer)\" under "
                + "`run --exec-by-agents` needs an [[output]] type = \"socket\": the exec runner and the "
                + "session agent read events from it (docs/kiosk.md); add one, or run without --exec-by-agents"
        }
        if let d = board.display, case .commands = d.switching {
            return "\(board.location): display.on_command/off_command under `run --exec-by-agents` need an "
                + "[[output]] type = \"socket\": the exec runner switches the screen from its display lines "
                + "(docs/kiosk.md); add one, use display.backlight, or run without --exec-by-agents"
        }
        return nil
    }

    package static func problems(
        _ board: BoardDescription, canChangeUser: Bool = ChildProcess.canChangeUser()
    ) -> [String] {
        var out: [String] = []
        for b in board.commandBindings {
            guard case .exec(let c) = b.action, let program = c.argv.first else { continue }
            if !ChildProcess.isExecutable(program) {
                out.append(
                    "\(board.location): binding[\(b.boardIndex)] \"\(b.recognizer)\".command: "
                        + "\(program) is missing or not executable"
                )
            }
        }
        if case .commands(let on, let off)? = board.display?.switching {
            for (key, c) in [("off_command", off), ("on_command", on)] where !ChildProcess.isExecutable(c.argv[0]) {
                out.append("\(board.location): display.\(key): \(c.argv[0]) is missing or not executable")
            }
        }
        if let user = board.exec.user, !ChildProcess.userExists(user) {
            out.append("\(board.location): exec.user: no user named \"\(user)\"")
        } else if let user = board.exec.user, !canChangeUser {
            out.append(
                "\(board.location): exec.user: this process cannot run programs as \"\(user)\" "
                    + "(it lacks CAP_SETUID/CAP_SETGID, as under the touchwire unit); remove exec.user "
                    + "and run the user's commands with `touchwire agent` in that user's session "
                    + "(docs/kiosk.md)")
        }
        return out
    }
}
