import BoardConfig
import Foundation
import Gestures
import TouchComposition
import TouchCore
import TouchOutputs
import TouchService
import TouchTrace
import XCTest

/// The stroke recognizer on real people's strokes (data/unistroke, the $1 study's logs), held out
/// by subject as the unseen users will be; its rejections; its template file; its board keys.
final class StrokeTests: XCTestCase {
    static let subjects = ["s01", "s02", "s03"]
    static let data = repositoryRoot.appendingPathComponent("data/unistroke")

    static func trace(_ s: String) throws -> Trace {
        try TraceReader.read(path: data.appendingPathComponent("\(s).jsonl").path)
    }

    static func labels(_ s: String) throws -> [StrokeLabel] {
        let path = data.appendingPathComponent("\(s)-labels.csv").path
        return try StrokeLearning.parseLabels(String(contentsOfFile: path, encoding: .utf8), file: path)
    }

    /// Leave-one-subject-out: templates learned from two people, tested on the third, three times.
    /// With `edited`, the templates lose Wilson's misfits first (as the built-in set does).
    static func leaveOneSubjectOut(edited: Bool) throws -> StrokeConfusion {
        try heldOut(folds: subjects.map { held in (subjects.filter { $0 != held }, held) }, edited: edited)
    }

    /// The harder protocol: templates from one person, tested on each of the two others (six pairs).
    static func trainedOnOnePerson() throws -> StrokeConfusion {
        try heldOut(folds: subjects.flatMap { t in subjects.filter { $0 != t }.map { ([t], $0) } }, edited: true)
    }

    /// Each fold: templates from `training`, every stroke of `held` replayed through the real
    /// recognizer; the confusions added up.
    static func heldOut(folds: [(training: [String], held: String)], edited: Bool) throws -> StrokeConfusion {
        var rows: [(String, String?)] = []
        for (training, held) in folds {
            var templates: [StrokeTemplate] = []
            for s in training {
                templates += StrokeLearning.templates(frames: try trace(s).frames, labels: try labels(s), name: nil)
            }
            XCTAssertEqual(templates.count, 480 * training.count)
            let set = try StrokeTemplateSet(edited ? StrokeLearning.edited(templates).templates : templates)
            let t = try trace(held)
            let c = StrokeLearning.evaluate(
                frames: t.frames, panelWidth: 240, panelHeight: 320, labels: try labels(held), templates: set)
            for (r, truth) in c.truths.enumerated() {
                for (k, column) in c.columns.enumerated() {
                    for _ in 0..<c.counts[r][k] { rows.append((truth, column == "none" ? nil : column)) }
                }
            }
        }
        var total = StrokeConfusion(
            templateNames: try StrokeTemplateSet(
                StrokeLearning.templates(frames: try trace("s01").frames, labels: try labels("s01"), name: nil)
            ).names)
        for (t, p) in rows { total.add(truth: t, predicted: p) }
        return total
    }

    /// The figures docs/strokes.md states: 1,424 of 1,440 (98.89 %) held-out strokes, sixteen
    /// gestures, with open-set rejection on (before it: 1,425; Protractor alone: 1,415, 98.26 %);
    /// checks 90/90 with 4 false alarms (v's) of 1,350. Deterministic (no clock, no randomness):
    /// the floors are the measured figures.
    func testLeaveOneSubjectOutAccuracyOnTheSixteenGestures() throws {
        let c = try Self.leaveOneSubjectOut(edited: true)
        print(c.report)
        let (hits, total) = c.accuracy
        XCTAssertEqual(total, 1440)
        XCTAssertGreaterThanOrEqual(hits, 1424, "held-out accuracy")
        // Strokes of one shape reported as another: the false alarms between shapes (≤ 1 %).
        var between = 0
        for (r, truth) in c.truths.enumerated() {
            for (k, column) in c.columns.enumerated() where column != truth && column != "none" {
                between += c.counts[r][k]
            }
        }
        XCTAssertLessThanOrEqual(between, 14, "held-out strokes reported as another shape (measured 13/1,440)")
        let check = c.recall(of: "check")
        XCTAssertEqual(check.total, 90)
        XCTAssertGreaterThanOrEqual(check.hits, 90, "held-out checkmark recall")
        let alarms = c.falseAlarms(of: "check")
        XCTAssertEqual(alarms.others, 1350)
        XCTAssertLessThanOrEqual(alarms.count, 4, "checkmarks reported for the other 15 shapes (≤ 1 % is the goal)")
    }

