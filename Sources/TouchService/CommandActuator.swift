import BoardConfig
import Gestures
import Logging
import TouchCore
import TouchDrivers
import TouchLinux
import TouchOutputs

/// The virtual keyboard of key bindings: a uinput device declaring exactly the bound keys.
package final class VirtualKeyboard {
    private let device: UInputDevice
    private var buffer: [UInt8] = []
    /// Chords the kernel did not take whole (its queue was full).
    package private(set) var failedChords = 0

    package init(keys: [Int]) throws(UInputError) {
        device = try UInputDevice.keyboard(name: "touchwire keyboard", keys: keys)
        buffer.reserveCapacity(64 * InputEvent.byteCount)
    }

    /// The device's name under /sys/devices/virtual/input.
    package var sysName: String { device.sysName }

    /// Removes the virtual keyboard (`UInputDevice.destroy()`); chords pressed after it are lost.
    package func close() { device.destroy() }

    /// Presses `codes` in order, then releases them in reverse: one report each (a chord, as a
    /// user pressing Meta+F5). No allocation once the buffer has grown to the longest chord.
    package func press(_ codes: ArraySlice<Int>) {
        buffer.removeAll(keepingCapacity: true)
        for c in codes {
            InputEvent(type: EvdevCode.EV_KEY, code: UInt16(c), value: 1).encode(into: &buffer)
            InputEvent.synReport.encode(into: &buffer)
        }
        for c in codes.reversed() {
            InputEvent(type: EvdevCode.EV_KEY, code: UInt16(c), value: 0).encode(into: &buffer)
            InputEvent.synReport.encode(into: &buffer)
        }
        if !buffer.withUnsafeBytes({ device.write($0) }) { failedChords += 1 }
    }
}

/// Key and exec bindings on the output thread: a matching event presses a chord on the virtual
/// keyboard or asks the spawner to run a program (never forking here).
package final class CommandActuator {
    struct Entry {
        var recognizer: Int
        var isControl: Bool
        var state: GestureState
        /// Key codes range in `codes`, or the exec binding's index in the spawner.
        var keys: Range<Int>?
        var exec: Int?
    }

    let entries: [Entry]
    let codes: [Int]
    package let keyboard: VirtualKeyboard?
    package let spawner: CommandSpawner?

    /// Builds the actuator of `board`'s key/exec bindings (nil when it has none): creates the
    /// virtual keyboard and checks every program, so a missing /dev/uinput or a missing program
    /// is one error and nothing starts.
    package static func make(_ board: BoardDescription, names: EventNames, logger: Logger) throws(PipelineSetupError)
        -> CommandActuator?
    {
        guard !board.commandBindings.isEmpty else { return nil }
        if let problem = ExecCheck.problems(board).first { throw .exec(problem: problem) }
        var entries: [Entry] = []
        var codes: [Int] = []
        var commands: [ExecCommand] = []
        var commandNames: [String] = []
        for b in board.commandBindings {
            let isControl = names.recognizers.firstIndex(of: b.recognizer) == nil
            let table = isControl ? names.regions : names.recognizers
            let index = table.firstIndex(of: b.recognizer) ?? -1
            var e = Entry(recognizer: index, isControl: isControl, state: b.state.gestureState, keys: nil, exec: nil)
            switch b.action {
            case .key(_, let c):
                e.keys = codes.count..<(codes.count + c.count)
                codes += c
            case .exec(let command):
                e.exec = commands.count
                commands.append(command)
                commandNames.append(b.recognizer)
            }
            entries.append(e)
        }
        var keyboard: VirtualKeyboard? = nil
        if !codes.isEmpty {
            do throws(UInputError) {
                keyboard = try VirtualKeyboard(keys: codes)
            } catch {
                throw .keyboard(board: board.location, reason: "\(error)")
            }
        }
        var spawner: CommandSpawner? = nil
        if !commands.isEmpty {
            spawner = CommandSpawner(
                commands: commands, names: commandNames, environment: board.exec.environment, user: board.exec.user,
                log: { [logger] line in logger.notice("\(line)") })
        }
        return CommandActuator(entries: entries, codes: codes, keyboard: keyboard, spawner: spawner)
    }

    init(entries: [Entry], codes: [Int], keyboard: VirtualKeyboard?, spawner: CommandSpawner?) {
        self.entries = entries
        self.codes = codes
        self.keyboard = keyboard
        self.spawner = spawner
    }

    /// Acts on `event` for every binding it matches.
    package func handle(_ event: GestureEvent) {
        for e in entries
        where e.state == event.state && e.recognizer == event.recognizer
            && e.isControl == (event.kind == .control)
        {
            if let k = e.keys { keyboard?.press(codes[k]) }
            if let x = e.exec { spawner?.request(x) }
        }
    }
}

/// The checks `validate` reports as warnings and `run` refuses to start on: exec programs that
/// are missing or not executable, an `[exec] user` that does not exist.
package enum ExecCheck {
    package static func problems(_ board: BoardDescription) -> [String] {
        var out: [String] = []
        for (i, b) in board.commandBindings.enumerated() {
            guard case .exec(let c) = b.action, let program = c.argv.first else { continue }
            if !ChildProcess.isExecutable(program) {
                out.append(
                    "\(board.location): binding[\(i)] \"\(b.recognizer)\".command: "
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
        }
        return out
    }
}
