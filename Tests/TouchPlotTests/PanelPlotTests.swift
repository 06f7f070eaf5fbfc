import BoardConfig
import Foundation
import Gestures
import TouchComposition
import TouchCore
import TouchPlot
import TouchService
import TouchTrace
import XCTest

/// `touchwire plot`: one path per touch and one mark per event, the events being replay's own.
final class PanelPlotTests: XCTestCase {
    func testDemoPlotIsWellFormedDeterministicWithAPathPerTouchAndAMarkPerReplayEvent() throws {
        let board = try loadBoard("boards/sim-demo.toml")
        let (recording, replayed) = try recordAndReplay(demoTrace(), board: board)
        XCTAssertFalse(replayed.isEmpty)
        let svg = PanelPlot.render(recording)
        let again = PanelPlot.render(try recordAndReplay(demoTrace(), board: board).0)
        XCTAssertEqual(svg, again, "the same trace and board must give the same bytes")
        let elements = parseXML(svg)
        // The demo is a tap, a double tap (two touches), a long press and a pan: five touches.
        let touches = elements.filter { $0.0 == "polyline" && $0.1["class"] == "touch" }
        XCTAssertEqual(touches.count, 5)
        XCTAssertEqual(Set(touches.map { $0.1["stroke"] ?? "" }).count, 5, "one colour per touch")
        let marks = elements.filter { $0.0 == "g" && $0.1["class"] == "event" }
        let drawn = marks.map { "\($0.1["data-t-us"]!) \($0.1["data-recognizer"]!) \($0.1["data-state"]!)" }
        XCTAssertEqual(drawn, eventKeys(replayed), "a mark per event replay prints, in replay's order")
        // The panel keeps its aspect ratio (800 × 480 → 720 × 432) and the control is marked.
        let panel = try XCTUnwrap(elements.first { $0.0 == "rect" && $0.1["fill"] == "#fafafa" })
        XCTAssertEqual(panel.1["width"], "720")
        XCTAssertEqual(panel.1["height"], "432")
        XCTAssertTrue(svg.contains(">button (control)</text>"))
        XCTAssertTrue(svg.contains(">tap recognized</text>"))
        XCTAssertTrue(svg.contains(">pan began</text>"))
        XCTAssertTrue(svg.contains(">Legend</text>"))
        XCTAssertFalse(svg.contains("<script"))
        XCTAssertFalse(svg.contains("http://") && svg.contains("href"), "no external references")
    }

    func testWindowKeepsOnlyWhatHappenedInsideIt() throws {
        let board = try loadBoard("boards/sim-demo.toml")
        let (recording, replayed) = try recordAndReplay(demoTrace(), board: board)
        // The long press: down at 2 860 ms for 800 ms; its began fires 500 ms in.
        let window = PlotWindow(from: 2_800_000, to: 3_700_000)
        let elements = parseXML(PanelPlot.render(recording, window: window))
        XCTAssertEqual(elements.filter { $0.1["class"] == "touch" }.count, 1)
        let inside = replayed.filter { line in
            MonitorEvent.parse(line[...]).map { window.contains($0.time) } ?? false
        }
        let marks = elements.filter { $0.0 == "g" && $0.1["class"] == "event" }
        XCTAssertEqual(marks.count, inside.count)
        XCTAssertTrue(marks.contains { $0.1["data-recognizer"] == "long-press" && $0.1["data-state"] == "began" })
        XCTAssertFalse(marks.contains { $0.1["data-recognizer"] == "pan" })
    }

