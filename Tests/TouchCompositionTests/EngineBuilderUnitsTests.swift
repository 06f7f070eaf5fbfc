import BoardConfig
import Gestures
import TouchComposition
import TouchService
import XCTest

/// Board files give lengths in points (1/160 inch); the engine works in panel pixels. On a panel
/// of 320 px per inch (800 px over 63.5 mm) every length doubles, and times are unchanged.
final class EngineBuilderUnitsTests: XCTestCase {
    func testLengthsAreConvertedFromPointsToPixels() throws {
        let text = """
            [panel]
            width = 800
            height = 480
            width_mm = 63.5
            height_mm = 38.1

            [controller]
            chip = "ft5x06"
            bus = "/dev/i2c-1"

            [[region]]
            name = "screen"
            frame = [0, 0, 800, 480]

            [[recognizer]]
            name = "tap"
            kind = "tap"
            region = "screen"
            max_movement = 10
            max_tap_distance = 45
            max_interval_ms = 250

            [[recognizer]]
            name = "press"
            kind = "long_press"
            region = "screen"
            allowable_movement = 12

            [[recognizer]]
            name = "pan"
            kind = "pan"
            region = "screen"
            min_distance = 15

            [[recognizer]]
            name = "swipe"
            kind = "swipe"
            region = "screen"
            min_distance = 50
            min_velocity = 300

            """
        let board = try BoardLoader.parse(text, file: "boards/units.toml", directory: "/nonexistent")
        XCTAssertEqual(board.panel.pointsToPixels, 2, accuracy: 1e-9)
        let engine = try EngineBuilder.build(board)
        let tap = try XCTUnwrap(engine.recognizer(named: "tap") as? TapGestureRecognizer)
        XCTAssertEqual(tap.maximumMovement, 20, accuracy: 1e-9)
        XCTAssertEqual(tap.maximumTapDistance, 90, accuracy: 1e-9)
        XCTAssertEqual(tap.maximumIntervalMicroseconds, 250_000)
        let press = try XCTUnwrap(engine.recognizer(named: "press") as? LongPressGestureRecognizer)
        XCTAssertEqual(press.allowableMovement, 24, accuracy: 1e-9)
        let pan = try XCTUnwrap(engine.recognizer(named: "pan") as? PanGestureRecognizer)
        XCTAssertEqual(pan.minimumDistance, 30, accuracy: 1e-9)
        let swipe = try XCTUnwrap(engine.recognizer(named: "swipe") as? SwipeGestureRecognizer)
        XCTAssertEqual(swipe.minimumDistance, 100, accuracy: 1e-9)
        XCTAssertEqual(swipe.minimumVelocity, 600, accuracy: 1e-9)
        XCTAssertEqual(engine.tapCountDistance, 90, accuracy: 1e-9)
    }
}
