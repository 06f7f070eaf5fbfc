import BoardConfig
import Gestures
import TouchCore
import XCTest

/// `boards/sim-demo.toml` is the default board: it must load and say what its comments say.
final class SimDemoBoardTests: XCTestCase {
    func loadSimDemo() throws -> BoardDescription {
        let path = repositoryRoot() + "/boards/sim-demo.toml"
        do throws(BoardFileError) {
            return try BoardLoader.load(path: path)
        } catch {
            XCTFail("sim-demo rejected:\n\(error)")
            throw error
        }
    }

    func testLoadsWithPanelAndSimulatedController() throws {
        let board = try loadSimDemo()
        XCTAssertEqual(board.name, "sim-demo")
        XCTAssertEqual(board.panel.width, 800)
        XCTAssertEqual(board.panel.height, 480)
        XCTAssertEqual(board.panel.widthMillimetres, 154.2)
        XCTAssertEqual(board.panel.heightMillimetres, 85.9)
        XCTAssertEqual(board.controller?.chip, .ft6x36)
        XCTAssertEqual(board.controller?.bus, .simulated)
        XCTAssertEqual(board.controller?.address, I2CAddress(0x38))
        XCTAssertNil(board.controller?.interrupt)
        XCTAssertEqual(board.simulation, SimulationDescription(script: .demo, reportRateHz: 100, loop: true))
        XCTAssertEqual(board.outputs, [.stdout])
    }

    func testRegionsFormATreeUnderScreen() throws {
        let board = try loadSimDemo()
        XCTAssertEqual(board.regions.map(\.name), ["screen", "panel", "button"])
        XCTAssertEqual(board.rootRegion?.name, "screen")
        let button = try XCTUnwrap(board.region(named: "button"))
        XCTAssertEqual(button.parent, "screen")
        XCTAssertTrue(button.control)
        XCTAssertEqual(button.frame, Rect(x: 20, y: 400, width: 160, height: 60))
        XCTAssertEqual(board.region(named: "panel")?.parent, "screen")
    }

    func testRecognizers() throws {
        let board = try loadSimDemo()
        XCTAssertEqual(board.recognizers.map(\.name), ["tap", "double-tap", "long-press", "pan"])
        XCTAssertEqual(board.recognizers.map(\.kind), [.tap, .tap, .longPress, .pan])
        XCTAssertEqual(board.recognizer(named: "tap")?.requireFail, ["double-tap"])
        guard case .tap(let p)? = board.recognizer(named: "double-tap")?.parameters else {
            return XCTFail("double-tap is not a tap")
        }
        XCTAssertEqual(p.taps, 2)
        XCTAssertEqual(board.recognizer(named: "pan")?.region, "panel")
    }
}
