// swift-tools-version: 6.1
// touchwire-web — the WebSocket bridge for web kiosks (issue 29): reads touchwire's Unix event socket
// and serves each JSON line (docs/formats.md §2) as one WebSocket text message to the pages of a kiosk.
//
// A package of its own, so that the core package (`tools/test`, `tools/touchwire`, the VM build) never
// compiles SwiftNIO: it is built by `tools/web-bridge` (and so by `tools/web-test`, `tools/web-demo`)
// into `.build-web/`, and by `tools/package` for the Debian package.
import PackageDescription

let package = Package(
    name: "touchwire-web",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "touchwire-web", targets: ["touchwire-web"])
    ],
    dependencies: [
        // No default traits: neither swift-configuration nor the full-Foundation extras are needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", exact: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "touchwire-web",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Unit tests of the bridge's own logic (origins, client limit, slow clients, lines),
        // run by tools/web-test before the browser test.
        .testTarget(
            name: "TouchwireWebTests",
            dependencies: [
                "touchwire-web",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)
