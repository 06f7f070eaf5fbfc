import BoardConfig
import Gestures
import TouchCore
import TouchTrace

/// One labelled span of a trace: the stroke that begins in `start...end` (µs) is `gesture`.
package struct StrokeLabel: Sendable, Equatable {
    package var gesture: String
    package var start: Int64
    package var end: Int64

    package init(gesture: String, start: Int64, end: Int64) {
        self.gesture = gesture
        self.start = start
        self.end = end
    }
}

/// One finger's stroke in a trace: from the frame it appears in until the frame it lifts.
package struct TraceStroke: Sendable, Equatable {
    /// The first and last sample's time, µs.
    package var start: Int64
    package var end: Int64
    package var points: [Point]
}

/// `touchwire strokes learn` and `strokes test`: strokes out of a trace, labels, and the
/// confusion of a template set on labelled strokes (through the real recognizer and engine).
package enum StrokeLearning {
    /// Parses a labels CSV: a header naming at least `gesture`, `t_start_us` and `t_end_us` (any
    /// order, extra columns ignored), then one row per stroke. `file` names it in errors.
    package static func parseLabels(_ text: String, file: String) throws(StrokeTemplateFileError) -> [StrokeLabel] {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard let header = lines.first else { throw StrokeTemplateFileError(file: file, line: 1, message: "empty") }
        let columns = header.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingSpaces()
        }
        func column(_ name: String) throws(StrokeTemplateFileError) -> Int {
            guard let i = columns.firstIndex(of: name) else {
                throw StrokeTemplateFileError(
                    file: file, line: 1,
                    message: "the header has no \"\(name)\" column (needs gesture,t_start_us,t_end_us)")
            }
            return i
        }
        let g = try column("gesture")
        let s = try column("t_start_us")
        let e = try column("t_end_us")
        var labels: [StrokeLabel] = []
        for (i, line) in lines.enumerated().dropFirst() where !line.allSatisfy({ $0 == " " }) {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
            guard f.count > max(g, s, e) else {
                throw StrokeTemplateFileError(
                    file: file, line: i + 1, message: "expected \(columns.count) columns, found \(f.count)")
            }
            guard !f[g].isEmpty else {
                throw StrokeTemplateFileError(file: file, line: i + 1, message: "empty gesture name")
            }
            guard let start = Int64(f[s]), let end = Int64(f[e]), start <= end else {
                throw StrokeTemplateFileError(
                    file: file, line: i + 1, message: "t_start_us and t_end_us must be integers with start ≤ end")
            }
            labels.append(StrokeLabel(gesture: f[g], start: start, end: end))
        }
        return labels
    }

    /// Every single-finger stroke of `frames`: a contact from its first frame to its lift. A frame
    /// with two or more contacts ends the current stroke and drops it (it is not a unistroke).
    package static func strokes(in frames: [TouchFrame]) -> [TraceStroke] {
        var result: [TraceStroke] = []
        var current: TraceStroke? = nil
        var spoiled = false
        for f in frames {
            if f.isCancel || f.count == 0 {
                if let c = current, !spoiled { result.append(c) }
                current = nil
                spoiled = false
            } else if f.count > 1 {
                spoiled = true
            } else {
                let p = f[0].position
                let t = f.timestamp.microseconds
                if current == nil {
                    current = TraceStroke(start: t, end: t, points: [p])
                } else {
                    current!.end = t
                    current!.points.append(p)
                }
            }
        }
        if let c = current, !spoiled { result.append(c) }
        return result
    }

    /// Templates from a trace: each stroke whose start lies in a label's span becomes a template
    /// named by the label; with `name` instead, every stroke becomes a template of that name.
    /// Strokes with no length (taps) are skipped.
    package static func templates(frames: [TouchFrame], labels: [StrokeLabel]?, name: String?) -> [StrokeTemplate] {
        var out: [StrokeTemplate] = []
        for s in strokes(in: frames) {
            guard s.points.count >= 2, pathLength(s.points) > 0 else { continue }
            if let name {
                out.append(StrokeTemplate(name: name, points: s.points))
            } else if let label = labels?.first(where: { $0.start <= s.start && s.start <= $0.end }) {
                out.append(StrokeTemplate(name: label.gesture, points: s.points))
            }
        }
        return out
    }

    /// `templates` without Wilson's misfits (`StrokeTemplateSet.misfits`): those whose nearest
    /// other template is of another gesture. Returns the kept templates, how many were dropped,
    /// and for each dropped one its index, its name and the gesture of its nearest neighbour.
    package static func edited(_ templates: [StrokeTemplate]) throws(StrokeTemplateSet.EmptyStroke)
        -> (templates: [StrokeTemplate], dropped: Int, why: [(index: Int, name: String, nearest: String)])
    {
        let set = try StrokeTemplateSet(templates)
        let misfits = set.misfits()
        let drop = Set(misfits)
        let kept = templates.enumerated().filter { !drop.contains($0.offset) }.map(\.element)
        let why = misfits.map { i in (i, templates[i].name, set.nearestOtherGesture(of: i)) }
        return (kept, drop.count, why)
    }

    /// A stroke too small to be a shape (`StrokeGestureRecognizer`'s defaults: a path under 30 px,
    /// or a box under 15 px): its index in `templates` and why. `strokes learn` warns about them.
    package static func tooSmall(_ templates: [StrokeTemplate]) -> [(index: Int, reason: String)] {
        templates.enumerated().compactMap { i, t in
            let length = pathLength(t.points)
            let xs = t.points.map(\.x)
            let ys = t.points.map(\.y)
            let extent = max((xs.max() ?? 0) - (xs.min() ?? 0), (ys.max() ?? 0) - (ys.min() ?? 0))
            if length < 30 {
                return (i, "a path of \(format(length)) px, shorter than min_length's default 30: a tap or a nudge")
            }
            if extent < 15 { return (i, "it spans \(format(extent)) px: a finger wobbling in place") }
            return nil
        }
    }

    private static func format(_ v: Double) -> String { wholeDescription(v.rounded()) }

    /// The largest coordinate, in px, that the template file's reader accepts
    /// (`StrokeTemplateFile.parse`: "two numbers of at most 1e6").
    package static let maximumCoordinate = 1e6

    /// Whether `name` can name a template: the reader splits lines on every newline character
    /// (U+2028, U+2029 and U+0085 too), so a name holding one, or any control character, is refused.
    package static func isValidName(_ name: String) -> Bool {
        !name.isEmpty
            && !name.unicodeScalars.contains {
                $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}"
            }
    }

    /// Checks that `templates` make a file the reader reads back and a board loads: at most
    /// `BoardInputBounds.maximumStrokeTemplates`, every name valid, every point
    /// finite and within `maximumCoordinate`. The error names `source` (the trace or labels) and
    /// the template; nothing is written before the check.
    package static func checkWritable(_ templates: [StrokeTemplate], source: String) throws(StrokeTemplateFileError) {
        guard templates.count <= BoardInputBounds.maximumStrokeTemplates else {
            throw StrokeTemplateFileError(
                file: source, line: 0,
                message: "\(templates.count) templates, more than the limit of "
                    + "\(BoardInputBounds.maximumStrokeTemplates) a board loads; learn from fewer strokes")
        }
        for (i, t) in templates.enumerated() {
            guard isValidName(t.name) else {
                throw StrokeTemplateFileError(
                    file: source, line: 0,
                    message: "template \(i + 1): its name holds a control character or line separator,"
                        + " which the template file cannot hold")
            }
            for (k, p) in t.points.enumerated()
            where !(p.x.isFinite && p.y.isFinite && abs(p.x) <= maximumCoordinate && abs(p.y) <= maximumCoordinate) {
                throw StrokeTemplateFileError(
                    file: source, line: 0,
                    message: "template \(i + 1) (\(t.name)): point \(k) is (\(p.x), \(p.y)), beyond the"
                        + " template file's limit of 1e6 px")
            }
        }
    }

    static func pathLength(_ p: [Point]) -> Double {
        var sum = 0.0
        for i in p.indices.dropFirst() { sum += p[i - 1].distance(to: p[i]) }
        return sum
    }

    /// Every touch of `frames`, one finger or more: from the frame its first finger lands in to
    /// the frame its last lifts in (or a cancel), as `none` labels — the spans of a trace of
    /// strokes that are no gesture (`strokes test --negatives`).
    package static func touchSpans(in frames: [TouchFrame], gesture: String = StrokeConfusion.noGesture)
        -> [StrokeLabel]
    {
        var spans: [StrokeLabel] = []
        var start: Int64? = nil
        for f in frames {
            let t = f.timestamp.microseconds
            if f.isCancel || f.count == 0 {
                if let s = start { spans.append(StrokeLabel(gesture: gesture, start: s, end: t)) }
                start = nil
            } else if start == nil {
                start = t
            }
        }
        if let s = start, let last = frames.last {
            spans.append(StrokeLabel(gesture: gesture, start: s, end: last.timestamp.microseconds))
        }
        return spans
    }

    /// The recognizer `strokes test` measures: `kind = "stroke"` (all of `templates`' gestures
    /// compete, `gestures` are reported; nil: all) or `kind = "checkmark"`.
    package enum TestedKind: String, Sendable, CaseIterable {
        case stroke
        case checkmark
    }

    /// Replays `frames` through an engine holding one stroke recognizer with `templates`, and
    /// tallies, for each label, the gesture recognized at its lift (or "none"). A label named
    /// `none` (`StrokeConfusion.noGesture`) is a stroke that is no gesture: anything recognized
    /// for it is a false alarm.
    package static func evaluate(
        frames: [TouchFrame], panelWidth: Int, panelHeight: Int, labels: [StrokeLabel], templates: StrokeTemplateSet,
        minimumScore: Double = StrokeGestureRecognizer.defaultMinimumScore, kind: TestedKind = .stroke,
        gestures: [String]? = nil, minimumLength: Double = 30
    ) -> StrokeConfusion {
        let root = Region(
            name: "screen", frame: Rect(x: 0, y: 0, width: Double(panelWidth), height: Double(panelHeight)))
        let engine = GestureEngine(root: root)
        let recognizer: StrokeGestureRecognizer =
            switch kind {
            case .stroke:
                StrokeGestureRecognizer(
                    name: "stroke", templates: templates, gestures: gestures, minimumScore: minimumScore,
                    minimumLength: minimumLength)
            case .checkmark:
                CheckmarkGestureRecognizer(name: "check", minimumLeg: minimumLength / 3, templates: templates)
            }
        engine.add(recognizer, to: root)
        let sink = CollectingSink()
        engine.sink = sink
        for f in frames { engine.process(f) }
        engine.drainTimers()
        var confusion = StrokeConfusion(templateNames: templates.names)
        var e = 0
        for label in labels.sorted(by: { $0.start < $1.start }) {
            // The recognition comes with the lift: the first empty frame after the stroke.
            while e < sink.events.count && sink.events[e].time.microseconds < label.start { e += 1 }
            var predicted: String? = nil
            if e < sink.events.count, sink.events[e].time.microseconds <= Int64.saturatingSum(label.end, 100_000) {
                let s = sink.events[e].stroke
                predicted =
                    kind == .checkmark ? "check" : templates.names.indices.contains(s) ? templates.names[s] : nil
            }
            confusion.add(truth: label.gesture, predicted: predicted)
        }
        return confusion
    }

    /// `strokes bench`: replays `frames` `passes` times (each pass shifted past the previous one)
    /// through an engine holding one stroke recognizer. With `decide` false its `min_length` is
    /// infinite, so every lift fails before matching: the difference between the two runs is the
    /// cost of the decisions. Returns the frames processed, those with a finger down, and events.
    package static func replayForCost(
        frames: [TouchFrame], panelWidth: Int, panelHeight: Int, templates: StrokeTemplateSet, passes: Int,
        decide: Bool
    ) -> (frames: Int, moving: Int, events: Int) {
        let root = Region(
            name: "screen", frame: Rect(x: 0, y: 0, width: Double(panelWidth), height: Double(panelHeight)))
        let engine = GestureEngine(root: root)
        let recognizer = StrokeGestureRecognizer(
            name: "stroke", templates: templates, minimumLength: decide ? 30 : .infinity)
        engine.add(recognizer, to: root)
        let sink = CollectingSink()
        sink.events.reserveCapacity(4096)
        engine.sink = sink
        let span = Int64.saturatingSum(frames.last?.timestamp.microseconds ?? 0, 1_000_000)
        var count = 0
        var moving = 0
        var events = 0
        for pass in 0..<passes {
            for var f in frames {
                let (shift, overflow) = Int64(pass).multipliedReportingOverflow(by: span)
                f.timestamp = f.timestamp.advanced(byMicroseconds: overflow ? .max : shift)
                engine.process(f)
                count += 1
                if f.count > 0 { moving += 1 }
            }
            events += sink.events.count
            sink.events.removeAll(keepingCapacity: true)
        }
        engine.drainTimers()
        return (count, moving, events + sink.events.count)
    }

    final class CollectingSink: GestureEventSink {
        var events: [GestureEvent] = []
        func emit(_ event: GestureEvent) { if event.state == .recognized { events.append(event) } }
    }
}

