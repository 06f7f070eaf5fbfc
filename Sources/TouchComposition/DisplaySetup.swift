import BoardConfig
import Logging
import TouchCore
import TouchLinux
import TouchService
import TouchSimulation

/// Opens a board's `[display]` switch before any thread starts: the backlight device (its files
/// readable and writable), the commands' programs, the GPIO line. Anything missing is one error
/// naming the board and the key, so the service never starts with a screen it cannot wake.
/// With `session = true`, or under `run --exec-by-agents`, the service spawns nothing
/// (`.agent`): an agent runs the commands (`DisplayAgent`).
enum DisplaySetup {
    static func make(
        _ board: BoardDescription, backlightRoot: String, gpio: (any GPIOProvider)?, clock: any TouchClock,
        execByAgents: Bool = false, logger: Logger
    ) throws(ServiceError) -> DisplaySwitch? {
        guard let d = board.display else { return nil }
        let log: @Sendable (String) -> Void = { [logger] message in logger.warning("\(message)") }
        let output: DisplaySwitch.Output
        switch d.switching {
        case .backlight(let name):
            do throws(BacklightError) {
                output = .backlight(try Backlight(name: name, root: backlightRoot), dimPercent: d.dimBrightnessPercent)
            } catch {
                throw .device(board: board.location, what: "display.backlight", reason: "\(error)")
            }
        case .commands where d.runsInSession || execByAgents:
            // `session = true`: `touchwire agent` runs them in the user's session; otherwise, under
            // `--exec-by-agents`, the system runner (`agent --bindings service`). Never the service.
            output = .agent
        case .commands(let on, let off):
            for (key, c) in [("off_command", off), ("on_command", on)] where !ChildProcess.isExecutable(c.argv[0]) {
                throw .device(
                    board: board.location, what: "display.\(key)", reason: "\(c.argv[0]) is missing or not executable")
            }
            if let user = board.exec.user, !ChildProcess.userExists(user) {
                throw .device(board: board.location, what: "exec.user", reason: "no user named \"\(user)\"")
            }
            let spawner = CommandSpawner(
                commands: [off, on], names: DisplayAgent.names,
                environment: board.exec.environment, user: board.exec.user, clock: clock,
                log: { [logger] message in logger.notice("\(message)") })
            output = .commands(spawner)
        }
        var line: (any GPIOOutput)? = nil
        if let g = d.gpio {
            let provider: any GPIOProvider =
                gpio
                ?? (g.chip == BindingDescription.simulatedChip
                    ? SimulatedGPIO(chips: [BindingDescription.simulatedChip: BindingDescription.simulatedChipLines])
                    : LinuxGPIO())
            do throws(GPIOError) {
                line = try provider.requestOutput(
                    GPIOLineID(chip: g.chip, offset: g.line), activeLow: g.activeLow, active: true)
            } catch {
                throw .device(board: board.location, what: "display.gpio", reason: "\(error)")
            }
        }
        return DisplaySwitch(output: output, line: line, log: log)
    }
}