    /// Templates from a single person, tested on another (six pairs): the figures docs/strokes.md
    /// states, 2,795 of 2,880 (97.05 %, 2,808 before open-set rejection); checks 180/180 with 8
    /// false alarms of 2,700.
    func testTrainedOnOnePersonTestedOnAnother() throws {
        let c = try Self.trainedOnOnePerson()
        print(c.report)
        let (hits, total) = c.accuracy
        XCTAssertEqual(total, 2880)
        XCTAssertGreaterThanOrEqual(hits, 2795, "accuracy on another person")
        XCTAssertEqual(c.recall(of: "check").hits, 180, "checkmark recall on another person")
        let alarms = c.falseAlarms(of: "check")
        XCTAssertEqual(alarms.others, 2700)
        XCTAssertLessThanOrEqual(alarms.count, 8, "checkmarks reported for the other 15 shapes")
    }

    /// Without editing the templates (every stroke a template) held-out accuracy is the same,
    /// 1,424/1,440: since a check and a v are told apart by where they begin, the misfits that
    /// editing drops no longer cost a held-out stroke. Editing must not cost one either.
    func testEditingTheTemplatesCostsHeldOutSubjectsNothing() throws {
        let plain = try Self.leaveOneSubjectOut(edited: false).accuracy.hits
        let edited = try Self.leaveOneSubjectOut(edited: true).accuracy.hits
        XCTAssertGreaterThanOrEqual(plain, 1424, "every stroke a template")
        XCTAssertGreaterThanOrEqual(edited, plain)
    }

    // MARK: rejection

    func harness(_ r: GestureRecognizer) -> (GestureEngine, RecordingSink) {
        let root = Region(name: "screen", frame: Rect(x: 0, y: 0, width: 480, height: 480))
        let engine = GestureEngine(root: root)
        engine.add(r, to: root)
        let sink = RecordingSink()
        engine.sink = sink
        return (engine, sink)
    }

    /// Down at `t0` ms, the points one frame (10 ms) apart, lift after the last.
    func draw(_ engine: GestureEngine, at t0: Int64, _ points: [Point], id: UInt8 = 0) {
        for (i, p) in points.enumerated() {
            var f = TouchFrame(timestamp: .milliseconds(t0 + 10 * Int64(i)))
            f.append(Contact(id: id, position: p))
            engine.process(f)
        }
        engine.process(TouchFrame(timestamp: .milliseconds(t0 + 10 * Int64(points.count))))
    }

    /// A check drawn by program: a short down-right leg then a long up-right leg.
    static let syntheticCheck: [Point] = {
        let down: [Point] = (0...10).map { i in Point(x: 100 + 3 * Double(i), y: 200 + 4 * Double(i)) }
        let up: [Point] = (1...20).map { i in Point(x: 130 + 5 * Double(i), y: 240 - 7 * Double(i)) }
        return down + up
    }()

    /// Shapes keep their orientation (the rotation is bounded to ±45°): s01's carets, arrows
    /// and question marks turned a quarter turn either way are never reported as what they were
    /// (a caret on its side is a ">", not a caret). With the rotation unbounded all of them are.
    func testAShapeTurnedAQuarterTurnIsNotThatShape() throws {
        let shapes = ["caret", "arrow", "question_mark"]
        let strokes = StrokeLearning.templates(
            frames: try Self.trace("s01").frames, labels: try Self.labels("s01"), name: nil
        ).filter { shapes.contains($0.name) }
        XCTAssertEqual(strokes.count, 90)
        for degrees in [90.0, -90.0] {
            let r = StrokeGestureRecognizer(name: "s", templates: .builtIn)
            let (engine, sink) = harness(r)
            var lifts: [(time: Int64, name: String)] = []
            var t: Int64 = 0
            let a = degrees * Double.pi / 180
            for s in strokes {
                let cx = s.points.map(\.x).reduce(0, +) / Double(s.points.count)
                let cy = s.points.map(\.y).reduce(0, +) / Double(s.points.count)
                let turned = s.points.map { p in
                    let x = p.x - cx
                    let y = p.y - cy
                    return Point(x: 240 + x * cos(a) - y * sin(a), y: 240 + x * sin(a) + y * cos(a))
                }
                draw(engine, at: t, turned)
                lifts.append((1000 * (t + 10 * Int64(turned.count)), s.name))
                t += 10 * Int64(turned.count) + 1_000
            }
            var same = 0
            for e in sink.events where e.state == .recognized {
                let drawn = lifts.first { $0.time == e.time.microseconds }?.name
                XCTAssertNotNil(drawn, "an event at the lift of a stroke")
                if drawn == r.templates.names[e.stroke] { same += 1 }
            }
            XCTAssertEqual(same, 0, "shapes turned \(degrees)° reported as themselves")
        }
    }

