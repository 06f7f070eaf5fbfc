import BoardConfig
import Gestures
import Logging
import TouchCore
import TouchLinux
import TouchOutputs
import TouchService
import TouchSimulation

/// Builds a board's outputs: `[[output]]` channels (stdout, UARTs in text, JSON or binary) and
/// the GPIO lines of its `[[binding]]`s. Everything is opened here, before any thread starts, so
/// a busy line or an unusable configuration stops the service with one error naming the
/// board, the key and the device.
enum OutputFactory {
    /// The channels of `board.outputs`. A UART that is absent at start is not an error: its sink
    /// starts disconnected and reopens with back-off (a USB adapter plugged in later).
    /// `clock` schedules UART reconnects (the service's clock, so tests drive the back-off).
    static func channels(
        _ board: BoardDescription, names: EventNames, stdout: (any LineSink)?, logger: Logger,
        clock: any TouchClock
    ) throws(ServiceError) -> [OutputChannel] {
        var channels: [OutputChannel] = []
        for description in board.outputs {
            switch description {
            case .stdout:
                channels.append(
                    OutputChannel(
                        name: "stdout", encoding: .json(EventJSONEncoder(names: names)),
                        sink: stdout
                            ?? StandardOutputSink(
                                mode: .nonBlocking, log: { [logger] message in logger.notice("\(message)") })))
            case .uart(let u):
                let sink: UARTSink
                do throws(SerialError) {
                    sink = try UARTSink(
                        path: u.device, configuration: serialConfiguration(u), clock: clock,
                        log: { [logger] message in logger.notice("\(message)") })
                } catch {
                    throw .uart(board: board.location, device: u.device, error: error)
                }
                let encoding: OutputChannel.Encoding
                switch u.format {
                case .json: encoding = .json(EventJSONEncoder(names: names))
                case .text:
                    encoding = .text(
                        EventTextEncoder(template: u.template?.source ?? EventTextEncoder.defaultTemplate, names: names)
                    )
                case .binary: encoding = .binary(BinaryFrameEncoder(names: names))
                }
                channels.append(OutputChannel(name: "uart \(u.device)", encoding: encoding, sink: sink))
            case .socket(let description):
                channels.append(try SocketOutputSetup.channel(board, description, names: names, logger: logger))
            }
        }
        return channels
    }

    /// The termios framing of a board's `[[output]]` uart.
    static func serialConfiguration(_ u: UARTDescription) -> SerialConfiguration {
        let parity: SerialConfiguration.Parity
        switch u.parity {
        case .none: parity = .none
        case .even: parity = .even
        case .odd: parity = .odd
        }
        return SerialConfiguration(
            baudRate: u.baud, dataBits: u.dataBits, parity: parity, stopBits: u.stopBits == 2 ? .two : .one,
            flowControl: u.rtsCts ? .rtsCts : .none)
    }

    /// Requests the lines of `board.bindings` (nil when there are none). Lines come from
    /// `provider` when given (tests); otherwise chip "sim" is an in-memory chip that logs each
    /// level change, and any other chip is libgpiod's (by label, name or path).
    static func gpio(
        _ board: BoardDescription, names: EventNames, provider: (any GPIOProvider)?, logger: Logger
    ) throws(ServiceError) -> GPIOActuator? {
        guard !board.bindings.isEmpty else { return nil }
        var setups: [GPIOLineSetup] = []
        var bindings: [GPIOBinding] = []
        for b in board.bindings {
            let id = GPIOLineID(chip: b.line.chip, offset: b.line.line)
            let line: Int
            if let existing = setups.firstIndex(where: { $0.id == id }) {
                line = existing
            } else {
                line = setups.count
                setups.append(GPIOLineSetup(id: id, activeLow: b.line.activeLow, initialActive: b.initialActive))
            }
            let source: GPIOBinding.Source
            if let i = names.recognizers.firstIndex(of: b.recognizer) {
                source = .recognizer(i)
            } else if let i = names.regions.firstIndex(of: b.recognizer) {
                source = .control(region: i)
            } else {
                preconditionFailure("OutputFactory.gpio: binding \(b.recognizer) was not validated")
            }
            let action: GPIOBinding.Action
            switch b.action {
            case .pulse(let ms): action = .pulse(microseconds: Int64(ms) * 1000)
            case .hold: action = .hold
            case .toggle: action = .toggle
            }
            bindings.append(
                GPIOBinding(source: source, trigger: b.state?.gestureState ?? .began, action: action, line: line))
        }
        let log: (String) -> Void = { [logger] message in logger.notice("\(message)") }
        // The in-memory chip "sim": level changes are logged so a simulated board shows what a relay would do.
        let memory = SimulatedGPIO(
            chips: [BindingDescription.simulatedChip: BindingDescription.simulatedChipLines])
        memory.keepsHistory = false
        var levels: [GPIOLineID: Bool] = [:]
        memory.onOutputChange = { id, active, _ in
            let before = levels.updateValue(active, forKey: id)
            if before == nil {
                log("gpio \(id): requested, \(active ? "active" : "inactive")")
            } else if before != active {
                log("gpio \(id): \(active ? "active" : "inactive")")
            }
        }
        let linux = LinuxGPIO()
        do throws(GPIOSetupError) {
            return try GPIOActuator(
                lines: setups, bindings: bindings,
                provider: { id in provider ?? (id.chip == BindingDescription.simulatedChip ? memory : linux) },
                log: log)
        } catch {
            let id = setups[error.line].id
            let index = board.bindings.firstIndex { $0.line.chip == id.chip && $0.line.line == id.offset } ?? 0
            throw .bindingLine(
                board: board.location, binding: index, recognizer: board.bindings[index].recognizer, error: error.error)
        }
    }
}
