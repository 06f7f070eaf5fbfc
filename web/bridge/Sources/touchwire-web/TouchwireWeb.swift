// touchwire-web: touchwire's gesture events for web pages, over WebSocket (docs/web.md).
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@main
struct TouchwireWeb {
    /// Bounded memory per client: NIO's queue of unsent frames and the kernel's send buffer are held
    /// to this; past them the client's event queue (`--client-buffer`) fills and it is dropped.
    static let perClientSocketBuffer = 16 * 1024
    /// Commands a page may pass to touchwire per second; more are ignored.
    static let commandsPerSecond = 10

    static func fail(_ message: String, status: Int32) -> Never {
        let line = Array("touchwire-web: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        exit(status)
    }

    /// Answers a WebSocket handshake that is refused with `status` and closes the connection.
    ///
    /// hummingbird-websocket answers every handshake it does not upgrade with a bare 400; the browser
    /// (and the tests) should see why instead: 403 for an origin that is not allowed, 503 when full.
    /// The response goes out through the connection's HTTP/1 encoder before the library's own, and
    /// says `Connection: close`, so a client reads this one and stops.
    static func refuse(_ channel: any Channel, _ status: HTTPResponseStatus, _ text: String) async {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(text.utf8.count))
        headers.add(name: "Connection", value: "close")
        channel.write(
            HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)),
            promise: nil)
        channel.write(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: text))), promise: nil)
        try? await channel.writeAndFlush(HTTPServerResponsePart.end(nil)).get()
    }

    static func main() async {
        let options: Options
        do {
            guard let parsed = try Options.parse(Array(CommandLine.arguments.dropFirst())) else {
                print(Options.usage)
                exit(0)
            }
            options = parsed
        } catch {
            fail("\(error)", status: 2)
        }

        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        let logger = Logger(label: "touchwire-web")
        let policy = OriginPolicy(allowed: options.allowedOrigins)
        let hub = Hub(
            maxClients: options.maxClients, clientBuffer: options.clientBuffer, socketPath: options.socketPath,
            logger: logger)
        if !options.listen.isLoopback {
            let origins =
                options.allowedOrigins.isEmpty ? "loopback pages only" : options.allowedOrigins.joined(separator: ", ")
            logger.warning(
                "listening on \(options.listen), not loopback: other machines can connect; allowed origins: \(origins)")
        }

        let server = HTTPServerBuilder.http1WebSocketUpgrade(
            configuration: .init(
                http1: .init(),
                ws: .init(
                    maxFrameSize: 1 << 16, autoPing: .enabled(timePeriod: .seconds(30)), closeTimeout: .seconds(2))
            )
        ) { request, channel, _ in
            let origin = request.headerFields[.origin]
            guard policy.permits(origin) else {
                hub.refused(origin: origin)
                await refuse(channel, .forbidden, "origin \(origin ?? "") may not subscribe to touchwire's events\n")
                return .dontUpgrade
            }
            guard hub.hasRoom else {
                hub.refusedFull(origin: origin)
                await refuse(channel, .serviceUnavailable, "touchwire-web already serves \(hub.maxClients) clients\n")
                return .dontUpgrade
            }
            return .upgrade([:]) { inbound, outbound, _ in
                guard let subscription = hub.attach(channel: channel, origin: origin ?? "(none)") else { return }
                defer { hub.detach(subscription.id) }
                try? await channel.setOption(
                    ChannelOptions.writeBufferWaterMark,
                    value: .init(low: perClientSocketBuffer / 2, high: perClientSocketBuffer)
                ).get()
                try? await channel.setOption(ChannelOptions.socketOption(.so_sndbuf), value: perClientSocketBuffer)
                    .get()
                let lines = subscription.lines
                let writer = Task {
                    do {
                        for await line in lines {
                            try await outbound.write(.text(line))
                        }
                    } catch {}
                    // Dropped, or the write failed: make sure the reading below ends too.
                    channel.close(promise: nil)
                }
                // Pings and the close handshake are answered by the library. A text message that is a
                // `display …` command goes to touchwire (only pages of allowed origins get here), at
                // most `commandsPerSecond` a second; anything else is ignored.
                var window = ContinuousClock.now
                var inWindow = 0
                do {
                    for try await message in inbound.messages(maxSize: Hub.maximumCommand * 4) {
                        guard case .text(let text) = message, Hub.isCommand(text) else { continue }
                        let now = ContinuousClock.now
                        if now - window >= .seconds(1) {
                            window = now
                            inWindow = 0
                        }
                        inWindow += 1
                        if inWindow <= commandsPerSecond {
                            _ = hub.forward(command: text, from: subscription.id)
                        }
                    }
                } catch {}
                writer.cancel()
            }
        }

        let router = Router()
        router.get("/status") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: hub.statusJSON())))
        }
        // What a request that was not upgraded gets: 403 for an origin that is not allowed, 503 when
        // full, otherwise 426 (a plain HTTP request to the WebSocket endpoint).
        let notUpgraded: @Sendable (Request, BasicRequestContext) -> Response = { request, _ in
            let origin = request.headers[.origin]
            let status: HTTPResponse.Status
            let text: String
            if !policy.permits(origin) {
                (status, text) = (.forbidden, "origin \(origin ?? "") may not subscribe to touchwire's events\n")
            } else if request.headers[.upgrade]?.lowercased() == "websocket" {
                (status, text) = (.serviceUnavailable, "touchwire-web already serves \(hub.maxClients) clients\n")
            } else {
                (status, text) = (.upgradeRequired, "touchwire-web: connect with a WebSocket (web/touchwire.js)\n")
            }
            return Response(
                status: status, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        router.get("/", use: notUpgraded)
        router.get("**", use: notUpgraded)

        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let app = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(options.listen.host, port: options.listen.port), serverName: nil),
            eventLoopGroupProvider: .shared(group),
            logger: logger
        )
        let upstream = Upstream(path: options.socketPath, hub: hub, group: group, logger: logger)
        do {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { await upstream.run() }
                tasks.addTask { try await app.runService() }
                try await tasks.next()
                tasks.cancelAll()
            }
        } catch {
            fail("cannot serve on \(options.listen): \(describe(error))", status: 1)
        }
    }
}