    /// `--explain` quotes min_length in the board's own unit, points, as every recognizer's
    /// thresholds are (a 2 px/pt panel: min_length 30 pt is 60 px; a 40 px stroke is 20 pt).
    func testExplainQuotesMinLengthInPoints() {
        let root = Region(name: "screen", frame: Rect(x: 0, y: 0, width: 480, height: 480))
        let engine = GestureEngine(root: root, pixelsPerPoint: 2)
        engine.add(StrokeGestureRecognizer(name: "s", templates: .builtIn, minimumLength: 60), to: root)
        var lines: [String] = []
        engine.diagnostics = { lines.append("\($0)") }
        draw(engine, at: 0, (0...4).map { Point(x: 100 + 10 * Double($0), y: 100) })
        XCTAssertTrue(
            lines.contains { $0.contains("a path of 20 pt is shorter than min_length (30 pt)") }, "\(lines)")
    }

    func testADrawnCheckIsRecognizedWithItsNameAndScore() throws {
        let r = StrokeGestureRecognizer(name: "s", templates: .builtIn)
        let (engine, sink) = harness(r)
        draw(engine, at: 0, Self.syntheticCheck)
        XCTAssertEqual(sink.events.map(\.state), [.recognized])
        let e = try XCTUnwrap(sink.events.first)
        XCTAssertEqual(e.kind, .stroke)
        XCTAssertEqual(StrokeTemplateSet.builtIn.names[e.stroke], "check")
        XCTAssertGreaterThanOrEqual(e.value, StrokeGestureRecognizer.defaultMinimumScore)
        // Decided at the lift: the event carries the lift frame's time (S2: discrete).
        XCTAssertEqual(e.time, .milliseconds(10 * Int64(Self.syntheticCheck.count)))
    }

    func testTapsShortDragsTwoFingersAndScribblesProduceNoEvent() {
        let r = StrokeGestureRecognizer(name: "s", templates: .builtIn)
        let (engine, sink) = harness(r)
        // A tap, and a tap with jitter.
        draw(engine, at: 0, [Point(x: 50, y: 50)])
        draw(engine, at: 1000, [Point(x: 50, y: 50), Point(x: 51, y: 52), Point(x: 52, y: 51)])
        // A short drag (20 px, under min_length 30).
        draw(engine, at: 2000, (0...10).map { Point(x: 100 + 2 * Double($0), y: 100) })
        // Two fingers drawing a check together.
        for (i, p) in Self.syntheticCheck.enumerated() {
            var f = TouchFrame(timestamp: .milliseconds(3000 + 10 * Int64(i)))
            f.append(Contact(id: 0, position: p))
            f.append(Contact(id: 1, position: Point(x: p.x + 60, y: p.y)))
            engine.process(f)
        }
        engine.process(TouchFrame(timestamp: .milliseconds(4000)))
        // A scribble: a dense back-and-forth zigzag, like crossing something out hard.
        var scribble: [Point] = []
        for i in 0..<60 {
            scribble.append(Point(x: 100 + Double(i % 2) * 120, y: 100 + Double(i) * 1.5 + Double((i * 7) % 5)))
        }
        draw(engine, at: 5000, scribble)
        // A tight spiral of five turns.
        let spiral = (0..<150).map { i -> Point in
            let a = Double(i) / 30 * 2 * Double.pi
            let radius = 10 + Double(i) * 0.6
            return Point(x: 240 + radius * cos(a), y: 240 + radius * sin(a))
        }
        draw(engine, at: 8000, spiral)
        engine.drainTimers()
        XCTAssertEqual(sink.events.count, 0, "\(sink.events.map { StrokeTemplateSet.builtIn.names[$0.stroke] })")
        // And the same recognizer still recognizes a check afterwards.
        draw(engine, at: 12000, Self.syntheticCheck)
        XCTAssertEqual(sink.events.count, 1)
    }

