import BoardConfig
import Foundation
import Gestures
import TouchComposition
import TouchCore
import TouchDrivers
import TouchService
import TouchTrace
import XCTest

/// `[passthrough]`: what the UI receives, from the engine's deliveries (S22–S27), on replay.
final class PassthroughTests: XCTestCase {
    /// A board with one "screen" region (plus `regions`) and the given recognizers, replaying `frames`;
    /// returns the frames the UI sees.
    func uiFrames(recognizers: String, regions: String = "", frames: [TouchFrame]) throws -> [TouchFrame] {
        let text = """
            [panel]
            width = 800
            height = 480

            [[region]]
            name = "screen"
            frame = [0, 0, 800, 480]
            multiple_touch = true

            \(regions)
            \(recognizers)

            [passthrough]
            """
        let board = try BoardLoader.parse(text, file: "p.toml", directory: "/tmp")
        XCTAssertEqual(board.passthrough, PassthroughDescription())
        let engine = try EngineBuilder.build(board)
        let tracker = PassthroughTracker(board: board, engine: engine)
        var out: [TouchFrame] = []
        tracker.onFrame = { out.append($0) }
        Replay.run(
            trace: Trace(header: TraceHeader(panelWidth: 800, panelHeight: 480), frames: frames), engine: engine,
            delivery: false, output: CollectingSink(), passthrough: tracker)
        return out
    }

    /// The records the passthrough touchscreen writes for `frames` (the tracker's reports through
    /// the encoder, cancels marked), with the reports' frames and which contacts each cancelled.
    func uiRecords(recognizers: String, passthrough: String = "", frames: [TouchFrame]) throws -> (
        frames: [TouchFrame], cancelled: [UInt64], events: [InputEvent]
    ) {
        let text = """
            [panel]
            width = 800
            height = 480

            [[region]]
            name = "screen"
            frame = [0, 0, 800, 480]
            multiple_touch = true

            \(recognizers)

            [passthrough]
            \(passthrough)
            """
        let board = try BoardLoader.parse(text, file: "p.toml", directory: "/tmp")
        let engine = try EngineBuilder.build(board)
        let tracker = PassthroughTracker(board: board, engine: engine)
        var encoder = MultiTouchEncoder(slots: 10, marksCancels: true)
        var out: [TouchFrame] = []
        var cancelled: [UInt64] = []
        var events: [InputEvent] = []
        tracker.onFrame = { frame in
            out.append(frame)
            cancelled.append(tracker.cancelledInReport)
            encoder.encode(frame, cancelled: tracker.cancelledInReport, into: &events)
        }
        Replay.run(
            trace: Trace(header: TraceHeader(panelWidth: 800, panelHeight: 480), frames: frames), engine: engine,
            delivery: false, output: CollectingSink(), passthrough: tracker)
        return (out, cancelled, events)
    }

    /// The tracking ids the records start, in order.
    func trackingIDs(_ events: [InputEvent]) -> [Int32] {
        events.filter { $0.code == EvdevCode.ABS_MT_TRACKING_ID && $0.type == EvdevCode.EV_ABS && $0.value >= 0 }
            .map(\.value)
    }

    let doubleTap = "[[recognizer]]\nname = \"double\"\nkind = \"tap\"\nregion = \"screen\"\ntaps = 2\n"
    /// The lift of a withheld end waits for the engine's delivery.
    let delivered = "held_ends = \"delivered\""

    func f(_ ms: Int64, _ contacts: (UInt8, Double, Double)...) -> TouchFrame {
        TouchFrame(timestamp: .milliseconds(ms), contacts: contacts.map { Contact(id: $0.0, x: $0.1, y: $0.2) })
    }

    func shape(_ frames: [TouchFrame]) -> [String] {
        frames.map { fr in
            "\(fr.timestamp.microseconds / 1000):"
                + fr.contacts.map { "\($0.id)@\(Int($0.position.x)),\(Int($0.position.y))" }
                .joined(separator: " ")
        }
    }

