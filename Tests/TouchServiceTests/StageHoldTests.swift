import Foundation
import Synchronization
import TouchLinux
import XCTest

@testable import TouchService

/// `StageHold`, the hand-over of a pipeline stage between two threads: it must never livelock,
/// whatever the threads' priorities. The dangerous order is a waiter of higher `SCHED_FIFO`
/// priority than the holder on the same CPU (a `[realtime]` board with `recognizer_priority`
/// above `driver_priority`, and `cpus` pinning both to one core): a waiter that only spins and
/// yields never lets the holder run to its release.
final class StageHoldTests: XCTestCase {
    /// Shared between the test's threads: the holder's and waiter's progress.
    final class Scene: @unchecked Sendable {
        let hold = StageHold()
        let holding = Atomic<Bool>(false)
        let waiterStarted = Atomic<Bool>(false)
        let acquired = Atomic<Bool>(false)
        let released = Atomic<Bool>(false)
        // Written by the waiter before it announces `waiterStarted`, read by the test after.
        var waiterThread = pthread_self()
    }

    func testAHigherPriorityWaiterOnTheHoldersCPUNeverLivelocks() throws {
        // Where permitted: SCHED_FIFO needs CAP_SYS_NICE (root in CI and in the VM).
        let probe = Atomic<Int>(0)
        let t = Thread {
            do throws(RealTimeError) {
                try RealTime.setCurrentThreadScheduling(.fifo, priority: 1)
                probe.store(1, ordering: .sequentiallyConsistent)
            } catch {
                probe.store(2, ordering: .sequentiallyConsistent)
            }
        }
        t.start()
        while probe.load(ordering: .sequentiallyConsistent) == 0 { usleep(1000) }
        try XCTSkipIf(probe.load(ordering: .sequentiallyConsistent) == 2, "SCHED_FIFO is not permitted here")
        guard let cpu = RealTime.currentThreadAffinity().first else { throw XCTSkip("no CPU affinity") }

        let scene = Scene()
        // The holder: FIFO 10 on `cpu`; takes the stage, then works for ~50 ms of CPU time
        // before it releases (a pass stretched so the waiter surely arrives during it).
        let holder = Thread {
            try? RealTime.setCurrentThreadAffinity([cpu])
            try? RealTime.setCurrentThreadScheduling(.fifo, priority: 10)
            guard scene.hold.tryAcquire() else { return }
            scene.holding.store(true, ordering: .sequentiallyConsistent)
            let start = RealTime.currentThreadCPUMicroseconds()
            var spin = 0
            while RealTime.currentThreadCPUMicroseconds() - start < 50_000 { spin &+= 1 }
            scene.hold.release()
            scene.released.store(true, ordering: .sequentiallyConsistent)
        }
        // The waiter: FIFO 20 on the same CPU; wakes while the holder holds, then acquires.
        // It is FIFO 20 before the holder starts, and sleeps in short naps: its timer preempts
        // the holder as soon as it is due.
        let waiter = Thread {
            try? RealTime.setCurrentThreadAffinity([cpu])
            try? RealTime.setCurrentThreadScheduling(.fifo, priority: 20)
            scene.waiterThread = pthread_self()
            scene.waiterStarted.store(true, ordering: .sequentiallyConsistent)
            while !scene.holding.load(ordering: .sequentiallyConsistent) { usleep(100) }
            scene.hold.acquire()
            scene.acquired.store(true, ordering: .sequentiallyConsistent)
            scene.hold.release()
        }
        waiter.start()
        while !scene.waiterStarted.load(ordering: .sequentiallyConsistent) { usleep(1000) }
        holder.start()
        let deadline = Date().addingTimeInterval(20)
        while !scene.acquired.load(ordering: .sequentiallyConsistent) && Date() < deadline { usleep(10_000) }
        let livelocked = !scene.acquired.load(ordering: .sequentiallyConsistent)
        if livelocked {
            // Break the livelock so the threads can end: demote the waiter to normal scheduling.
            var param = sched_param()
            _ = pthread_setschedparam(scene.waiterThread, SCHED_OTHER, &param)
            while !scene.acquired.load(ordering: .sequentiallyConsistent) { usleep(10_000) }
        }
        XCTAssertFalse(livelocked, "the higher-priority waiter spun while its holder could not run")
        XCTAssertTrue(scene.released.load(ordering: .sequentiallyConsistent), "the holder ran to its release first")
    }

    /// Many hand-overs between two threads of equal standing: each holds it alone (the counter
    /// it bumps unsynchronised comes out exact), and none is lost (run under ThreadSanitizer by
    /// tools/sanitize).
    func testHandOversKeepTheStageToOneThreadAtATime() {
        final class Counter: @unchecked Sendable { var value = 0 }
        let hold = StageHold()
        let counter = Counter()
        let done = DispatchGroup()
        for t in 0..<2 {
            done.enter()
            Thread {
                for i in 0..<20_000 {
                    if t == 0 && i % 2 == 0 {
                        guard hold.tryAcquire() else { continue }
                    } else {
                        hold.acquire()
                    }
                    counter.value += 1
                    hold.release()
                }
                done.leave()
            }.start()
        }
        done.wait()
        XCTAssertGreaterThan(counter.value, 30_000)
        XCTAssertLessThanOrEqual(counter.value, 40_000)
        hold.acquire()
        hold.release()
    }
}