    func testSwipeAndPanGetArrows() throws {
        // A fast stroke to the right: a swipe (direction arrow) and a pan (velocity arrows).
        var text = #"{"touchwire_trace":1,"panel":{"width":400,"height":200}}"# + "\n"
        for i in 0...10 {
            text += #"{"t_us":\#(100_000 + i * 10_000),"contacts":[{"id":0,"x":\#(50 + i * 20),"y":100}]}"# + "\n"
        }
        text += #"{"t_us":210000,"contacts":[]}"# + "\n"
        let trace = try TraceReader.parse(text: text, name: "swipe")
        let board = try BoardLoader.parse(
            """
            [panel]
            width = 400
            height = 200
            [[region]]
            name = "screen"
            frame = [0, 0, 400, 200]
            [[recognizer]]
            name = "swipe"
            kind = "swipe"
            region = "screen"
            [[recognizer]]
            name = "pan"
            kind = "pan"
            region = "screen"
            simultaneous = ["swipe"]
            """, file: "swipe.toml", directory: NSTemporaryDirectory())
        let (recording, replayed) = try recordAndReplay(trace, board: board)
        XCTAssertTrue(replayed.contains { $0.contains(#""direction":"right""#) }, replayed.joined())
        let svg = PanelPlot.render(recording)
        let elements = parseXML(svg)
        let swipe = try XCTUnwrap(svg.range(of: #"data-recognizer="swipe" data-state="recognized">"#))
        let swipeGroup = String(svg[swipe.upperBound...]).components(separatedBy: "</g>")[0]
        XCTAssertTrue(swipeGroup.contains(">swipe recognized right</text>"))
        XCTAssertTrue(swipeGroup.contains("<polygon"), "the swipe's arrow head")
        let marks = elements.filter { $0.0 == "g" && $0.1["class"] == "event" }
        XCTAssertEqual(marks.count, replayed.count)
        // Every pan event with a velocity has an arrow: a line and a head inside its group.
        let panChanged = svg.components(separatedBy: #"data-recognizer="pan" data-state="changed">"#).dropFirst()
        XCTAssertFalse(panChanged.isEmpty)
        for group in panChanged {
            let body = group.components(separatedBy: "</g>")[0]
            XCTAssertTrue(body.contains("<line") && body.contains("<polygon"), body)
        }
    }

    /// The README's picture is what the command makes today, byte for byte.
    func testReadmePictureIsUpToDate() throws {
        let trace = try TraceReader.read(path: repositoryRoot.appendingPathComponent(ReadmePicture.trace).path)
        let board = try loadBoard(ReadmePicture.board)
        let recording = PlotRecording.record(trace: trace, engine: try EngineBuilder.build(board))
        let svg = PanelPlot.render(recording, window: PlotWindow(from: ReadmePicture.from, to: ReadmePicture.to))
        let committed = try String(
            contentsOf: repositoryRoot.appendingPathComponent(ReadmePicture.svg), encoding: .utf8)
        XCTAssertTrue(
            svg == committed,
            "docs/img/demo-trace.svg is stale; regenerate it with: touchwire plot \(ReadmePicture.trace) "
                + "--board \(ReadmePicture.board) --from \(ReadmePicture.from) --to \(ReadmePicture.to) "
                + "-o \(ReadmePicture.svg)"
        )
        XCTAssertLessThan(committed.utf8.count, 100_000, "small enough to attach to a bug report")
        let elements = parseXML(committed)
        XCTAssertEqual(elements.filter { $0.1["class"] == "touch" }.count, 4)
        XCTAssertTrue(elements.contains { $0.1["data-recognizer"] == "check" && $0.1["data-state"] == "recognized" })
    }

    /// A real renderer (librsvg's rsvg-convert) draws the README picture, and it is not blank.
    func testReadmePictureRendersToAPictureThatIsNotBlank() throws {
        guard let rsvg = findTool("rsvg-convert"), let pngtopnm = findTool("pngtopnm") else {
            XCTFail("rsvg-convert (librsvg2-bin) and pngtopnm (netpbm) are needed: run tools/install-deps")
            return
        }
        let dir = try makeTemporaryDirectory(self)
        let png = dir.appendingPathComponent("demo.png").path
        let render = try runProcess(
            rsvg, [repositoryRoot.appendingPathComponent(ReadmePicture.svg).path, "-o", png])
        XCTAssertEqual(render.status, 0, render.stderr)
        let ppm = try runProcess(pngtopnm, ["-mix", "-background", "white", png])
        XCTAssertEqual(ppm.status, 0, ppm.stderr)
        let image = try XCTUnwrap(PPM(ppm.stdout))
        XCTAssertGreaterThan(image.width, 600)
        XCTAssertGreaterThan(image.height, 400)
        var nonWhite = 0
        var coloured = 0
        for i in 0..<(image.width * image.height) {
            let (r, g, b) = image.pixel(i)
            if r < 250 || g < 250 || b < 250 { nonWhite += 1 }
            if max(r, g, b) - min(r, g, b) > 80 { coloured += 1 }
        }
        let total = image.width * image.height
        XCTAssertGreaterThan(nonWhite, total / 20, "at least 5 % of the picture is drawn")
        XCTAssertGreaterThan(coloured, 2000, "the touch paths and markers are in colour")
    }
}

/// A binary PPM (P6, maxval 255) as pngtopnm writes it.
struct PPM {
    var width: Int
    var height: Int
    var bytes: [UInt8]
    var offset: Int

    init?(_ data: Data) {
        bytes = Array(data)
        var fields: [Int] = []
        var i = 2
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "6") else { return nil }
        while fields.count < 3 && i < bytes.count {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 {
                i += 1
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "#") {
                while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                continue
            }
            var value = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                value = value * 10 + Int(bytes[i] - 0x30)
                i += 1
            }
            fields.append(value)
        }
        guard fields.count == 3, fields[2] == 255 else { return nil }
        width = fields[0]
        height = fields[1]
        offset = i + 1
        guard bytes.count >= offset + width * height * 3 else { return nil }
    }

    func pixel(_ index: Int) -> (Int, Int, Int) {
        let o = offset + index * 3
        return (Int(bytes[o]), Int(bytes[o + 1]), Int(bytes[o + 2]))
    }
}