    /// Nothing recognizes: frames in = frames out (S22 defaults deliver every phase).
    func testUnrecognizedTouchesReachTheUIUnchanged() throws {
        let frames = [
            f(0, (0, 100, 100)), f(10, (0, 102, 101)), f(20, (0, 102, 101), (1, 500, 300)), f(30, (1, 500, 300)), f(40),
        ]
        let ui = try uiFrames(
            recognizers: "[[recognizer]]\nname = \"lp\"\nkind = \"long_press\"\nregion = \"screen\"\ntouches = 3\n",
            frames: frames)
        XCTAssertEqual(shape(ui), shape(frames))
    }

    // S23: cancels_touches — once the pan recognizes, the UI sees the touch lifted and no more of it.
    func testRecognizedPanLiftsTheTouchForTheUI() throws {
        let ui = try uiFrames(
            recognizers: "[[recognizer]]\nname = \"pan\"\nkind = \"pan\"\nregion = \"screen\"\n",
            frames: [f(0, (0, 100, 100)), f(10, (0, 104, 100)), f(20, (0, 140, 100)), f(30, (0, 180, 100)), f(40)])
        XCTAssertEqual(shape(ui), ["0:0@100,100", "10:0@104,100", "20:"])
    }

    // S23 with cancels_touches = false: the UI gets the whole touch while the pan runs.
    func testPanThatDoesNotCancelLeavesTheTouchToTheUI() throws {
        let frames = [f(0, (0, 100, 100)), f(10, (0, 140, 100)), f(20)]
        let ui = try uiFrames(
            recognizers:
                "[[recognizer]]\nname = \"pan\"\nkind = \"pan\"\nregion = \"screen\"\ncancels_touches = false\n",
            frames: frames)
        XCTAssertEqual(shape(ui), shape(frames))
    }

    // S24: delays_began — the UI sees nothing until the recognizer fails, then the held frames in order.
    func testDelaysBeganHoldsFramesUntilFailureThenReleasesThemInOrder() throws {
        let ui = try uiFrames(
            recognizers: """
                [[recognizer]]
                name = "swipe"
                kind = "swipe"
                region = "screen"
                direction = ["up"]
                delays_began = true
                max_duration_ms = 100
                """,
            frames: [f(0, (0, 100, 300)), f(20, (0, 101, 300)), f(40, (0, 103, 301)), f(300, (0, 104, 301)), f(320)])
        XCTAssertEqual(ui.first.map { $0.timestamp.microseconds > 0 }, true, "nothing at the touch's start")
        // The engine releases a held touch as its began (where it landed) then one move to where it
        // is now; later frames follow as they come, then the lift.
        XCTAssertEqual(ui.map { $0.contacts.map { Int($0.position.x) } }, [[100], [103], [104], []])
        XCTAssertEqual(ui[0].timestamp, ui[1].timestamp, "landing point and current position released together")
    }

    /// A region with `passthrough = false` (a reserved edge strip): the UI never sees its touches.
    func testReservedStripIsNeverSeenByTheUI() throws {
        let ui = try uiFrames(
            recognizers: "[[recognizer]]\nname = \"lp\"\nkind = \"long_press\"\nregion = \"screen\"\ntouches = 3\n",
            regions:
                "[[region]]\nname = \"strip\"\nparent = \"screen\"\nframe = [0, 460, 800, 20]\npassthrough = false\n",
            frames: [f(0, (0, 400, 470)), f(10, (0, 400, 440)), f(20), f(100, (1, 50, 50)), f(110)])
        XCTAssertEqual(shape(ui), ["100:1@50,50", "110:"])
    }

