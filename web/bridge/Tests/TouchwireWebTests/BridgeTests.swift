import Foundation
import Logging
import NIOCore
import NIOEmbedded
import XCTest
import touchwire_web

/// The bridge's own decisions, without a network or a browser: which pages may subscribe, how
/// many at once, what happens to a page that stops reading, and how touchwire's stream becomes
/// messages.
final class BridgeTests: XCTestCase {
    let quiet: Logger = {
        var l = Logger(label: "test")
        l.logLevel = .critical
        return l
    }()

    func hub(maxClients: Int = 8, clientBuffer: Int = 256) -> Hub {
        Hub(maxClients: maxClients, clientBuffer: clientBuffer, socketPath: "/tmp/events.sock", logger: quiet)
    }

    func status(_ hub: Hub) throws -> [String: Any] {
        let json = try JSONSerialization.jsonObject(with: Data(hub.statusJSON().utf8))
        return try XCTUnwrap(json as? [String: Any])
    }

    // MARK: origins

    /// With allowed_origins, exactly those pages (as browsers send them: case and a trailing
    /// slash do not matter); every other page is refused, also one whose host only starts alike.
    func testOnlyTheAllowedOriginsMaySubscribe() throws {
        let policy = OriginPolicy(allowed: [try OriginPolicy.normalizeAllowed("http://127.0.0.1:8000")])
        XCTAssertTrue(policy.permits("http://127.0.0.1:8000"))
        XCTAssertTrue(policy.permits("HTTP://127.0.0.1:8000/"))
        XCTAssertFalse(policy.permits("http://127.0.0.1:8001"))
        XCTAssertFalse(policy.permits("https://127.0.0.1:8000"))
        XCTAssertFalse(policy.permits("http://kiosk.example"))
        XCTAssertFalse(policy.permits("null"), "a file:// page only with \"null\" in the list")
        XCTAssertTrue(policy.permits(nil), "not a browser page (curl): the listen address keeps others out")
        XCTAssertTrue(OriginPolicy(allowed: ["*"]).permits("http://kiosk.example"))
    }

    /// Without allowed_origins only loopback pages, whatever their port.
    func testWithoutAListOnlyLoopbackPagesMaySubscribe() {
        let policy = OriginPolicy(allowed: [])
        for origin in ["http://localhost:8000", "http://127.0.0.1", "https://127.1.2.3:9", "http://[::1]:8080"] {
            XCTAssertTrue(policy.permits(origin), origin)
        }
        for origin in [
            "http://kiosk.example", "http://127.0.0.1.evil.example", "http://localhost.evil.example:8000", "null",
            "http://192.168.1.10:8000", "file://", "http://127.0.0.1:8000/path",
        ] {
            XCTAssertFalse(policy.permits(origin), origin)
        }
    }

    /// A bad --allow-origin / allowed_origins entry is one error saying what is expected.
    func testBadAllowedOriginsAreOneClearError() {
        for bad in ["127.0.0.1:8000", "http://host/path", "ftp://host", "http://host:70000"] {
            XCTAssertThrowsError(try OriginPolicy.normalizeAllowed(bad), bad) {
                XCTAssertTrue("\($0)".contains(bad), "\($0)")
            }
        }
        XCTAssertEqual(try OriginPolicy.normalizeAllowed("HTTP://Kiosk.Example:8000/"), "http://kiosk.example:8000")
    }

    // MARK: clients