    func testGesturesRestrictWhatIsReportedNotWhatCompetes() {
        // Only "v" may be reported: a check is still nearest to "check", so nothing is reported.
        let r = StrokeGestureRecognizer(name: "s", templates: .builtIn, gestures: ["v"])
        let (engine, sink) = harness(r)
        draw(engine, at: 0, Self.syntheticCheck)
        XCTAssertEqual(sink.events.count, 0)
    }

    /// A stroke fails or succeeds at the lift: a tap that requires it to fail is not held past it.
    func testATapRequiringAStrokeToFailIsNotHeldBeyondTheLift() {
        let root = Region(name: "screen", frame: Rect(x: 0, y: 0, width: 480, height: 480))
        let engine = GestureEngine(root: root)
        let stroke = StrokeGestureRecognizer(name: "s", templates: .builtIn)
        let tap = TapGestureRecognizer(name: "tap")
        engine.add(stroke, to: root)
        engine.add(tap, to: root)
        tap.require(toFail: stroke)
        let sink = RecordingSink()
        engine.sink = sink
        draw(engine, at: 0, [Point(x: 50, y: 50)])
        XCTAssertEqual(sink.events.map(\.time), [.milliseconds(10)], "the tap is recognized at its own lift")
    }

    // MARK: matching

    /// A v drawn by program: two equal legs from the top. Its tilted twin, whose left leg is cut
    /// short so that it starts at mid-height, is a check: where a stroke begins tells them apart.
    func testWhereTheStrokeBeginsTellsACheckFromAV() {
        let v: [Point] =
            (0...20).map { i in Point(x: 100 + 3 * Double(i), y: 100 + 7 * Double(i)) }
            + (1...20).map { i in Point(x: 160 + 3 * Double(i), y: 240 - 7 * Double(i)) }
        let shortLeft = Array(v.dropFirst(11))
        var names: [String] = []
        for (k, stroke) in [v, shortLeft].enumerated() {
            let r = StrokeGestureRecognizer(name: "s", templates: .builtIn)
            let (engine, sink) = harness(r)
            draw(engine, at: 1000 * Int64(k), stroke)
            names += sink.events.map { StrokeTemplateSet.builtIn.names[$0.stroke] }
        }
        XCTAssertEqual(names, ["v", "check"])
    }

