import ArgumentParser
import TouchCore
import TouchDrivers
import TouchLinux

struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Scan I2C buses for supported touch controllers and identify them.")

    @Option(name: .long, help: "Only this bus (e.g. /dev/i2c-1).")
    var bus: String?

    func run() throws {
        let paths = bus.map { [$0] } ?? LinuxI2CBus.busPaths()
        if paths.isEmpty {
            print("no I2C buses found (/dev/i2c-*): enable I2C (raspi-config, dtparam=i2c_arm=on)")
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
            let address = I2CAddress(0x38)
            let driver = FT6x36Driver(
                bus: linuxBus, configuration: .ft6x36(panelWidth: 4096, panelHeight: 4096, address: address))
            do throws(I2CError) {
                let identity = try driver.identify()
                print("\(path) \(address): \(identity)")
                found += 1
            } catch {
                print("\(path) \(address): no FocalTech controller (\(error))")
            }
        }
        if found == 0 { throw ExitCode(1) }
    }
}
