import Dispatch
import Synchronization
import TouchCore
import TouchService
import XCTest

/// The driver thread recognizes the frames it read when the recognizer thread is not in a pass;
/// the two never run the stage at once, and a timer armed by the driver's pass is never left to
/// a sleep that ends after it.
final class RecognizerTurnsTests: XCTestCase {
    func testTheStageHasOneHolderAndTheDriverNeverWaits() {
        let turns = RecognizerTurns()
        XCTAssertTrue(turns.tryAcquire(), "free: the driver takes it")
        XCTAssertFalse(turns.tryAcquire(), "held: the driver wakes the recognizer thread instead")
        turns.release()
        turns.acquire()
        XCTAssertFalse(turns.tryAcquire(), "the recognizer thread's pass excludes the driver's")
        turns.release()
        XCTAssertTrue(turns.tryAcquire())
        turns.release()
    }

    func testATimerDueBeforeTheRecognizerWakesMakesTheDriverWakeIt() {
        let turns = RecognizerTurns()
        turns.recognizerWillSleep(until: Instant(microseconds: 2_000_000))
        // A touch began a long press: its 500 ms timer is due long before the 1 s sleep ends.
        XCTAssertTrue(turns.mustWake(for: Instant(microseconds: 1_500_000)))
        XCTAssertFalse(turns.mustWake(for: Instant(microseconds: 2_000_000)), "due as it wakes: on time")
        XCTAssertFalse(turns.mustWake(for: Instant(microseconds: 2_500_000)), "due later: its own sleep covers it")
        XCTAssertFalse(turns.mustWake(for: nil), "no timer armed")
        turns.recognizerAwoke()
        XCTAssertFalse(
            turns.mustWake(for: Instant(microseconds: 1)),
            "awake: it reads the engine's deadline itself once it holds the stage")
    }

    /// Two threads taking turns on a plain counter (as the driver and recognizer threads do on
    /// the engine): no increment is lost, so no two passes ever overlapped.
    func testPassesNeverOverlapUnderContention() {
        let turns = RecognizerTurns()
        final class Unprotected: @unchecked Sendable { var count = 0 }
        let shared = Unprotected()
        let rounds = 20_000
        let driverPasses = Atomic<Int>(0)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            for _ in 0..<rounds {
                turns.acquire()
                shared.count += 1
                turns.release()
            }
        }
        DispatchQueue.global().async(group: group) {
            for _ in 0..<rounds where turns.tryAcquire() {
                shared.count += 1
                driverPasses.add(1, ordering: .relaxed)
                turns.release()
            }
        }
        group.wait()
        XCTAssertEqual(shared.count, rounds + driverPasses.load(ordering: .relaxed))
    }
}