    /// The closed-form bounded rotation, early abandoning and the cluster pruning change no
    /// decision: on every stroke of s01 against templates of s02, `nearest` finds the distance that
    /// Protractor's formula (atan2, clamped to ±45°, then cos/sin) finds by trying every template;
    /// and on every stroke of s01 against the templates of s02 and s03 (a held-out fold) and the
    /// built-in set, the pruned search returns the very template, and distance, that comparing
    /// every template in order returns.
    func testEarlyAbandoningFindsTheSameNearestDistanceAsTheFullFormula() throws {
        let templates = StrokeLearning.templates(
            frames: try Self.trace("s02").frames, labels: try Self.labels("s02"), name: nil)
        let set = try StrokeTemplateSet(templates)
        func prepared(_ p: [Point]) -> [Double] {
            var out = [Double](repeating: 0, count: StrokeShape.stride)
            var scratch = [Double](repeating: 0, count: 2 * StrokeShape.sampleCount)
            let ok = p.withUnsafeBufferPointer { pp in
                out.withUnsafeMutableBufferPointer { o in
                    scratch.withUnsafeMutableBufferPointer { StrokeShape.prepare(pp, into: o, scratch: $0) }
                }
            }
            XCTAssertTrue(ok)
            return out
        }
        func reference(_ a: [Double], _ b: [Double]) -> Double {
            let n = StrokeShape.sampleCount
            var dot = 0.0
            var cross = 0.0
            var box = 0.0
            for k in 0..<n {
                dot += a[2 * k] * b[2 * k] + a[2 * k + 1] * b[2 * k + 1]
                cross += a[2 * k] * b[2 * k + 1] - a[2 * k + 1] * b[2 * k]
                let dx = a[2 * n + 2 * k] - b[2 * n + 2 * k]
                let dy = a[2 * n + 2 * k + 1] - b[2 * n + 2 * k + 1]
                box += (dx * dx + dy * dy).squareRoot()
            }
            let angle = min(max(atan2(cross, dot), -Double.pi / 4), Double.pi / 4)
            let c = min(max(dot * cos(angle) + cross * sin(angle), -1), 1)
            return acos(c) + StrokeShape.boxWeight * box / Double(n)
        }
        let shapes = templates.map { prepared($0.points) }
        let candidates = StrokeLearning.templates(
            frames: try Self.trace("s01").frames, labels: try Self.labels("s01"), name: nil)
        XCTAssertEqual(candidates.count, 480)
        var abandonedSomewhere = false
        for c in candidates {
            let shape = prepared(c.points)
            let full = shapes.map { reference(shape, $0) }
            let best = try XCTUnwrap(shape.withUnsafeBufferPointer { set.nearest($0.baseAddress!) })
            XCTAssertEqual(best.distance, full.min()!, accuracy: 1e-9)
            let second = full.sorted()[1]
            shape.withUnsafeBufferPointer { a in
                shapes[0].withUnsafeBufferPointer { b in
                    let d = StrokeShape.distance(a.baseAddress!, b.baseAddress!, unlessAtLeast: second)
                    if full[0] < second {
                        XCTAssertEqual(d, full[0], accuracy: 1e-9, "under the bound the distance is exact")
                    } else {
                        XCTAssertGreaterThanOrEqual(d, second, "at or over the bound it says so")
                        if d < full[0] - 1e-9 { abandonedSomewhere = true }
                    }
                }
            }
        }
        XCTAssertTrue(abandonedSomewhere, "some template was abandoned early")
        // The pruned search against the full one, template for template.
        let s03 = StrokeLearning.templates(
            frames: try Self.trace("s03").frames, labels: try Self.labels("s03"), name: nil)
        let sets = [
            ("s02", set), ("s02 + s03", try StrokeTemplateSet(templates + s03)),
            ("built-in", StrokeTemplateSet.builtIn),
        ]
        for (name, other) in sets {
            var differences = 0
            for c in candidates {
                let shape = prepared(c.points)
                shape.withUnsafeBufferPointer { q in
                    let pruned = other.nearestTemplate(q.baseAddress!)
                    let full = other.nearestTemplateByFullSearch(q.baseAddress!)
                    if pruned?.template != full?.template || pruned?.distance != full?.distance { differences += 1 }
                }
            }
            XCTAssertEqual(differences, 0, "strokes of s01 whose nearest template in \(name) the pruning changed")
        }
        // The two bounds the pruning rests on, on every pair of a stroke of s01 and a template of
        // s02 + s03: never above the distance, and on some pair within 0.01 of it (a bound made
        // stronger than it is breaks the first; the second shows the pairs test it where it is tight).
        let both = sets[1].1
        let clusters = both.clusters
        var triangleSlack = Double.infinity
        var coarseSlack = Double.infinity
        var broken = 0
        for c in candidates {
            let shape = prepared(c.points)
            var qCoarse = [Double](repeating: 0, count: StrokeClusters.Coarse.stride)
            shape.withUnsafeBufferPointer { q in
                both.shapes.withUnsafeBufferPointer { s in
                    let q = q.baseAddress!
                    func d(_ t: Int) -> Double { StrokeShape.distance(q, s.baseAddress! + t * StrokeShape.stride) }
                    StrokeClusters.Coarse.make(q, into: &qCoarse)
                    for t in 0..<both.count {
                        let bound = clusters.coarse.withUnsafeBufferPointer {
                            StrokeClusters.Coarse.bound(qCoarse, $0.baseAddress! + t * StrokeClusters.Coarse.stride)
                        }
                        coarseSlack = min(coarseSlack, d(t) - bound)
                        if bound > d(t) + 1e-9 { broken += 1 }
                    }
                    for k in clusters.centers.indices {
                        let centre = d(clusters.centers[k])
                        for j in clusters.start[k]..<clusters.start[k + 1] {
                            XCTAssertLessThanOrEqual(clusters.spread[j], clusters.radius[k])
                            let slack = d(clusters.members[j]) - (centre - clusters.spread[j])
                            triangleSlack = min(triangleSlack, slack)
                            if slack < -1e-9 { broken += 1 }
                        }
                    }
                }
            }
        }
        XCTAssertEqual(broken, 0, "pairs whose bound is above their distance")
        XCTAssertLessThan(triangleSlack, 0.01, "the triangle bound is tight somewhere")
        XCTAssertLessThan(coarseSlack, 0.01, "the coarse bound is tight somewhere")
        print("bounds: least slack \(triangleSlack) (centre), \(coarseSlack) (coarse)")
    }

