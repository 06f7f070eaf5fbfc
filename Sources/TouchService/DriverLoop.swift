import TouchCore

/// The driver thread's loop, one controller read per `turn()`: what `Service` runs on its driver
/// thread and `touchwire monitor` runs when it reads the board itself, so both read a panel the
/// same way.
///
/// With an INT line: wait for an edge (at most one polling period; while idle, up to
/// `idleInterruptWatchdogMicroseconds`), read with the frame timestamped at the edge; on timeout
/// read anyway (watchdog, missed edges). Without one: poll at the adaptive rate (fast while touched,
/// never slower than 20 ms), on a cadence kept from turn to turn. A simulated board runs this same
/// loop: its INT input's edge wait returns the next scripted edge on the injected clock.
///
/// Sleeping between turns is the caller's (`Outcome.waitMicroseconds`), so a service can be woken
/// to stop. Not thread-safe: one thread (the driver thread) owns it.
package struct DriverLoop {
    /// What one turn did and what the caller does next.
    package struct Outcome {
        /// True when the read queued frames for the recognizer.
        package var queued: Bool
        /// The instant the read was timestamped with (the INT edge's, or the clock's).
        package var readAt: Instant
        /// How long to wait before the next turn, µs; nil: go on at once.
        package var waitMicroseconds: Int64?
        /// The INT line failed while waiting for an edge (the turn read anyway).
        package var lineError: GPIOError?
    }

    package let driver: DriverStage
    /// An INT-driven driver waits up to this long for an edge while idle (never less than a period).
    package let idleInterruptWatchdogMicroseconds: Int64
    private let clock: any TouchClock
    private var next: Instant

    package init(driver: DriverStage, clock: any TouchClock, idleInterruptWatchdogMicroseconds: Int64 = 0) {
        self.driver = driver
        self.clock = clock
        self.idleInterruptWatchdogMicroseconds = idleInterruptWatchdogMicroseconds
        next = clock.now
    }

    /// One read (see the type's documentation).
    package mutating func turn() -> Outcome {
        if let input = driver.interruptInput {
            let started = clock.now
            let interval = driver.pollInterval(at: started)
            let wait = isIdle(at: started) ? max(interval, idleInterruptWatchdogMicroseconds) : interval
            var edge: GPIOEdgeEvent? = nil
            var lineError: GPIOError? = nil
            do throws(GPIOError) {
                edge = try input.waitForEdge(timeoutMicroseconds: wait)
            } catch {
                lineError = error
            }
            if let edge {
                return Outcome(
                    queued: driver.poll(at: edge.timestamp, edge: true), readAt: edge.timestamp, lineError: lineError)
            }
            let now = clock.now
            let queued = driver.poll(at: now)
            // A wait that returned early (a failing line) must not turn into a busy loop.
            let left = wait - clock.now.microseconds(since: started)
            return Outcome(queued: queued, readAt: now, waitMicroseconds: left > 0 ? left : nil, lineError: lineError)
        }
        let now = clock.now
        let queued = driver.poll(at: now)
        let interval = driver.pollInterval(at: now)
        next = next.advanced(byMicroseconds: interval)
        if next < now { next = now.advanced(byMicroseconds: interval) }
        return Outcome(queued: queued, readAt: now, waitMicroseconds: next.microseconds(since: clock.now))
    }

    /// No contact for the driver's active hold: an INT-driven driver may wait long for an edge.
    private func isIdle(at now: Instant) -> Bool {
        guard let last = driver.lastContactAt else { return true }
        return now.microseconds(since: last) >= driver.schedule.activeHoldMicroseconds
    }
}
