import Gestures
import TouchCore
import TouchRing
import TouchService
import XCTest

/// Frames read late — the process was stopped, or busy, while the kernel stamped the touch's
/// changes — keep their own times even when the recognizer thread woke first (docs/kiosk.md: a
/// press read late keeps its real length; tools/vm/libinput-tests.sh's `kernel times` check shows
/// the same on a real input device).
final class LateFramesTests: XCTestCase {
    // S13 + S3: a touch's timestamp is when it changed. A 913 ms press whose frames are read only
    // after an idle recognizer pass at a later instant is a long press, not a tap at that instant.
    func testAPressReadAfterAnIdlePassKeepsItsOwnDuration() {
        let engine = GestureEngine(root: Region(name: "screen", frame: Rect(x: 0, y: 0, width: 800, height: 480)))
        engine.add(LongPressGestureRecognizer(name: "press", minimumPressDurationMilliseconds: 500), to: engine.root)
        engine.add(TapGestureRecognizer(name: "tap"), to: engine.root)
        let log = RecordingSink()
        engine.sink = log
        let frames = FrameQueue(capacity: 16)
        let stage = RecognizerStage(frames: frames, engine: engine)
        stage.step(now: .milliseconds(100))
        // The process resumes 2.5 s in: the recognizer thread's pass comes before the driver's read.
        stage.step(now: .milliseconds(2_500))
        var down = TouchFrame(timestamp: .milliseconds(1_000))
        down.append(Contact(id: 0, x: 400, y: 240))
        XCTAssertTrue(frames.offer(down))
        XCTAssertTrue(frames.offer(TouchFrame(timestamp: .milliseconds(1_913))))
        stage.step(now: .milliseconds(2_510))
        let names = log.events.map { "\($0.recognizer == 0 ? "press" : "tap"):\($0.state)" }
        XCTAssertEqual(names, ["press:began", "press:ended"], "events: \(log.events)")
        XCTAssertEqual(log.events.first?.time, .milliseconds(1_500), "the press began 500 ms after its touch")
    }
}
