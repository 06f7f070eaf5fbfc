import BoardConfig
import Gestures
import MallocInterposerSwift
import TouchComposition
import TouchCore
import TouchRing
import TouchService
import TouchTrace
import XCTest

/// A stroke recognizer and a checkmark (boards/strokes-sim.toml) on real strokes through the
/// recognizer stage: following the finger and deciding at the lift allocate nothing.
final class StrokeAllocationTests: XCTestCase {
    override func setUpWithError() throws {
        #if DEBUG
            throw XCTSkip(
                "allocation counts are measured on optimized code: run `swift test -c release -Xswiftc -enable-testing`"
            )
        #endif
    }

    private func mallocs(_ body: () -> Void) -> Int {
        MallocInterposerSwift.initialize()
        MallocInterposerSwift.hook()
        body()
        MallocInterposerSwift.unhook()
        return Int(MallocInterposerSwift.getStatistics().mallocCount)
    }

    func testStrokeRecognizersAllocateNothingPerFrameOrPerDecision() throws {
        let board = try BoardLoader.load(path: repositoryRoot.appendingPathComponent("boards/strokes-sim.toml").path)
        let engine = try EngineBuilder.build(board)
        let events = EventQueueSink(capacity: 4096, wake: Wakeup())
        engine.sink = events
        let frames = FrameQueue(capacity: 1024)
        let stage = RecognizerStage(frames: frames, engine: engine)
        // The first 51 strokes of s01 (ten each of arrow, caret, check, circle, delete_mark; a brace).
        let trace = try TraceReader.read(path: repositoryRoot.appendingPathComponent("data/unistroke/s01.jsonl").path)
        let script = Array(trace.frames.prefix(while: { $0.timestamp.microseconds < 97_000_000 }))
        XCTAssertGreaterThan(script.count, 2000)

        func play(offset: Int64) -> Int {
            var popped = 0
            for var frame in script {
                frame.timestamp = frame.timestamp.advanced(byMicroseconds: offset)
                frames.offer(frame)
                stage.step(now: frame.timestamp)
                while events.ring.tryPop() != nil { popped += 1 }
            }
            return popped
        }

        let warmUp = play(offset: 0)
        var measured = 0
        let count = mallocs { measured = play(offset: 200_000_000) }
        XCTAssertEqual(count, 0, "mallocs on the recognizer loop across \(script.count) frames of strokes")
        XCTAssertEqual(measured, warmUp)
        XCTAssertGreaterThanOrEqual(measured, 18, "the 10 checks and 10 circles were recognized: decisions were made")
    }
}
