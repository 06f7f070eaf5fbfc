import TouchCore
import TouchDrivers
import TouchRing

/// Where the controller stands, for logs and the status line (a missing controller is a
/// reported state, not a crash).
package enum ControllerState: Equatable, Sendable {
    /// Not started yet.
    case starting
    /// Answering and identified.
    case running
    /// Not answering (start failed, or re-initialising after repeated errors); retried with back-off.
    case missing(String)
}

/// How the driver stage protects the recognizers from phantom and lost touches.
package struct TouchProtection: Sendable, Equatable {
    /// Contacts still down with no fresh report for this long are cancelled (0 = off).
    package var releaseTimeoutMicroseconds: Int64
    /// Contacts younger than this are held back; shorter ones never appear (0 = off).
    package var minContactMicroseconds: Int64

    package init(releaseTimeoutMicroseconds: Int64 = 10_000_000, minContactMicroseconds: Int64 = 0) {
        self.releaseTimeoutMicroseconds = max(0, releaseTimeoutMicroseconds)
        self.minContactMicroseconds = max(0, minContactMicroseconds)
    }
}

/// The polling period without an INT line: fast while touched (and for 500 ms after), slower
/// when idle, and never slower than 20 ms — the shortest tap.
package struct AdaptivePollSchedule: Sendable, Equatable {
    /// The longest period ever used: shorter than the shortest tap.
    package static let maximumMicroseconds: Int64 = 20_000
    package var fastMicroseconds: Int64
    package var idleMicroseconds: Int64
    /// How long after the last contact the fast rate is kept.
    package var activeHoldMicroseconds: Int64 = 500_000

    /// `configured` is the board's `poll_interval_ms` in µs; idle is 4× that, both capped at 20 ms.
    package init(configuredMicroseconds: Int64) {
        fastMicroseconds = min(max(configuredMicroseconds, 1_000), Self.maximumMicroseconds)
        idleMicroseconds = min(fastMicroseconds * 4, Self.maximumMicroseconds)
    }

    /// The period to wait after a read at `now`, given when a contact was last seen.
    package func interval(now: Instant, lastContactAt: Instant?) -> Int64 {
        guard let t = lastContactAt, now.microseconds(since: t) < activeHoldMicroseconds else {
            return idleMicroseconds
        }
        return fastMicroseconds
    }
}

