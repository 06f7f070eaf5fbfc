import BoardConfig
import Foundation
import TouchComposition
import TouchCore
import TouchService
import TouchTrace
import XCTest

/// A `chip = "evdev"` board end to end: the simulated input device through the same driver
/// stage, engine and outputs as the I2C chips; and the errors that stop a real one starting.
final class EvdevBoardTests: XCTestCase {
    /// Steps `board`'s service by hand every 10 ms for `milliseconds`; returns the stdout lines.
    func run(_ board: BoardDescription, milliseconds: Int64) throws -> [String] {
        let clock = ManualClock()
        let stdout = CollectingSink()
        let service = try Service(board: board, logger: quietLogger, stdout: stdout, clock: clock)
        XCTAssertTrue(service.driver.start(at: .zero))
        for ms in stride(from: Int64(0), through: milliseconds, by: 10) {
            clock.now = .milliseconds(ms)
            service.driver.poll(at: clock.now)
            service.recognizer.step(now: clock.now)
            service.output.drain(clock: clock)
        }
        service.output.flush()
        XCTAssertFalse(service.engine.hasTouchesDown)
        return stdout.lines
    }

    /// The demo played through the evdev-shaped device gives the same event lines as through the FT6x36 model.
    func testDemoThroughSimulatedEvdevMatchesTheI2CChip() throws {
        let dir = try makeTemporaryDirectory(self)
        let i2c = simulatedBoardText(script: "demo", recognizers: ["tap", "pan"])
        let evdev = i2c.replacingOccurrences(of: "chip = \"ft6x36\"", with: "chip = \"evdev\"")
        XCTAssertNotEqual(i2c, evdev)
        let a = try run(BoardLoader.parse(i2c, file: "i2c.toml", directory: dir.path), milliseconds: 7000)
        let b = try run(BoardLoader.parse(evdev, file: "evdev.toml", directory: dir.path), milliseconds: 7000)
        XCTAssertGreaterThan(a.count, 3)
        XCTAssertEqual(b, a)
    }

    /// Issue 28: a simulated evdev board is an input device, not an I2C chip: no address, no bus,
    /// no I2C error; its identity names the device.
    func testSimulatedEvdevBoardHasNoI2CNotion() throws {
        let dir = try makeTemporaryDirectory(self)
        let text = simulatedBoardText(script: "demo", recognizers: ["tap"])
            .replacingOccurrences(of: "chip = \"ft6x36\"", with: "chip = \"evdev\"")
        let board = try BoardLoader.parse(text, file: "evdev.toml", directory: dir.path)
        XCTAssertEqual(board.controller?.input, .evdev)
        XCTAssertNil(board.controller?.address)
        let setup = try ControllerFactory.make(board, start: .zero)
        let world = try XCTUnwrap(setup.simulation)
        XCTAssertNil(world.bus, "the simulated input device is on no I2C bus")
        XCTAssertNil(world.controllerModel)
        try setup.controller.start()
        let identity = try XCTUnwrap(setup.controller.identity)
        XCTAssertNil(identity.address)
        XCTAssertEqual(identity.device, "sim")
        XCTAssertFalse("\(identity)".contains(" at 0x"), "\(identity)")
    }

    /// Orientation applies to evdev frames as to I2C ones: a tap at raw (100, 40) on a panel
    /// rotated 180° lands at (699, 439).
    func testOrientationAppliesToEvdevFrames() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let text = simulatedBoardText(script: "tap.jsonl", recognizers: ["tap"])
            .replacingOccurrences(of: "chip = \"ft6x36\"", with: "chip = \"evdev\"\nrotation = 180")
        let lines = try run(BoardLoader.parse(text, file: "t.toml", directory: dir.path), milliseconds: 500)
        XCTAssertEqual(lines.count, 1)
        XCTAssertTrue(lines.first?.contains(#""x":398.0,"y":239.0"#) ?? false, "\(lines)")
    }

    func testMissingDeviceIsOneClearErrorAndNothingStarts() throws {
        let text = TestBoardText.evdev(device: "/dev/input/event-touchwire-missing")
        let board = try BoardLoader.parse(text, file: "k.toml", directory: "/tmp")
        XCTAssertThrowsError(try Service(board: board, logger: quietLogger, stdout: CollectingSink())) { error in
            XCTAssertEqual(
                "\(error)",
                "k.toml: controller.device: input device /dev/input/event-touchwire-missing does not exist")
        }
    }

    /// /dev/null is a character device that is no touchscreen: the evdev ioctls fail on it.
    func testNotAnInputDeviceIsRefused() throws {
        let board = try BoardLoader.parse(TestBoardText.evdev(device: "/dev/null"), file: "k.toml", directory: "/tmp")
        XCTAssertThrowsError(try Service(board: board, logger: quietLogger, stdout: CollectingSink())) { error in
            XCTAssertTrue("\(error)".hasPrefix("k.toml: controller.device: input device /dev/null"), "\(error)")
        }
    }

    func testUnknownNameListsTheDevices() throws {
        let text = TestBoardText.evdev(device: nil, name: "no such touchscreen 1234")
        let board = try BoardLoader.parse(text, file: "k.toml", directory: "/tmp")
        XCTAssertThrowsError(try Service(board: board, logger: quietLogger, stdout: CollectingSink())) { error in
            XCTAssertTrue(
                "\(error)".hasPrefix("k.toml: controller.name: no input device named \"no such touchscreen 1234\""),
                "\(error)")
        }
    }
}

extension EvdevBoardTests {
    /// Only touchscreens are listed: a node that is no input device is left out, no directory lists nothing.
    func testInputProbeListsOnlyTouchscreens() throws {
        let dir = try makeTemporaryDirectory(self)
        try "not a device".write(to: dir.appendingPathComponent("event0"), atomically: true, encoding: .utf8)
        try "x".write(to: dir.appendingPathComponent("mouse0"), atomically: true, encoding: .utf8)
        XCTAssertEqual(InputProbe.touchscreenLines(directory: dir.path), [])
        XCTAssertEqual(InputProbe.touchscreenLines(directory: dir.appendingPathComponent("none").path), [])
    }
}

extension EvdevBoardTests {
    /// `record` on an evdev board: the touches the input device reported, as a trace.
    func testRecordOnAnEvdevBoard() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let text = simulatedBoardText(script: "tap.jsonl", recognizers: ["tap"])
            .replacingOccurrences(of: "chip = \"ft6x36\"", with: "chip = \"evdev\"")
        let board = try BoardLoader.parse(text, file: "t.toml", directory: dir.path)
        let path = dir.appendingPathComponent("recorded.jsonl").path
        let recorder = try Recorder(board: board, path: path, logger: quietLogger, start: .zero)
        XCTAssertTrue(recorder.driver.start(at: .zero))
        for ms in stride(from: Int64(0), through: 300, by: 10) { try recorder.step(at: .milliseconds(ms)) }
        try recorder.finish(at: .milliseconds(310))
        let trace = try TraceReader.read(path: path)
        XCTAssertEqual(trace.frames.map(\.count), [1, 1, 0])
        XCTAssertEqual(trace.frames[1][0].position, Point(x: 401, y: 240))
    }
}