    // MARK: template file

    func testTemplateFileRoundTripsAndNamesFileAndLineOfAMalformedLine() throws {
        let t = [StrokeTemplate(name: "zig\"zag", points: [Point(x: 1, y: 2), Point(x: 3.25, y: 4)])]
        let text = StrokeTemplateFile.format(t)
        XCTAssertEqual(text, "{\"name\":\"zig\\\"zag\",\"points\":[[1,2],[3.3,4]]}\n")
        XCTAssertEqual(try StrokeTemplateFile.parse(text, file: "f").map(\.name), ["zig\"zag"])
        let cases: [(String, String)] = [
            ("{\"name\":\"a\",\"points\":[[0,0],[1,1]]}\n\n{\"name\":\"b\",\"points\":[[0,0],[1,1]\n", "f.jsonl:3:"),
            ("{\"points\":[[0,0],[1,1]]}\n", "f.jsonl:1: missing \"name\""),
            ("{\"name\":\"a\",\"points\":[[0,0]]}\n", "f.jsonl:1: \"a\" needs at least two points"),
            ("{\"name\":\"a\",\"points\":[[0,0],[0,0]]}\n", "f.jsonl:1: \"a\" has no length"),
            ("{\"name\":\"a\",\"points\":[[0,0],[1,\"x\"]]}\n", "f.jsonl:1: point 1 of \"a\""),
            ("[1,2]\n", "f.jsonl:1: a template line must be a JSON object"),
            ("\n\n", "f.jsonl: no templates"),
            (String(repeating: "[", count: 40), "f.jsonl:1: JSON nested too deeply"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try StrokeTemplateFile.parse(text, file: "f.jsonl")) { error in
                XCTAssertTrue("\(error)".hasPrefix(expected), "\(error) should start with \(expected)")
            }
        }
    }

    /// The built-in templates are a compact table in the engine (`BuiltInStrokeTable`, about a third
    /// of the text's flash, nothing to parse) that decodes to exactly the points of the template file
    /// `tools/strokes-builtin` writes beside it, so they are prepared into exactly the shapes that
    /// file gives: the host recognizes what it recognized from the text, and so does the firmware.
    func testBuiltInTableDecodesToTheShippedTemplateFileBitForBit() throws {
        let path = repositoryRoot.appendingPathComponent("data/strokes-builtin.jsonl").path
        let file = try StrokeTemplateFile.parse(String(contentsOfFile: path, encoding: .utf8), file: path)
        let table = StrokeTemplateSet.builtInTemplates
        XCTAssertEqual(table.count, file.count)
        for (i, (a, b)) in zip(table, file).enumerated() where a != b {
            XCTFail(
                "template \(i): the table has \(a.name) \(a.points.prefix(3)), the file \(b.name) \(b.points.prefix(3))"
            )
            break
        }
        XCTAssertEqual(StrokeTemplateSet.builtIn, try StrokeTemplateSet(file))
        XCTAssertEqual(StrokeTemplateSet.builtIn.names.count, 16)
        XCTAssertEqual(table.first?.points.prefix(2), [Point(x: 69, y: 228), Point(x: 72.4, y: 223.4)])
    }

