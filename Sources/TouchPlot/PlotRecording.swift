import Gestures
import TouchCore
import TouchTrace

/// What the engine saw and did for one trace: every frame, every action (S4) and every
/// explanation, interleaved in the order they happened. The input of every picture.
///
/// Made by `record(path:engine:)` (or `record(trace:engine:)`), which drives the engine exactly as
/// `touchwire replay` does — each frame at its `t_us` on a virtual clock, then the clock runs on
/// until no timer is pending — so `events` are the events replay prints, in the same order.
///
/// Frames are kept compact (`compactFrames`, 16 bytes, and their `contacts`, 32 bytes each) and a
/// run of frames with nothing else between them is one entry: a recording holds about twice its
/// trace's size (a `TouchFrame` is 344 bytes whatever its contacts: holding the trace and every
/// frame again in the entries took 27 times the trace's size).
package struct PlotRecording {
    /// One thing that happened, in order (24 bytes: what it holds is in the tables it points into).
    package enum Entry {
        /// Frames given to the engine one after another (`compactFrames[range]`), with nothing
        /// else happening between them.
        case frames(Range<Int>)
        /// An action the engine emitted (`compactEvents[i]`).
        case event(Int)
        /// An explanation (failed, waiting, released, cancelled) from the engine's explain trace
        /// (`diagnostics[i]`).
        case diagnostic(Int)
        /// Every finger is up after the frame (or the final timers) at this instant; bit `i` of
        /// `pending` says whether recognizer `i` (at most 64) still has something to decide (a
        /// timer, a held transition waiting for another's failure (S15), or a running continuous gesture).
        case settled(Instant, pending: UInt64)
    }

    /// One frame given to the engine: its instant, and its contacts `contacts[first ..< first + count]`.
    package struct Frame: Sendable {
        package var time: Int64
        package var first: Int32
        package var count: UInt8
        package var isCancel: Bool
    }

    /// What a picture shows of an action (56 bytes; a `GestureEvent` is 144).
    package struct Event: Sendable {
        package var time: Instant
        package var recognizer: Int32
        package var taps: Int32
        package var kind: GestureKind
        package var state: GestureState
        package var direction: SwipeDirection
        package var location: Point
        package var velocity: Point

        init(_ e: GestureEvent) {
            time = e.time
            recognizer = Int32(truncatingIfNeeded: e.recognizer)
            taps = Int32(truncatingIfNeeded: e.taps)
            kind = e.kind
            state = e.state
            direction = e.direction
            location = e.location
            velocity = e.velocity
        }

        /// The action with the fields a picture uses (the others at their defaults).
        package var gestureEvent: GestureEvent {
            var e = GestureEvent(
                time: time, recognizer: Int(recognizer), kind: kind, state: state, region: 0, location: location,
                touches: 0)
            e.taps = Int(taps)
            e.direction = direction
            e.velocity = velocity
            return e
        }
    }

    /// Panel size in pixels (the trace header's).
    package var panelWidth: Double
    package var panelHeight: Double
    /// The trace header's `source`.
    package var source: String
    package var entries: [Entry]
    /// Every action, in order (`Entry.event` indices point here).
    package var compactEvents: [Event]
    /// The explanations, in order (`Entry.diagnostic` indices point here).
    package var diagnostics: [GestureEngine.Diagnostic]
    /// Every frame, in order (`Entry.frames` ranges point here).
    package var compactFrames: [Frame]
    /// The contacts of every frame, one after another.
    package var contacts: [Contact]
    /// The engine's regions, in its table order (event `region` indices point here).
    package var regions: [Region]
    /// The engine's recognizers, in its table order (event `recognizer` indices point here).
    package var recognizers: [GestureRecognizer]

    /// The most touch samples a panel picture draws, and the most events either picture marks:
    /// beyond that a picture is tens of MB that no viewer shows usefully (a 46 MB trace made a
    /// 328 MB SVG); `plot` asks for a narrower window instead.
    package static let maximumDrawnSamples = 100_000
    package static let maximumDrawnEvents = 100_000

    /// The touch samples and events inside `window`: what a picture would draw.
    package func drawnCounts(in window: PlotWindow) -> (samples: Int, events: Int) {
        var samples = 0
        for f in compactFrames where window.contains(f.time) { samples += Int(f.count) }
        var events = 0
        for e in compactEvents where window.contains(e.time.microseconds) { events += 1 }
        return (samples, events)
    }

    /// The contacts of `frame`.
    package func contacts(of frame: Frame) -> ArraySlice<Contact> {
        let first = Int(frame.first)
        return contacts[first..<first + Int(frame.count)]
    }

    /// The frames, in order, as `TouchFrame`s (344 bytes each: for tests and small traces).
    package var frames: [TouchFrame] {
        compactFrames.map { f in
            f.isCancel
                ? .cancel(at: Instant(microseconds: f.time))
                : TouchFrame(timestamp: Instant(microseconds: f.time), contacts: Array(contacts(of: f)))
        }
    }

    /// The actions, in the order replay prints them (with the fields a picture uses).
    package var events: [GestureEvent] { compactEvents.map(\.gestureEvent) }

    /// The actions within `window`, in order.
    package func events(in window: PlotWindow) -> [GestureEvent] {
        compactEvents.filter { window.contains($0.time.microseconds) }.map(\.gestureEvent)
    }

    /// Streams the trace file at `path` through `engine` on a virtual clock, recording frames,
    /// actions and the explain trace; the file is checked whole first (`TraceFileReader.validate`,
    /// flat memory), so a bad trace is its error and no picture. The engine's sink and
    /// diagnostics hook are borrowed for the call and restored afterwards.
    package static func record(path: String, engine: GestureEngine) throws(TraceError) -> PlotRecording {
        _ = try TraceFileReader.validate(path: path)
        let reader = try TraceFileReader(path: path)
        let collector = Collector(engine: engine)
        var frame = TouchFrame(timestamp: .zero)
        do throws(TraceError) {
            while try reader.next(into: &frame) { collector.process(frame) }
        } catch {
            collector.restore()
            throw error
        }
        return collector.finish(header: reader.header)
    }

    /// `record(path:engine:)` for a trace in memory.
    package static func record(trace: Trace, engine: GestureEngine) -> PlotRecording {
        let collector = Collector(engine: engine)
        for frame in trace.frames { collector.process(frame) }
        return collector.finish(header: trace.header)
    }

    static func pending(_ engine: GestureEngine) -> UInt64 {
        var mask: UInt64 = 0
        for (i, r) in engine.recognizers.prefix(64).enumerated()
        where r.isWaitingForFailure || r.timerDeadline != nil || r.state == .began || r.state == .changed {
            mask |= 1 << UInt64(i)
        }
        return mask
    }

    /// The name replay prints as `recognizer`: the recognizer's, or for a control's own
    /// action (S28) the control region's; "#<index>" for an index outside the tables.
    package func recognizerName(of event: GestureEvent) -> String {
        if event.kind == .control {
            return regions.indices.contains(event.recognizer) ? regions[event.recognizer].name : "#\(event.recognizer)"
        }
        return recognizers.indices.contains(event.recognizer)
            ? recognizers[event.recognizer].name : "#\(event.recognizer)"
    }

    /// The first and last instant of anything recorded (0…0 when empty).
    package var timeSpan: (first: Int64, last: Int64) {
        var first = Int64.max
        var last = Int64.min
        for entry in entries {
            let t: Int64
            switch entry {
            case .frames(let run):
                // Frames are in time order: the run's first and last are its extremes.
                first = min(first, compactFrames[run.lowerBound].time)
                last = max(last, compactFrames[run.upperBound - 1].time)
                continue
            case .event(let i): t = compactEvents[i].time.microseconds
            case .diagnostic(let i): t = diagnostics[i].time.microseconds
            case .settled: continue
            }
            first = min(first, t)
            last = max(last, t)
        }
        return first <= last ? (first, last) : (0, 0)
    }

    /// Borrows the engine's sink and diagnostics hook while frames go through it.
    private final class Collector: GestureEventSink {
        let engine: GestureEngine
        var entries: [Entry] = []
        var events: [Event] = []
        var diagnostics: [GestureEngine.Diagnostic] = []
        var frames: [Frame] = []
        var contacts: [Contact] = []
        private let previousSink: (any GestureEventSink)?
        private let previousDiagnostics: ((GestureEngine.Diagnostic) -> Void)?

        init(engine: GestureEngine) {
            self.engine = engine
            previousSink = engine.sink
            previousDiagnostics = engine.diagnostics
            engine.sink = self
            engine.diagnostics = { [unowned self] d in
                entries.append(.diagnostic(diagnostics.count))
                diagnostics.append(d)
            }
        }

        func emit(_ event: GestureEvent) {
            entries.append(.event(events.count))
            events.append(Event(event))
        }

        func process(_ frame: TouchFrame) {
            let index = frames.count
            frames.append(
                Frame(
                    time: frame.timestamp.microseconds, first: Int32(truncatingIfNeeded: contacts.count),
                    count: UInt8(truncatingIfNeeded: frame.isCancel ? 0 : frame.count), isCancel: frame.isCancel))
            if !frame.isCancel { for i in 0..<frame.count { contacts.append(frame[i]) } }
            if case .frames(let run)? = entries.last, run.upperBound == index {
                entries[entries.count - 1] = .frames(run.lowerBound..<index + 1)
            } else {
                entries.append(.frames(index..<index + 1))
            }
            engine.process(frame)
            if !engine.hasTouchesDown { entries.append(.settled(frame.timestamp, pending: pending(engine))) }
        }

        /// Gives the engine its own sink and diagnostics hook back.
        func restore() {
            engine.sink = previousSink
            engine.diagnostics = previousDiagnostics
        }

        func finish(header: TraceHeader) -> PlotRecording {
            engine.drainTimers()
            entries.append(.settled(engine.now, pending: pending(engine)))
            restore()
            return PlotRecording(
                panelWidth: Double(max(header.panelWidth, 1)), panelHeight: Double(max(header.panelHeight, 1)),
                source: header.source, entries: entries, compactEvents: events, diagnostics: diagnostics,
                compactFrames: frames, contacts: contacts,
                regions: engine.regions, recognizers: engine.recognizers)
        }
    }
}

