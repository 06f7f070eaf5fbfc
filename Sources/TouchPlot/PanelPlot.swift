import Gestures
import TouchCore

/// `touchwire plot`: the panel as the engine saw it — regions, every touch path and every
/// gesture event where and when it happened — as one self-contained SVG document.
///
/// Layout: the panel at its real aspect ratio (scaled to fit 720 × 540 units) on the left, a
/// legend on the right. Every touch is a `<polyline class="touch">` (one colour per touch, a
/// dot per frame, a ring every 100 ms); every event in the window is one `<g class="event">`
/// carrying `data-t-us`, `data-recognizer` and `data-state`, holding its marker, its label
/// (except `changed`), a swipe's direction arrow and a pan's velocity arrow.
package enum PanelPlot {
    /// Colours of successive touches.
    package static let palette = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
    ]
    /// Marker colours by state.
    static let began = "#2e7d32"
    static let changed = "#66bb6a"
    static let ended = "#c62828"
    static let recognized = "#1565c0"
    static let cancelled = "#ef6c00"
    /// A pan's velocity arrow shows the distance covered in this many seconds.
    package static let velocityArrowSeconds = 0.1
    /// The longest velocity arrow, in picture units (faster pans are drawn at this length).
    package static let longestArrow = 60.0
    /// Touches listed by name in the legend; more are counted.
    static let legendTouches = 16

    /// The SVG document for `recording` over `window`.
    package static func render(_ recording: PlotRecording, window: PlotWindow = PlotWindow()) -> String {
        var content = Content(scene: recording.scene(for: window), bounded: false)
        recording.replay(into: &content)
        return render(content)
    }

    /// What the panel picture draws, kept as the engine's work streams by: the touches' samples
    /// and the actions inside the window, nothing else. `bounded`: past
    /// `PlotRecording.maximumDrawnSamples` samples or `maximumDrawnEvents` events it keeps nothing
    /// more (and drops what it kept), only counting, so its memory is at most those limits
    /// whatever the trace's length — `plot` refuses such a window (`isOverLimit`).
    package struct Content: PlotObserver {
        package private(set) var scene: PlotScene
        private var touches = TouchStrokeTracker()
        private var kept: [PlotRecording.Event] = []
        private let bounded: Bool

        package init(scene: PlotScene, bounded: Bool) {
            self.scene = scene
            self.bounded = bounded
        }

        /// More samples or events in the window than a picture shows (only when `bounded`).
        package var isOverLimit: Bool {
            bounded
                && (scene.drawnSamples > PlotRecording.maximumDrawnSamples
                    || scene.drawnEvents > PlotRecording.maximumDrawnEvents)
        }

        /// The touches with a sample in the window, in order of touch-down over the whole trace.
        package var strokes: [TouchStroke] { touches.strokes }
        /// The actions inside the window, in order.
        package var events: [GestureEvent] { kept.map(\.gestureEvent) }

        package mutating func frame(_ frame: TouchFrame) {
            let t = frame.timestamp.microseconds
            let wasOver = isOverLimit
            scene.note(t, samples: frame.isCancel ? 0 : frame.count)
            if isOverLimit && !wasOver {
                touches.dropSamples()
                kept = []
            }
            touches.add(frame, keepingSamples: scene.window.contains(t) && !isOverLimit)
        }

        package mutating func event(_ event: PlotRecording.Event) {
            let t = event.time.microseconds
            let wasOver = isOverLimit
            scene.note(t, event: true)
            if isOverLimit && !wasOver {
                touches.dropSamples()
                kept = []
            }
            if scene.window.contains(t) && !isOverLimit { kept.append(event) }
        }

        package mutating func diagnostic(_ diagnostic: GestureEngine.Diagnostic) {
            scene.note(diagnostic.time.microseconds)
        }

        package mutating func settled(_ instant: Instant, pending: UInt64) {}
    }

    /// The SVG document for `content` (gathered over its scene's window).
    package static func render(_ content: Content) -> String {
        let recording = content.scene
        let w = recording.panelWidth
        let h = recording.panelHeight
        let scale = min(720 / w, 540 / h)
        let left = 16.0
        let top = 44.0
        let pw = w * scale
        let ph = h * scale
        let legendX = left + pw + 24
        let strokes = content.strokes
        let events = content.events
        let legendRows = 14 + min(strokes.count, legendTouches + 1)
        let height = max(top + ph + 24, top + Double(legendRows) * 16 + 24)
        let span = recording.resolvedWindow
        var svg = SVGWriter(
            width: legendX + 310, height: height,
            title:
                "touchwire plot: \(recording.source), "
                + "\(SVGWriter.seconds(span.from))–\(SVGWriter.seconds(span.to)) s")

        func px(_ p: Point) -> (Double, Double) { (left + p.x * scale, top + p.y * scale) }

        svg.label(
            "\(recording.source.isEmpty ? "trace" : recording.source) — \(Int(w)) × \(Int(h)) px, "
                + "\(SVGWriter.seconds(span.from))–\(SVGWriter.seconds(span.to)) s, "
                + "\(strokes.count) touches, \(events.count) events",
            x: left, y: 20, [("font-size", "13"), ("font-weight", "bold")])
        svg.label("touchwire plot", x: left, y: 36, [("fill", "#666666")])

        // The panel and its regions.
        svg.open("g", [("class", "regions")])
        svg.rect(x: left, y: top, width: pw, height: ph, fill: "#fafafa", stroke: "#000000")
        for region in recording.regions {
            var depth = 0.0
            var ancestor = region.parent
            while let a = ancestor {
                depth += 1
                ancestor = a.parent
            }
            let (x, y0) = px(Point(x: region.frame.x, y: region.frame.y))
            let y = y0
            let rw = region.frame.width * scale
            let rh = region.frame.height * scale
            if region.isControl {
                svg.rect(
                    x: x, y: y, width: rw, height: rh, fill: "#fff3e0", stroke: "#ef6c00",
                    [("class", "region control"), ("stroke-width", "1.5")])
                svg.label("\(region.name) (control)", x: x + 4, y: y + 13, [("fill", "#ef6c00")])
            } else {
                svg.rect(
                    x: x, y: y, width: rw, height: rh, fill: "none", stroke: "#9e9e9e",
                    [("class", "region"), ("stroke-dasharray", "6 3")])
                svg.label(region.name, x: x + 4, y: y + 13 + 13 * depth, [("fill", "#757575")])
            }
        }
        svg.close()

        // The touches.
        var placed = LabelPlacer()
        svg.open("g", [("class", "touches")])
        for stroke in strokes {
            let colour = palette[(stroke.ordinal - 1) % palette.count]
            let points = stroke.samples.map { px($0.position) }
            svg.element(
                "polyline",
                [
                    ("class", "touch"), ("data-touch", String(stroke.ordinal)), ("data-id", String(stroke.id)),
                    ("points", SVGWriter.points(points)), ("fill", "none"), ("stroke", colour),
                    ("stroke-width", "1.5"), ("stroke-linejoin", "round"),
                ])
            for p in points { svg.circle(x: p.0, y: p.1, r: 1.6, fill: colour) }
            let start = stroke.samples[0].time
            var nextTick = Int64.saturatingSum(start, 100_000)
            for s in stroke.samples where s.time >= nextTick {
                let p = px(s.position)
                svg.circle(x: p.0, y: p.1, r: 4, fill: "none", stroke: colour, [("class", "tick")])
                let elapsed = Int64.saturatingDifference(s.time, start) / 100_000 * 100_000
                nextTick = Int64.saturatingSum(Int64.saturatingSum(start, elapsed), 100_000)
                if nextTick == .max { break }  // the end of Int64: no later tick
            }
            let first = points[0]
            let startLabel = "#\(stroke.ordinal) \(SVGWriter.seconds(start)) s"
            let startY = placed.place(startLabel, x: first.0 + 5, y: first.1 - 5, fontSize: 12)
            svg.label(startLabel, x: first.0 + 5, y: startY, [("fill", colour)])
            if stroke.cancelled, let last = points.last {
                svg.label("cancelled", x: last.0 + 5, y: last.1 + 12, [("fill", cancelled)])
            }
        }
        svg.close()

        // The events.
        svg.open("g", [("class", "events")])
        for event in events {
            let name = recording.recognizerName(of: event)
            let (x, y) = px(event.location)
            svg.open(
                "g",
                [
                    ("class", "event"), ("data-t-us", String(event.time.microseconds)), ("data-recognizer", name),
                    ("data-state", event.state.description),
                ])
            marker(&svg, event.state, x: x, y: y)
            if event.kind == .swipe {
                let d = direction(event.direction)
                svg.arrow(x, y, x + d.0 * 40, y + d.1 * 40, colour: recognized, width: 2.5, head: 9)
            }
            if event.kind == .pan && event.state != .possible {
                var vx = event.velocity.x * velocityArrowSeconds * scale
                var vy = event.velocity.y * velocityArrowSeconds * scale
                let length = (vx * vx + vy * vy).squareRoot()
                if length > longestArrow {
                    vx *= longestArrow / length
                    vy *= longestArrow / length
                }
                svg.arrow(x, y, x + vx, y + vy, colour: "#6a1b9a", width: 1, head: 5)
            }
            if event.state != .changed {
                var text = "\(name) \(event.state)"
                if event.kind == .swipe { text += " \(event.direction.name)" }
                if event.kind == .tap && event.taps > 1 { text += " ×\(event.taps)" }
                svg.label(
                    text, x: x + 7, y: placed.place(text, x: x + 7, y: y + 4, fontSize: 10), [("font-size", "10")])
            }
            svg.close()
        }
        svg.close()

        legend(&svg, x: legendX, y: top, strokes: strokes)
        return svg.finish()
    }

    /// The marker of an event state (legend and plot share it).
    static func marker(_ svg: inout SVGWriter, _ state: GestureState, x: Double, y: Double) {
        switch state {
        case .began:
            svg.polygon([(x, y - 6), (x + 5.5, y + 4), (x - 5.5, y + 4)], fill: began)
        case .changed, .possible:
            svg.circle(x: x, y: y, r: 2.2, fill: changed)
        case .ended:
            svg.rect(x: x - 4, y: y - 4, width: 8, height: 8, fill: ended)
        case .recognized:
            svg.polygon([(x, y - 6), (x + 6, y), (x, y + 6), (x - 6, y)], fill: recognized)
        case .cancelled, .failed:
            let colour = state == .failed ? "#b71c1c" : cancelled
            svg.line(x - 5, y - 5, x + 5, y + 5, stroke: colour, width: 2.5)
            svg.line(x - 5, y + 5, x + 5, y - 5, stroke: colour, width: 2.5)
        }
    }

    /// The unit vector of a swipe direction in panel coordinates (y grows downwards).
    static func direction(_ d: SwipeDirection) -> (Double, Double) {
        switch d {
        case .right: (1, 0)
        case .left: (-1, 0)
        case .up: (0, -1)
        case .down: (0, 1)
        default: (0, 0)
        }
    }

    static func legend(_ svg: inout SVGWriter, x: Double, y: Double, strokes: [TouchStroke]) {
        svg.open("g", [("class", "legend")])
        var row = y + 8
        func next() -> Double {
            defer { row += 16 }
            return row
        }
        svg.label("Legend", x: x, y: next(), [("font-weight", "bold")])
        let states: [(GestureState, String)] = [
            (.began, "began (continuous gesture starts)"), (.changed, "changed"),
            (.ended, "ended (continuous gesture ends)"), (.recognized, "recognized (discrete gesture)"),
            (.cancelled, "cancelled"),
        ]
        for (state, text) in states {
            let r = next()
            marker(&svg, state, x: x + 8, y: r - 4)
            svg.label(text, x: x + 22, y: r)
        }
        var r = next()
        svg.arrow(x, r - 4, x + 18, r - 4, colour: recognized, width: 2.5, head: 7)
        svg.label("swipe: direction recognized", x: x + 22, y: r)
        r = next()
        svg.arrow(x, r - 4, x + 18, r - 4, colour: "#6a1b9a", width: 1, head: 5)
        svg.label("pan: velocity (distance in 100 ms, at most 60)", x: x + 22, y: r)
        r = next()
        svg.line(x, r - 4, x + 16, r - 4, stroke: palette[0], width: 1.5)
        svg.circle(x: x + 8, y: r - 4, r: 1.6, fill: palette[0])
        svg.label("touch path, a dot per frame", x: x + 22, y: r)
        r = next()
        svg.circle(x: x + 8, y: r - 4, r: 4, fill: "none", stroke: palette[0])
        svg.label("every 100 ms along a touch", x: x + 22, y: r)
        r = next()
        svg.rect(x: x, y: r - 10, width: 16, height: 10, fill: "none", stroke: "#9e9e9e", [("stroke-dasharray", "4 2")])
        svg.label("region", x: x + 22, y: r)
        r = next()
        svg.rect(x: x, y: r - 10, width: 16, height: 10, fill: "#fff3e0", stroke: "#ef6c00")
        svg.label("control region (S28)", x: x + 22, y: r)
        _ = next()
        svg.label("Touches (#n start time)", x: x, y: next(), [("font-weight", "bold")])
        for stroke in strokes.prefix(legendTouches) {
            let r = next()
            let colour = palette[(stroke.ordinal - 1) % palette.count]
            svg.rect(x: x, y: r - 9, width: 16, height: 9, fill: colour)
            let duration = (stroke.samples.last!.time - stroke.samples[0].time) / 1000
            svg.label(
                "#\(stroke.ordinal) id \(stroke.id), \(SVGWriter.seconds(stroke.samples[0].time)) s, "
                    + "\(stroke.samples.count) frames, \(duration) ms" + (stroke.cancelled ? ", cancelled" : ""),
                x: x + 22, y: r)
        }
        if strokes.count > legendTouches {
            svg.label("… and \(strokes.count - legendTouches) more", x: x + 22, y: next())
        }
        svg.close()
    }
}

/// Keeps the labels of a picture from overlapping: each is moved down a line at a time until its
/// box (its width estimated from its characters) is clear of every label placed before it.
struct LabelPlacer {
    private var boxes: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []

    /// The baseline at or below `y` where `text` at `x` overlaps no earlier label (after 200
    /// tries, the last one: a pathological pile still ends).
    mutating func place(_ text: String, x: Double, y: Double, fontSize: Double) -> Double {
        let width = Double(text.count) * fontSize * 0.56
        let height = fontSize + 1
        var baseline = y
        for _ in 0..<200 {
            let box = (x0: x, y0: baseline - fontSize, x1: x + width, y1: baseline + 1)
            if !boxes.contains(where: { $0.x0 < box.x1 && box.x0 < $0.x1 && $0.y0 < box.y1 && box.y0 < $0.y1 }) {
                break
            }
            baseline += height
        }
        boxes.append((x0: x, y0: baseline - fontSize, x1: x + width, y1: baseline + 1))
        return baseline
    }
}
