import BoardConfig
import Gestures
import TouchComposition
import TouchOutputs
import XCTest

/// `EngineBuilder.names`: what the encoders print for an engine built from a board — each
/// recognizer's name, and for a stroke event the name of the gesture drawn (formats.md §2's
/// `"stroke"`), taken from the recognizer itself rather than from a type check.
final class EventNamesTests: XCTestCase {
    private let board = """
        [panel]
        width = 800
        height = 480

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

        [[recognizer]]
        name = "shapes"
        kind = "stroke"
        region = "screen"
        gestures = ["circle", "x"]

        [[recognizer]]
        name = "tick"
        kind = "checkmark"
        region = "screen"

        """

    private func strokeEvent(recognizer: Int, stroke: Int) -> GestureEvent {
        var e = GestureEvent(
            time: Instant(microseconds: 1_000), recognizer: recognizer, kind: .stroke, state: .recognized, region: 0,
            location: Point(x: 100, y: 100), touches: 1)
        e.stroke = stroke
        e.value = 0.9
        return e
    }

    /// A stroke recognizer's event names the gesture drawn; the names are the recognizer's whole
    /// template set (every template competes), in the set's order.
    func testAStrokeEventNamesTheGestureDrawn() throws {
        let engine = try EngineBuilder.build(try BoardLoader.parse(board, file: "names.toml", directory: "/"))
        let names = EngineBuilder.names(of: engine)
        XCTAssertEqual(names.recognizers, ["tap", "shapes", "tick"])
        XCTAssertEqual(names.strokes.count, 3)
        guard names.strokes.count == 3 else { return }
        XCTAssertEqual(names.strokes[1], StrokeTemplateSet.builtIn.names, "the stroke recognizer's templates")
        let circle = try XCTUnwrap(names.strokes[1].firstIndex(of: "circle"), "\(names.strokes[1])")
        let x = try XCTUnwrap(names.strokes[1].firstIndex(of: "x"))
        let encoder = EventJSONEncoder(names: names)
        XCTAssertTrue(
            encoder.line(for: strokeEvent(recognizer: 1, stroke: circle)).contains(#""stroke":"circle""#),
            encoder.line(for: strokeEvent(recognizer: 1, stroke: circle)))
        XCTAssertTrue(encoder.line(for: strokeEvent(recognizer: 1, stroke: x)).contains(#""stroke":"x""#))
    }

    /// A tap has no gesture names: a stroke index from it prints `null`, never another's name.
    func testATapHasNoGestureNames() throws {
        let engine = try EngineBuilder.build(try BoardLoader.parse(board, file: "names.toml", directory: "/"))
        let names = EngineBuilder.names(of: engine)
        guard names.strokes.count == 3 else { return XCTFail("\(names.strokes.count) recognizers") }
        XCTAssertEqual(names.strokes[0], [])
        let line = EventJSONEncoder(names: names).line(for: strokeEvent(recognizer: 0, stroke: 0))
        XCTAssertTrue(line.contains(#""stroke":null"#), line)
    }
}
