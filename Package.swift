// swift-tools-version: 6.1
// touchwire — capacitive touch panel → gestures → GPIO / UART, for Linux single-board computers.
import PackageDescription

import class Foundation.ProcessInfo

let package = Package(
    name: "touchwire",
    products: [
        .executable(name: "touchwire", targets: ["touchwire"]),
        .library(name: "Gestures", targets: ["Gestures"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-system", exact: "1.8.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", exact: "1.6.1"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", exact: "0.2.0"),
    ],
    targets: [
        /// The only place C declarations of the kernel and of libgpiod / libi2c enter Swift.
        .target(
            name: "CLinux",
            linkerSettings: [.linkedLibrary("gpiod"), .linkedLibrary("i2c")]
        ),
        /// Plain values shared by every layer: instants, contacts, fixed-capacity frames, events.
        .target(name: "TouchCore"),
        /// The touch trace format (`formats.md` §1): reading, validating and writing JSON lines.
        .target(name: "TouchTrace", dependencies: ["TouchCore"]),
        /// The lock-free single-producer / single-consumer ring between threads.
        .target(name: "TouchRing", dependencies: ["TouchCore"]),
        /// System calls: /dev/i2c-N, termios, libgpiod. One file per kernel interface.
        .target(
            name: "TouchLinux",
            dependencies: ["CLinux", "TouchCore", .product(name: "SystemPackage", package: "swift-system")]
        ),
        /// Controller drivers: pure decoders plus thin I/O over the I2C bus interface.
        .target(name: "TouchDrivers", dependencies: ["TouchCore", "TouchLinux"]),
        /// Register-level controller models behind a simulated I2C bus, driven by traces.
        .target(name: "TouchSimulation", dependencies: ["TouchCore", "TouchDrivers", "TouchTrace"]),
        /// The gesture engine: UIKit's UIGestureRecognizer semantics on an injected clock.
        .target(name: "Gestures", dependencies: ["TouchCore"]),
        /// Event encoders and sinks: stdout JSON lines, UART, the output thread.
        .target(
            name: "TouchOutputs",
            dependencies: [
                "TouchCore", "TouchRing", "TouchLinux", "Gestures", .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        /// Board files (TOML): parsing, validation, and building the engine from them.
        .target(
            name: "BoardConfig",
            dependencies: ["TouchCore", "Gestures", "TOMLKit"]
        ),
        /// The running service: driver thread → ring → recognizer thread → output thread.
        .target(
            name: "TouchService",
            dependencies: [
                "TouchCore", "TouchRing", "TouchLinux", "TouchDrivers", "TouchSimulation", "TouchTrace", "Gestures",
                "TouchOutputs", "BoardConfig", .product(name: "Logging", package: "swift-log"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .executableTarget(
            name: "touchwire",
            dependencies: [
                "TouchService", "BoardConfig", "TouchCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        /// `swift package benchmark`: per-frame costs and malloc counts of the hot paths, with
        /// committed thresholds (Thresholds/) that fail the run if a hot path starts allocating.
        .executableTarget(
            name: "TouchwireBenchmarks",
            dependencies: [
                "Gestures", "TouchCore", "TouchRing", "TouchDrivers", "TouchSimulation",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/TouchwireBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .testTarget(name: "TouchCoreTests", dependencies: ["TouchCore"]),
        .testTarget(name: "TouchRingTests", dependencies: ["TouchRing"]),
        .testTarget(
            name: "TouchDriversTests",
            dependencies: ["TouchDrivers", "TouchSimulation", "TouchTrace", "TouchService", "TouchRing", "BoardConfig"]
        ),
        .testTarget(name: "GesturesTests", dependencies: ["Gestures", "TouchCore"]),
        .testTarget(name: "TouchOutputsTests", dependencies: ["TouchOutputs", "TouchLinux"]),
        .testTarget(name: "BoardConfigTests", dependencies: ["BoardConfig"]),
        .testTarget(
            name: "TouchServiceTests",
            dependencies: [
                "touchwire", "TouchService", "TouchSimulation", "TouchLinux", "TouchTrace", "TouchOutputs",
                "BoardConfig", "Gestures", "TouchDrivers",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Coverage-guided fuzz targets (libFuzzer; docs/RELIABILITY.md). Declared only when tools/fuzz
// sets TOUCHWIRE_FUZZ, and built into their own scratch path (.build-fuzz) with
// -sanitize=fuzzer,address, so the normal build and test never see them.
if ProcessInfo.processInfo.environment["TOUCHWIRE_FUZZ"] != nil {
    let fuzzSettings: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]
    package.targets += [
        .executableTarget(
            name: "FuzzDecoders", dependencies: ["TouchDrivers", "TouchCore"], path: "Fuzz/FuzzDecoders",
            swiftSettings: fuzzSettings),
        .executableTarget(
            name: "FuzzTrace", dependencies: ["TouchTrace", "TouchCore"], path: "Fuzz/FuzzTrace",
            swiftSettings: fuzzSettings),
        .executableTarget(
            name: "FuzzBoard", dependencies: ["BoardConfig"], path: "Fuzz/FuzzBoard", swiftSettings: fuzzSettings),
        .executableTarget(
            name: "FuzzStatus", dependencies: ["TouchService"], path: "Fuzz/FuzzStatus", swiftSettings: fuzzSettings),
    ]
}
