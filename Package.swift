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
        .target(
            name: "TouchTrace",
            dependencies: ["TouchCore", .product(name: "SystemPackage", package: "swift-system")]
        ),
        /// The lock-free single-producer / single-consumer ring between threads.
        .target(name: "TouchRing", dependencies: ["TouchCore"]),
        /// System calls: /dev/i2c-N, termios, libgpiod. One file per kernel interface.
        .target(
            name: "TouchLinux",
            dependencies: ["CLinux", "TouchCore", .product(name: "SystemPackage", package: "swift-system")]
        ),
        /// Controller drivers: pure decoders plus thin I/O over the I2C bus and GPIO protocols. The
        /// clock is injected (`DriverTiming`), so neither the drivers nor the simulation link Linux code.
        .target(name: "TouchDrivers", dependencies: ["TouchCore"]),
        /// Register-level controller models behind a simulated I2C bus, driven by traces.
        .target(
            name: "TouchSimulation", dependencies: ["TouchCore", "TouchDrivers", "TouchTrace"]),
        /// The gesture engine: UIKit's UIGestureRecognizer semantics on an injected clock.
        ///
        /// No unsafe flags (so the `Gestures` product can be a versioned dependency). The runtime's
        /// dynamic exclusivity checks and reference counting are left out of the per-frame path
        /// only in a few named types (`EngineFields`, `RecognizerFields`, `RegionLinks`, one
        /// `TapFields`/`SwipeFields`/… per built-in recognizer class, `UnownedLink`,
        /// `RecognizerTable`), whose contract is written once, in docs/ARCHITECTURE.md ("Threads",
        /// "Unchecked storage"): one thread at a time, handed over through `StageHold`. The
        /// compile-time checks stay.
        .target(name: "Gestures", dependencies: ["TouchCore"]),
        /// Event encoders and sinks: JSON lines, text and binary frames, stdout, UART, GPIO actuation.
        /// (The output thread that drains the event ring into them is `TouchService.OutputStage`.)
        .target(
            name: "TouchOutputs",
            dependencies: [
                "TouchCore", "TouchLinux", "Gestures", .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        /// Board files (TOML): parsing and validation into plain descriptions (the engine is built
        /// from them in `TouchService.EngineBuilder`).
        .target(
            name: "BoardConfig",
            dependencies: ["TouchCore", "Gestures"]
        ),
        /// Pictures of what the panel saw: a deterministic SVG writer, the panel and timeline plots,
        /// and the character panel of `touchwire monitor`. Pure: no I/O, no clock.
        .target(name: "TouchPlot", dependencies: ["TouchCore", "Gestures", "TouchTrace"]),
        /// The running pipeline: driver thread → frame ring → recognizer thread → event ring → output
        /// thread, with its metrics. It sees hardware only through protocols (`TouchController`,
        /// `GPIOInput`, `LineSink`, `VirtualInputDevice`, `CommandRunner`, `ScreenSwitch`,
        /// `ServiceHost`) and time only through an injected clock; it imports neither the board
        /// files (BoardConfig) nor the system calls (TouchLinux), and does not link the simulation.
        .target(
            name: "TouchService",
            dependencies: [
                "TouchCore", "TouchRing", "TouchDrivers", "Gestures", "TouchOutputs",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        /// The composition root used by the command line: builds the pipeline from a board file
        /// (engine, controller — real or simulated —, outputs), and the commands around it: replay,
        /// record, calibrate, bench.
        .target(
            name: "TouchComposition",
            dependencies: [
                "TouchService", "TouchCore", "TouchRing", "TouchLinux", "TouchDrivers", "TouchSimulation",
                "TouchTrace", "Gestures", "TouchOutputs", "BoardConfig", "TouchPlot",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .executableTarget(
            name: "touchwire",
            dependencies: [
                "TouchComposition", "TouchService", "BoardConfig", "TouchCore", "TouchDrivers", "TouchLinux",
                "TouchOutputs", "TouchSimulation", "TouchTrace", "Gestures", "TouchPlot", "TouchRing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            /// A position-dependent executable in release builds: a PIE's ~45,000 relative relocations
            /// make the dynamic loader read 1 MiB of `.rela.dyn` and copy-on-write every data page
            /// they point into, for no benefit on a device that runs one service (docs/PERFORMANCE.md,
            /// "Footprint").
            linkerSettings: [.unsafeFlags(["-Xclang-linker", "-no-pie"], .when(configuration: .release))]
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
        /// Fixtures shared by the test targets: repository root, temporary directories, a quiet
        /// logger, simulated board texts, collecting sinks, `waitFor`, the runner of the built
        /// `touchwire` executable and of other programs (`findTool`, `runProcess`). Each test target
        /// re-exports it from its `TestSupport.swift`.
        .target(
            name: "TouchwireTestSupport",
            dependencies: [
                "TouchCore", "TouchOutputs", "BoardConfig", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TouchwireTestSupport"
        ),
        .testTarget(
            name: "TouchPlotTests",
            dependencies: [
                "TouchwireTestSupport", "TouchPlot", "TouchService", "TouchComposition", "TouchOutputs",
                "TouchLinux",
                "TouchTrace", "Gestures",
                "BoardConfig", "TouchCore", "TouchSimulation",
            ]
        ),
        .testTarget(name: "TouchCoreTests", dependencies: ["TouchCore"]),
        .testTarget(name: "TouchRingTests", dependencies: ["TouchRing"]),
        .testTarget(name: "TouchTraceTests", dependencies: ["TouchTrace", "TouchCore", "TouchwireTestSupport"]),
        .testTarget(name: "TouchLinuxTests", dependencies: ["TouchLinux", "TouchCore", "TouchwireTestSupport"]),
        .testTarget(
            name: "TouchDriversTests",
            dependencies: [
                "TouchwireTestSupport", "TouchDrivers", "TouchSimulation", "TouchTrace", "TouchService",
                "TouchComposition", "TouchRing",
                "BoardConfig",
            ]
        ),
        /// The register-level controller models and the simulated world.
        .testTarget(
            name: "TouchSimulationTests",
            dependencies: ["TouchSimulation", "TouchDrivers", "TouchTrace", "TouchCore", "TouchwireTestSupport"]
        ),
        .testTarget(name: "GesturesTests", dependencies: ["Gestures", "TouchCore"]),
        .testTarget(name: "TouchOutputsTests", dependencies: ["TouchOutputs", "TouchLinux", "TouchwireTestSupport"]),
        .testTarget(name: "BoardConfigTests", dependencies: ["BoardConfig", "TouchwireTestSupport"]),
        /// The pipeline itself: stages, rings hand-over, metrics, outputs, allocation counts (these
        /// need the malloc interposer).
        .testTarget(
            name: "TouchServiceTests",
            dependencies: [
                "TouchwireTestSupport", "TouchService", "TouchComposition", "TouchSimulation",
                "TouchLinux", "TouchTrace", "TouchOutputs", "TouchRing",
                "BoardConfig", "Gestures", "TouchDrivers",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        /// The composition root: engine builder, replay, recorder, calibration, reload, realtime
        /// settings, output devices built from a board.
        .testTarget(
            name: "TouchCompositionTests",
            dependencies: [
                "TouchwireTestSupport", "TouchComposition", "TouchService", "TouchSimulation", "TouchLinux",
                "TouchTrace", "TouchOutputs", "TouchRing", "BoardConfig", "Gestures", "TouchDrivers", "TouchCore",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        /// Every test that spawns the built `touchwire` executable, as a user runs it.
        .testTarget(
            name: "TouchwireCLITests",
            dependencies: [
                "TouchwireTestSupport", "touchwire", "TouchComposition", "TouchService", "TouchSimulation", "TouchPlot",
                "TouchLinux", "TouchTrace", "TouchOutputs", "TouchRing", "BoardConfig", "Gestures", "TouchDrivers",
                "TouchCore", .product(name: "Logging", package: "swift-log"),
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
        /// libFuzzer's driver entry, shared by the targets below.
        .target(name: "FuzzSupport", path: "Fuzz/FuzzSupport"),
        .executableTarget(
            name: "FuzzDecoders", dependencies: ["FuzzSupport", "TouchDrivers", "TouchCore"], path: "Fuzz/FuzzDecoders",
            swiftSettings: fuzzSettings),
        .executableTarget(
            name: "FuzzTrace", dependencies: ["FuzzSupport", "TouchTrace", "TouchCore"], path: "Fuzz/FuzzTrace",
            swiftSettings: fuzzSettings),
        .executableTarget(
            name: "FuzzBoard", dependencies: ["FuzzSupport", "BoardConfig"], path: "Fuzz/FuzzBoard",
            swiftSettings: fuzzSettings),
        .executableTarget(
            name: "FuzzStatus", dependencies: ["FuzzSupport", "TouchComposition"], path: "Fuzz/FuzzStatus",
            swiftSettings: fuzzSettings),
        .executableTarget(
            name: "FuzzMonitor", dependencies: ["FuzzSupport", "TouchPlot", "TouchCore"], path: "Fuzz/FuzzMonitor",
            swiftSettings: fuzzSettings),
        .executableTarget(
            name: "FuzzLabels", dependencies: ["FuzzSupport", "TouchComposition", "Gestures"],
            path: "Fuzz/FuzzLabels", swiftSettings: fuzzSettings),
        .executableTarget(
            name: "FuzzTemplates", dependencies: ["FuzzSupport", "Gestures"], path: "Fuzz/FuzzTemplates",
            swiftSettings: fuzzSettings),
    ]
    // The benchmark target and its plugin are not needed for a fuzz product, and linking the
    // plugin's tools with -sanitize=fuzzer made ld.gold report internal errors (issue 31).
    package.targets.removeAll { $0.name == "TouchwireBenchmarks" }
    package.dependencies.removeAll {
        if case .sourceControl(_, let location, _) = $0.kind { return location.hasSuffix("ordo-one/benchmark") }
        return false
    }
}
