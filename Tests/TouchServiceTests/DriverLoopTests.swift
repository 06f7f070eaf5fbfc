import BoardConfig
import Foundation
import TouchComposition
import TouchCore
import TouchRing
import TouchService
import TouchSimulation
import XCTest

/// `DriverLoop`: the one driver loop `run` and `monitor` share, on the simulated demo board and
/// a virtual clock that only the loop's waits move.
final class DriverLoopTests: XCTestCase {
    /// When the demo's first touch lands (its tap).
    private var firstTouch: Instant {
        let frames = DemoScript.frames(panelWidth: 800, panelHeight: 480)
        return frames.first { !$0.isEmpty }!.timestamp
    }

    private func board(interrupt: Bool) throws -> BoardDescription {
        var text = try String(
            contentsOf: repositoryRoot.appendingPathComponent("boards/sim-demo.toml"), encoding: .utf8)
        if interrupt {
            text = text.replacingOccurrences(
                of: "bus = \"sim\"              #",
                with: "bus = \"sim\"\ninterrupt = { chip = \"sim-gpio\", line = 17 }  #")
        }
        return try BoardLoader.parse(text, file: "demo.toml", directory: repositoryRoot.path)
    }

    private func loop(_ board: BoardDescription, clock: ManualClock) throws -> (DriverLoop, FrameQueue) {
        let setup = try ControllerFactory.make(
            board, start: .zero, clock: clock)
        let frames = FrameQueue(capacity: 64)
        let stage = DriverStage(
            controller: setup.controller, frames: frames, transform: setup.transform,
            protection: setup.protection, schedule: setup.schedule, log: { _ in })
        XCTAssertTrue(stage.start(at: clock.now))
        return (DriverLoop(driver: stage, clock: clock, idleInterruptWatchdogMicroseconds: 1_000_000), frames)
    }

    /// Without INT the loop polls at the adaptive period and asks to wait out the rest of it; the
    /// demo's tap is read within one period of landing.
    func testPolledBoardKeepsThePeriodAndReadsTheTapWithinOne() throws {
        let clock = ManualClock()
        var (loop, _) = try loop(board(interrupt: false), clock: clock)
        XCTAssertNil(loop.driver.interruptInput)
        var previous: Instant? = nil
        while clock.now < .milliseconds(2_000) {
            let turn = loop.turn()
            let interval = loop.driver.pollInterval(at: turn.readAt)  // as this read left the schedule
            XCTAssertEqual(turn.readAt, clock.now)
            if let previous { XCTAssertLessThanOrEqual(turn.readAt.microseconds(since: previous), 20_000) }
            previous = turn.readAt
            let wait = try XCTUnwrap(turn.waitMicroseconds, "a polled loop always waits for its next period")
            XCTAssertEqual(wait, interval, "nothing else moved the clock: the whole period is left")
            if turn.queued && loop.driver.lastContactAt != nil {
                XCTAssertGreaterThanOrEqual(turn.readAt, firstTouch)
                XCTAssertLessThan(turn.readAt.microseconds(since: firstTouch), 20_000, "within the idle period")
                return
            }
            clock.now = clock.now.advanced(byMicroseconds: wait)
        }
        XCTFail("the demo's tap was never read")
    }

    /// With INT the loop waits for the edge (idle: up to the watchdog) and reads at its instant,
    /// with nothing left to wait.
    func testInterruptBoardReadsAtTheEdgesInstant() throws {
        let clock = ManualClock()
        var (loop, frames) = try loop(board(interrupt: true), clock: clock)
        XCTAssertNotNil(loop.driver.interruptInput)
        var turn = loop.turn()
        while !turn.queued && clock.now < .milliseconds(2_000) { turn = loop.turn() }
        XCTAssertTrue(turn.queued)
        XCTAssertEqual(turn.readAt, firstTouch, "the tap is read at the INT edge's instant")
        XCTAssertNil(turn.waitMicroseconds)
        XCTAssertNil(turn.lineError)
        frames.flush()
        XCTAssertEqual(frames.poll()?.count, 1)
    }
}