    /// The coarse forms the firmware prunes with (`StrokeBuiltinCoarse.swift`) are the built-in
    /// templates' and everyday shapes' own: regenerated from them here, byte for byte. With
    /// TOUCHWIRE_WRITE_COARSE=1 (`tools/strokes-builtin`) the test writes the file instead.
    func testTheStoredCoarseFormsAreTheTemplatesOwn() throws {
        let path = repositoryRoot.appendingPathComponent("Sources/Gestures/StrokeBuiltinCoarse.swift").path
        guard let source = StrokeTemplateSet.builtInCoarseSource else {
            return XCTFail("a coarse number lies outside the stored codes")
        }
        if ProcessInfo.processInfo.environment["TOUCHWIRE_WRITE_COARSE"] == "1" {
            try source.write(toFile: path, atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), source, "run tools/strokes-builtin")
    }

    /// The firmware's store (`StrokeTemplateSet.builtInTable`, docs/mcu.md: each template prepared
    /// from the constant table when compared, the everyday shapes generated the same way) decides
    /// what the host's prepared store decides, distance for distance, to the bit: on real people's
    /// strokes (s02's, every fourth: gestures, some rejected) and everyday ones (swipes, scrolls,
    /// arcs: mostly rejected as straight or everyday). S2.
    func testTheTableStoreDecidesAsThePreparedStoreBitForBit() throws {
        let prepared = StrokeTemplateSet.builtIn
        let table = StrokeTemplateSet.builtInTable
        XCTAssertEqual(table.names, prepared.names)
        XCTAssertEqual(table.count, prepared.count)
        XCTAssertEqual(table.lineLike, prepared.lineLike)
        let people = StrokeLearning.templates(
            frames: try Self.trace("s02").frames, labels: try Self.labels("s02"), name: nil)
        let everydayPath = repositoryRoot.appendingPathComponent("data/everyday/pen-240x320.jsonl").path
        let everyday = StrokeLearning.templates(
            frames: try TraceReader.read(path: everydayPath).frames, labels: nil, name: "everyday")
        let strokes = people.enumerated().filter { $0.offset % 4 == 0 }.map(\.element) + everyday.prefix(60)
        XCTAssertGreaterThan(strokes.count, 150)
        var a = StrokeMatcher()
        var b = StrokeMatcher()
        var kinds: Set<String> = []
        for (i, s) in strokes.enumerated() {
            let expected = s.points.withUnsafeBufferPointer { a.classify($0, in: prepared) }
            let got = s.points.withUnsafeBufferPointer { b.classify($0, in: table) }
            XCTAssertEqual(got, expected, "stroke \(i) (\(s.name))")
            switch expected {
            case .gesture: kinds.insert("gesture")
            case .everyday: kinds.insert("everyday")
            case .straight: kinds.insert("straight")
            case .structure: kinds.insert("structure")
            case .noMatch: kinds.insert("none")
            }
        }
        // Both rejections that read the table store's own data (its everyday shapes, its lines).
        XCTAssertTrue(kinds.isSuperset(of: ["gesture", "everyday", "straight"]), "\(kinds)")
    }

    func testLabelsNeedTheirColumnsAndNameTheLine() {
        XCTAssertEqual(
            try StrokeLearning.parseLabels("x,gesture,t_end_us,t_start_us\n1,v,20,10\n", file: "l.csv"),
            [StrokeLabel(gesture: "v", start: 10, end: 20)])
        XCTAssertThrowsError(try StrokeLearning.parseLabels("gesture,t_start_us\n", file: "l.csv")) {
            XCTAssertEqual(
                "\($0)", "l.csv:1: the header has no \"t_end_us\" column (needs gesture,t_start_us,t_end_us)")
        }
        XCTAssertThrowsError(try StrokeLearning.parseLabels("gesture,t_start_us,t_end_us\nv,1,x\n", file: "l.csv")) {
            XCTAssertTrue("\($0)".hasPrefix("l.csv:2: "))
        }
    }

    // MARK: board

