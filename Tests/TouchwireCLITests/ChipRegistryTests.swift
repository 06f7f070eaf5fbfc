import BoardConfig
import Foundation
import TouchComposition
import TouchCore
import TouchService
import XCTest

/// The registry of chip families (`ControllerChip`) is what everything else is derived from; these
/// tests catch a family that is declared but left out where derivation cannot reach: the docs'
/// key tables, `probe`, and the simulated pipeline. They run over every family, so a new one is
/// checked without a line here.
final class ChipRegistryTests: XCTestCase, TouchwireCommandLine {
    private func document(_ name: String) throws -> [String] {
        try String(contentsOf: repositoryRoot.appendingPathComponent("docs/\(name)"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
    }

    /// formats.md's `[controller]` table names every chip and its default address; controllers.md
    /// has a section (its register map) for every chip.
    func testEveryFamilyIsInTheDocsKeyTables() throws {
        let formats = try document("formats.md")
        let chipRow = try XCTUnwrap(formats.first { $0.hasPrefix("| `chip` | required:") }, "formats.md: no chip row")
        let addressRow = try XCTUnwrap(formats.first { $0.hasPrefix("| `address` |") }, "formats.md: no address row")
        let headings = try document("controllers.md").filter { $0.hasPrefix("## ") }
        for chip in ControllerChip.allCases {
            XCTAssertTrue(chipRow.contains("`\(chip.rawValue)`"), "formats.md's chip row does not name \(chip)")
            XCTAssertTrue(
                addressRow.lowercased().contains(chip.defaultAddress.description),
                "formats.md's address row does not give \(chip)'s default \(chip.defaultAddress)")
            XCTAssertTrue(
                headings.contains { $0.contains("\"\(chip.rawValue)\"") },
                "controllers.md has no section for chip = \"\(chip)\"")
        }
        XCTAssertTrue(chipRow.contains("`evdev`"), "formats.md's chip row does not name evdev")
    }

    /// `probe --sim` identifies every family at its default address (the candidates come from the
    /// registry; a family it skipped would be "no …" or missing).
    func testProbeFindsEveryFamilyOnTheSimulatedBus() throws {
        let result = try run(["probe", "--sim"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for chip in ControllerChip.allCases {
            let line = lines.first { $0.hasPrefix("sim \(chip.defaultAddress): ") }
            XCTAssertNotNil(line, "probe --sim tried nothing at \(chip)'s \(chip.defaultAddress):\n\(result.stdout)")
            XCTAssertFalse(line?.contains(": no ") ?? false, "probe --sim did not find \(chip): \(line ?? "")")
        }
    }

    /// A simulated board of every family turns a scripted tap into one `tap recognized` event: the
    /// factory builds its model and its driver, and the driver decodes the model's registers.
    func testEveryFamilyTurnsAScriptedTapIntoATap() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        for chip in ControllerChip.allCases {
            let path = dir.appendingPathComponent("\(chip).toml").path
            let text = simulatedBoardText(script: "tap.jsonl", recognizers: ["tap"])
                .replacingOccurrences(of: "chip = \"ft6x36\"", with: "chip = \"\(chip)\"")
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let board = try BoardLoader.load(path: path)
            XCTAssertEqual(board.controller?.chip, chip)
            let clock = ManualClock()
            let stdout = CollectingSink()
            let service = try Service(board: board, logger: quietLogger, stdout: stdout, clock: clock)
            XCTAssertTrue(service.driver.start(at: .zero), "\(chip) did not start")
            for ms in stride(from: Int64(0), through: 500, by: 10) {
                clock.now = .milliseconds(ms)
                service.driver.poll(at: clock.now)
                service.recognizer.step(now: clock.now)
                service.output.drain(clock: clock)
            }
            service.output.flush()
            let events = stdout.text.split(separator: "\n")
            XCTAssertEqual(events.count, 1, "\(chip): \(stdout.text)")
            XCTAssertTrue(
                events.first?.contains(#""recognizer":"tap","kind":"tap","state":"recognized""#) ?? false,
                "\(chip): \(stdout.text)")
        }
    }
}
