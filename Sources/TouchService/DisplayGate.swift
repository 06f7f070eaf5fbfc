import TouchCore

/// What the screen shows: lit, dimmed, or dark.
package enum DisplayState: UInt8, Sendable, BitwiseCopyable, CustomStringConvertible {
    case on, dimmed, off

    /// The name in `display` events and replies (docs/formats.md §2).
    package var description: String {
        switch self {
        case .on: "on"
        case .dimmed: "dimmed"
        case .off: "off"
        }
    }
}

/// Why the display changed.
package enum DisplayCause: UInt8, Sendable, BitwiseCopyable, CustomStringConvertible {
    case idle, touch, command

    package var description: String {
        switch self {
        case .idle: "idle"
        case .touch: "touch"
        case .command: "command"
        }
    }
}

/// One change of the display, at `time` (a frame's instant, an idle deadline, or a command's pass).
package struct DisplayTransition: Sendable, BitwiseCopyable, Equatable {
    package var time: Instant
    package var state: DisplayState
    package var cause: DisplayCause

    package init(time: Instant, state: DisplayState, cause: DisplayCause) {
        self.time = time
        self.state = state
        self.cause = cause
    }
}

/// A request from outside (the event socket's `display …` lines, docs/formats.md §6).
package enum DisplayCommand: Sendable, BitwiseCopyable, Equatable {
    /// Switch on (idle time starts again); a no-op when on.
    case on
    /// Switch off now; a touch wakes it as after idle time.
    case off
    /// No idle dimming or blanking for `seconds` (0: until `keepAwakeEnd`); switches on if needed.
    case keepAwake(seconds: Int64)
    /// Idle time applies again, counted from now.
    case keepAwakeEnd
}