    func writeBoard(_ recognizer: String, files: [String: String] = [:]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strokes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let board = """
            [panel]
            width = 240
            height = 320
            [[region]]
            name = "screen"
            frame = [0, 0, 240, 320]
            [[recognizer]]
            name = "shape"
            kind = "stroke"
            region = "screen"
            \(recognizer)
            """
        let path = dir.appendingPathComponent("b.toml").path
        try board.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func boardError(_ path: String) -> String {
        do {
            _ = try BoardLoader.load(path: path)
            return "(loaded)"
        } catch {
            return "\(error)"
        }
    }

    func testBoardKeysLoadTemplatesRelativeToTheBoardAndReportBadOnes() throws {
        let zig = "{\"name\":\"zigzag\",\"points\":[[0,0],[40,0],[0,40],[40,40]]}\n"
        let ok = try writeBoard(
            "templates = \"shapes.jsonl\"\ngestures = [\"zigzag\"]\nmin_score = 0.7\nmin_length = 20",
            files: ["shapes.jsonl": zig])
        let board = try BoardLoader.load(path: ok)
        guard case .stroke(let p) = board.recognizers[0].parameters else { return XCTFail("not a stroke") }
        XCTAssertEqual(p.templates.names, ["zigzag"])
        XCTAssertEqual(p.gestures, ["zigzag"])
        XCTAssertEqual(p.minScore, 0.7)
        XCTAssertEqual(p.minLength, 20)
        XCTAssertTrue(p.templatesPath?.hasSuffix("/shapes.jsonl") ?? false)

        let defaults = try BoardLoader.load(path: try writeBoard(""))
        guard case .stroke(let d) = defaults.recognizers[0].parameters else { return XCTFail("not a stroke") }
        XCTAssertEqual(d.templates.count, 1436, "the built-in set: 1,440 strokes minus 4 misfits")
        XCTAssertNil(d.gestures)

        let malformed = boardError(try writeBoard("templates = \"s.jsonl\"", files: ["s.jsonl": zig + "{\"name\":\n"]))
        XCTAssertTrue(malformed.contains("templates: s.jsonl:2: malformed JSON"), malformed)
        let missing = boardError(try writeBoard("templates = \"nope.jsonl\""))
        XCTAssertTrue(missing.contains("cannot read template file nope.jsonl"), missing)
        let unknown = boardError(try writeBoard("gestures = [\"chek\"]"))
        XCTAssertTrue(unknown.contains("no template named \"chek\""), unknown)
        XCTAssertTrue(unknown.contains("did you mean \"check\""), unknown)
        let score = boardError(try writeBoard("min_score = 2"))
        XCTAssertTrue(score.contains("min_score"), score)
    }

    /// boards/strokes-sim.toml loads, and replaying its trace gives stroke and checkmark events.
    func testStrokesSimBoardReplaysToStrokeEvents() throws {
        let board = try BoardLoader.load(path: repositoryRoot.appendingPathComponent("boards/strokes-sim.toml").path)
        XCTAssertEqual(board.recognizers.map(\.kind), [.stroke, .checkmark])
        let engine = try EngineBuilder.build(board)
        let out = CollectingSink()
        Replay.run(trace: try Self.trace("s01"), engine: engine, delivery: false, output: out)
        let lines = out.lines
        let strokes = lines.filter { $0.contains("\"kind\":\"stroke\"") }
        let checks = lines.filter { $0.contains("\"kind\":\"checkmark\"") }
        // s01 drew each shape 30 times; the board reports circle, x, star and pigtail.
        XCTAssertGreaterThanOrEqual(strokes.count, 115)
        XCTAssertLessThanOrEqual(strokes.count, 122)
        XCTAssertGreaterThanOrEqual(checks.count, 28)
        let first = try XCTUnwrap(strokes.first)
        XCTAssertTrue(first.hasPrefix("{\"t_us\":"))
        XCTAssertTrue(first.contains("\"recognizer\":\"command\",\"kind\":\"stroke\",\"state\":\"recognized\""), first)
        let tail = #","stroke":"(circle|x|star|pigtail)","score":0\.\d+\}"#
        XCTAssertNotNil(first.range(of: tail, options: .regularExpression), first)
        XCTAssertFalse(checks.first?.contains("\"stroke\"") ?? true, "checkmark events keep their fields")
        // Byte-identical on a second run.
        let again = CollectingSink()
        Replay.run(trace: try Self.trace("s01"), engine: try EngineBuilder.build(board), delivery: false, output: again)
        XCTAssertEqual(again.text, out.text)
    }
}
