import TouchCore
import TouchLinux
import XCTest

/// The real `/dev/i2c-N` path wherever the kernel offers a bus (a Pi, or the QEMU guest of
/// tools/vm/run, which also runs the full controller tests against a kernel I2C adapter).
final class RealI2CTests: XCTestCase {
    /// Every bus opens, and a transfer to an address nothing answers comes back as a typed
    /// "no acknowledge" (or another bus-level error), never an unclassified failure.
    func testRealBusesOpenAndReportAMissingDeviceAsNoAcknowledge() throws {
        let buses = LinuxI2CBus.busPaths()
        guard !buses.isEmpty else {
            throw XCTSkip("no /dev/i2c-* on this machine; the real I2C path is exercised under QEMU by tools/vm/run")
        }
        var checked = 0
        for path in buses {
            let bus: LinuxI2CBus
            do throws(I2CError) {
                bus = try LinuxI2CBus(path: path)
            } catch {
                if case .permissionDenied = error { continue }  // not root: nothing to check on this bus
                throw error
            }
            checked += 1
            // 0x77 is the last ordinary address; on most boards nothing answers there.
            do {
                _ = try bus.readRegisters(I2CAddress(0x77), register: 0x00, count: 1)
            } catch {
                switch error {
                case .noAcknowledge(let address, _), .remoteIO(let address, _):
                    XCTAssertEqual(address, I2CAddress(0x77), path)
                case .timeout, .busy:
                    break
                default:
                    XCTFail("\(path): unclassified I2C error \(error)")
                }
            }
        }
        if checked == 0 {
            throw XCTSkip("every /dev/i2c-* refused to open (\(buses)); run as root, or under tools/vm/run")
        }
    }
}