/// The span of time a picture shows: `from`…`to` in trace microseconds, both inclusive;
/// nil ends are open.
package struct PlotWindow: Sendable, Equatable {
    package var from: Int64?
    package var to: Int64?

    package init(from: Int64? = nil, to: Int64? = nil) {
        self.from = from
        self.to = to
    }

    package func contains(_ t: Int64) -> Bool {
        if let from, t < from { return false }
        if let to, t > to { return false }
        return true
    }

    /// The window with open ends closed at the recording's first and last instant; at least
    /// 1 µs long, within Int64 (a window ending at `Int64.max` starts 1 µs before it).
    package func resolved(in recording: PlotRecording) -> (from: Int64, to: Int64) {
        let span = recording.timeSpan
        let a = from ?? span.first
        let b = to ?? span.last
        if a == .max { return (a - 1, a) }
        return (a, max(b, a + 1))
    }
}

/// One touch from its first frame to its lift (or cancel): a contact id is reused after a lift,
/// so each down–up run is its own touch with its own colour.
package struct TouchStroke: Sendable {
    /// 1-based, in order of touch-down over the whole trace (stable whatever the window).
    package var ordinal: Int
    /// The controller's tracking id.
    package var id: UInt8
    /// (µs, position) at every frame the contact was down.
    package var samples: [(time: Int64, position: Point)]
    /// True when a system cancel (S9) ended it rather than a lift.
    package var cancelled: Bool

    /// The touches of `recording`'s frames, split at each lift, with samples outside `window`
    /// dropped as they are read (touches left with no sample are dropped too).
    package static func strokes(of recording: PlotRecording, in window: PlotWindow = PlotWindow()) -> [TouchStroke] {
        var finished: [TouchStroke] = []
        var active: [UInt8: TouchStroke] = [:]
        var next = 1
        for frame in recording.compactFrames {
            if frame.isCancel {
                for (_, var s) in active {
                    s.cancelled = true
                    finished.append(s)
                }
                active.removeAll()
                continue
            }
            let t = frame.time
            let inWindow = window.contains(t)
            var seen: Set<UInt8> = []
            for c in recording.contacts(of: frame) {
                seen.insert(c.id)
                if active[c.id] == nil {
                    active[c.id] = TouchStroke(ordinal: next, id: c.id, samples: [], cancelled: false)
                    next += 1
                }
                if inWindow { active[c.id]!.samples.append((t, c.position)) }
            }
            for id in active.keys where !seen.contains(id) {
                finished.append(active.removeValue(forKey: id)!)
            }
        }
        finished.append(contentsOf: active.values)
        return finished.filter { !$0.samples.isEmpty }.sorted { $0.ordinal < $1.ordinal }
    }
}
