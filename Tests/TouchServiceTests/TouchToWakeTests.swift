import BoardConfig
import Foundation
import Gestures
import TouchComposition
import TouchCore
import TouchLinux
import TouchOutputs
import TouchService
import TouchSimulation
import XCTest

/// Issue 27 on the simulated board, stepped on a manual clock: the screen's backlight (a
/// directory the test makes, with the class device's files) goes dark after the idle time; the
/// touch that wakes it, and one in the wake guard, produce no event, no binding and no touch for
/// the UI; a touch after the guard behaves as usual; the socket switches it from outside.
final class TouchToWakeTests: XCTestCase {
    /// `/sys/class/backlight/panel` as a test directory: max 255, brightness 200, powered on.
    private func makeBacklight() throws -> URL {
        let root = try makeTemporaryDirectory(self)
        let device = root.appendingPathComponent("panel")
        try FileManager.default.createDirectory(at: device, withIntermediateDirectories: true)
        for (file, value) in [("max_brightness", "255"), ("brightness", "200"), ("bl_power", "0")] {
            try (value + "\n").write(to: device.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        return root
    }

    private func read(_ root: URL, _ file: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent("panel/" + file), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
    }

    private func tap(_ ms: Int, x: Int = 400) -> String {
        """
        {"t_us":\(ms * 1000),"contacts":[{"id":0,"x":\(x),"y":240}]}
        {"t_us":\((ms + 50) * 1000),"contacts":[]}

        """
    }

    private struct Rig {
        var service: Service
        var stdout: CollectingSink
        var ui: [TouchFrame]
        var gpio: SimulatedGPIO
        var clock: ManualClock
    }

    /// A simulated board playing `taps` (ms), with a single-tap recognizer pulsing sim line 1,
    /// `display`, and the UI's passthrough collected.
    private func rig(taps: [Int], display: String, extra: String = "", root: URL) throws -> (Rig, () -> [TouchFrame]) {
        let dir = try makeTemporaryDirectory(self)
        let trace =
            #"{"touchwire_trace":1,"panel":{"width":800,"height":480},"source":"test"}"# + "\n"
            + taps.map { tap($0) }.joined()
        try trace.write(to: dir.appendingPathComponent("taps.jsonl"), atomically: true, encoding: .utf8)
        let text = simulatedBoardText(
            script: "taps.jsonl", recognizers: ["tap"],
            extra: """
                [[binding]]
                recognizer = "tap"
                action = "pulse"
                pulse_ms = 20
                gpio = { chip = "sim", line = 1 }

                [display]
                \(display)

                \(extra)
                """)
        let board = try BoardLoader.parse(text, file: "wake.toml", directory: dir.path)
        let clock = ManualClock()
        let stdout = CollectingSink()
        let gpio = SimulatedGPIO(chips: ["sim": 8], clock: clock)
        let service = try Service(
            board: board, logger: quietLogger, settings: ServiceSettings(backlightRoot: root.path), stdout: stdout,
            gpio: gpio, clock: clock)
        // What the UI would read from the passthrough device (the tracker `[passthrough]` uses).
        let tracker = PassthroughTracker(board: board, engine: service.engine)
        final class Frames: @unchecked Sendable { var list: [TouchFrame] = [] }
        let ui = Frames()
        tracker.onFrame = { ui.list.append($0) }
        service.engine.sink = PassthroughSink(inner: service.events, tracker: tracker)
        service.recognizer.passthrough = tracker
        XCTAssertTrue(service.driver.start(at: .zero))
        // The service's lines and sinks are released while the manual clock they read is alive
        // (an optimized build may otherwise end the clock's lifetime first).
        addTeardownBlock {
            service.close()
            withExtendedLifetime(clock) {}
        }
        return (Rig(service: service, stdout: stdout, ui: [], gpio: gpio, clock: clock), { ui.list })
    }

    /// Steps every 10 ms from `from` through `to`; the display switch applies what it was asked.
    private func step(_ rig: Rig, from: Int64, to: Int64, at each: (Int64) -> Void = { _ in }) {
        for ms in stride(from: from, through: to, by: 10) {
            rig.clock.now = .milliseconds(ms)
            each(ms)
            rig.service.driver.poll(at: rig.clock.now)
            rig.service.recognizer.step(now: rig.clock.now)
            rig.service.output.drain(clock: rig.clock)
            rig.service.output.flush()
            (rig.service.displaySwitch as? DisplaySwitch)?.applyPending()
        }
    }

    func testDarkAfterIdleTimeWakeTouchReachesNothingAndTheNextTouchIsATap() throws {
        let root = try makeBacklight()
        let (rig, uiFrames) = try rig(
            taps: [0, 2_000, 2_200, 2_600],
            display: "idle_off_s = 1\nbacklight = \"panel\"\ngpio = { chip = \"sim\", line = 2 }", root: root)
        var powerAt: [Int64: String] = [:]
        step(rig, from: 0, to: 3_000) { ms in
            if [1_040, 1_060, 1_990, 2_010].contains(ms) { powerAt[ms] = self.read(root, "bl_power") }
        }
        // Dark one idle second after the first tap's lift, back at the wake touch.
        XCTAssertEqual(powerAt, [1_040: "0", 1_060: "4", 1_990: "4", 2_010: "0"])
        XCTAssertEqual(read(root, "brightness"), "200", "the brightness found is restored")
        let tapLine: (Int) -> String = { ms in
            #"{"t_us":\#(ms * 1000),"recognizer":"tap","kind":"tap","state":"recognized","region":"screen","#
                + #""x":400.0,"y":240.0,"touches":1,"taps":1}"#
        }
        XCTAssertEqual(
            rig.stdout.text.split(separator: "\n").map(String.init),
            [
                tapLine(50),
                #"{"t_us":1050000,"display":"off","cause":"idle"}"#,
                #"{"t_us":2000000,"display":"on","cause":"touch"}"#,
                tapLine(2_650),
            ])
        // The UI saw the first and the last tap only; the binding pulsed twice.
        XCTAssertEqual(
            uiFrames().map { "\($0.timestamp.microseconds / 1000):\($0.count)" }, ["0:1", "50:0", "2600:1", "2650:0"])
        XCTAssertEqual(rig.gpio.changes(of: GPIOLineID(chip: "sim", offset: 1)).filter(\.active).count, 2)
        // The display's line follows the screen: active from the start, inactive while dark.
        XCTAssertEqual(
            rig.gpio.changes(of: GPIOLineID(chip: "sim", offset: 2)).map {
                "\($0.at.microseconds / 1000):\($0.active)"
            },
            ["0:true", "1050:false", "2000:true"])
        let status = try XCTUnwrap(rig.service.display?.status)
        XCTAssertEqual(status.state, .on)
        XCTAssertEqual(status.offs, 1)
        XCTAssertEqual(status.touchWakes, 1)
        XCTAssertEqual(status.swallowedTouches, 2)
        rig.service.publishSnapshot()
        let snapshot = try XCTUnwrap(rig.service.latestSnapshot)
        XCTAssertEqual(snapshot.display, "on")
        XCTAssertTrue(
            snapshot.render().contains("display     on (offs 1, touch wakes 1, swallowed touches 2)"), snapshot.render()
        )
        XCTAssertTrue(
            PrometheusFormat.render(snapshot).contains("touchwire_display_swallowed_touches_total{board=\"wake\"} 2"),
            PrometheusFormat.render(snapshot))
    }

    func testDimsThenGoesOffAndWakesAtTheBrightnessFound() throws {
        let root = try makeBacklight()
        let (rig, uiFrames) = try rig(
            taps: [0, 3_000],
            display: "idle_off_s = 2\nidle_dim_s = 1\ndim_brightness = 20\nbacklight = \"panel\"", root: root)
        var seen: [Int64: String] = [:]
        step(rig, from: 0, to: 3_200) { ms in
            if [1_060, 2_060].contains(ms) {
                seen[ms] = self.read(root, "brightness") + "/" + self.read(root, "bl_power")
            }
        }
        XCTAssertEqual(seen, [1_060: "51/0", 2_060: "51/4"])
        XCTAssertEqual(read(root, "brightness") + "/" + read(root, "bl_power"), "200/0")
        XCTAssertEqual(
            rig.stdout.text.split(separator: "\n").filter { $0.contains("display") },
            [
                #"{"t_us":1050000,"display":"dimmed","cause":"idle"}"#,
                #"{"t_us":2050000,"display":"off","cause":"idle"}"#,
                #"{"t_us":3000000,"display":"on","cause":"touch"}"#,
            ])
        XCTAssertEqual(uiFrames().count, 2, "only the first tap reached the UI")
    }

    func testTheSocketSwitchesTheDisplayAndATouchWakesItTheSameWay() throws {
        let root = try makeBacklight()
        let socketPath = try makeTemporaryDirectory(self).appendingPathComponent("events.sock").path
        let (rig, uiFrames) = try rig(
            taps: [0, 1_000], display: "idle_off_s = 0\nbacklight = \"panel\"",
            extra: "[[output]]\ntype = \"socket\"\npath = \"\(socketPath)\"\n[[output]]\ntype = \"stdout\"\n",
            root: root)
        let client = try UnixStreamConnection(connectingTo: socketPath)
        var replies: [String] = []
        func ask(_ line: String) throws {
            try client.write(Array((line + "\n").utf8))
        }
        step(rig, from: 0, to: 200)
        try ask("display status")
        try ask("display off")
        step(rig, from: 210, to: 500)
        XCTAssertEqual(read(root, "bl_power"), "4")
        try ask("display status")
        try ask("display dance")
        step(rig, from: 510, to: 1_200)
        XCTAssertEqual(read(root, "bl_power"), "0")
        var buffer = [UInt8](repeating: 0, count: 8192)
        let n = try buffer.withUnsafeMutableBytes { try client.read(into: $0, timeoutMilliseconds: 1000) } ?? 0
        replies = String(decoding: buffer[0..<n], as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertEqual(replies.count, 7, "\(replies)")
        XCTAssertTrue(replies[1].hasPrefix(#"{"reply":"status","display":"on""#), "\(replies)")
        XCTAssertEqual(replies[2], #"{"reply":"ok"}"#)
        XCTAssertEqual(replies[3], #"{"t_us":220000,"display":"off","cause":"command"}"#)
        XCTAssertTrue(replies[4].hasPrefix(#"{"reply":"status","display":"off","cause":"command""#), "\(replies)")
        XCTAssertTrue(replies[5].hasPrefix(#"{"reply":"error","message":"unknown command"#), "\(replies)")
        XCTAssertEqual(replies[6], #"{"t_us":1000000,"display":"on","cause":"touch"}"#)
        XCTAssertEqual(replies.filter { $0.contains(#""recognizer":"tap""#) }.count, 1, "the wake tap is not a tap")
        XCTAssertEqual(uiFrames().count, 2)
    }
}
