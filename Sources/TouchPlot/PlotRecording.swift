import Gestures
import TouchCore
import TouchTrace

/// Sees, in order, what the engine saw and did for one trace: each frame before the engine
/// processes it, then the actions (S4) and explanations it made, then whether every finger is up.
/// A picture's content is an observer that keeps only what it draws, so `plot` holds what it
/// draws and not the trace (`PlotRecording.stream(path:engine:into:)`).
package protocol PlotObserver {
    /// A frame given to the engine (a cancel frame's contacts are not looked at).
    mutating func frame(_ frame: TouchFrame)
    /// An action the engine emitted.
    mutating func event(_ event: PlotRecording.Event)
    /// An explanation (failed, waiting, released, cancelled) from the engine's explain trace.
    mutating func diagnostic(_ diagnostic: GestureEngine.Diagnostic)
    /// Every finger is up after the frame (or the final timers) at `instant`; bit `i` of `pending`
    /// says whether recognizer `i` (at most 64) still has something to decide (a timer, a held
    /// transition waiting for another's failure (S15), or a running continuous gesture).
    mutating func settled(_ instant: Instant, pending: UInt64)
}

/// What every picture needs besides its marks: the trace header's panel and source, the engine's
/// tables, the first and last instant of anything seen, and how many touch samples and events fall
/// inside the window (counted whatever a picture keeps, for `plot`'s refusal).
package struct PlotScene {
    /// Panel size in pixels (the trace header's).
    package var panelWidth: Double
    package var panelHeight: Double
    /// The trace header's `source`.
    package var source: String
    /// The engine's regions, in its table order (event `region` indices point here).
    package var regions: [Region]
    /// The engine's recognizers, in its table order (event `recognizer` indices point here).
    package var recognizers: [GestureRecognizer]
    /// The span the picture shows.
    package var window: PlotWindow
    /// The first and last instant of any frame, action or explanation seen (max…min: none yet).
    package private(set) var first = Int64.max
    package private(set) var last = Int64.min
    /// Touch samples (contacts of frames) and actions inside `window` so far.
    package private(set) var drawnSamples = 0
    package private(set) var drawnEvents = 0

    /// Keeps the engine alive while its tables are read: its deinit clears each recognizer's
    /// `region` (a timeline lane's region, which made a recording outliving its engine draw no
    /// `possible` bar).
    private let engine: GestureEngine

    package init(header: TraceHeader, engine: GestureEngine, window: PlotWindow) {
        panelWidth = Double(max(header.panelWidth, 1))
        panelHeight = Double(max(header.panelHeight, 1))
        source = header.source
        self.engine = engine
        regions = engine.regions
        recognizers = engine.recognizers
        self.window = window
    }

    /// The same scene over `window`, before anything is seen.
    package func restarted(over window: PlotWindow) -> PlotScene {
        var s = self
        s.window = window
        s.first = .max
        s.last = .min
        s.drawnSamples = 0
        s.drawnEvents = 0
        return s
    }

    /// Notes an instant of a frame (with `samples` contacts), an action or an explanation.
    mutating func note(_ t: Int64, samples: Int = 0, event: Bool = false) {
        first = min(first, t)
        last = max(last, t)
        if window.contains(t) {
            drawnSamples += samples
            if event { drawnEvents += 1 }
        }
    }

    /// The first and last instant of anything seen (0…0 when nothing was).
    package var timeSpan: (first: Int64, last: Int64) { first <= last ? (first, last) : (0, 0) }

    /// The window with its open ends closed at `timeSpan` (`PlotWindow.resolved(in:)`).
    package var resolvedWindow: (from: Int64, to: Int64) { window.resolved(span: timeSpan) }

    /// Whether a segment from `a` to `b` may overlap the resolved window, decided before the
    /// whole trace is seen: true for every segment the picture draws (open ends keep everything
    /// on their side; the window's end may move to 1 µs after its start).
    func mayOverlap(_ a: Int64, _ b: Int64) -> Bool {
        if let from = window.from, b < (from == .max ? from - 1 : from) { return false }
        guard let to = window.to else { return true }
        let start = window.from ?? first
        let end = start == .max ? Int64.max : max(to, start + 1)
        return a <= end
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
}

/// What the engine saw and did for one trace: every frame, every action (S4) and every
/// explanation, interleaved in the order they happened — the whole of it, for tests and small
/// traces; `plot` streams into a picture's content instead (`stream(path:engine:into:)`), which
/// keeps only what it draws.
///
/// Made by `record(path:engine:)` (or `record(trace:engine:)`), which drives the engine exactly as
/// `touchwire replay` does — each frame at its `t_us` on a virtual clock, then the clock runs on
/// until no timer is pending — so `events` are the events replay prints, in the same order.
///
/// Frames are kept compact (`compactFrames`, 16 bytes, and their `contacts`, 32 bytes each) and a
/// run of frames with nothing else between them is one entry.
package struct PlotRecording: PlotObserver {
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

    /// The header, the engine's tables and the span of everything recorded (its window: all).
    package var scene: PlotScene
    package var entries: [Entry] = []
    /// Every action, in order (`Entry.event` indices point here).
    package var compactEvents: [Event] = []
    /// The explanations, in order (`Entry.diagnostic` indices point here).
    package var diagnostics: [GestureEngine.Diagnostic] = []
    /// Every frame, in order (`Entry.frames` ranges point here).
    package var compactFrames: [Frame] = []
    /// The contacts of every frame, one after another.
    package var contacts: [Contact] = []

    package init(scene: PlotScene) { self.scene = scene.restarted(over: PlotWindow()) }

    /// Panel size in pixels (the trace header's).
    package var panelWidth: Double { scene.panelWidth }
    package var panelHeight: Double { scene.panelHeight }
    /// The trace header's `source`.
    package var source: String { scene.source }
    /// The engine's regions, in its table order (event `region` indices point here).
    package var regions: [Region] { scene.regions }
    /// The engine's recognizers, in its table order (event `recognizer` indices point here).
    package var recognizers: [GestureRecognizer] { scene.recognizers }

    /// The most touch samples a panel picture draws, and the most events either picture marks:
    /// beyond that a picture is tens of MB that no viewer shows usefully (a 46 MB trace made a
    /// 328 MB SVG); `plot` asks for a narrower window instead, and a picture's content stops
    /// keeping marks past them.
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
    package var frames: [TouchFrame] { compactFrames.map(touchFrame) }

    private func touchFrame(_ f: Frame) -> TouchFrame {
        f.isCancel
            ? .cancel(at: Instant(microseconds: f.time))
            : TouchFrame(timestamp: Instant(microseconds: f.time), contacts: Array(contacts(of: f)))
    }

    /// The actions, in the order replay prints them (with the fields a picture uses).
    package var events: [GestureEvent] { compactEvents.map(\.gestureEvent) }

    /// The actions within `window`, in order.
    package func events(in window: PlotWindow) -> [GestureEvent] {
        compactEvents.filter { window.contains($0.time.microseconds) }.map(\.gestureEvent)
    }

    /// Gives `observer` everything recorded, in the order it happened (as the stream did).
    package func replay<O: PlotObserver>(into observer: inout O) {
        for entry in entries {
            switch entry {
            case .frames(let run): for f in compactFrames[run] { observer.frame(touchFrame(f)) }
            case .event(let i): observer.event(compactEvents[i])
            case .diagnostic(let i): observer.diagnostic(diagnostics[i])
            case .settled(let instant, let pending): observer.settled(instant, pending: pending)
            }
        }
    }

    /// The scene of this recording for a picture over `window`, its counts those of `window`.
    package func scene(for window: PlotWindow) -> PlotScene { scene.restarted(over: window) }

    package mutating func frame(_ frame: TouchFrame) {
        let index = compactFrames.count
        let count = frame.isCancel ? 0 : frame.count
        scene.note(frame.timestamp.microseconds, samples: count)
        compactFrames.append(
            Frame(
                time: frame.timestamp.microseconds, first: Int32(truncatingIfNeeded: contacts.count),
                count: UInt8(truncatingIfNeeded: count), isCancel: frame.isCancel))
        for i in 0..<count { contacts.append(frame[i]) }
        if case .frames(let run)? = entries.last, run.upperBound == index {
            entries[entries.count - 1] = .frames(run.lowerBound..<index + 1)
        } else {
            entries.append(.frames(index..<index + 1))
        }
    }

    package mutating func event(_ event: Event) {
        scene.note(event.time.microseconds, event: true)
        entries.append(.event(compactEvents.count))
        compactEvents.append(event)
    }

    package mutating func diagnostic(_ diagnostic: GestureEngine.Diagnostic) {
        scene.note(diagnostic.time.microseconds)
        entries.append(.diagnostic(diagnostics.count))
        diagnostics.append(diagnostic)
    }

    package mutating func settled(_ instant: Instant, pending: UInt64) {
        entries.append(.settled(instant, pending: pending))
    }

    /// Streams the trace file at `path` through `engine` on a virtual clock, recording frames,
    /// actions and the explain trace (the whole of it: `stream(path:engine:into:)` keeps less).
    package static func record(path: String, engine: GestureEngine) throws(TraceError) -> PlotRecording {
        try stream(path: path, engine: engine, window: PlotWindow(), into: PlotRecording.init(scene:))
    }

    /// `record(path:engine:)` for a trace in memory.
    package static func record(trace: Trace, engine: GestureEngine) -> PlotRecording {
        stream(trace: trace, engine: engine, window: PlotWindow(), into: PlotRecording.init(scene:))
    }

    /// Streams the trace file at `path` through `engine` on a virtual clock, as replay does, into
    /// the observer `make` returns for the trace's scene over `window`: memory is the observer's
    /// and the engine's, never the trace's. The file is checked whole first
    /// (`TraceFileReader.validate`, flat memory), so a bad trace is its error and no picture. The
    /// engine's sink and diagnostics hook are borrowed for the call and restored afterwards.
    package static func stream<O: PlotObserver>(
        path: String, engine: GestureEngine, window: PlotWindow, into make: (PlotScene) -> O
    ) throws(TraceError) -> O {
        _ = try TraceFileReader.validate(path: path)
        let reader = try TraceFileReader(path: path)
        let collector = Collector(
            engine: engine,
            observer: make(
                PlotScene(header: reader.header, engine: engine, window: window)))
        var frame = TouchFrame(timestamp: .zero)
        do throws(TraceError) {
            while try reader.next(into: &frame) { collector.process(frame) }
        } catch {
            collector.restore()
            throw error
        }
        return collector.finish()
    }

    /// `stream(path:engine:window:into:)` for a trace in memory.
    package static func stream<O: PlotObserver>(
        trace: Trace, engine: GestureEngine, window: PlotWindow, into make: (PlotScene) -> O
    ) -> O {
        let collector = Collector(
            engine: engine,
            observer: make(
                PlotScene(header: trace.header, engine: engine, window: window)))
        for frame in trace.frames { collector.process(frame) }
        return collector.finish()
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
    package func recognizerName(of event: GestureEvent) -> String { scene.recognizerName(of: event) }

    /// The first and last instant of anything recorded (0…0 when empty).
    package var timeSpan: (first: Int64, last: Int64) { scene.timeSpan }

    /// Borrows the engine's sink and diagnostics hook while frames go through it, and hands
    /// what happens to the observer in order.
    private final class Collector<O: PlotObserver>: GestureEventSink {
        let engine: GestureEngine
        var observer: O
        private let previousSink: (any GestureEventSink)?
        private let previousDiagnostics: ((GestureEngine.Diagnostic) -> Void)?

        init(engine: GestureEngine, observer: O) {
            self.engine = engine
            self.observer = observer
            previousSink = engine.sink
            previousDiagnostics = engine.diagnostics
            engine.sink = self
            engine.diagnostics = { [unowned self] d in self.observer.diagnostic(d) }
        }

        func emit(_ event: GestureEvent) { observer.event(Event(event)) }

        func process(_ frame: TouchFrame) {
            observer.frame(frame)
            engine.process(frame)
            if !engine.hasTouchesDown { observer.settled(frame.timestamp, pending: pending(engine)) }
        }

        /// Gives the engine its own sink and diagnostics hook back.
        func restore() {
            engine.sink = previousSink
            engine.diagnostics = previousDiagnostics
        }

        func finish() -> O {
            engine.drainTimers()
            observer.settled(engine.now, pending: pending(engine))
            restore()
            return observer
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
        resolved(span: recording.timeSpan)
    }

    /// The window with open ends closed at `span`'s first and last instant (`resolved(in:)`).
    package func resolved(span: (first: Int64, last: Int64)) -> (from: Int64, to: Int64) {
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
        var tracker = TouchStrokeTracker()
        for frame in recording.frames {
            tracker.add(frame, keepingSamples: window.contains(frame.timestamp.microseconds))
        }
        return tracker.strokes
    }
}

/// Splits frames into touches as they come (`TouchStroke`), keeping only the samples it is told
/// to keep and only the touches with a sample: its memory is the kept samples and the touches
/// down, never the frames.
package struct TouchStrokeTracker {
    private var finished: [TouchStroke] = []
    private var active: [UInt8: TouchStroke] = [:]
    private var next = 1

    package init() {}

    /// Adds the next frame; its contacts are samples of their touches when `keepingSamples`.
    package mutating func add(_ frame: TouchFrame, keepingSamples: Bool) {
        if frame.isCancel {
            for (_, var s) in active {
                s.cancelled = true
                finish(s)
            }
            active.removeAll()
            return
        }
        let t = frame.timestamp.microseconds
        var seen: Set<UInt8> = []
        for i in 0..<frame.count {
            let c = frame[i]
            seen.insert(c.id)
            if active[c.id] == nil {
                active[c.id] = TouchStroke(ordinal: next, id: c.id, samples: [], cancelled: false)
                next += 1
            }
            if keepingSamples { active[c.id]!.samples.append((t, c.position)) }
        }
        for id in active.keys where !seen.contains(id) { finish(active.removeValue(forKey: id)!) }
    }

    private mutating func finish(_ stroke: TouchStroke) {
        if !stroke.samples.isEmpty { finished.append(stroke) }
    }

    /// Forgets every sample kept so far (the touches themselves are still counted for ordinals).
    package mutating func dropSamples() {
        finished = []
        for id in active.keys { active[id]!.samples = [] }
    }

    /// The touches with a kept sample, in order of touch-down, the ones still down included.
    package var strokes: [TouchStroke] {
        (finished + active.values.filter { !$0.samples.isEmpty }).sorted { $0.ordinal < $1.ordinal }
    }
}
