import BoardConfig
import XCTest

/// Points → pixels: 1 pt = 1/160 inch; without physical sizes 1 pt = 1 px.
final class PanelTests: XCTestCase {
    func testWithoutMillimetresOnePointIsOnePixel() throws {
        let board = try TestBoards.load(TestBoards.text())
        XCTAssertEqual(board.panel.pointsToPixels, 1)
    }

    func testWithMillimetresAveragesBothAxes() throws {
        let panel = "[panel]\nwidth = 800\nheight = 480\nwidth_mm = 154.2\nheight_mm = 85.9\n"
        let p = try TestBoards.load(TestBoards.text(panel: panel)).panel
        let x = 800 / 154.2 * 25.4 / 160
        let y = 480 / 85.9 * 25.4 / 160
        XCTAssertEqual(p.pointsToPixels, (x + y) / 2, accuracy: 1e-12)
        XCTAssertEqual(p.pointsToPixels, 0.8553, accuracy: 1e-3)
    }

    func testA160DPIPanelIsOnePixelPerPoint() {
        // 160 px per inch on both axes.
        let p = PanelDescription(width: 160, height: 320, widthMillimetres: 25.4, heightMillimetres: 50.8)
        XCTAssertEqual(p.pointsToPixels, 1, accuracy: 1e-12)
    }

    func testMillimetresGoTogetherAndArePositive() {
        let one = TestBoards.issues(TestBoards.text(panel: "[panel]\nwidth = 800\nheight = 480\nwidth_mm = 154.2\n"))
        XCTAssertEqual(one.map(\.keyPath), ["panel.height_mm"])
        let negative = TestBoards.issues(
            TestBoards.text(panel: "[panel]\nwidth = 800\nheight = 480\nwidth_mm = -1\nheight_mm = 85.9\n"))
        XCTAssertEqual(negative.map(\.keyPath), ["panel.width_mm"])
    }

    func testBoardNameIsTheFileStem() throws {
        XCTAssertEqual(try TestBoards.load(TestBoards.text(), file: "boards/kiosk-7in.toml").name, "kiosk-7in")
    }
}
