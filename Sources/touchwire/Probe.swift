import ArgumentParser
import BoardConfig
import TouchComposition
import TouchCore
import TouchDrivers
import TouchLinux
import TouchService
import TouchSimulation

/// `touchwire probe`: lists the input devices that are touchscreens (`chip = "evdev"`), then looks
/// for the three controller families on every I2C bus (or on a simulated bus holding one of each)
/// and prints bus, address, chip, firmware and resolution; says when a kernel driver owns the
/// device and how to release it.
struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Scan I2C buses for FT5x06/FT6x36, GT911 and CST816 touch controllers and identify them.")

    @Option(name: .long, help: "Only this bus (e.g. /dev/i2c-1).")
    var bus: String?

    @Flag(name: .long, help: "Probe a simulated bus holding an FT6336U, a GT911 and a CST816S.")
    var sim = false

    @Option(name: .long, help: "With --sim: leave these chips off the bus (ft6x36, gt911, cst816s).")
    var simMissing: [String] = []

    @Option(
        name: .long,
        help: """
            Probe the controller a board file describes, started as `run` starts it: its reset \
            line pulsed (and, for a GT911, its address chosen by INT) before identification.
            """)
    var board: String?

    @Flag(
        name: .long,
        help: """
            Only list the Linux input devices that are touchscreens (for chip = "evdev"): protocol, axes, \
            board keys; and why a device with absolute axes is refused (a pen tablet, a touchpad…).
            """)
    var input = false

    func run() throws {
        if sim, let bus {
            throw fail("--sim probes the simulated bus and --bus \(bus) a real one: give one of them", code: 2)
        }
        if !sim, !simMissing.isEmpty {
            throw fail("--sim-missing only applies with --sim", code: 2)
        }
        if let board {
            try probeBoard(board)
            return
        }
        if input {
            let lines = InputProbe.touchscreenLines()
            for l in lines { print(l) }
            guard lines.contains(where: { $0.contains(": touchscreen \"") }) else {
                print("no touchscreen input devices found (/dev/input/event*)")
                throw ExitCode(1)
            }
            return
        }
        if sim {
            let bus = SimulatedI2CBus()
            if !simMissing.contains("ft6x36") { bus.attach(FT6x36Model()) }
            if !simMissing.contains("gt911") { bus.attach(GT911Model(width: 800, height: 480)) }
            if !simMissing.contains("cst816s") { bus.attach(CST816Model()) }
            let found = ProbeScan.scan(bus, name: "sim", busNumber: nil)
            if found == 0 { throw ExitCode(1) }
            return
        }
        // Touchscreens the kernel already drives (chip = "evdev") come first; then the I2C scan.
        let touchscreens = bus == nil ? InputProbe.touchscreenLines() : []
        for l in touchscreens { print(l) }
        let paths = bus.map { [$0] } ?? LinuxI2CBus.busPaths()
        if paths.isEmpty {
            print("no I2C buses found (/dev/i2c-*): enable I2C (raspi-config, dtparam=i2c_arm=on)")
            if touchscreens.isEmpty { throw ExitCode(1) }
            return
        }
        var found = 0
        for path in paths {
            let linuxBus: LinuxI2CBus
            do throws(I2CError) {
                linuxBus = try LinuxI2CBus(path: path)
            } catch {
                print("\(path): \(error)")
                continue
            }
            found += ProbeScan.scan(linuxBus, name: path, busNumber: KernelDriverBinding.busNumber(path: path))
        }
        if found == 0 && touchscreens.isEmpty { throw ExitCode(1) }
    }
}

