import BoardConfig
import XCTest

/// `[[output]] type = "websocket"` (issue 29): the bridge's settings, validated by the board reader;
/// the service's own outputs are unchanged by it.
final class WebSocketOutputKeyTests: XCTestCase {
    let socket = "[[output]]\ntype = \"socket\"\npath = \"/tmp/tw.sock\"\n\n"

    func testDefaultsAreLoopbackAndTheServiceOutputsStayTheSame() throws {
        let board = try TestBoards.load(TestBoards.text(extra: socket + "[[output]]\ntype = \"websocket\"\n"))
        XCTAssertEqual(board.webSocket, WebSocketOutputDescription(host: "127.0.0.1", port: 8787))
        XCTAssertEqual(board.outputs, [.socket(SocketOutputDescription(path: "/tmp/tw.sock"))])
        XCTAssertNil(try TestBoards.load(TestBoards.text(extra: socket)).webSocket)
    }

    func testEveryKey() throws {
        let text = """
            [[output]]
            type = "websocket"
            listen = "[::1]:9000"
            allowed_origins = ["http://127.0.0.1:8000/", "HTTPS://Kiosk.local", "null"]
            max_clients = 3
            client_buffer = 32

            """
        let ws = try TestBoards.load(TestBoards.text(extra: socket + text)).webSocket
        XCTAssertEqual(
            ws,
            WebSocketOutputDescription(
                host: "::1", port: 9000, allowedOrigins: ["http://127.0.0.1:8000", "https://kiosk.local", "null"],
                maxClients: 3, clientBuffer: 32))
    }

    func testErrorsNameTheKey() {
        let text = """
            [[output]]
            type = "websocket"
            listen = "127.0.0.1"
            allowed_origins = ["127.0.0.1:8000", "http://a/b"]
            max_clients = 0
            client_buffer = 100000
            path = "/x"

            """
        let issues = TestBoards.issues(TestBoards.text(extra: socket + text))
        XCTAssertEqual(
            issues.map(\.keyPath),
            [
                "output[1].listen", "output[1].allowed_origins[0]", "output[1].allowed_origins[1]",
                "output[1].max_clients", "output[1].client_buffer", "output[1].path",
            ])
        XCTAssertTrue(issues[0].message.contains("HOST:PORT"), issues[0].message)
    }

    func testNeedsASocketOutputAndOnlyOne() {
        let lone = TestBoards.issues(TestBoards.text(extra: "[[output]]\ntype = \"websocket\"\n"))
        XCTAssertEqual(lone.map(\.keyPath), ["output[0].type"])
        XCTAssertTrue(lone[0].message.contains("type = \"socket\""), lone[0].message)
        let twice = TestBoards.issues(
            TestBoards.text(extra: socket + "[[output]]\ntype = \"websocket\"\n\n[[output]]\ntype = \"websocket\"\n"))
        XCTAssertEqual(twice.map(\.keyPath), ["output[2]"])
        XCTAssertTrue(twice[0].message.contains("duplicate"), twice[0].message)
    }
}
