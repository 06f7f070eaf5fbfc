import BoardConfig
import Foundation
import TouchCore
import XCTest

/// `[controller]` keys of the driver layer: calibration, release watchdog, minimum contact,
/// report rate; and the real-hardware boards in `boards/`.
final class DriverKeyTests: XCTestCase {
    private func hardware(_ extra: String, chip: String = "ft6x36") -> String {
        "[controller]\nchip = \"\(chip)\"\nbus = \"/dev/i2c-1\"\n" + extra + "\n"
    }

    func testDefaults() throws {
        let c = try XCTUnwrap(TestBoards.load(TestBoards.text()).controller)
        XCTAssertNil(c.calibration)
        XCTAssertEqual(c.releaseTimeoutMilliseconds, 10_000)
        XCTAssertEqual(c.minContactMilliseconds, 0)
        XCTAssertNil(c.reportRate)
    }

    func testKeys() throws {
        let text = TestBoards.text(
            hardware: hardware(
                "calibration = [65536, 0, 0, 0, 65536, 0, 65536]\nrelease_timeout_ms "
                    + "= 0\nmin_contact_ms = 30\nreport_rate = 60"
            ))
        let c = try XCTUnwrap(TestBoards.load(text).controller)
        XCTAssertEqual(c.calibration, [65536, 0, 0, 0, 65536, 0, 65536])
        XCTAssertEqual(c.releaseTimeoutMilliseconds, 0)
        XCTAssertEqual(c.minContactMilliseconds, 30)
        XCTAssertEqual(c.reportRate, 60)
    }

    func testBadValuesAreNamed() {
        let cases: [(String, String, String)] = [
            ("calibration = [1, 0, 0]", "controller.calibration", "7 numbers"),
            ("calibration = [1, 0, 0, 0, 1, 0, 0]", "controller.calibration", "a6"),
            ("release_timeout_ms = 50", "controller.release_timeout_ms", "at least 100"),
            ("min_contact_ms = 900", "controller.min_contact_ms", "between 0 and 500"),
        ]
        for (line, path, words) in cases {
            let issues = TestBoards.issues(TestBoards.text(hardware: hardware(line)))
            XCTAssertTrue(
                issues.contains { $0.description.contains(path) && $0.description.contains(words) },
                "\(line): \(issues)")
        }
        let rate = TestBoards.issues(TestBoards.text(hardware: hardware("report_rate = 100", chip: "gt911")))
        XCTAssertTrue(rate.contains { $0.description.contains("report_rate") }, "\(rate)")
    }

    func testRealHardwareBoardsDescribeTheirWiring() throws {
        let root = repositoryRoot
        let expected: [(String, ControllerChip, UInt16)] = [
            ("pi-ft6236.toml", .ft6x36, 0x38), ("pi-gt911-7inch.toml", .gt911, 0x5D),
            ("pi-cst816s-round.toml", .cst816s, 0x15),
        ]
        for (file, chip, address) in expected {
            let path = root.appendingPathComponent("boards/\(file)").path
            let board = try BoardLoader.load(path: path)
            let c = try XCTUnwrap(board.controller, file)
            XCTAssertEqual(c.chip, chip, file)
            XCTAssertEqual(c.address, I2CAddress(address), file)
            XCTAssertEqual(c.bus, .device("/dev/i2c-1"), file)
            XCTAssertNotNil(c.interrupt, file)
            XCTAssertNotNil(c.reset, file)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            for pin in ["SDA", "SCL", "INT", "RST", "pin 3", "pin 5"] {
                XCTAssertTrue(text.contains(pin), "\(file) documents \(pin)")
            }
        }
    }
}
