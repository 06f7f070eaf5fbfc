import Gestures
import TouchCore
import TouchTrace

/// What the engine saw and did for one trace: every frame, every action (S4) and every
/// explanation, interleaved in the order they happened. The input of every picture.
///
/// Made by `record(trace:engine:)`, which drives the engine exactly as `touchwire replay`
/// does — each frame at its `t_us` on a virtual clock, then the clock runs on until no timer
/// is pending — so `events` are the events replay prints, in the same order.
package struct PlotRecording {
    /// One thing that happened, in order.
    package enum Entry {
        /// A frame given to the engine.
        case frame(TouchFrame)
        /// An action the engine emitted.
        case event(GestureEvent)
        /// An explanation (failed, waiting, released, cancelled) from the engine's explain trace.
        case diagnostic(GestureEngine.Diagnostic)
        /// Every finger is up after the frame (or the final timers) at this instant; `pending[i]`
        /// says whether recognizer `i` still has something to decide (a timer, a held transition
        /// waiting for another's failure (S15), or a running continuous gesture).
        case settled(Instant, pending: [Bool])
    }

    /// Panel size in pixels (the trace header's).
    package var panelWidth: Double
    package var panelHeight: Double
    /// The trace header's `source`.
    package var source: String
    package var entries: [Entry]
    /// The engine's regions, in its table order (event `region` indices point here).
    package var regions: [Region]
    /// The engine's recognizers, in its table order (event `recognizer` indices point here).
    package var recognizers: [GestureRecognizer]

    /// The frames, in order.
    package var frames: [TouchFrame] {
        entries.compactMap { if case .frame(let f) = $0 { f } else { nil } }
    }

    /// The actions, in the order replay prints them.
    package var events: [GestureEvent] {
        entries.compactMap { if case .event(let e) = $0 { e } else { nil } }
    }

    /// The explanations, in order.
    package var diagnostics: [GestureEngine.Diagnostic] {
        entries.compactMap { if case .diagnostic(let d) = $0 { d } else { nil } }
    }

    /// Replays `trace` through `engine` on a virtual clock, recording frames, actions and the
    /// explain trace. The engine's sink and diagnostics hook are borrowed for the call and
    /// restored afterwards.
    package static func record(trace: Trace, engine: GestureEngine) -> PlotRecording {
        let collector = Collector()
        let previousSink = engine.sink
        let previousDiagnostics = engine.diagnostics
        engine.sink = collector
        engine.diagnostics = { [collector] d in collector.entries.append(.diagnostic(d)) }
        for frame in trace.frames {
            collector.entries.append(.frame(frame))
            engine.process(frame)
            if !engine.hasTouchesDown { collector.entries.append(.settled(frame.timestamp, pending: pending(engine))) }
        }
        engine.drainTimers()
        collector.entries.append(.settled(engine.now, pending: pending(engine)))
        engine.sink = previousSink
        engine.diagnostics = previousDiagnostics
        return PlotRecording(
            panelWidth: Double(max(trace.header.panelWidth, 1)), panelHeight: Double(max(trace.header.panelHeight, 1)),
            source: trace.header.source, entries: collector.entries, regions: engine.regions,
            recognizers: engine.recognizers)
    }

    static func pending(_ engine: GestureEngine) -> [Bool] {
        engine.recognizers.map { r in
            r.isWaitingForFailure || r.timerDeadline != nil || r.state == .began || r.state == .changed
        }
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
            case .frame(let f): t = f.timestamp.microseconds
            case .event(let e): t = e.time.microseconds
            case .diagnostic(let d): t = d.time.microseconds
            case .settled: continue
            }
            first = min(first, t)
            last = max(last, t)
        }
        return first <= last ? (first, last) : (0, 0)
    }

    private final class Collector: GestureEventSink {
        var entries: [Entry] = []
        func emit(_ event: GestureEvent) { entries.append(.event(event)) }
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

    /// The touches of `frames`, split at each lift, with samples outside `window` dropped
    /// (touches left with no sample are dropped too).
    package static func strokes(of frames: [TouchFrame], in window: PlotWindow = PlotWindow()) -> [TouchStroke] {
        var finished: [TouchStroke] = []
        var active: [UInt8: TouchStroke] = [:]
        var next = 1
        for frame in frames {
            if frame.isCancel {
                for (_, var s) in active {
                    s.cancelled = true
                    finished.append(s)
                }
                active.removeAll()
                continue
            }
            let t = frame.timestamp.microseconds
            var seen: Set<UInt8> = []
            for c in frame.contacts {
                seen.insert(c.id)
                if active[c.id] == nil {
                    active[c.id] = TouchStroke(ordinal: next, id: c.id, samples: [], cancelled: false)
                    next += 1
                }
                active[c.id]!.samples.append((t, c.position))
            }
            for id in active.keys where !seen.contains(id) {
                finished.append(active.removeValue(forKey: id)!)
            }
        }
        finished.append(contentsOf: active.values)
        return finished.sorted { $0.ordinal < $1.ordinal }.compactMap { s in
            var s = s
            s.samples.removeAll { !window.contains($0.time) }
            return s.samples.isEmpty ? nil : s
        }
    }
}
