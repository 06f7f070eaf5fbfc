import BoardConfig
import Foundation
import Gestures
import Logging
import TouchCore
import TouchOutputs
import TouchService
import XCTest

@testable import TouchComposition

/// The extension registries (issue 28), built: every registered gesture kind becomes a
/// recognizer of the engine whose events carry the registry's event kind, every output type the
/// service writes becomes an output channel, and every GPIO binding action drives its line.
final class RegistryBuildTests: XCTestCase {
    private func board(recognizers: String, extra: String = "") throws -> BoardDescription {
        let text = """
            [panel]
            width = 800
            height = 480

            [[region]]
            name = "screen"
            frame = [0, 0, 800, 480]

            """ + recognizers + "\n" + extra
        return try BoardLoader.parse(text, file: "registry.toml", directory: "/")
    }

    func testEveryGestureKindBuildsARecognizerOfItsEventKind() throws {
        for kind in RecognizerKind.allCases {
            let b = try board(
                recognizers: "[[recognizer]]\nname = \"r\"\nkind = \"\(kind.boardName)\"\nregion = \"screen\"\n")
            let engine = try EngineBuilder.build(b)
            guard let r = engine.recognizers.first else {
                XCTFail("\(kind): no recognizer built")
                continue
            }
            XCTAssertEqual(r.name, "r")
            XCTAssertEqual(r.kind, kind.eventKind, "\(kind.boardName): the kind its events carry")
            XCTAssertEqual(engine.recognizers.count, 1)
        }
    }

    /// `edge_pan` builds the edge pan, not a plain pan (its edge band is what tells them apart).
    func testEdgePanBuildsTheEdgePanRecognizer() throws {
        let b = try board(
            recognizers: "[[recognizer]]\nname = \"e\"\nkind = \"edge_pan\"\nregion = \"screen\"\nedges = [\"left\"]\n")
        let r = try XCTUnwrap(try EngineBuilder.build(b).recognizers.first as? EdgePanGestureRecognizer)
        XCTAssertEqual(r.edges, .left)
        XCTAssertEqual(r.kind, .pan)
    }

    func testEveryServiceOutputTypeBuildsAChannel() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("registry-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for type in OutputType.allCases where type.isServiceOutput {
            let keys: String
            switch type {
            case .stdout, .websocket: keys = ""
            // Absent at start is not an error: the sink starts disconnected and reopens.
            case .uart: keys = "device = \"\(directory.path)/ttyUSB9\"\n"
            case .socket: keys = "path = \"\(directory.path)/events.sock\"\n"
            }
            let b = try board(
                recognizers: "[[recognizer]]\nname = \"t\"\nkind = \"tap\"\nregion = \"screen\"\n",
                extra: "[[output]]\ntype = \"\(type.boardName)\"\n" + keys)
            XCTAssertEqual(b.outputs.map(\.type), [type])
            let channels = try OutputFactory.channels(
                b, names: EventNames(recognizers: ["t"], regions: ["screen"]), stdout: nil,
                logger: Logger(label: "registry"), clock: ManualClock())
            XCTAssertEqual(channels.count, 1, "type = \"\(type.boardName)\" builds one channel")
            XCTAssertTrue(channels.first?.name.hasPrefix(type.boardName) ?? false, channels.first?.name ?? "none")
        }
    }

    func testEveryGPIOBindingActionDrivesItsLine() throws {
        let actions = BindingActionKind.allCases.filter { $0.family == .gpio }
        var bindings = ""
        for (i, action) in actions.enumerated() {
            bindings += """
                [[binding]]
                recognizer = "p"
                action = "\(action.boardName)"
                gpio = { chip = "sim", line = \(i + 1) }

                """
        }
        let b = try board(
            recognizers: "[[recognizer]]\nname = \"p\"\nkind = \"pan\"\nregion = \"screen\"\n", extra: bindings)
        XCTAssertEqual(b.bindings.map(\.action.kind), actions)
        let actuator = try XCTUnwrap(
            try OutputFactory.gpio(
                b, names: EventNames(recognizers: ["p"], regions: ["screen"]), provider: nil,
                logger: Logger(label: "registry")))
        XCTAssertEqual(actuator.bindings.count, actions.count)
        for (binding, action) in zip(actuator.bindings, actions) {
            switch (binding.action, action) {
            case (.pulse, .pulse), (.hold, .hold), (.toggle, .toggle): break
            default: XCTFail("\(action.boardName) built as \(binding.action)")
            }
        }
    }
}
