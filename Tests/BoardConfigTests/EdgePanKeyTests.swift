import BoardConfig
import Gestures
import XCTest

/// `kind = "edge_pan"`: edges, edge_band, min_distance and their defaults.
final class EdgePanKeyTests: XCTestCase {
    func testDefaultsAndKeys() throws {
        let plain = try XCTUnwrap(TestBoards.recognizer("kind = \"edge_pan\""))
        XCTAssertEqual(plain.parameters, .edgePan(EdgePanParameters()))
        XCTAssertEqual(plain.parameters.kind, .pan, "events of an edge pan are pan events")
        guard case .edgePan(let d) = plain.parameters else { return XCTFail() }
        XCTAssertEqual(d.edges, .bottom)
        XCTAssertEqual(d.edgeBand, 20)
        XCTAssertEqual(d.minDistance, 10)

        let r = try XCTUnwrap(
            TestBoards.recognizer(
                "kind = \"edge_pan\"\nedges = [\"left\", \"right\"]\nedge_band = 30\nmin_distance = 5"))
        guard case .edgePan(let p) = r.parameters else { return XCTFail("\(r.parameters)") }
        XCTAssertEqual(p.edges, [.left, .right])
        XCTAssertEqual(p.edgeBand, 30)
        XCTAssertEqual(p.minDistance, 5)
    }

    func testErrors() {
        func issues(_ body: String) -> [String] {
            TestBoards.issues(
                TestBoards.text(
                    recognizers: "[[recognizer]]\nname = \"e\"\nregion = \"screen\"\nkind = \"edge_pan\"\n" + body
                        + "\n")
            ).map(\.keyPath)
        }
        XCTAssertEqual(issues("edges = []").map { $0.hasSuffix(".edges") }, [true])
        XCTAssertEqual(issues("edges = [\"up\"]").map { $0.hasSuffix(".edges") }, [true])
        XCTAssertEqual(issues("edge_band = 0").map { $0.hasSuffix(".edge_band") }, [true])
        XCTAssertEqual(
            issues("direction = [\"up\"]").map { $0.hasSuffix(".direction") }, [true],
            "a swipe key is unknown on an edge pan")
        let wrongKind = TestBoards.issues(
            TestBoards.text(recognizers: "[[recognizer]]\nname = \"e\"\nregion = \"screen\"\nkind = \"edge_pa\"\n"))
        XCTAssertTrue(wrongKind.first?.message.contains("did you mean \"edge_pan\"") ?? false, "\(wrongKind)")
    }
}