extension Probe {
    /// Starts the board's controller with the driver's own reset sequence and prints what answered.
    func probeBoard(_ path: String) throws {
        let description = try loadBoard(path)
        guard let c = description.controller else {
            throw fail("\(description.location): [controller]: missing; nothing to probe")
        }
        let setup: ControllerSetup
        do throws(ServiceError) {
            setup = try ControllerFactory.make(
                description, start: MonotonicClock.now(), clock: { MonotonicClock.now() })
        } catch {
            throw fail("\(error)")
        }
        if c.chip == .evdev {
            let place = if case .input(let selector) = c.bus { "\(selector)" } else { "sim" }
            do throws(I2CError) {
                try setup.controller.start()
                let id = setup.controller.identity
                let details = [id?.device, id?.note].compactMap { $0 }.joined(separator: ", ")
                print("\(place): \(id?.chipName ?? "evdev")" + (details.isEmpty ? "" : " (\(details))"))
            } catch {
                print("\(place): \(error)")
                throw ExitCode(1)
            }
            return
        }
        var devicePath: String? = nil
        if case .device(let p) = c.bus { devicePath = p }
        let place = devicePath ?? "sim"
        if let n = devicePath.flatMap({ KernelDriverBinding.busNumber(path: $0) }),
            let binding = KernelDriverBinding.read(bus: n, address: c.address)
        {
            print("\(place) \(c.address): \(binding.releaseAdvice)")
        }
        let resetNote = c.reset == nil ? "no reset line" : "reset pulsed on \(c.reset!.chip):\(c.reset!.line)"
        do throws(I2CError) {
            try setup.controller.start()
            let identity = setup.controller.identity.map { "\($0)" } ?? "\(c.chip) at \(c.address)"
            print("\(place) \(c.address): \(identity) (\(resetNote))")
        } catch {
            print("\(place) \(c.address): no \(c.chip) (\(error); \(resetNote))")
            throw ExitCode(1)
        }
    }
}

/// One bus, all three families. Printed lines: "BUS ADDR: identity" or "BUS ADDR: no CHIP (error)".
enum ProbeScan {
    static func scan<Bus: I2CBus>(_ bus: Bus, name: String, busNumber: Int?) -> Int {
        var found = 0
        let candidates: [(String, I2CAddress, () throws(I2CError) -> ControllerIdentity)] = [
            (
                "FocalTech FT5x06/FT6x36", I2CAddress(0x38),
                { () throws(I2CError) in
                    try FT6x36Driver(
                        bus: bus, configuration: .ft5x06(panelWidth: 4096, panelHeight: 4096), timing: .system
                    )
                    .identify()
                }
            ),
            (
                "Goodix GT911", I2CAddress(0x5D),
                { () throws(I2CError) in
                    try GT911Driver(
                        bus: bus, configuration: .init(address: I2CAddress(0x5D), panelWidth: 4096, panelHeight: 4096),
                        timing: .system
                    )
                    .identify(at: I2CAddress(0x5D))
                }
            ),
            (
                "Goodix GT911", I2CAddress(0x14),
                { () throws(I2CError) in
                    try GT911Driver(
                        bus: bus, configuration: .init(address: I2CAddress(0x14), panelWidth: 4096, panelHeight: 4096),
                        timing: .system
                    )
                    .identify(at: I2CAddress(0x14))
                }
            ),
            (
                "Hynitron CST816", I2CAddress(0x15),
                { () throws(I2CError) in
                    let d = CST816Driver(
                        bus: bus, configuration: .init(panelWidth: 4096, panelHeight: 4096, disablesAutoSleep: false),
                        timing: .system)
                    try d.start()
                    return d.identity ?? ControllerIdentity(chipName: "CST816", address: I2CAddress(0x15))
                }
            ),
        ]
        for (family, address, identify) in candidates {
            if let n = busNumber, let binding = KernelDriverBinding.read(bus: n, address: address) {
                print("\(name) \(address): \(binding.releaseAdvice)")
            }
            do throws(I2CError) {
                let id = try identify()
                print("\(name) \(address): \(id)")
                found += 1
            } catch {
                var hint = ""
                if family.hasPrefix("Hynitron") {
                    hint =
                        " — a CST816 sleeps off the bus after ~2 s idle: "
                        + "touch the screen or wire its reset line and retry"
                }
                print("\(name) \(address): no \(family) (\(error))\(hint)")
            }
        }
        return found
    }
}
