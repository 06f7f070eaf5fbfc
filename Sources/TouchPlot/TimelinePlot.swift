import Gestures
import TouchCore

/// `touchwire plot --timeline`: one lane per recognizer (and per control whose own action fired,
/// S28) with its state over time, under a lane of the touches that were down.
///
/// A lane is `possible` from the touch-down that reaches its region (S8) until the recognizer
/// ends, fails or is cancelled; `began`/`changed` while a continuous gesture runs; and
/// "waiting for X" while the explain trace says it holds a transition until X fails (S15),
/// which makes a failure requirement's delay visible as a yellow bar. Every event in the
/// window is one `<g class="event">` (same data attributes as the panel plot); every failure
/// from the explain trace is one `<g class="failure">`.
package enum TimelinePlot {
    static let labelWidth = 150.0
    static let plotWidth = 900.0
    static let laneHeight = 22.0
    static let laneGap = 8.0

    /// What a lane is doing between two instants.
    enum Phase: Equatable {
        case possible, began, changed
        case waiting(String)

        /// The phase as `data-phase` names it (docs/PLOTS.md).
        var name: String {
            switch self {
            case .possible: "possible"
            case .began: "began"
            case .changed: "changed"
            case .waiting: "waiting"
            }
        }

        var fill: String {
            switch self {
            case .possible: "#e0e0e0"
            case .began: "#a5d6a7"
            case .changed: "#66bb6a"
            case .waiting: "#ffd54f"
            }
        }
    }

    struct Segment {
        var phase: Phase
        var from: Int64
        var to: Int64
    }

    enum Mark {
        case event(GestureEvent)
        case failure(Int64, String)
    }

    /// The lanes' keys: a recognizer index, or a control region index.
    enum LaneKey: Hashable {
        case recognizer(Int)
        case control(Int)
    }

    struct Lane {
        var key: LaneKey
        var name: String
        var region: Region?
        var segments: [Segment] = []
        var marks: [Mark] = []
        var phase: Phase?
        var since: Int64 = 0

        /// Moves to `next` at `t`; true when that ends a segment `scene` may draw, which is kept
        /// when `keeping`.
        @discardableResult
        mutating func enter(_ next: Phase?, at t: Int64, _ scene: PlotScene, keeping: Bool) -> Bool {
            if next == phase { return false }
            var drawn = false
            if let phase, t > since || next == nil, scene.mayOverlap(since, t) {
                drawn = true
                if keeping { segments.append(Segment(phase: phase, from: since, to: t)) }
            }
            phase = next
            since = t
            return drawn
        }
    }

    /// The most bars and failure marks a timeline draws: past that `plot --timeline` asks for a
    /// narrower window (the whole of a 46 MB trace drew 107,000 of them, a 25 MB SVG), and a
    /// timeline's content stops keeping them.
    package static let maximumDrawnBars = 100_000

    /// The SVG document for `recording` over `window`.
    package static func render(_ recording: PlotRecording, window: PlotWindow = PlotWindow()) -> String {
        var content = Content(scene: recording.scene(for: window), bounded: false)
        recording.replay(into: &content)
        return render(content)
    }

    /// What the timeline draws, kept as the engine's work streams by: each lane's state runs over
    /// the whole trace (a state entered before the window shows in it), but only the bars that
    /// may overlap the window and the marks inside it are kept. `bounded`: past
    /// `PlotRecording.maximumDrawnEvents` events in the window it keeps nothing more (and drops
    /// what it kept), only counting — `plot` refuses such a window (`isOverLimit`).
    package struct Content: PlotObserver {
        package private(set) var scene: PlotScene
        private let bounded: Bool
        var lanes: [Lane]
        private var index: [LaneKey: Int] = [:]
        private let byName: [String: Int]
        var touchSegments: [(from: Int64, to: Int64, count: Int)] = []
        var down = 0
        var downSince: Int64 = 0

        package init(scene: PlotScene, bounded: Bool) {
            self.scene = scene
            self.bounded = bounded
            lanes = scene.recognizers.enumerated().map { i, r in
                Lane(key: .recognizer(i), name: r.name, region: r.region)
            }
            for (i, lane) in lanes.enumerated() { index[lane.key] = i }
            // The explain trace names recognizers only: a control's lane (added at its first
            // action, after them) is never one it names.
            byName = Dictionary(lanes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        }

        /// The bars (a lane's state or the touches down, between two instants) and failure marks
        /// the window draws so far.
        package private(set) var drawnBars = 0

        /// More events, or bars and failures, in the window than a picture shows (only when `bounded`).
        package var isOverLimit: Bool {
            bounded
                && (scene.drawnEvents > PlotRecording.maximumDrawnEvents
                    || drawnBars > TimelinePlot.maximumDrawnBars)
        }

        /// Moves lane `i` to `next` at `t`, counting the bar it ends when the window draws it.
        private mutating func move(_ i: Int, to next: Phase?, at t: Int64) {
            let wasOver = isOverLimit
            if lanes[i].enter(next, at: t, scene, keeping: keeping) { countBar(wasOver) }
        }

        private mutating func countBar(_ wasOver: Bool) {
            drawnBars += 1
            dropIfOver(wasOver)
        }

        private var keeping: Bool { !isOverLimit }

        private mutating func dropIfOver(_ wasOver: Bool) {
            guard isOverLimit && !wasOver else { return }
            touchSegments = []
            for i in lanes.indices {
                lanes[i].segments = []
                lanes[i].marks = []
            }
        }

        package mutating func frame(_ frame: TouchFrame) {
            let t = frame.timestamp.microseconds
            let count = frame.isCancel ? 0 : frame.count
            scene.note(t, samples: count)
            if down == 0 && count > 0 {
                let hit = scene.regions.first?.root.hitTest(frame[0].position)
                for i in lanes.indices where lanes[i].phase == nil {
                    if let region = lanes[i].region, let hit, hit.isDescendant(of: region) {
                        move(i, to: .possible, at: t)
                    }
                }
            }
            if count != down {
                if down > 0 && scene.mayOverlap(downSince, t) {
                    let wasOver = isOverLimit
                    if keeping { touchSegments.append((downSince, t, down)) }
                    countBar(wasOver)
                }
                down = count
                downSince = t
            }
        }

        package mutating func event(_ compact: PlotRecording.Event) {
            let wasOver = isOverLimit
            scene.note(compact.time.microseconds, event: true)
            dropIfOver(wasOver)
            let event = compact.gestureEvent
            if event.kind == .control && index[.control(event.recognizer)] == nil {
                index[.control(event.recognizer)] = lanes.count
                lanes.append(Lane(key: .control(event.recognizer), name: scene.recognizerName(of: event), region: nil))
            }
            let key: LaneKey = event.kind == .control ? .control(event.recognizer) : .recognizer(event.recognizer)
            guard let i = index[key] else { return }
            let t = event.time.microseconds
            // Only what is drawn is kept.
            if scene.window.contains(t) && keeping { lanes[i].marks.append(.event(event)) }
            switch event.state {
            case .began: move(i, to: .began, at: t)
            case .changed: move(i, to: .changed, at: t)
            case .possible: move(i, to: .possible, at: t)
            default: move(i, to: nil, at: t)
            }
        }

        package mutating func settled(_ instant: Instant, pending: UInt64) {
            for i in lanes.indices where lanes[i].phase == .possible {
                if case .recognizer(let r) = lanes[i].key, r < min(64, scene.recognizers.count),
                    pending & (1 << UInt64(r)) == 0
                {
                    move(i, to: nil, at: instant.microseconds)
                }
            }
        }

        package mutating func diagnostic(_ d: GestureEngine.Diagnostic) {
            scene.note(d.time.microseconds)
            guard let i = byName[d.recognizer] else { return }
            let t = d.time.microseconds
            // By the line's kind, never its wording (issue 31: a recognizer's own reason,
            // "the next tap did not come…", left its lane "possible" after it failed).
            switch d.kind {
            case .failed:
                if scene.window.contains(t) {
                    let wasOver = isOverLimit
                    if keeping { lanes[i].marks.append(.failure(t, d.message)) }
                    countBar(wasOver)
                }
                move(i, to: nil, at: t)
            case .waiting:
                if let blocker = blockerName(in: d.message) {
                    move(i, to: .waiting(blocker), at: t)
                }
            case .released: move(i, to: .possible, at: t)
            case .cancelled, .disabled: move(i, to: nil, at: t)
            }
        }
    }

    /// The SVG document for `content` (gathered over its scene's window).
    package static func render(_ content: Content) -> String {
        let recording = content.scene
        let window = recording.window
        var lanes = content.lanes
        var touchSegments = content.touchSegments
        let span = recording.resolvedWindow
        let end = span.to
        if content.down > 0 { touchSegments.append((content.downSince, end, content.down)) }
        for i in lanes.indices { lanes[i].enter(nil, at: max(end, lanes[i].since), recording, keeping: true) }

        let left = 16.0
        let top = 52.0
        let x0 = left + labelWidth
        // In Double: a span of a trace from −9.1e18 to 9.1e18 µs does not fit an Int64.
        let duration = Double(span.to) - Double(span.from)
        func x(_ t: Int64) -> Double { x0 + (Double(t) - Double(span.from)) / duration * plotWidth }
        func clampedX(_ t: Int64) -> Double { min(max(x(t), x0), x0 + plotWidth) }
        let rows = lanes.count + 1
        let axisY = top + Double(rows) * (laneHeight + laneGap) + 4
        let height = axisY + 70
        var svg = SVGWriter(
            width: x0 + plotWidth + 90, height: height,
            title:
                "touchwire plot --timeline: \(recording.source), "
                + "\(SVGWriter.seconds(span.from))–\(SVGWriter.seconds(span.to)) s"
        )
        svg.label(
            "\(recording.source.isEmpty ? "trace" : recording.source) — recognizer states, "
                + "\(SVGWriter.seconds(span.from))–\(SVGWriter.seconds(span.to)) s",
            x: left, y: 20, [("font-size", "13"), ("font-weight", "bold")])
        svg.label("touchwire plot --timeline", x: left, y: 36, [("fill", "#666666")])

        // Time grid.
        // At most about a dozen ticks whatever the span (a 177-byte trace over 9e18 µs once drew
        // millions, a 1.5 GB picture), each step computed without overflow at Int64's ends.
        let step = tickStep(Int64.saturatingDifference(span.to, span.from))
        svg.open("g", [("class", "axis")])
        // The first multiple of `step` at or after `from` (none when it would be past Int64.max).
        var next: Int64? = span.from
        let remainder = span.from % step
        if remainder < 0 { next = span.from - remainder }
        if remainder > 0 {
            let (up, overflow) = span.from.addingReportingOverflow(step - remainder)
            next = overflow ? nil : up
        }
        while let tick = next, tick <= span.to {
            let tx = x(tick)
            svg.line(tx, top - 4, tx, axisY, stroke: "#eeeeee")
            svg.label(SVGWriter.seconds(tick), x: tx, y: axisY + 14, [("text-anchor", "middle"), ("font-size", "10")])
            let (after, overflow) = tick.addingReportingOverflow(step)
            next = overflow ? nil : after
        }
        svg.line(x0, axisY, x0 + plotWidth, axisY, stroke: "#000000")
        svg.label("time (s)", x: x0 + plotWidth, y: axisY + 28, [("text-anchor", "end"), ("font-size", "10")])
        svg.close()

        func overlaps(_ a: Int64, _ b: Int64) -> Bool { b >= span.from && a <= span.to }

        // Touches lane.
        var laneY = top
        svg.open("g", [("class", "lane touches")])
        svg.label("touches down", x: left, y: laneY + 15, [("font-weight", "bold")])
        for s in touchSegments where overlaps(s.from, s.to) {
            svg.rect(
                x: clampedX(s.from), y: laneY + 3, width: clampedX(s.to) - clampedX(s.from), height: laneHeight - 6,
                fill: "#90caf9")
            if clampedX(s.to) - clampedX(s.from) > 12 {
                svg.label(String(s.count), x: clampedX(s.from) + 3, y: laneY + 15, [("font-size", "10")])
            }
        }
        svg.close()

        for lane in lanes {
            laneY += laneHeight + laneGap
            svg.open("g", [("class", "lane"), ("data-recognizer", lane.name)])
            svg.label(lane.name, x: left, y: laneY + 15)
            svg.rect(x: x0, y: laneY, width: plotWidth, height: laneHeight, fill: "none", stroke: "#f0f0f0")
            for s in lane.segments where overlaps(s.from, s.to) {
                let a = clampedX(s.from)
                let b = max(clampedX(s.to), a + 1)
                let data = [
                    ("class", "segment"), ("data-phase", s.phase.name), ("data-from-us", String(s.from)),
                    ("data-to-us", String(s.to)),
                ]
                if case .waiting(let blocker) = s.phase {
                    // The whole sentence as the bar's tooltip; on the bar, what fits before its end.
                    svg.open("g", [("class", "waiting"), ("data-blocker", blocker)])
                    svg.element("title", [], text: "waiting for \(blocker) to fail")
                    svg.rect(
                        x: a, y: laneY + 2, width: b - a, height: laneHeight - 4, fill: s.phase.fill, stroke: "none",
                        data)
                    if let text = waitingLabel(blocker: blocker, width: b - a - 3 - markerClearance) {
                        svg.label(text, x: a + 3, y: laneY + 15, [("font-size", "10")])
                    }
                    svg.close()
                } else {
                    svg.rect(
                        x: a, y: laneY + 2, width: b - a, height: laneHeight - 4, fill: s.phase.fill, stroke: "none",
                        data)
                }
            }
            for mark in lane.marks {
                switch mark {
                case .event(let e):
                    let t = e.time.microseconds
                    guard window.contains(t) else { continue }
                    svg.open(
                        "g",
                        [
                            ("class", "event"), ("data-t-us", String(t)), ("data-recognizer", lane.name),
                            ("data-state", e.state.description),
                        ])
                    PanelPlot.marker(&svg, e.state, x: x(t), y: laneY + laneHeight / 2)
                    if e.state != .changed && e.state != .began {
                        svg.label(e.state.description, x: x(t) + 7, y: laneY - 1, [("font-size", "9")])
                    }
                    svg.close()
                case .failure(let t, let message):
                    guard window.contains(t) else { continue }
                    svg.open("g", [("class", "failure"), ("data-t-us", String(t)), ("data-recognizer", lane.name)])
                    svg.element("title", [], text: message)
                    PanelPlot.marker(&svg, .failed, x: x(t), y: laneY + laneHeight / 2)
                    svg.label("failed", x: x(t) + 7, y: laneY - 1, [("font-size", "9")])
                    svg.close()
                }
            }
            svg.close()
        }

        // Legend.
        let ly = axisY + 46
        svg.open("g", [("class", "legend")])
        var lx = x0
        for (phase, text) in [
            (Phase.possible, "possible"), (.began, "began"), (.changed, "changed"),
            (.waiting(""), "waiting for X to fail"),
        ] {
            svg.rect(x: lx, y: ly - 9, width: 18, height: 10, fill: phase.fill)
            svg.label(text, x: lx + 22, y: ly)
            lx += 40 + Double(text.count) * 6
        }
        for (state, text) in [
            (GestureState.ended, "ended"), (.recognized, "recognized"), (.failed, "failed"), (.cancelled, "cancelled"),
        ] {
            PanelPlot.marker(&svg, state, x: lx + 6, y: ly - 4)
            svg.label(text, x: lx + 16, y: ly)
            lx += 30 + Double(text.count) * 6
        }
        svg.close()
        return svg.finish()
    }

    /// Room kept free at a bar's end for the marker drawn there (a marker is 10 px wide).
    package static let markerClearance = 8.0

    /// The longest of "waiting for X to fail", "until X fails" and "X" that fits in `width` px
    /// at the 10 px font (about 5.6 px a character), or nil: a label never runs past its bar
    /// onto the marker that ends it.
    package static func waitingLabel(blocker: String, width: Double) -> String? {
        ["waiting for \(blocker) to fail", "until \(blocker) fails", blocker].first {
            Double($0.count) * 5.6 <= width
        }
    }

    /// X in "waiting: would be …, holding until X fails (S15)".
    static func blockerName(in message: String) -> String? {
        guard let start = message.firstRange(of: "holding until ") else { return nil }
        let rest = message[start.upperBound...]
        guard let end = rest.firstRange(of: " fails") else { return String(rest) }
        return String(rest[..<end.lowerBound])
    }

    /// A tick step of 1, 2 or 5 × 10ⁿ µs giving about ten ticks over `span` µs.
    static func tickStep(_ span: Int64) -> Int64 {
        var decade: Int64 = 1000
        while decade < 1_000_000_000_000_000_000 {
            for mantissa: Int64 in [1, 2, 5] where span / (decade * mantissa) <= 12 {
                return decade * mantissa
            }
            decade *= 10
        }
        return decade  // 10¹⁸ µs: at most 9 ticks over all of Int64's positive half
    }
}

extension Region {
    /// The root of the tree this region belongs to.
    var root: Region {
        var r = self
        while let p = r.parent { r = p }
        return r
    }
}
