import Gestures
import TouchCore
import XCTest

/// The built-in recognizers a board builds (`builtIn(…)`, issue 28) are told only touch counts
/// and skip moves that change nothing; what they report must be exactly what the same
/// recognizer made with its public `init` (which gets every touch set) reports.
final class BuiltInRecognizerTests: XCTestCase {
    /// A tap, a double tap, a long press, a swipe, a drag, a two-finger pinch and turn (a lone
    /// finger moving before the second lands), a two-finger tap and a two-finger drag.
    private func script(_ h: EngineHarness) {
        h.tap(at: 0, x: 100, y: 100)
        h.tap(at: 150, x: 104, y: 100)
        h.frame(1000, (0, 300, 300))
        h.frame(1700, (0, 302, 301))
        h.frame(1800)
        for i in 0..<6 { h.frame(3000 + 10 * Int64(i), (0, 100 + 40 * Double(i), 200)) }
        h.frame(3060)
        for i in 0..<20 { h.frame(4000 + 20 * Int64(i), (0, 200 + 3 * Double(i), 200 + 2 * Double(i))) }
        h.frame(4400)
        h.frame(5000, (0, 300, 240))
        h.frame(5010, (0, 310, 240))
        h.frame(5020, (0, 310, 240), (1, 400, 240))
        for i in 1...8 {
            let d = Double(i)
            h.frame(5020 + 10 * Int64(i), (0, 310 - 6 * d, 240 - 4 * d), (1, 400 + 6 * d, 240 + 4 * d))
        }
        h.frame(5200, (1, 448, 272))
        h.frame(5210)
        h.frame(6000, (0, 100, 100), (1, 150, 100))
        h.frame(6050)
        for i in 0..<10 { h.frame(7000 + 20 * Int64(i), (0, 100 + 8 * Double(i), 300), (1, 160 + 8 * Double(i), 300)) }
        h.frame(7200)
        h.finish()
    }

    private func events(_ r: GestureRecognizer) -> (log: [String], events: [GestureEvent]) {
        let h = EngineHarness()
        let region = Region(
            name: "multi", frame: Rect(x: 0, y: 0, width: 800, height: 480), isMultipleTouchEnabled: true)
        h.root.addChild(region)
        h.add(r, to: region)
        script(h)
        return (h.log, h.sink.events)
    }

    // S4: the same actions, in the same order, with the same values.
    func testBuiltInsReportWhatTheirPublicInitsReport() {
        let pairs: [(String, GestureRecognizer, GestureRecognizer)] = [
            ("tap", TapGestureRecognizer(name: "r"), TapGestureRecognizer.builtIn(name: "r")),
            ("double tap", TapGestureRecognizer(name: "r", taps: 2), TapGestureRecognizer.builtIn(name: "r", taps: 2)),
            (
                "two-finger tap", TapGestureRecognizer(name: "r", touches: 2),
                TapGestureRecognizer.builtIn(name: "r", touches: 2)
            ),
            ("long press", LongPressGestureRecognizer(name: "r"), LongPressGestureRecognizer.builtIn(name: "r")),
            ("pan", PanGestureRecognizer(name: "r"), PanGestureRecognizer.builtIn(name: "r")),
            (
                "two-finger pan", PanGestureRecognizer(name: "r", minimumTouches: 2),
                PanGestureRecognizer.builtIn(name: "r", minimumTouches: 2)
            ),
            ("swipe", SwipeGestureRecognizer(name: "r"), SwipeGestureRecognizer.builtIn(name: "r")),
            ("pinch", PinchGestureRecognizer(name: "r"), PinchGestureRecognizer.builtIn(name: "r")),
            ("rotation", RotationGestureRecognizer(name: "r"), RotationGestureRecognizer.builtIn(name: "r")),
        ]
        for (what, plain, builtIn) in pairs {
            let a = events(plain)
            let b = events(builtIn)
            XCTAssertFalse(a.log.isEmpty, "\(what): the script must make it act")
            XCTAssertEqual(b.log, a.log, what)
            XCTAssertEqual(b.events, a.events, what)
        }
    }
}
