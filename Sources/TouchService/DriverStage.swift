import TouchCore
import TouchDrivers
import TouchRing

/// One wake-up of the driver thread: read the controller, hand a changed frame to the ring.
///
/// A read error never leaves a touch hanging: if fingers were down, a system cancel (S9) is
/// queued so every touch in progress ends. Repeated errors re-initialise the controller with
/// back-off; errors are logged at most once per `logIntervalMicroseconds`.
public final class DriverStage {
    public let controller: any TouchController
    public let frames: FrameQueue
    public let simulation: SimulatedTouchWorld?
    private let log: (String) -> Void

    public private(set) var framesRead = 0
    public private(set) var framesQueued = 0
    public private(set) var readErrors = 0
    public private(set) var isStarted = false
    private var lastQueued = TouchFrame(timestamp: .zero)
    private var consecutiveErrors = 0
    private var retryAt = Instant.zero
    private var backoffMicroseconds: Int64 = 100_000
    private var lastLogAt = Instant(microseconds: .min / 2)
    private var suppressedLogs = 0
    public var logIntervalMicroseconds: Int64 = 5_000_000

    public init(
        controller: any TouchController, frames: FrameQueue, simulation: SimulatedTouchWorld?,
        log: @escaping (String) -> Void
    ) {
        self.controller = controller
        self.frames = frames
        self.simulation = simulation
        self.log = log
    }

    /// Resets and identifies the controller. Returns false (and logs) when it does not answer;
    /// `poll` keeps retrying with back-off, so a missing controller is a state, not an exit.
    @discardableResult
    public func start(at now: Instant) -> Bool {
        do throws(I2CError) {
            try controller.start()
            isStarted = true
            consecutiveErrors = 0
            backoffMicroseconds = 100_000
            if let id = controller.identity { log("controller ready: \(id)") }
            return true
        } catch {
            isStarted = false
            retryAt = now.advanced(byMicroseconds: backoffMicroseconds)
            backoffMicroseconds = min(backoffMicroseconds * 2, 5_000_000)
            rateLimitedLog("controller not answering (\(error)); retrying", at: now)
            return false
        }
    }

    /// Reads one report at `now` and queues it if the contacts changed. Returns true when a frame was queued.
    @discardableResult
    public func poll(at now: Instant) -> Bool {
        simulation?.advance(to: now)
        frames.flush()
        if !isStarted {
            guard now >= retryAt, start(at: now) else { return false }
        }
        let frame: TouchFrame?
        do throws(I2CError) {
            frame = try controller.readFrame(at: now)
            consecutiveErrors = 0
        } catch {
            readErrors += 1
            consecutiveErrors += 1
            rateLimitedLog("touch read failed: \(error) (\(readErrors) errors so far)", at: now)
            var queued = false
            if !lastQueued.isEmpty {
                queued = queue(.cancel(at: now))  // S9: a bus fault cancels the touches in progress
                lastQueued = TouchFrame(timestamp: now)
            }
            if consecutiveErrors >= 5 {
                isStarted = false
                retryAt = now.advanced(byMicroseconds: backoffMicroseconds)
            }
            return queued
        }
        framesRead += 1
        guard var frame else { return false }  // rejected by the decoder (counted there)
        frame.timestamp = now
        if frame.hasSameContacts(as: lastQueued) { return false }
        lastQueued = frame
        return queue(frame)
    }

    private func queue(_ frame: TouchFrame) -> Bool {
        framesQueued += 1
        frames.offer(frame)
        return true
    }

    private func rateLimitedLog(_ message: String, at now: Instant) {
        if now.microseconds(since: lastLogAt) >= logIntervalMicroseconds {
            let suffix = suppressedLogs > 0 ? " (\(suppressedLogs) similar messages suppressed)" : ""
            log(message + suffix)
            lastLogAt = now
            suppressedLogs = 0
        } else {
            suppressedLogs += 1
        }
    }
}