    // S24 (delays_ended), `held_ends = "delivered"`: a tap, then a 2 s press with the same
    // controller id. The double tap holds the tap's end until it fails (the press outlasts a tap,
    // 1.5 s); the press waits for that end. The UI gets two touches — the tap's lift before the
    // press lands — each with its own tracking id, never one 2.2 s press.
    func testTapThenPressWithTheSameIDReachTheUIAsTwoTouches() throws {
        let ui = try uiRecords(
            recognizers: doubleTap, passthrough: delivered,
            frames: [f(0, (0, 100, 100)), f(60), f(180, (0, 102, 101)), f(2_180)])
        XCTAssertEqual(shape(ui.frames), ["0:0@100,100", "1680:", "1680:0@102,101", "2180:"])
        XCTAssertEqual(trackingIDs(ui.events).count, 2, "two touches, two tracking ids")
        XCTAssertEqual(Set(trackingIDs(ui.events)).count, 2)
    }

    // S24, `held_ends = "delivered"`: the same with a controller that gives the press another id:
    // the tap's finger is up (the controller no longer reports it) although its end is held, so
    // the press still waits — the UI never sees the tap and the press down together (a pinch).
    func testPressWithAnotherIDWaitsForTheHeldTapsEnd() throws {
        let ui = try uiRecords(
            recognizers: doubleTap, passthrough: delivered,
            frames: [f(0, (0, 100, 100)), f(60), f(180, (1, 102, 101)), f(2_180)])
        XCTAssertEqual(shape(ui.frames), ["0:0@100,100", "1680:", "1680:1@102,101", "2180:"])
        XCTAssertEqual(ui.frames.map(\.count).max(), 1, "never two touches at once")
    }

    // S24, `held_ends = "delivered"`: two taps far apart (the double tap fails on the second's
    // distance, releasing the first tap's end then): the first lifts before the second lands.
    func testTwoTapsWithTheSameIDAreTwoTouchesForTheUI() throws {
        let ui = try uiRecords(
            recognizers: doubleTap, passthrough: delivered,
            frames: [f(0, (0, 100, 100)), f(60), f(180, (0, 500, 300)), f(240)])
        XCTAssertEqual(ui.frames.map(\.count), [1, 0, 1, 0], "\(shape(ui.frames))")
        XCTAssertEqual(ui.frames[1].timestamp.microseconds, ui.frames[2].timestamp.microseconds)
        XCTAssertEqual(ui.frames[2].contacts.first?.position, Point(x: 500, y: 300))
        XCTAssertEqual(Set(trackingIDs(ui.events)).count, 2)
    }

    // S23/S24, `held_ends = "delivered"`: a recognized double tap takes both taps away: the UI saw
    // the first land, gets it cancelled (a palm, libinput's TOUCH_CANCEL), and never sees the second.
    func testRecognizedDoubleTapCancelsTheFirstAndHidesTheSecond() throws {
        let ui = try uiRecords(
            recognizers: doubleTap, passthrough: delivered,
            frames: [f(0, (0, 100, 100)), f(60), f(180, (0, 102, 101)), f(240)])
        XCTAssertEqual(shape(ui.frames), ["0:0@100,100", "240:"])
        XCTAssertEqual(ui.cancelled, [0, 1])
        XCTAssertEqual(trackingIDs(ui.events).count, 1)
    }

    // S24 (delays_ended), `held_ends = "on_time"` (the default): a tap, then a 2 s press with the
    // same controller id. The double tap holds the tap's end until it fails at 1.68 s (S24: the
    // engine's deliveries are unchanged), but the UI gets each touch as the finger made it: the
    // tap lifts at 60 ms, the press lands at 180 ms and lifts at 2.18 s — a 2 s press (a browser's
    // long press), not one that starts late, and two tracking ids.
    func testHeldEndsReachTheUIWhenTheFingerLifts() throws {
        let ui = try uiRecords(
            recognizers: doubleTap, frames: [f(0, (0, 100, 100)), f(60), f(180, (0, 102, 101)), f(2_180)])
        XCTAssertEqual(shape(ui.frames), ["0:0@100,100", "60:", "180:0@102,101", "2180:"])
        XCTAssertEqual(ui.cancelled, [0, 0, 0, 0], "ordinary lifts")
        XCTAssertEqual(Set(trackingIDs(ui.events)).count, 2, "two touches, two tracking ids")
        // Another controller id for the press: the same, never two fingers down together.
        let other = try uiRecords(
            recognizers: doubleTap, frames: [f(0, (0, 100, 100)), f(60), f(180, (1, 102, 101)), f(2_180)])
        XCTAssertEqual(shape(other.frames), ["0:0@100,100", "60:", "180:1@102,101", "2180:"])
    }

