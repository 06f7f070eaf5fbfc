import TouchPlot
import XCTest

/// The SVG writer's numbers and text: the same bytes on every machine, and XML that parses.
final class SVGWriterTests: XCTestCase {
    func testNumbersAreFixedPointWithOneDecimal() {
        XCTAssertEqual(SVGWriter.number(12), "12")
        XCTAssertEqual(SVGWriter.number(12.25), "12.3")
        XCTAssertEqual(SVGWriter.number(-0.34), "-0.3")
        XCTAssertEqual(SVGWriter.number(-0.04), "0")
        XCTAssertEqual(SVGWriter.number(1e300), "1000000000")
        XCTAssertEqual(SVGWriter.number(.nan), "0")
        XCTAssertEqual(SVGWriter.number(-.infinity), "0")
        XCTAssertEqual(SVGWriter.seconds(1_234_567), "1.234")
        XCTAssertEqual(SVGWriter.seconds(40_000), "0.040")
    }

    func testTextIsEscapedAndTheDocumentParses() {
        var svg = SVGWriter(width: 100, height: 50, title: "a <b> & \"c\"")
        svg.open("g", [("data-name", "x\"y'<z>&")])
        svg.label("tap & <pan>\u{1}", x: 1.25, y: 2)
        let text = svg.finish()
        XCTAssertTrue(text.contains("tap &amp; &lt;pan&gt;\u{FFFD}"))
        XCTAssertTrue(text.hasSuffix("</g>\n</svg>\n"))
        let elements = parseXML(text)
        XCTAssertEqual(elements.map(\.0), ["svg", "title", "rect", "g", "text"])
        XCTAssertEqual(elements[3].1["data-name"], "x\"y'<z>&")
        XCTAssertFalse(text.contains("<script"))
    }
}
