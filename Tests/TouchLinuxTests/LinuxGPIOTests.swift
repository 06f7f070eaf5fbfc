import TouchCore
import TouchLinux
import XCTest

final class LinuxGPIOTests: XCTestCase {
    /// A chip name that does not exist is a clear error that lists the chips that do.
    func testUnknownChipIsNamedWithTheChipsFound() {
        let gpio = LinuxGPIO()
        XCTAssertThrowsError(
            try gpio.requestOutput(GPIOLineID(chip: "no-such-chip-label", offset: 3), activeLow: false, active: false)
        ) { error in
            guard case GPIOError.chipNotFound(let chip, let available) = error else {
                return XCTFail("expected chipNotFound, got \(error)")
            }
            XCTAssertEqual(chip, "no-such-chip-label")
            XCTAssertEqual(available, LinuxGPIO.availableChips())
            XCTAssertTrue("\(error)".contains("no-such-chip-label"))
        }
    }
}
