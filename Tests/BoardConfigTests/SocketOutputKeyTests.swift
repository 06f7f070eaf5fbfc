import BoardConfig
import XCTest

/// `[[output]] type = "socket"`: path, mode, group, defaults and errors.
final class SocketOutputKeyTests: XCTestCase {
    func testDefaultsAndKeys() throws {
        let plain = try TestBoards.load(TestBoards.text(extra: "[[output]]\ntype = \"socket\"\n")).outputs
        XCTAssertEqual(plain, [.socket(SocketOutputDescription(path: "/run/touchwire/events.sock", mode: 0o660))])
        let text = """
            [[output]]
            type = "socket"
            path = "/run/kiosk/gestures.sock"
            mode = "0640"
            group = "kiosk"

            [[output]]
            type = "socket"
            path = "/tmp/b.sock"
            mode = 0o600

            """
        let outputs = try TestBoards.load(TestBoards.text(extra: text)).outputs
        XCTAssertEqual(
            outputs,
            [
                .socket(SocketOutputDescription(path: "/run/kiosk/gestures.sock", mode: 0o640, group: "kiosk")),
                .socket(SocketOutputDescription(path: "/tmp/b.sock", mode: 0o600)),
            ])
    }

    func testErrors() {
        let text = """
            [[output]]
            type = "socket"
            path = "events.sock"

            [[output]]
            type = "socket"
            mode = "rw-rw----"

            [[output]]
            type = "socket"
            baud = 9600

            [[output]]
            type = "socket"

            """
        let issues = TestBoards.issues(TestBoards.text(extra: text))
        XCTAssertEqual(
            issues.map(\.keyPath), ["output[0].path", "output[1].mode", "output[2].baud", "output[3].path"])
        XCTAssertTrue(issues[3].message.contains("duplicate"), issues[3].message)
    }
}
