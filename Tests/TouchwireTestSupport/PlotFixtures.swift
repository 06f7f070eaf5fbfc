import Foundation
import XCTest

#if canImport(FoundationXML)
    import FoundationXML
#endif

// Fixtures of the plot tests, shared by the library's tests (TouchPlotTests) and the command's
// (TouchwireCLITests).

/// The arguments that made the README picture (docs/img/demo-trace.svg); README states the same command.
package enum ReadmePicture {
    package static let trace = "data/unistroke/s01.jsonl"
    package static let board = "docs/img/pen-board.toml"
    package static let from: Int64 = 36_400_000
    package static let to: Int64 = 42_200_000
    package static let svg = "docs/img/demo-trace.svg"
}

/// Parses `svg` with Foundation's XMLParser; returns the elements' names and attributes in document order.
package func parseXML(_ svg: String, file: StaticString = #filePath, line: UInt = #line) -> [(String, [String: String])]
{
    final class Collector: NSObject, XMLParserDelegate {
        var elements: [(String, [String: String])] = []
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String]
        ) {
            elements.append((name, attributes))
        }
    }
    let parser = XMLParser(data: Data(svg.utf8))
    let collector = Collector()
    parser.delegate = collector
    let ok = parser.parse()
    XCTAssertTrue(ok, "not well-formed XML: \(String(describing: parser.parserError))", file: file, line: line)
    return collector.elements
}
