import Gestures
import TouchCore

/// One configured line: which, its polarity, and its level at start.
package struct GPIOLineSetup: Sendable, Hashable {
    package var id: GPIOLineID
    package var activeLow: Bool
    package var initialActive: Bool

    package init(id: GPIOLineID, activeLow: Bool, initialActive: Bool) {
        self.id = id
        self.activeLow = activeLow
        self.initialActive = initialActive
    }
}

/// A resolved binding: which events drive which line, and how. Plain value for the output thread.
package struct GPIOBinding: Sendable, Hashable {
    /// Which events it listens to.
    package enum Source: Sendable, Hashable {
        /// A recognizer by its index in the engine's table.
        case recognizer(Int)
        /// A control region's default action (S28), by the region's index.
        case control(region: Int)
    }

    package enum Action: Sendable, Hashable {
        /// Active now, inactive `microseconds` later (a retrigger restarts the pulse).
        case pulse(microseconds: Int64)
        /// Active on `began`, inactive on `ended` or `cancelled`.
        case hold
        /// Flip the level.
        case toggle
    }

    package var source: Source
    /// The state that triggers a pulse or toggle (ignored by `.hold`).
    package var trigger: GestureState
    package var action: Action
    /// Index into the actuator's lines.
    package var line: Int

    package init(source: Source, trigger: GestureState, action: Action, line: Int) {
        self.source = source
        self.trigger = trigger
        self.action = action
        self.line = line
    }

    @inline(__always) func matches(_ e: GestureEvent) -> Bool {
        switch source {
        case .recognizer(let i): return e.kind != .control && e.recognizer == i
        case .control(let region): return e.kind == .control && e.recognizer == region
        }
    }
}

/// Why the lines could not be requested: which line (its index in `lines`) and the GPIO error.
package struct GPIOSetupError: Error, Sendable, CustomStringConvertible {
    package var line: Int
    package var error: GPIOError
    package var description: String { "\(error)" }
}

/// Turns gesture events into GPIO levels, on the output thread.
///
/// Lines are requested once, in `init`, with consumer "touchwire" and their initial levels; if
/// any request fails (a busy line, a missing chip) the ones already taken are set inactive and
/// released, and the error names the line. Pulse ends are the actuator's own timers: the output
/// loop calls `advance(to:)` with its clock and sleeps until `nextDeadline`; nothing here reads
/// a clock or sleeps, so tests drive time. `releaseAll()` (and deinit) drives every line
/// inactive and gives it back. Not thread-safe: the output thread owns it.
package final class GPIOActuator {
    package let bindings: [GPIOBinding]
    package let lines: [DrivenLine]
    /// Per line: when the running pulse ends (`.distantFuture`: none).
    private var pulseEnds: [Instant]
    /// Per line: holds in progress (a pulse end leaves a held line active).
    private var holders: [Int]
    /// Per binding: whether its hold is active.
    private var holding: [Bool]
    /// Level changes issued.
    package private(set) var levelChanges = 0
    /// Failed writes (each also logged once per line until it works again).
    package private(set) var failures = 0
    private var failing: [Bool]
    private let log: (String) -> Void

    /// Requests every line of `lines` from `provider(line)` and prepares `bindings`.
    package init(
        lines setups: [GPIOLineSetup], bindings: [GPIOBinding], provider: (GPIOLineID) -> any GPIOProvider,
        log: @escaping (String) -> Void = StandardError.log
    ) throws(GPIOSetupError) {
        precondition(
            bindings.allSatisfy { setups.indices.contains($0.line) }, "GPIOActuator: a binding names a missing line")
        var taken: [DrivenLine] = []
        for (i, s) in setups.enumerated() {
            do throws(GPIOError) {
                taken.append(
                    try DrivenLine(s.id, activeLow: s.activeLow, active: s.initialActive, provider: provider(s.id)))
            } catch {
                for line in taken { line.release() }
                throw GPIOSetupError(line: i, error: error)
            }
        }
        self.lines = taken
        self.bindings = bindings
        pulseEnds = Array(repeating: .distantFuture, count: setups.count)
        holders = Array(repeating: 0, count: setups.count)
        failing = Array(repeating: false, count: setups.count)
        holding = Array(repeating: false, count: bindings.count)
        self.log = log
    }

    /// Applies every binding that `event` triggers; `now` is when the write is issued (pulses start then).
    package func handle(_ event: GestureEvent, at now: Instant) {
        for i in bindings.indices where bindings[i].matches(event) {
            let b = bindings[i]
            switch b.action {
            case .pulse(let us):
                guard event.state == b.trigger else { continue }
                set(b.line, true)
                pulseEnds[b.line] = now.advanced(byMicroseconds: us)
            case .toggle:
                guard event.state == b.trigger else { continue }
                set(b.line, !lines[b.line].isActive)
            case .hold:
                switch event.state {
                case .began where !holding[i]:
                    holding[i] = true
                    holders[b.line] += 1
                    set(b.line, true)
                case .ended, .cancelled, .failed, .recognized:
                    guard holding[i] else { continue }
                    holding[i] = false
                    holders[b.line] -= 1
                    if holders[b.line] == 0 && pulseEnds[b.line] == .distantFuture { set(b.line, false) }
                default: break
                }
            }
        }
    }

    /// Ends every pulse due by `now`.
    package func advance(to now: Instant) {
        for l in pulseEnds.indices where pulseEnds[l] <= now {
            pulseEnds[l] = .distantFuture
            if holders[l] == 0 { set(l, false) }
        }
    }

    /// The earliest pulse end, or nil when no pulse is running.
    package var nextDeadline: Instant? {
        let d = pulseEnds.min() ?? .distantFuture
        return d == .distantFuture ? nil : d
    }

    /// Every line inactive and released. Idempotent; events after it are ignored.
    package func releaseAll() {
        for l in lines.indices {
            pulseEnds[l] = .distantFuture
            holders[l] = 0
            lines[l].release()
        }
        for i in holding.indices { holding[i] = false }
    }

    private func set(_ l: Int, _ active: Bool) {
        let line = lines[l]
        guard line.isHeld, line.isActive != active else { return }
        do throws(GPIOError) {
            try line.set(active)
            levelChanges += 1
            if failing[l] {
                failing[l] = false
                log("gpio \(line.id): writing again")
            }
        } catch {
            failures += 1
            if !failing[l] {
                failing[l] = true
                log("gpio \(line.id): \(error)")
            }
        }
    }
}