    /// max_clients subscribe; one more is refused (the 503) and counted; a client that leaves
    /// makes room again.
    func testTheClientLimitRefusesOneMore() throws {
        let hub = hub(maxClients: 2)
        let a = hub.attach(channel: NIOAsyncTestingChannel(), origin: "http://localhost")
        let b = hub.attach(channel: NIOAsyncTestingChannel(), origin: "http://localhost")
        XCTAssertNotNil(a)
        XCTAssertNotNil(b)
        XCTAssertFalse(hub.hasRoom)
        XCTAssertNil(hub.attach(channel: NIOAsyncTestingChannel(), origin: "http://localhost"), "the third is refused")
        XCTAssertEqual(try status(hub)["refused_full"] as? Int, 1)
        XCTAssertEqual(try status(hub)["clients"] as? Int, 2)
        hub.detach(a?.id ?? -1)
        XCTAssertTrue(hub.hasRoom)
        XCTAssertNotNil(hub.attach(channel: NIOAsyncTestingChannel(), origin: "http://localhost"))
    }

    /// A client that does not read is dropped when its queue (client_buffer events) is full: its
    /// connection is closed and it gets the events queued before, in order; a client that reads
    /// keeps every event; broadcasting never waits for either.
    func testAClientThatStopsReadingIsDroppedAndTheOthersGetEverything() async throws {
        let hub = hub(clientBuffer: 3)
        let stalledChannel = NIOAsyncTestingChannel()
        try await stalledChannel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).get()
        let stalled = try XCTUnwrap(hub.attach(channel: stalledChannel, origin: "http://localhost"))
        let reader = try XCTUnwrap(hub.attach(channel: NIOAsyncTestingChannel(), origin: "http://localhost"))
        var readerLines = reader.lines.makeAsyncIterator()
        var received: [String] = []
        for i in 1...5 {
            hub.broadcast("{\"n\":\(i)}")
            if let line = await readerLines.next() { received.append(line) }
        }
        XCTAssertEqual(received, (1...5).map { "{\"n\":\($0)}" }, "the reading client got every event")
        XCTAssertEqual(hub.count, 1, "the stalled client was dropped")
        XCTAssertEqual(try status(hub)["clients_dropped"] as? Int, 1)
        XCTAssertEqual(try status(hub)["events"] as? Int, 5)
        await stalledChannel.testingEventLoop.run()
        XCTAssertFalse(stalledChannel.isActive, "its connection was closed")
        var queued: [String] = []
        for await line in stalled.lines { queued.append(line) }
        XCTAssertEqual(queued, ["{\"n\":1}", "{\"n\":2}", "{\"n\":3}"], "what it had queued, then the end")
    }

    // MARK: lines to messages

    /// touchwire's stream becomes one message per line, whatever the chunks' boundaries; empty
    /// lines give nothing; an over-long line is skipped whole, and the next line is delivered.
    func testEachLineOfTheStreamIsOneMessage() {
        var splitter = LineSplitter(maximumLine: 16)
        var messages: [String] = []
        let chunks = [
            "{\"a\":1}\n{\"b", "\":2}\n\n", "{\"c\":3}", "\n", String(repeating: "x", count: 20), "yz\n{\"d\":4}\n",
        ]
        var skips = 0
        for c in chunks where splitter.append(ByteBuffer(string: c), each: { messages.append($0) }) { skips += 1 }
        XCTAssertEqual(messages, ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}", "{\"d\":4}"])
        XCTAssertEqual(skips, 1, "the long line was reported once")
        // A partial line is kept until its newline arrives.
        var partial = LineSplitter(maximumLine: 64)
        var out: [String] = []
        _ = partial.append(ByteBuffer(string: "{\"e\":"), each: { out.append($0) })
        XCTAssertEqual(out, [])
        _ = partial.append(ByteBuffer(string: "5}\n"), each: { out.append($0) })
        XCTAssertEqual(out, ["{\"e\":5}"])
    }

    /// Of a page's messages only one `display …` command line goes to touchwire.
    func testOnlyDisplayCommandsArePassedOn() {
        XCTAssertTrue(Hub.isCommand("display off"))
        XCTAssertTrue(Hub.isCommand("display keep-awake 600"))
        for text in [
            "display off\nquit", "reload", "displayoff", "display " + String(repeating: "a", count: 200),
            "display \u{7f}",
        ] {
            XCTAssertFalse(Hub.isCommand(text), text)
        }
    }
}
