import Synchronization
import TouchCore
import TouchRing

/// The display's shared state in a running service: the gate (owned by the recognizer pass), the
/// commands from outside (the event socket, on the output thread) and the transitions going out
/// (events, the backlight or commands, metrics).
///
/// Threads: `step` and `pass(_:)` run in the recognizer pass (whichever thread holds it), never
/// allocating, locking or blocking; `send` is the output thread's (one producer); the
/// transitions ring is drained by the output stage; `status` may be read from any thread.
package final class DisplayControl: @unchecked Sendable {
    // @unchecked Sendable: `gate` belongs to the recognizer pass (one thread at a time, handed over
    // with acquire/release by `RecognizerTurns`); the rings are SPSC; the rest is atomic.
    @exclusivity(unchecked) package var gate: DisplayGate
    /// Commands from outside → the recognizer pass.
    package let commands = SPSCRing<DisplayCommand>(minimumCapacity: 16)
    /// Transitions → the output stage (events, the switch).
    package let transitions = SPSCRing<DisplayTransition>(minimumCapacity: 64)
    /// Wakes the recognizer thread so a command is applied at once (the service sets it).
    package var wakeRecognizer: (@Sendable () -> Void)?
    private let current = Atomic<UInt8>(DisplayState.on.rawValue)
    private let cause = Atomic<UInt8>(DisplayCause.command.rawValue)
    private let changes = Atomic<Int>(0)
    private let offs = Atomic<Int>(0)
    private let touchWakes = Atomic<Int>(0)
    private let swallowed = Atomic<Int>(0)
    private let keptAwake = Atomic<Bool>(false)
    private let lost = Atomic<Int>(0)

    package init(gate: DisplayGate) { self.gate = gate }

    /// Idle time counts from `start`.
    package convenience init(
        idleOffSeconds: Int, idleDimSeconds: Int?, wakeGuardMilliseconds: Int, start: Instant
    ) {
        self.init(
            gate: DisplayGate(
                idleOffMicroseconds: Int64(idleOffSeconds) * 1_000_000,
                idleDimMicroseconds: Int64(idleDimSeconds ?? 0) * 1_000_000,
                wakeGuardMicroseconds: Int64(wakeGuardMilliseconds) * 1000, start: start))
    }

    /// Queues a command for the next recognizer pass and wakes it. False when 16 are already waiting.
    @discardableResult
    package func send(_ command: DisplayCommand) -> Bool {
        guard commands.tryPush(command) else { return false }
        wakeRecognizer?()
        return true
    }

    /// The recognizer pass, once per queued frame: the frame the engine gets (the ring's own when
    /// nothing is swallowed, else `scratch` with the swallowed touches removed).
    @inline(__always)
    package func pass(
        _ frame: UnsafePointer<TouchFrame>, scratch: UnsafeMutablePointer<TouchFrame>
    ) -> UnsafePointer<TouchFrame> {
        guard gate.mayFilter(at: frame.pointee.timestamp) else {
            gate.observe(frame)
            return frame
        }
        scratch.pointee = frame.pointee
        if let t = gate.filter(&scratch.pointee) { record(t) }
        swallowed.store(gate.swallowedTouches, ordering: .relaxed)
        return UnsafePointer(scratch)
    }

    /// The recognizer pass after its frames: commands, then the idle time due by `now`.
    package func step(now: Instant) {
        while let c = commands.tryPop() {
            if let t = gate.apply(c, at: now) { record(t) }
        }
        while let t = gate.advance(to: now) { record(t) }
        keptAwake.store(gate.keepAwakeUntil != nil, ordering: .relaxed)
    }

    /// When the gate next has idle work (for the recognizer thread's sleep).
    package var nextDeadline: Instant? { gate.nextDeadline }

    private func record(_ t: DisplayTransition) {
        current.store(t.state.rawValue, ordering: .relaxed)
        cause.store(t.cause.rawValue, ordering: .relaxed)
        changes.add(1, ordering: .relaxed)
        if t.state == .off { offs.add(1, ordering: .relaxed) }
        if t.cause == .touch { touchWakes.add(1, ordering: .relaxed) }
        if !transitions.tryPush(t) { lost.add(1, ordering: .relaxed) }
    }

    /// What `display status` and the metrics report.
    package struct Status: Sendable, Equatable {
        package var state: DisplayState
        package var cause: DisplayCause
        package var keepAwake: Bool
        package var changes: Int
        package var offs: Int
        package var touchWakes: Int
        package var swallowedTouches: Int
    }

    package var status: Status {
        Status(
            state: DisplayState(rawValue: current.load(ordering: .relaxed)) ?? .on,
            cause: DisplayCause(rawValue: cause.load(ordering: .relaxed)) ?? .command,
            keepAwake: keptAwake.load(ordering: .relaxed), changes: changes.load(ordering: .relaxed),
            offs: offs.load(ordering: .relaxed), touchWakes: touchWakes.load(ordering: .relaxed),
            swallowedTouches: swallowed.load(ordering: .relaxed))
    }
}

