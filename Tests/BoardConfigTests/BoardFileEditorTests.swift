import BoardConfig
import XCTest

/// `touchwire calibrate --write`: the calibration line changes, nothing else does.
final class BoardFileEditorTests: XCTestCase {
    let array = "[71227, -2431, -2235225, 1647, 74425, -1862083, 65536]"

    let withoutCalibration = """
        # A board.   Comments   keep their spacing.
        [panel]
        width = 800
        height = 480

        [controller]   # the touch chip
        chip = "ft6x36"          # required
        bus = "sim"
        # calibration = [1, 0, 0, 0, 1, 0, 1]   (commented out: left alone)
        interrupt = { chip = "sim", line = 4 }
        swap_xy = false

        # ---- the next section
        [simulation]
        script = "calibration"

        [[region]]
        name = "screen"
        frame = [0, 0, 800, 480]

        [[recognizer]]
        name = "tap"
        kind = "tap"
        region = "screen"

        """

    func testAddsTheKeyAfterTheLastControllerKey() throws {
        let out = try BoardFileEditor.settingCalibration(array, in: withoutCalibration)
        let expected = withoutCalibration.replacingOccurrences(
            of: "swap_xy = false\n", with: "swap_xy = false\ncalibration = \(array)\n")
        XCTAssertEqual(out, expected)
        let board = try BoardLoader.parse(out, file: "t.toml", directory: "/tmp")
        XCTAssertEqual(board.controller?.calibration, [71227, -2431, -2_235_225, 1647, 74425, -1_862_083, 65536])
    }

    func testReplacesAnExistingLineKeepingItsSpacingAndComment() throws {
        let text = withoutCalibration.replacingOccurrences(
            of: "swap_xy = false\n", with: "swap_xy = false\n  calibration   =  [1, 0, 0, 0, 1, 0, 1]   # old one\n")
        let out = try BoardFileEditor.settingCalibration(array, in: text)
        XCTAssertEqual(
            out,
            withoutCalibration.replacingOccurrences(
                of: "swap_xy = false\n", with: "swap_xy = false\n  calibration   =  \(array)   # old one\n"))
        // Idempotent: writing the same numbers again changes nothing.
        XCTAssertEqual(try BoardFileEditor.settingCalibration(array, in: out), out)
    }

    func testReplacesAMultiLineArray() throws {
        let text = withoutCalibration.replacingOccurrences(
            of: "bus = \"sim\"\n",
            with: "bus = \"sim\"\ncalibration = [\n  1, 0, 0,   # x\n  0, 1, 0,\n  1,\n] # tail\n")
        let out = try BoardFileEditor.settingCalibration(array, in: text)
        XCTAssertEqual(
            out,
            withoutCalibration.replacingOccurrences(
                of: "bus = \"sim\"\n", with: "bus = \"sim\"\ncalibration = \(array) # tail\n"))
    }

    func testOnlyTheControllerSectionIsTouched() throws {
        // A `calibration` key elsewhere (invalid, but it must not be the one edited) and CRLF line endings.
        let text = withoutCalibration.replacingOccurrences(
            of: "[simulation]\n", with: "[simulation]\ncalibration = 3\n"
        )
        .replacingOccurrences(of: "\n", with: "\r\n")
        let out = try BoardFileEditor.settingCalibration(array, in: text)
        XCTAssertEqual(
            out,
            text.replacingOccurrences(of: "swap_xy = false\r\n", with: "swap_xy = false\r\ncalibration = \(array)\r\n"))
    }

    func testLastSectionWithoutTrailingNewline() throws {
        let text = "[panel]\nwidth = 800\nheight = 480\n\n[controller]\nchip = \"ft6x36\"\nbus = \"sim\""
        let out = try BoardFileEditor.settingCalibration(array, in: text)
        XCTAssertEqual(out, text + "\ncalibration = \(array)")
    }

    func testNoControllerTableIsAnError() {
        XCTAssertThrowsError(try BoardFileEditor.settingCalibration(array, in: "[panel]\nwidth = 800\n"))
        XCTAssertThrowsError(
            try BoardFileEditor.settingCalibration(array, in: "[controller]\nchip = \"ft6x36\"\ncalibration = 7\n"))
    }

    /// The shipped boards: adding a calibration changes exactly one line.
    func testShippedBoardsGainExactlyOneLine() throws {
        let root = repositoryRoot.appendingPathComponent("boards")
        for name in ["sim-demo.toml", "pi-ft6236.toml", "pi-gt911-7inch.toml", "pi-cst816s-round.toml"] {
            let path = root.appendingPathComponent(name).path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let out = try BoardFileEditor.settingCalibration(array, in: text)
            var a = text.components(separatedBy: "\n")
            let b = out.components(separatedBy: "\n")
            if text.contains("\ncalibration =") {
                XCTAssertEqual(a.count, b.count, name)
            } else {
                XCTAssertEqual(b.count, a.count + 1, name)
                let inserted = try XCTUnwrap(b.firstIndex(of: "calibration = \(array)"), name)
                a.insert("calibration = \(array)", at: inserted)
                XCTAssertEqual(a, b, name)
            }
            let board = try BoardLoader.parse(out, file: path, directory: root.path)
            XCTAssertEqual(board.controller?.calibration?.last, 65536, name)
        }
    }
}