    // S23/S24, `held_ends = "on_time"`: a recognized double tap. The first tap lifted for the UI
    // when its finger did (the engine cancels it later: too late to take it back); the second,
    // recognized on its lift in that same frame, arrives as a cancel (a palm before its lift).
    func testRecognizedDoubleTapCancelsOnlyTheSecondTapOnTime() throws {
        let ui = try uiRecords(
            recognizers: doubleTap, frames: [f(0, (0, 100, 100)), f(60), f(180, (0, 102, 101)), f(240)])
        XCTAssertEqual(shape(ui.frames), ["0:0@100,100", "60:", "180:0@102,101", "240:"])
        XCTAssertEqual(ui.cancelled, [0, 0, 0, 1], "the second tap is cancelled, the first was lifted")
    }

    // S23: the touches a recognized gesture takes away reach the UI as cancels: the contact turns
    // into a palm (ABS_MT_TOOL_TYPE = MT_TOOL_PALM) in a report before its lift.
    func testCancelledTouchReachesTheUIAsAPalmBeforeItsLift() throws {
        let ui = try uiRecords(
            recognizers: "[[recognizer]]\nname = \"pan\"\nkind = \"pan\"\nregion = \"screen\"\n",
            frames: [f(0, (0, 100, 100)), f(10, (0, 104, 100)), f(20, (0, 140, 100)), f(30, (0, 180, 100)), f(40)])
        XCTAssertEqual(shape(ui.frames), ["0:0@100,100", "10:0@104,100", "20:"])
        XCTAssertEqual(ui.cancelled, [0, 0, 1])
        let palm = ui.events.firstIndex(
            of: InputEvent(
                type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_TOOL_TYPE, value: EvdevCode.MT_TOOL_PALM))
        let lift = ui.events.firstIndex(
            of: InputEvent(
                type: EvdevCode.EV_ABS, code: EvdevCode.ABS_MT_TRACKING_ID, value: -1))
        XCTAssertNotNil(palm)
        XCTAssertLessThan(palm ?? .max, lift ?? -1, "the palm first")
        XCTAssertTrue(ui.events[(palm ?? 0)..<(lift ?? 0)].contains(.synReport), "in a report of its own")
        // Nothing recognizes: an ordinary lift, no palm.
        let plain = try uiRecords(recognizers: doubleTap, frames: [f(0, (0, 100, 100)), f(10, (0, 300, 100)), f(20)])
        XCTAssertFalse(plain.events.contains { $0.code == EvdevCode.ABS_MT_TOOL_TYPE && $0.type == EvdevCode.EV_ABS })
    }

    func testPassthroughNeedsUInputOrDoesNotStart() throws {
        guard !FileManager.default.fileExists(atPath: "/dev/uinput") else {
            throw XCTSkip("/dev/uinput exists here; the VM tests cover the device")
        }
        let text = simulatedBoardText(script: "demo", recognizers: ["tap"], extra: "[passthrough]\nname = \"ui\"\n")
        let board = try BoardLoader.parse(text, file: "p.toml", directory: "/tmp")
        XCTAssertThrowsError(try Service(board: board, logger: quietLogger, stdout: CollectingSink())) {
            XCTAssertEqual(
                "\($0)",
                "p.toml: passthrough: /dev/uinput does not exist (load the uinput module: sudo modprobe uinput)")
        }
    }
}