/// The touch-to-wake stage between the driver's frames and the engine (and so the UI's
/// passthrough and every binding): a pure state machine on the frames' own instants.
///
/// - Idle: with no finger down for `idleDim`/`idleOff` since the last contact, the display dims,
///   then goes off (`advance(to:)`); `keepAwake` suspends it.
/// - Wake: while the display is off (or dimmed), a touch that begins switches it on and is
///   swallowed; so is every touch beginning before `wakeGuard` has passed since the display came
///   back (by touch or by command). A swallowed touch stays swallowed until it lifts: the engine
///   never sees part of a touch (it never sees a touch begin without ending, or end without beginning).
/// - A touch already down when the display goes off (a command, or a resting finger) goes on to
///   the engine until it lifts.
///
/// No allocation, lock or system call: it runs in the recognizer pass (`RecognizerStage`).
package struct DisplayGate: Sendable {
    package let idleOffMicroseconds: Int64
    package let idleDimMicroseconds: Int64
    package let wakeGuardMicroseconds: Int64
    package private(set) var state: DisplayState = .on
    /// Contacts (bit = id & 63) being swallowed until they lift.
    package private(set) var swallowed: UInt64 = 0
    /// Touches swallowed so far (the wake touch and those in the guard).
    package private(set) var swallowedTouches = 0
    /// Until when `keepAwake` holds (`Instant.distantFuture`: until `keepAwakeEnd`); nil: none.
    package private(set) var keepAwakeUntil: Instant?
    private var down: UInt64 = 0
    private var lastActivity: Instant
    private var guardUntil = Instant(microseconds: .min)

    /// `idleOff`/`idleDim` in µs, 0 = never; `start`: the instant idle time counts from.
    package init(
        idleOffMicroseconds: Int64, idleDimMicroseconds: Int64 = 0, wakeGuardMicroseconds: Int64, start: Instant
    ) {
        self.idleOffMicroseconds = max(0, idleOffMicroseconds)
        self.idleDimMicroseconds = max(0, idleDimMicroseconds)
        self.wakeGuardMicroseconds = max(0, wakeGuardMicroseconds)
        lastActivity = start
    }

    /// Removes the swallowed contacts from `frame` (in place) and returns the transition the frame
    /// causes (a wake), if any. A cancel frame passes and forgets the swallowed touches.
    package mutating func filter(_ frame: inout TouchFrame) -> DisplayTransition? {
        let now = frame.timestamp
        if frame.isCancel {
            down = 0
            swallowed = 0
            return nil
        }
        var present: UInt64 = 0
        var i = 0
        while i < frame.count {
            present |= 1 << UInt64(frame[i].id & 63)
            i += 1
        }
        let began = present & ~down
        if present != 0 || down != 0 { lastActivity = now }  // idle time counts from the last lift
        down = present
        swallowed &= present  // lifted: no longer swallowed
        var transition: DisplayTransition? = nil
        if began != 0 {
            if state != .on {
                state = .on
                guardUntil = now.advanced(byMicroseconds: wakeGuardMicroseconds)
                transition = DisplayTransition(time: now, state: .on, cause: .touch)
                swallowed |= began
            } else if now < guardUntil {
                swallowed |= began
            }
            swallowedTouches += (swallowed & began).nonzeroBitCount
        }
        if swallowed != 0 { remove(swallowed, from: &frame) }
        return transition
    }

    /// True when `filter` would change a frame or the state: a touch is swallowed, or the display
    /// is not on, or the guard is open. The recognizer stage copies a frame only then.
    package func mayFilter(at now: Instant) -> Bool { swallowed != 0 || state != .on || now < guardUntil }

    /// Tracks a frame that passes untouched (`mayFilter` was false): the contacts down and the
    /// idle time. Same result as `filter`, without the copy.
    package mutating func observe(_ frame: UnsafePointer<TouchFrame>) {
        if frame.pointee.isCancel {
            down = 0
            return
        }
        var present: UInt64 = 0
        var i = 0
        while i < frame.pointee.count {
            present |= 1 << UInt64(frame.pointee[i].id & 63)
            i += 1
        }
        if present != 0 || down != 0 { lastActivity = frame.pointee.timestamp }
        down = present
    }

    /// The idle transition due by `now`, if any (at its deadline's instant). Never while a finger
    /// is down or while kept awake.
    package mutating func advance(to now: Instant) -> DisplayTransition? {
        if let until = keepAwakeUntil {
            guard now >= until else { return nil }
            keepAwakeUntil = nil
            if until.microseconds(since: lastActivity) > 0 { lastActivity = until }
        }
        guard down == 0 else { return nil }
        if state != .off, idleOffMicroseconds > 0 {
            let due = lastActivity.advanced(byMicroseconds: idleOffMicroseconds)
            if now >= due {
                state = .off
                return DisplayTransition(time: due, state: .off, cause: .idle)
            }
        }
        if state == .on, idleDimMicroseconds > 0 {
            let due = lastActivity.advanced(byMicroseconds: idleDimMicroseconds)
            if now >= due {
                state = .dimmed
                return DisplayTransition(time: due, state: .dimmed, cause: .idle)
            }
        }
        return nil
    }

    /// When `advance` next has something to do (nil: nothing pending, or a finger is down).
    package var nextDeadline: Instant? {
        if let until = keepAwakeUntil { return until == .distantFuture ? nil : until }
        guard down == 0 else { return nil }
        if state == .on, idleDimMicroseconds > 0 { return lastActivity.advanced(byMicroseconds: idleDimMicroseconds) }
        if state != .off, idleOffMicroseconds > 0 { return lastActivity.advanced(byMicroseconds: idleOffMicroseconds) }
        return nil
    }

    /// Applies a command at `now`; returns the transition it causes, if any.
    package mutating func apply(_ command: DisplayCommand, at now: Instant) -> DisplayTransition? {
        switch command {
        case .on:
            lastActivity = now
            return switchOn(at: now)
        case .off:
            keepAwakeUntil = nil
            guard state != .off else { return nil }
            state = .off
            return DisplayTransition(time: now, state: .off, cause: .command)
        case .keepAwake(let seconds):
            keepAwakeUntil = seconds > 0 ? now.advanced(byMicroseconds: seconds * 1_000_000) : .distantFuture
            lastActivity = now
            return switchOn(at: now)
        case .keepAwakeEnd:
            keepAwakeUntil = nil
            lastActivity = now
            return nil
        }
    }

    private mutating func switchOn(at now: Instant) -> DisplayTransition? {
        guard state != .on else { return nil }
        state = .on
        guardUntil = now.advanced(byMicroseconds: wakeGuardMicroseconds)
        return DisplayTransition(time: now, state: .on, cause: .command)
    }

    private func remove(_ ids: UInt64, from frame: inout TouchFrame) {
        var out = TouchFrame(timestamp: frame.timestamp)
        var i = 0
        while i < frame.count {
            let c = frame[i]
            if ids & (1 << UInt64(c.id & 63)) == 0 { out.append(c) }
            i += 1
        }
        frame = out
    }
}