/// The one-line protocol on the event socket (docs/formats.md §6): a client writes
/// `display on`, `display off`, `display status`, `display keep-awake [SECONDS|off]`; each line
/// gets one JSON reply line.
package enum DisplayCommandLine {
    package enum Request: Equatable, Sendable {
        case command(DisplayCommand)
        case status
    }

    /// The request in `line` (surrounding blanks ignored), or why it is not one.
    package static func parse(_ line: String) -> Result<Request, DisplayCommandError> {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
        guard words.first == "display" else { return .failure(.unknown(line)) }
        switch Array(words.dropFirst()) {
        case ["on"]: return .success(.command(.on))
        case ["off"]: return .success(.command(.off))
        case ["status"]: return .success(.status)
        case ["keep-awake"]: return .success(.command(.keepAwake(seconds: 0)))
        case ["keep-awake", "off"]: return .success(.command(.keepAwakeEnd))
        case let w where w.count == 2 && w[0] == "keep-awake":
            guard let s = Int64(w[1]), s >= 1, s <= 604_800 else { return .failure(.badSeconds(w[1])) }
            return .success(.command(.keepAwake(seconds: s)))
        default: return .failure(.unknown(line))
        }
    }

    /// The reply to a command that was queued (`queued`) or not.
    package static func reply(to line: String, control: DisplayControl?) -> String {
        guard let control else {
            return errorReply("this board has no [display] section")
        }
        switch parse(line) {
        case .failure(let e): return errorReply("\(e)")
        case .success(.status): return statusReply(control.status)
        case .success(.command(let c)):
            guard control.send(c) else { return errorReply("too many display commands waiting; try again") }
            return #"{"reply":"ok"}"#
        }
    }

    /// `{"reply":"status","display":"off","cause":"idle","keep_awake":false,…}`.
    package static func statusReply(_ s: DisplayControl.Status) -> String {
        #"{"reply":"status","display":""# + s.state.description + #"","cause":""# + s.cause.description
            + #"","keep_awake":"# + (s.keepAwake ? "true" : "false") + #","changes":\#(s.changes)"#
            + #","offs":\#(s.offs),"touch_wakes":\#(s.touchWakes),"swallowed_touches":\#(s.swallowedTouches)}"#
    }

    static func errorReply(_ message: String) -> String {
        var escaped = ""
        for ch in message.unicodeScalars {
            switch ch {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where ch.value < 0x20: escaped += " "
            default: escaped.unicodeScalars.append(ch)
            }
        }
        return #"{"reply":"error","message":""# + escaped + #""}"#
    }
}

/// Why a socket line is not a display command.
package enum DisplayCommandError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknown(String)
    case badSeconds(String)

    package var description: String {
        switch self {
        case .unknown(let l):
            let shown = l.count > 60 ? String(l.prefix(60)) + "…" : l
            return "unknown command \"\(shown)\"; commands: display on | off | status | keep-awake [SECONDS | off]"
        case .badSeconds(let s): return "keep-awake takes 1…604800 seconds or off, got \"\(s)\""
        }
    }
}
