import ArgumentParser
import BoardConfig
import TouchComposition
import TouchCore
import TouchDrivers
import TouchLinux
import TouchService
import TouchSimulation

/// `touchwire probe`: lists the input devices that are touchscreens (`chip = "evdev"`), then looks
/// for every controller family (`ControllerChip`) on every I2C bus (or on a simulated bus holding one of each)
/// and prints bus, address, chip, firmware and resolution; says when a kernel driver owns the
/// device and how to release it.
struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Scan I2C buses for touch controllers ("
            + Array(Set(ControllerChip.allCases.map(\.probeName))).sorted().joined(separator: ", ")
            + ") and identify them.")

    @Option(name: .long, help: "Only this bus (e.g. /dev/i2c-1).")
    var bus: String?

    @Flag(name: .long, help: "Probe a simulated bus holding one chip of each family.")
    var sim = false

    @Option(
        name: .long,
        help: "With --sim: leave these chips off the bus (\(Self.chipNames)).")
    var simMissing: [String] = []

    /// "ft6x36, ft5x06, …": the chip names a board and `--sim-missing` accept.
    static var chipNames: String { ControllerChip.allCases.map(\.rawValue).joined(separator: ", ") }

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
            for name in simMissing where ControllerChip(rawValue: name) == nil {
                throw fail("--sim-missing: unknown chip \"\(name)\"; chips: \(Self.chipNames)", code: 2)
            }
            let found = ProbeScan.scan(
                ProbeScan.simulatedBus(missing: Set(simMissing.compactMap(ControllerChip.init(rawValue:)))),
                name: "sim", busNumber: nil)
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
                description, start: SystemClock.shared.now, clock: SystemClock.shared)
        } catch {
            throw fail("\(error)")
        }
        guard let chip = c.chip, let address = c.address else {
            let place = if case .input(let selector) = c.bus { "\(selector)" } else { "sim" }
            do throws(TouchInputError) {
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
            let binding = KernelDriverBinding.read(bus: n, address: address)
        {
            print("\(place) \(address): \(binding.releaseAdvice)")
        }
        let resetNote = c.reset == nil ? "no reset line" : "reset pulsed on \(c.reset!.chip):\(c.reset!.line)"
        do throws(TouchInputError) {
            try setup.controller.start()
            let identity = setup.controller.identity.map { "\($0)" } ?? "\(chip) at \(address)"
            print("\(place) \(address): \(identity) (\(resetNote))")
        } catch {
            print("\(place) \(address): no \(chip) (\(error); \(resetNote))")
            throw ExitCode(1)
        }
    }
}

/// One bus, every chip family: the candidates come from `ControllerChip` (each family's default
/// and alternate addresses; families that one probe identifies are tried once), so a new family is
/// probed without an entry here. Printed lines: "BUS ADDR: identity" or "BUS ADDR: no FAMILY (error)".
enum ProbeScan {
    /// (chip, address) pairs in registry order, one per probe family and address.
    static var candidates: [(chip: ControllerChip, address: I2CAddress)] {
        var seen: Set<String> = []
        var out: [(chip: ControllerChip, address: I2CAddress)] = []
        for chip in ControllerChip.allCases {
            for address in [chip.defaultAddress] + chip.alternateAddresses
            where seen.insert("\(chip.probeName)@\(address)").inserted {
                out.append((chip, address))
            }
        }
        return out
    }

    /// `probe --sim`'s bus: a model of every family at its default address, except the families
    /// `missing` names (naming one chip of a probe family leaves the family's model off).
    static func simulatedBus(missing: Set<ControllerChip>) -> SimulatedI2CBus {
        let bus = SimulatedI2CBus()
        let missingFamilies = Set(missing.map(\.probeName))
        var attached: Set<String> = []
        for chip in ControllerChip.allCases
        where !missingFamilies.contains(chip.probeName) && attached.insert(chip.probeName).inserted {
            bus.attach(
                ControllerFactory.simulatedChip(chip, address: chip.defaultAddress, width: 800, height: 480).model)
        }
        return bus
    }

    static func scan<Bus: I2CBus>(_ bus: Bus, name: String, busNumber: Int?) -> Int {
        var found = 0
        for (chip, address) in candidates {
            if let n = busNumber, let binding = KernelDriverBinding.read(bus: n, address: address) {
                print("\(name) \(address): \(binding.releaseAdvice)")
            }
            do throws(I2CError) {
                let id = try ControllerFactory.identify(chip, at: address, on: bus)
                print("\(name) \(address): \(id)")
                found += 1
            } catch {
                print("\(name) \(address): no \(chip.probeName) (\(error))\(chip.probeHint.map { " — " + $0 } ?? "")")
            }
        }
        return found
    }
}
