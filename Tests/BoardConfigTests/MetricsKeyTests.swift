import BoardConfig
import XCTest

/// `[metrics] prometheus_file` (docs/install.md): node_exporter's textfile collector.
final class MetricsKeyTests: XCTestCase {
    func testPrometheusFileIsOptional() throws {
        XCTAssertNil(try TestBoards.load(TestBoards.text()).metrics.prometheusFile)
        let board = try TestBoards.load(
            TestBoards.text(extra: "[metrics]\nprometheus_file = \"/var/lib/node-exporter/touchwire.prom\"\n"))
        XCTAssertEqual(board.metrics.prometheusFile, "/var/lib/node-exporter/touchwire.prom")
    }

    func testBadValuesNameFileAndKey() {
        let cases: [(String, String)] = [
            ("prometheus_file = \"touchwire.prom\"", "must be an absolute path"),
            ("prometheus_file = \"/var/lib/touchwire.txt\"", "must name a file ending in .prom"),
            ("prometheus_file = 5", "string"),
        ]
        for (line, message) in cases {
            let issues = TestBoards.issues(TestBoards.text(extra: "[metrics]\n\(line)\n"))
            XCTAssertEqual(issues.count, 1, "\(line): \(issues)")
            XCTAssertEqual(issues.first?.keyPath, "metrics.prometheus_file", line)
            XCTAssertTrue(issues.first?.description.contains("boards/x.toml") ?? false)
            XCTAssertTrue(issues.first?.message.contains(message) ?? false, "\(line): \(issues)")
        }
        let unknown = TestBoards.issues(TestBoards.text(extra: "[metrics]\nprometheus = \"/x.prom\"\n"))
        XCTAssertEqual(unknown.first?.keyPath, "metrics.prometheus", "\(unknown)")
    }
}
