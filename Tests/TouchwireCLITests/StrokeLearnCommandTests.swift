import Foundation
import XCTest

/// `touchwire strokes learn` says what it did to the templates: strokes too small to be shapes
/// are named, and `--edit` says which templates it dropped, why, and when a whole gesture went.
final class StrokeLearnCommandTests: XCTestCase, TouchwireCommandLine {
    func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("learn-\(UUID().uuidString)-\(name)").path
    }

    /// A trace of one-finger strokes, each a list of points 10 ms apart, 1 s apart.
    func writeTrace(_ strokes: [[(Double, Double)]]) throws -> String {
        var lines = [#"{"touchwire_trace":1,"panel":{"width":240,"height":320}}"#]
        var t = 1_000_000
        for s in strokes {
            for (x, y) in s {
                lines.append(#"{"t_us":\#(t),"contacts":[{"id":0,"x":\#(x),"y":\#(y)}]}"#)
                t += 10_000
            }
            lines.append(#"{"t_us":\#(t),"contacts":[]}"#)
            t += 1_000_000
        }
        let path = temporary("trace.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testTapsAndWobblesAreNamedAsTooSmallToBeShapes() throws {
        let zigzag: [(Double, Double)] = (0..<12).map { i in
            let x: Double = 40 + 10 * Double(i)
            let y: Double = i % 2 == 0 ? 100 : 160
            return (x, y)
        }
        let tap = [(100.0, 100.0), (101, 100), (101, 101)]
        let trace = try writeTrace([zigzag, tap, zigzag])
        let out = temporary("shapes.jsonl")
        let r = try run(["strokes", "learn", trace, "--name", "zigzag", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(
            r.stderr.contains("touchwire: warning: \(trace): stroke 2 (zigzag) is too small to be a shape"), r.stderr)
        XCTAssertTrue(r.stderr.contains("a tap or a nudge"), r.stderr)
        XCTAssertFalse(r.stderr.contains("stroke 1 "), "a real zigzag is no warning: \(r.stderr)")
    }

    func testEditSaysWhichTemplatesItDroppedAndWhenAGestureIsGone() throws {
        // Three "down" strokes, and one "left" stroke that is really a down stroke: --edit drops
        // it (its nearest is a down) and with it every "left" template.
        let down: [(Double, Double)] = (0..<10).map { i in
            let y: Double = 40 + 12 * Double(i)
            return (120, y)
        }
        func shifted(_ dx: Double) -> [(Double, Double)] { down.map { p in (p.0 + dx, p.1) } }
        let trace = try writeTrace([down, shifted(30), shifted(60), down])
        let labels = temporary("labels.csv")
        try """
        gesture,t_start_us,t_end_us
        down,0,3500000
        left,3500000,9000000

        """.write(toFile: labels, atomically: true, encoding: .utf8)
        let out = temporary("shapes.jsonl")
        let r = try run(["strokes", "learn", trace, labels, "--edit", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("dropped 1 templates nearest to another gesture"), r.stdout)
        XCTAssertTrue(r.stdout.contains("1 × left (nearest: down)"), r.stdout)
        XCTAssertTrue(r.stderr.contains("--edit dropped every left template"), r.stderr)
    }
}
