import BoardConfig
import Gestures
import TouchComposition
import TouchOutputs
import TouchService
import TouchTrace
import XCTest

/// `kind = "edge_pan"` on the wire: what a board's edge pan emits through the replay's JSON
/// encoder, pinned line for line (issue 28: edge_pan became a kind of its own in the board's
/// registry, and its events had to stay the pan events they were, `formats.md` §2).
final class EdgePanWireTests: XCTestCase {
    /// A region away from the origin with a right-edge pan and a bottom-edge pan on it.
    static let board = """
        [panel]
        width = 800
        height = 480

        [[region]]
        name = "screen"
        frame = [0, 0, 800, 480]

        [[region]]
        name = "drawer"
        parent = "screen"
        frame = [500, 100, 200, 300]

        [[recognizer]]
        name = "from-right"
        kind = "edge_pan"
        region = "drawer"
        edges = ["right"]

        [[recognizer]]
        name = "from-bottom"
        kind = "edge_pan"
        region = "drawer"
        edges = ["bottom"]
        edge_band = 15
        """

    /// One finger landing 5 px inside the drawer's right edge (x = 700) and drawn left, then one
    /// landing 5 px above its bottom edge (y = 400) and drawn up.
    static let trace = """
        {"touchwire_trace":1,"panel":{"width":800,"height":480}}
        {"t_us":0,"contacts":[]}
        {"t_us":100000,"contacts":[{"id":0,"x":695,"y":250}]}
        {"t_us":110000,"contacts":[{"id":0,"x":685,"y":251}]}
        {"t_us":120000,"contacts":[{"id":0,"x":670,"y":252}]}
        {"t_us":130000,"contacts":[{"id":0,"x":650,"y":253}]}
        {"t_us":140000,"contacts":[]}
        {"t_us":500000,"contacts":[{"id":1,"x":600,"y":395}]}
        {"t_us":510000,"contacts":[{"id":1,"x":601,"y":380}]}
        {"t_us":520000,"contacts":[{"id":1,"x":602,"y":360}]}
        {"t_us":530000,"contacts":[]}
        """

    /// Each line written, without its newline.
    final class Lines: LineSink {
        var lines: [String] = []
        func write(_ line: UnsafeRawBufferPointer) {
            var text = String(decoding: line, as: UTF8.self)
            if text.hasSuffix("\n") { text.removeLast() }
            lines.append(text)
        }
    }

    /// The events of the two edge pans, as they were before edge_pan was a registered kind:
    /// `"kind":"pan"` with translation and velocity, told apart by the recognizer's name.
    static let expected = [
        #"{"t_us":110000,"recognizer":"from-right","kind":"pan","state":"began","#
            + #""region":"drawer","x":685.0,"y":251.0,"touches":1,"#
            + #""translation_x":-10.0,"translation_y":1.0,"velocity_x":-1000.0,"velocity_y":100.0}"#,
        #"{"t_us":120000,"recognizer":"from-right","kind":"pan","state":"changed","#
            + #""region":"drawer","x":670.0,"y":252.0,"touches":1,"#
            + #""translation_x":-25.0,"translation_y":2.0,"#
            + #""velocity_x":-1250.0000000000002,"velocity_y":100.00000000000003}"#,
        #"{"t_us":130000,"recognizer":"from-right","kind":"pan","state":"changed","#
            + #""region":"drawer","x":650.0,"y":253.0,"touches":1,"#
            + #""translation_x":-45.0,"translation_y":3.0,"velocity_x":-1500.0,"velocity_y":100.00000000000003}"#,
        #"{"t_us":140000,"recognizer":"from-right","kind":"pan","state":"ended","#
            + #""region":"drawer","x":650.0,"y":253.0,"touches":1,"#
            + #""translation_x":-45.0,"translation_y":3.0,"velocity_x":-1500.0,"velocity_y":100.00000000000003}"#,
        #"{"t_us":510000,"recognizer":"from-bottom","kind":"pan","state":"began","#
            + #""region":"drawer","x":601.0,"y":380.0,"touches":1,"#
            + #""translation_x":1.0,"translation_y":-15.0,"velocity_x":100.0,"velocity_y":-1499.9999999999998}"#,
        #"{"t_us":520000,"recognizer":"from-bottom","kind":"pan","state":"changed","#
            + #""region":"drawer","x":602.0,"y":360.0,"touches":1,"#
            + #""translation_x":2.0,"translation_y":-35.0,"#
            + #""velocity_x":100.00000000000003,"velocity_y":-1750.0000000000002}"#,
        #"{"t_us":530000,"recognizer":"from-bottom","kind":"pan","state":"ended","#
            + #""region":"drawer","x":602.0,"y":360.0,"touches":1,"#
            + #""translation_x":2.0,"translation_y":-35.0,"#
            + #""velocity_x":100.00000000000003,"velocity_y":-1750.0000000000002}"#,
    ]

    func testEdgePanEventsAreThePanEventsTheyWere() throws {
        let board = try BoardLoader.parse(Self.board, file: "edge.toml", directory: "/")
        let engine = try EngineBuilder.build(board)
        let trace = try TraceReader.parse(text: Self.trace)
        let sink = Lines()
        Replay.run(trace: trace, engine: engine, delivery: false, output: sink)
        XCTAssertEqual(sink.lines.count, Self.expected.count)
        for (got, want) in zip(sink.lines, Self.expected) { XCTAssertEqual(got, want) }
    }
}
