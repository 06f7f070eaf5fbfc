import Gestures
import TouchCore
import XCTest

/// `kind = "edge_pan"` (UIScreenEdgePanGestureRecognizer) on the 800 × 480 harness screen.
final class EdgePanTests: XCTestCase {
    func bottomEdge() -> (EngineHarness, EdgePanGestureRecognizer) {
        let h = EngineHarness()
        let r = EdgePanGestureRecognizer(name: "edge", edges: .bottom, edgeBand: 20, minimumDistance: 10)
        h.add(r)
        return (h, r)
    }

    // S3: a touch landing in the bottom band and moving up is a continuous pan: began, changed, ended.
    func testSwipeUpFromTheBottomEdgeBeginsAndEnds() {
        let (h, r) = bottomEdge()
        h.frame(0, (0, 400, 470))
        XCTAssertEqual(r.landedEdge, .bottom)
        h.frame(10, (0, 400, 462))
        h.frame(20, (0, 401, 440))
        h.frame(30, (0, 402, 400))
        h.frame(40)
        h.finish()
        XCTAssertEqual(h.log, ["edge:began@20", "edge:changed@30", "edge:ended@40"])
        XCTAssertEqual(h.sink.events.first?.kind, .pan, "an edge pan's events are pan events")
        XCTAssertEqual(h.sink.events.last?.translation.y, -70)
    }

    // S1/S6: a touch landing outside every band fails the recognizer at once: no event at all.
    func testTouchLandingAwayFromTheEdgeNeverBegins() {
        let (h, _) = bottomEdge()
        h.frame(0, (0, 400, 300))
        h.frame(10, (0, 400, 200))
        h.frame(20, (0, 400, 100))
        h.frame(30)
        h.finish()
        XCTAssertEqual(h.log, [])
    }

    // S15: a recognizer that requires the edge pan to fail is not held up by a touch far from the edge.
    func testRecognizerWaitingForTheEdgePanIsReleasedAtOnceAwayFromTheEdge() {
        let (h, edge) = bottomEdge()
        let tap = TapGestureRecognizer(name: "tap")
        tap.require(toFail: edge)
        h.add(tap)
        h.frame(0, (0, 400, 240))
        h.frame(50)
        h.finish()
        XCTAssertEqual(h.log, ["tap:recognized@50"])
    }

    func testMovingAlongOrTowardTheEdgeFails() {
        let (h, r) = bottomEdge()
        h.frame(0, (0, 400, 470))
        h.frame(10, (0, 430, 468))  // along the edge
        h.frame(20, (0, 400, 400))
        h.frame(30)
        h.finish()
        XCTAssertEqual(h.log, [])
        XCTAssertNil(r.landedEdge, "reset after the sequence")

        let (h2, _) = bottomEdge()
        h2.frame(0, (0, 400, 460))
        h2.frame(10, (0, 400, 475))  // toward the edge, then away: too late
        h2.frame(20, (0, 400, 478))
        h2.frame(30, (0, 400, 400))
        h2.frame(40)
        h2.finish()
        XCTAssertEqual(h2.log, [])
    }

    func testSeveralEdgesAndTheNearestInACorner() {
        let h = EngineHarness()
        let r = EdgePanGestureRecognizer(name: "side", edges: [.left, .right], edgeBand: 20)
        h.add(r)
        h.frame(0, (0, 795, 240))
        XCTAssertEqual(r.landedEdge, .right)
        h.frame(10, (0, 760, 242))
        h.frame(20)
        h.finish()
        XCTAssertEqual(h.log, ["side:began@10", "side:ended@20"])
        let corner = EdgePanGestureRecognizer(name: "c", edges: .all, edgeBand: 20)
        XCTAssertEqual(corner.edge(at: Point(x: 3, y: 470), in: Rect(x: 0, y: 0, width: 800, height: 480)), .left)
        XCTAssertEqual(corner.edge(at: Point(x: 15, y: 478), in: Rect(x: 0, y: 0, width: 800, height: 480)), .bottom)
        XCTAssertNil(corner.edge(at: Point(x: 400, y: 240), in: Rect(x: 0, y: 0, width: 800, height: 480)))
    }

    // S23: cancels_touches (the default): once the edge pan begins, the region's touch is cancelled.
    func testBeganEdgePanCancelsTheRegionsTouch() {
        let (h, _) = bottomEdge()
        h.frame(0, (0, 400, 470))
        h.frame(10, (0, 400, 440))
        h.frame(20, (0, 400, 420))
        h.frame(30)
        h.finish()
        XCTAssertEqual(h.deliveries, ["began", "cancelled"])
    }

    // A second finger is more than the edge pan's one touch: it fails (S3 never begins).
    func testSecondFingerFailsTheEdgePan() {
        let (h, _) = bottomEdge()
        h.frame(0, (0, 400, 470))
        h.frame(5, (0, 400, 470), (1, 200, 200))
        h.frame(10, (0, 400, 440), (1, 200, 170))
        h.frame(20)
        h.finish()
        XCTAssertEqual(h.log, [])
    }

    /// Every edge is measured from its region's own frame, not the screen's: on a panel whose
    /// right-hand region starts at x = 500, the right band is at its right edge (x 780–800), the
    /// left band at x 500–520, the top band at its top (y 100–120), and a touch at the screen's
    /// left edge or top is not in the region's band. S1.
    func testEdgesOfARegionAwayFromTheOriginAreItsOwn() {
        for (edge, start, swipe): (RegionEdges, Point, Point) in [
            (.right, Point(x: 795, y: 300), Point(x: -80, y: 0)), (.left, Point(x: 505, y: 300), Point(x: 80, y: 0)),
            (.top, Point(x: 650, y: 105), Point(x: 0, y: 80)), (.bottom, Point(x: 650, y: 475), Point(x: 0, y: -80)),
        ] {
            let h = EngineHarness()
            let panel = Region(name: "panel", frame: Rect(x: 500, y: 100, width: 300, height: 380))
            h.root.addChild(panel)
            let r = EdgePanGestureRecognizer(name: "edge", edges: edge, edgeBand: 20, minimumDistance: 10)
            h.add(r, to: panel)
            for k in 0...4 {
                let f = Double(k) / 4
                h.frame(10 * Int64(k), (0, start.x + f * swipe.x, start.y + f * swipe.y))
            }
            h.frame(50)
            h.finish()
            XCTAssertEqual(h.log.first, "edge:began@10", "a swipe in from the region's \(edge.names) edge")
            // Twenty pixels inside the region from the screen-side edge is outside every band.
            let g = EngineHarness()
            let panel2 = Region(name: "panel", frame: Rect(x: 500, y: 100, width: 300, height: 380))
            g.root.addChild(panel2)
            g.add(EdgePanGestureRecognizer(name: "edge", edges: edge, edgeBand: 20, minimumDistance: 10), to: panel2)
            let away = Point(x: 650, y: 290)
            for k in 0...4 {
                let f = Double(k) / 4
                g.frame(10 * Int64(k), (0, away.x + f * swipe.x, away.y + f * swipe.y))
            }
            g.frame(50)
            g.finish()
            XCTAssertEqual(g.log, [], "the middle of the region is in no band (\(edge.names))")
        }
    }
}
