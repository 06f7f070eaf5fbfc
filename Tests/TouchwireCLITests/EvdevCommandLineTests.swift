import BoardConfig
import Foundation
import TouchComposition
import TouchCore
import TouchService
import TouchTrace
import XCTest

// `touchwire probe` on an evdev board (the board itself: TouchCompositionTests/EvdevBoardTests).
extension CommandLineTests {
    /// `probe --board` on an evdev board starts its controller and prints the device.
    func testProbeOfASimulatedEvdevBoard() throws {
        let dir = try makeTemporaryDirectory(self)
        let text = simulatedBoardText(script: "demo", recognizers: ["tap"])
            .replacingOccurrences(of: "chip = \"ft6x36\"", with: "chip = \"evdev\"")
        let path = dir.appendingPathComponent("evdev.toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try run(["probe", "--board", path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout, "sim: evdev \"touchwire simulated touchscreen\" (sim, multi-touch, 10 slots)\n")
    }
}