/// One wake-up of the driver thread: read the controller, turn its raw coordinates into panel
/// pixels, protect against phantom and lost touches, hand a changed frame to the ring.
///
/// In order, per read:
/// 1. `PanelTransform` — the one place for orientation and calibration; points landing off the
///    panel are dropped and counted (`rejectedOffPanel`).
/// 2. Release watchdog (`TouchProtection.releaseTimeoutMicroseconds`): while contacts are down,
///    a report is "fresh" when its contacts differ from the previous one, or it follows an INT
///    edge. With no fresh report for the timeout, a system cancel is queued (safer than a lift:
///    a lift would fire a button) and the stuck image is ignored until it changes (fbtft #376).
/// 3. Minimum contact duration: contacts younger than the minimum are held back.
/// 4. Only frames whose contacts changed are queued.
///
/// A read error never leaves a touch hanging: if fingers were down, a system cancel (S9) is
/// queued. Five errors in a row re-initialise the controller with back-off (100 ms doubling to
/// 5 s); errors are logged at most once per `logIntervalMicroseconds`.
package final class DriverStage {
    package let controller: any TouchInputSource
    package let frames: FrameQueue
    package let transform: PanelTransform?
    package let protection: TouchProtection
    package let schedule: AdaptivePollSchedule
    private let log: (String) -> Void

    package private(set) var framesRead = 0
    package private(set) var framesQueued = 0
    package private(set) var readErrors = 0
    package private(set) var isStarted = false
    package private(set) var state = ControllerState.starting
    /// Contacts dropped because the transform put them outside the panel.
    package private(set) var rejectedOffPanel = 0
    /// Whether the last frame queued had fingers down.
    package var hasContactsDown: Bool { !lastQueued.isEmpty && !lastQueued.isCancel }
    /// The last frame queued: the contacts the recognizer sees now (`monitor` draws them).
    package var lastFrame: TouchFrame { lastQueued }
    /// Reads made because the INT line signalled (the rest were polls).
    package private(set) var interruptWakeups = 0
    /// Cancels queued by the release watchdog.
    package private(set) var watchdogReleases = 0
    /// Contacts that lifted before the minimum contact duration (never reported).
    package private(set) var shortContactsSuppressed = 0
    /// Re-initialisations after repeated errors.
    package private(set) var reinitialisations = 0
    /// When a contact was last down (for the adaptive polling rate).
    package private(set) var lastContactAt: Instant?

    private var lastQueued = TouchFrame(timestamp: .zero)
    private var lastRaw = TouchFrame(timestamp: .zero)
    private var lastFreshAt = Instant.zero
    private var staleImage: TouchFrame?
    /// First instant each tracking id (0…15) was seen down; `Int64.min` when up.
    private var firstSeen = InlineArray<16, Int64>(repeating: .min)
    private var consecutiveErrors = 0
    private var retryAt = Instant.zero
    private var backoffMicroseconds: Int64 = 100_000
    private var lastLogAt = Instant(microseconds: .min / 2)
    private var suppressedLogs = 0
    package var logIntervalMicroseconds: Int64 = 5_000_000

    package init(
        controller: any TouchInputSource, frames: FrameQueue, transform: PanelTransform? = nil,
        protection: TouchProtection = TouchProtection(),
        schedule: AdaptivePollSchedule = AdaptivePollSchedule(configuredMicroseconds: 10_000),
        log: @escaping (String) -> Void
    ) {
        self.controller = controller
        self.frames = frames
        self.transform = transform
        self.protection = protection
        self.schedule = schedule
        self.log = log
    }

    /// The controller's INT input when it is wired and the controller started.
    package var interruptInput: (any GPIOInput)? { isStarted ? controller.interruptInput : nil }

    /// The polling period after a read at `now` (no INT line).
    package func pollInterval(at now: Instant) -> Int64 { schedule.interval(now: now, lastContactAt: lastContactAt) }

    /// Resets and identifies the controller. Returns false (and logs) when it does not answer;
    /// `poll` keeps retrying with back-off, so a missing controller is a state, not an exit.
    @discardableResult
    package func start(at now: Instant) -> Bool {
        do throws(TouchInputError) {
            try controller.start()
            isStarted = true
            state = .running
            consecutiveErrors = 0
            backoffMicroseconds = 100_000
            if let id = controller.identity { log("controller ready: \(id)") }
            return true
        } catch {
            isStarted = false
            state = .missing("\(error)")
            retryAt = now.advanced(byMicroseconds: backoffMicroseconds)
            backoffMicroseconds = min(backoffMicroseconds * 2, 5_000_000)
            rateLimitedLog("controller not answering (\(error)); retrying", at: now)
            return false
        }
    }

    /// Reads one report at `now` (the INT edge's timestamp when `edge`) and queues it if the
    /// contacts changed. Returns true when a frame was queued.
    @discardableResult
    package func poll(at now: Instant, edge: Bool = false) -> Bool {
        if edge { interruptWakeups += 1 }
        frames.flush()
        if !isStarted {
            guard now >= retryAt, start(at: now) else { return false }
        }
        let read: TouchFrame?
        do throws(TouchInputError) {
            read = try controller.readFrame(at: now)
            consecutiveErrors = 0
        } catch {
            return readFailed(error, at: now)
        }
        framesRead += 1
        var fresh = edge
        var raw: TouchFrame
        if var frame = read {
            // The kernel's time of the report when the controller has one (never after the read).
            frame.timestamp = controller.stampsFrames ? min(frame.timestamp, now) : now
            if let transform { rejectedOffPanel += transform.apply(to: &frame) }
            if !frame.hasSameContacts(as: lastRaw) { fresh = true }
            lastRaw = frame
            raw = frame
        } else {
            raw = lastRaw
            raw.timestamp = now
        }
        if fresh { lastFreshAt = now }
        if let stale = staleImage {
            if raw.hasSameContacts(as: stale) && !raw.isEmpty {
                raw = TouchFrame(timestamp: now)
            } else {
                staleImage = nil
            }
        }
        if !lastQueued.isEmpty && protection.releaseTimeoutMicroseconds > 0
            && now.microseconds(since: lastFreshAt) >= protection.releaseTimeoutMicroseconds
        {
            watchdogReleases += 1
            staleImage = lastRaw
            rateLimitedLog(
                "release watchdog: no fresh report for \(protection.releaseTimeoutMicroseconds / 1000) "
                    + "ms with \(lastQueued.count) contact(s) down; cancelled",
                at: now)
            return cancelTouches(at: now)
        }
        let frame = filterYoung(raw, at: raw.timestamp)
        if !frame.isEmpty { lastContactAt = now }
        if frame.hasSameContacts(as: lastQueued) { return false }
        lastQueued = frame
        return queue(frame)
    }

    /// Holds back contacts younger than the minimum; counts contacts that lifted too young.
    private func filterYoung(_ raw: TouchFrame, at now: Instant) -> TouchFrame {
        var id: UInt8 = 0
        while id < 16 {
            let down = raw.contact(withID: id) != nil
            let seen = firstSeen[Int(id)]
            if down && seen == .min {
                firstSeen[Int(id)] = now.microseconds
            } else if !down && seen != .min {
                if protection.minContactMicroseconds > 0 && now.microseconds - seen < protection.minContactMicroseconds
                    && lastQueued.contact(withID: id) == nil
                {
                    shortContactsSuppressed += 1
                }
                firstSeen[Int(id)] = .min
            }
            id += 1
        }
        guard protection.minContactMicroseconds > 0 else { return raw }
        var out = TouchFrame(timestamp: raw.timestamp)
        var i = 0
        while i < raw.count {
            let c = raw[i]
            i += 1
            let seen = firstSeen[Int(c.id & 0x0F)]
            if lastQueued.contact(withID: c.id) != nil || now.microseconds - seen >= protection.minContactMicroseconds {
                out.append(c)
            }
        }
        return out
    }

    private func readFailed(_ error: TouchInputError, at now: Instant) -> Bool {
        readErrors += 1
        consecutiveErrors += 1
        rateLimitedLog("touch read failed: \(error) (\(readErrors) errors so far)", at: now)
        lastRaw = TouchFrame(timestamp: now)
        let queued = cancelTouches(at: now)  // S9: a bus fault cancels the touches in progress
        if consecutiveErrors >= 5 {
            isStarted = false
            reinitialisations += 1
            state = .missing("\(error)")
            retryAt = now.advanced(byMicroseconds: backoffMicroseconds)
            backoffMicroseconds = min(backoffMicroseconds * 2, 5_000_000)
        }
        return queued
    }

    private func cancelTouches(at now: Instant) -> Bool {
        var id = 0
        while id < 16 {
            firstSeen[id] = .min
            id += 1
        }
        guard !lastQueued.isEmpty else { return false }
        lastQueued = TouchFrame(timestamp: now)
        return queue(.cancel(at: now))
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