/// Counts of (true gesture, recognized gesture or none), with the printed report of `strokes test`.
package struct StrokeConfusion: Sendable, Equatable {
    /// Row names: the labelled gestures in order of first appearance.
    package private(set) var truths: [String] = []
    /// Column names: the template names, then "none".
    package let columns: [String]
    /// counts[row][column].
    package private(set) var counts: [[Int]] = []

    package init(templateNames: [String]) { columns = templateNames + [Self.noGesture] }

    /// The label (and column) of a stroke that is no gesture.
    package static let noGesture = "none"

    package mutating func add(truth: String, predicted: String?) {
        var row = truths.firstIndex(of: truth)
        if row == nil {
            truths.append(truth)
            counts.append([Int](repeating: 0, count: columns.count))
            row = truths.count - 1
        }
        let column = predicted.flatMap { columns.firstIndex(of: $0) } ?? columns.count - 1
        counts[row!][column] += 1
    }

    /// Adds `other`'s counts (same columns: the same template set).
    package mutating func merge(_ other: StrokeConfusion) {
        for (r, truth) in other.truths.enumerated() {
            for (k, column) in other.columns.enumerated() {
                for _ in 0..<other.counts[r][k] {
                    add(truth: truth, predicted: column == Self.noGesture ? nil : column)
                }
            }
        }
    }

    /// Strokes of `gesture` and how many were recognized as it.
    package func recall(of gesture: String) -> (hits: Int, total: Int) {
        guard let r = truths.firstIndex(of: gesture) else { return (0, 0) }
        let total = counts[r].reduce(0, +)
        let hits = columns.firstIndex(of: gesture).map { counts[r][$0] } ?? 0
        return (hits, total)
    }

    /// Strokes of other gestures recognized as `gesture`, and how many strokes of other gestures.
    package func falseAlarms(of gesture: String) -> (count: Int, others: Int) {
        guard let c = columns.firstIndex(of: gesture) else { return (0, 0) }
        var n = 0
        var others = 0
        for (r, t) in truths.enumerated() where t != gesture {
            n += counts[r][c]
            others += counts[r].reduce(0, +)
        }
        return (n, others)
    }

    /// The strokes labelled `none` (everyday strokes, no gesture) and how many of them were
    /// recognized as some gesture: the false alarms.
    package var everydayFalseAlarms: (count: Int, total: Int) {
        guard let r = truths.firstIndex(of: Self.noGesture) else { return (0, 0) }
        let total = counts[r].reduce(0, +)
        return (total - counts[r][columns.count - 1], total)
    }

    /// All labelled gesture strokes (not `none`) and those recognized as their own gesture.
    package var accuracy: (hits: Int, total: Int) {
        var hits = 0
        var total = 0
        for (r, t) in truths.enumerated() where t != Self.noGesture {
            total += counts[r].reduce(0, +)
            if let c = columns.firstIndex(of: t) { hits += counts[r][c] }
        }
        return (hits, total)
    }

    /// The confusion matrix (rows: truth; columns: recognized, by number), per-gesture accuracy,
    /// and the overall figure.
    package var report: String {
        var out = "confusion (rows: labelled gesture; columns: recognized as)\n"
        let width = max(12, (truths + columns).map(\.count).max() ?? 0)
        func pad(_ s: String, _ w: Int) -> String { String(repeating: " ", count: max(0, w - s.count)) + s }
        func padRight(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - s.count)) }
        for (i, c) in columns.enumerated() { out += "  \(pad(String(i + 1), 3)) = \(c)\n" }
        out += padRight("", width)
        for i in columns.indices { out += pad(String(i + 1), 4) }
        out += "\n"
        for (r, t) in truths.enumerated() {
            out += padRight(t, width)
            for v in counts[r] { out += pad(v == 0 ? "." : String(v), 4) }
            out += "\n"
        }
        out += "per-gesture accuracy\n"
        for t in truths where t != Self.noGesture {
            let (h, n) = recall(of: t)
            out += padRight(t, width) + pad("\(h)/\(n)", 9) + pad(percent(h, n), 9) + "\n"
        }
        let (h, n) = accuracy
        if n > 0 { out += padRight("all", width) + pad("\(h)/\(n)", 9) + pad(percent(h, n), 9) + "\n" }
        let (alarms, everyday) = everydayFalseAlarms
        if everyday > 0 {
            out += "false alarms on strokes that are no gesture (labelled none)\n"
            out += padRight("none", width) + pad("\(alarms)/\(everyday)", 9) + pad(percent(alarms, everyday), 9) + "\n"
        }
        return out
    }

    private func percent(_ h: Int, _ n: Int) -> String {
        guard n > 0 else { return "-" }
        let tenths = (1000 * h + n / 2) / n
        return "\(tenths / 10).\(tenths % 10) %"
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
