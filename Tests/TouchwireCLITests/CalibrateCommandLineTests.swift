import BoardConfig
import Foundation
import TouchComposition
import TouchCore
import TouchDrivers
import TouchService
import TouchSimulation
import XCTest

// `touchwire calibrate` as a user runs it (the solver and board writer: TouchCompositionTests).
/// The built executable: `touchwire calibrate --write` on a simulated board.
extension CommandLineTests {
    func testCalibrateWritesTheBoardFileAndKeepsEverythingElse() throws {
        let dir = try makeTemporaryDirectory(self)
        let original = try String(contentsOfFile: demoBoard, encoding: .utf8)
            .replacingOccurrences(of: #"script = "demo"  "#, with: #"script = "calibration""#)
        XCTAssertTrue(original.contains(#"script = "calibration""#))
        let path = dir.appendingPathComponent("board.toml").path
        try original.write(toFile: path, atomically: true, encoding: .utf8)

        let dry = try run(["calibrate", "--board", path])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), original, "without --write nothing changes")
        let lines = dry.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, dry.stdout)
        XCTAssertTrue(lines[0].hasPrefix("calibration = ["), dry.stdout)
        XCTAssertTrue(lines[0].hasSuffix(", 65536]"), dry.stdout)
        XCTAssertTrue(lines[1].hasPrefix("# residual: max 0."), dry.stdout)
        XCTAssertTrue(dry.stderr.contains("touch the top-left target at (80, 48) and lift"), dry.stderr)
        XCTAssertTrue(dry.stderr.contains("touch the centre target at (400, 240) and lift"), dry.stderr)
        XCTAssertTrue(dry.stderr.contains("press rejected: the finger moved"), dry.stderr)

        let written = try run(["calibrate", "--board", path, "--write"])
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(written.stdout, dry.stdout, "deterministic")
        let after = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(
            after, original.replacingOccurrences(of: "invert_y = false\n", with: "invert_y = false\n\(lines[0])\n"))
        let validate = try run(["validate", path])
        XCTAssertEqual(validate.status, 0, validate.stderr)

        // Again on the now-calibrated board: same numbers (capture is raw), the line replaced, not added.
        let again = try run(["calibrate", "--board", path, "--write"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, dry.stdout)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), after)

        // A fit over --max-residual is refused: exit 1, the numbers on stderr only, nothing written.
        let strict = try run(["calibrate", "--board", path, "--write", "--max-residual", "0.001"])
        XCTAssertEqual(strict.status, 1, strict.stderr)
        XCTAssertEqual(strict.stdout, "", "a refused fit is not printed like an accepted one")
        XCTAssertTrue(strict.stderr.contains("refused: calibration = ["), strict.stderr)
        XCTAssertTrue(strict.stderr.contains("touchwire: the fit is off by"), strict.stderr)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), after)

        // The shipped demo board (script = "demo", which presses no targets): calibrate plays the
        // built-in calibration presses, also for --points 9, and says so.
        let demoCopy = dir.appendingPathComponent("demo.toml").path
        let demoText = try String(contentsOfFile: demoBoard, encoding: .utf8)
        try demoText.write(toFile: demoCopy, atomically: true, encoding: .utf8)
        let demo = try run(["calibrate", "--board", demoCopy, "--points", "9"])
        XCTAssertEqual(demo.status, 0, demo.stderr)
        XCTAssertTrue(demo.stderr.contains("playing the built-in calibration presses"), demo.stderr)
        XCTAssertTrue(demo.stderr.contains("touch the bottom-right target"), demo.stderr)
        XCTAssertTrue(demo.stdout.contains("over 9 points"), demo.stdout)
        XCTAssertEqual(try String(contentsOfFile: demoCopy, encoding: .utf8), demoText)
    }

    /// `touchwire calibrate` on every input the service reads, each on its simulated twin: an
    /// input device and a GT911 with INT and reset wired print exactly what the FT6x36 demo board
    /// prints (one pipeline, no path of its own). On the old code the GT911's reset put its
    /// script ahead of the reads: 10 samples a press instead of 20, and a fit half a pixel off.
    func testCalibrateGivesTheSameNumbersOnEveryInput() throws {
        let dir = try makeTemporaryDirectory(self)
        let demoText = try String(contentsOfFile: demoBoard, encoding: .utf8)
        let chipLine = #"chip = "ft6x36" "#
        XCTAssertTrue(demoText.contains(chipLine))
        XCTAssertTrue(demoText.contains("\npoll_interval_ms = 10"))
        let variants = [
            ("evdev", demoText.replacingOccurrences(of: chipLine, with: #"chip = "evdev" "#)),
            (
                "gt911",
                demoText.replacingOccurrences(of: chipLine, with: #"chip = "gt911" "#)
                    .replacingOccurrences(
                        of: "\npoll_interval_ms = 10",
                        with: "\ninterrupt = { chip = \"sim\", line = 40 }\nreset = { chip = \"sim\", line = 41 }"
                            + "\npoll_interval_ms = 10")
            ),
        ]
        let reference = try run(["calibrate", "--board", demoBoard])
        XCTAssertEqual(reference.status, 0, reference.stderr)
        XCTAssertTrue(reference.stdout.hasPrefix("calibration = ["), reference.stdout)
        XCTAssertTrue(reference.stderr.contains("median of 20 samples"), reference.stderr)
        for (name, text) in variants {
            let path = dir.appendingPathComponent("\(name).toml").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let result = try run(["calibrate", "--board", path])
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            XCTAssertEqual(result.stdout, reference.stdout, name)
            XCTAssertEqual(result.stderr.components(separatedBy: "median of 20 samples").count, 6, result.stderr)
            let ready = "controller ready: \(name == "evdev" ? "evdev" : "GT911")"
            XCTAssertTrue(result.stderr.contains(ready), result.stderr)
        }
    }
}
