import BoardConfig
import Foundation
import TouchComposition
import TouchCore
import TouchDrivers
import TouchOutputs
import TouchService
import XCTest

/// The success paths of the outputs that need the kernel in `run` — the key bindings' keyboard,
/// the `[passthrough]` touchscreen, exec bindings — through their simulated twins
/// (`SimulatedOutputDevices`), on any machine: the service is assembled exactly as `run`
/// assembles it, and the twins record what the desktop, the UI or the system would get.
final class OutputDeviceTests: XCTestCase {
    // linux/input-event-codes.h
    let ctrl = 29
    let alt = 56
    let t = 20

    /// A service on the simulated board playing the one-tap trace, with `extra` appended.
    func tapService(extra: String, devices: SimulatedOutputDevices, clock: ManualClock) throws -> Service {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let text = simulatedBoardText(script: "tap.jsonl", recognizers: ["tap"], extra: extra)
        let board = try BoardLoader.parse(text, file: "k.toml", directory: dir.path)
        return try Service(
            board: board, logger: quietLogger, stdout: CollectingSink(), devices: devices, clock: clock)
    }

    /// Steps the service's stages by hand through the trace (300 ms, 10 ms apart).
    func play(_ service: Service, _ clock: ManualClock) {
        XCTAssertTrue(service.driver.start(at: .zero))
        for ms in stride(from: Int64(0), through: 300, by: 10) {
            clock.now = .milliseconds(ms)
            service.driver.poll(at: clock.now)
            service.recognizer.step(now: clock.now)
            service.output.drain(clock: clock)
        }
    }

    func key(_ code: Int, _ value: Int32) -> InputEvent {
        InputEvent(type: EvdevCode.EV_KEY, code: UInt16(code), value: value)
    }

    /// A chord is pressed in the order the binding lists it and released in reverse, one report
    /// per key, as a user's fingers do: Ctrl+Alt+T lets go of T first and Ctrl last. Released in
    /// press order, Ctrl would go up while T is still down.
    func testKeyChordIsReleasedInReversePressOrder() throws {
        let devices = SimulatedOutputDevices()
        let clock = ManualClock()
        let service = try tapService(
            extra: """
                [[binding]]
                recognizer = "tap"
                action = "key"
                keys = ["KEY_LEFTCTRL", "KEY_LEFTALT", "KEY_T"]
                """,
            devices: devices, clock: clock)
        defer { service.close() }
        XCTAssertEqual(devices.declaredKeys, [[ctrl, alt, t]])
        play(service, clock)
        let keyboard = try XCTUnwrap(devices.keyboards.first)
        let syn = InputEvent.synReport
        XCTAssertEqual(
            keyboard.events,
            [key(ctrl, 1), syn, key(alt, 1), syn, key(t, 1), syn, key(t, 0), syn, key(alt, 0), syn, key(ctrl, 0), syn])
        XCTAssertEqual(keyboard.writes, 1, "one chord, one write")
        XCTAssertEqual(service.output.commands?.keyboard?.failedChords, 0)
        service.close()
        XCTAssertTrue(keyboard.isClosed, "close() removes the virtual keyboard")
    }

    /// A keyboard whose queue refuses the chord counts it as failed; nothing is half-pressed.
    func testRefusedChordIsCounted() {
        let device = RecordingInputDevice(refusesWrites: true)
        let keyboard = VirtualKeyboard(device: device)
        keyboard.press([ctrl, t][...])
        XCTAssertEqual(keyboard.failedChords, 1)
        XCTAssertEqual(device.events, [])
    }

    /// `[passthrough]`: the tap the engine does not consume reaches the UI's touchscreen as one
    /// touch, down at the trace's point and lifted (S22: every phase is delivered).
    func testPassthroughWritesTheTapToTheUITouchscreen() throws {
        let devices = SimulatedOutputDevices()
        let clock = ManualClock()
        let service = try tapService(extra: "[passthrough]\nname = \"ui\"\n", devices: devices, clock: clock)
        defer { service.close() }
        play(service, clock)
        let screen = try XCTUnwrap(devices.touchscreens.first)
        let events = screen.events
        let tracking = events.filter { $0.type == EvdevCode.EV_ABS && $0.code == EvdevCode.ABS_MT_TRACKING_ID }
        XCTAssertEqual(tracking.map(\.value).filter { $0 >= 0 }.count, 1, "one touch lands: \(events)")
        XCTAssertEqual(tracking.last?.value, -1, "and is lifted: \(events)")
        XCTAssertEqual(events.last, InputEvent.synReport)
        XCTAssertEqual(service.passthroughScreen?.failedReports, 0)
        service.close()
        XCTAssertTrue(screen.isClosed)
    }

    /// An exec binding asks the runner for its program once per tap, with the board's argv as
    /// given and exactly the board's environment; `run` would start it.
    func testExecBindingRequestsItsProgramWithTheBoardsEnvironment() throws {
        let devices = SimulatedOutputDevices()
        let clock = ManualClock()
        let service = try tapService(
            extra: """
                [[binding]]
                recognizer = "tap"
                action = "exec"
                command = ["/bin/echo", "a b", "$HOME"]

                [exec]
                environment = { LANG = "C.UTF-8", DISPLAY = ":0" }
                """, devices: devices, clock: clock)
        defer { service.close() }
        play(service, clock)
        let runner = try XCTUnwrap(devices.runners.first)
        XCTAssertEqual(
            runner.spawned,
            [.init(binding: 0, argv: ["/bin/echo", "a b", "$HOME"], environment: ["DISPLAY=:0", "LANG=C.UTF-8"])])
    }

    /// `monitor` assembles the pipeline as `run` does but observes only: the board's keyboard,
    /// touchscreen, programs and output channels are not opened, so a running service keeps
    /// them; the touches are still recognized and reach the caller's own channel.
    func testObservingPipelineOpensNoneOfTheBoardsOutputs() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let text = simulatedBoardText(
            script: "tap.jsonl", recognizers: ["tap"],
            extra: """
                [[output]]
                type = "stdout"

                [[binding]]
                recognizer = "tap"
                action = "key"
                keys = ["KEY_F5"]

                [[binding]]
                recognizer = "tap"
                action = "exec"
                command = ["/bin/true"]

                [passthrough]
                """)
        let board = try BoardLoader.parse(text, file: "m.toml", directory: dir.path)
        let devices = SimulatedOutputDevices()
        let clock = ManualClock()
        let watched = CollectingSink()
        let engine = try EngineBuilder.build(board)
        let channel = OutputChannel(
            name: "monitor", encoding: .json(EventJSONEncoder(names: EngineBuilder.names(of: engine))), sink: watched)
        let stdout = CollectingSink()
        let service = try Service(
            board: board, logger: quietLogger, settings: ServiceSettings(observeOnly: true), extraOutputs: [channel],
            stdout: stdout, devices: devices, clock: clock)
        defer { service.close() }
        play(service, clock)
        XCTAssertEqual(devices.keyboards.count, 0)
        XCTAssertEqual(devices.touchscreens.count, 0)
        XCTAssertEqual(devices.runners.count, 0)
        XCTAssertEqual(service.output.channels.map(\.name), ["monitor"])
        XCTAssertEqual(stdout.lines.count, 0, "the board's stdout output is not opened")
        XCTAssertEqual(watched.lines.filter { $0.contains("\"tap\"") && $0.contains("\"recognized\"") }.count, 1)
    }
}
