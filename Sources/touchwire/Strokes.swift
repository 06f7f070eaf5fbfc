import ArgumentParser
import BoardConfig
import FoundationEssentials
import Gestures
import TouchComposition
import TouchCore
import TouchLinux
import TouchService
import TouchTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `touchwire strokes learn|test`: make stroke templates from a recorded trace and measure them.
struct Strokes: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make stroke templates from a trace, and measure a template set on labelled strokes.",
        subcommands: [Learn.self, Test.self, Bench.self])

    struct Learn: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn the strokes of a trace into a template file (docs/strokes.md).",
            discussion: """
                With LABELS.csv (columns gesture,t_start_us,t_end_us; extra columns ignored), every \
                stroke starting in a labelled span becomes a template of that gesture. With --name, \
                every stroke of the trace becomes a template of NAME: `touchwire record`, draw the \
                shape a few times, then `strokes learn TRACE --name NAME -o FILE`.
                """)

        @Argument(help: "The trace (formats.md §1).")
        var trace: String
        @Argument(help: "The labels CSV (omit with --name).")
        var labels: String?
        @Option(name: .long, help: "Name every stroke of the trace NAME instead of reading labels.")
        var name: String?
        @Option(name: [.short, .long], help: "The template file to write.")
        var output: String
        @Flag(name: .long, help: "Append to the template file instead of replacing it.")
        var append = false
        @Flag(name: .long, help: "Drop templates (old and new) whose nearest other template is another gesture.")
        var edit = false
        @Option(name: .long, help: "Store each template resampled to N points along its path (2…1000).")
        var resample: Int?

        func validate() throws {
            if labels == nil && name == nil { throw ValidationError("give LABELS.csv or --name NAME") }
            if labels != nil && name != nil { throw ValidationError("give LABELS.csv or --name NAME, not both") }
            if let name, name.isEmpty { throw ValidationError("--name must not be empty") }
            if let name, !StrokeLearning.isValidName(name) {
                throw ValidationError(
                    "--name must not hold control characters or line separators (U+2028, U+2029, U+0085):"
                        + " the template file could not be read back")
            }
            if let resample, !(2...1000).contains(resample) { throw ValidationError("--resample must be 2…1000") }
        }

        func run() throws {
            // Checked before the work: a directory, socket or one of the inputs is refused.
            do throws(OutputFileError) {
                try OutputFile.check(output, inputs: [trace] + (labels.map { [$0] } ?? []))
            } catch {
                throw fail("-o \(error)")
            }
            let t = try readTrace(trace)
            let l = try labels.map { try readLabels($0) }
            var templates = StrokeLearning.templates(frames: t.frames, labels: l, name: name)
            guard !templates.isEmpty else { throw fail("\(trace): no strokes to learn from") }
            for (i, reason) in StrokeLearning.tooSmall(templates) {
                warn("\(trace): stroke \(i + 1) (\(templates[i].name)) is too small to be a shape: \(reason)")
            }
            if let resample {
                templates = templates.compactMap { t in
                    StrokeShape.resampled(t.points, count: resample).map { StrokeTemplate(name: t.name, points: $0) }
                }
            }
            if append, let old = FileManager.default.contents(atPath: output),
                !old.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 })
            {
                do throws(StrokeTemplateFileError) {
                    templates =
                        try StrokeTemplateFile.parse(String(decoding: old, as: UTF8.self), file: output)
                        + templates
                } catch {
                    throw fail("\(error)")
                }
            }
            if edit {
                do throws(StrokeTemplateSet.EmptyStroke) {
                    let result = try StrokeLearning.edited(templates)
                    templates = result.templates
                    print("\(output): dropped \(result.dropped) templates nearest to another gesture")
                    var byPair: [String: Int] = [:]
                    for w in result.why { byPair["\(w.name) (nearest: \(w.nearest))", default: 0] += 1 }
                    for (pair, n) in byPair.sorted(by: { $0.key < $1.key }) {
                        print("  \(n) × \(pair)")
                    }
                    let left = Set(templates.map(\.name))
                    for gone in Set(result.why.map(\.name)).subtracting(left).sorted() {
                        let advice = "give \(gone) more, or more distinct, examples"
                        warn("--edit dropped every \(gone) template: each was nearer to another gesture; \(advice)")
                    }
                } catch {
                    throw fail("template \(error.index + 1) (\(error.name)) has no length")
                }
            }
            // What is written must read back: names and coordinates the reader accepts, and the
            // formatted text parsed again before anything is written.
            do throws(StrokeTemplateFileError) {
                try StrokeLearning.checkWritable(templates, source: labels ?? trace)
            } catch {
                throw fail("\(error)")
            }
            let text = StrokeTemplateFile.format(templates)
            do throws(StrokeTemplateFileError) {
                _ = try StrokeTemplateFile.parse(text, file: output)
            } catch {
                throw fail("\(output): not written: the template file would not read back (\(error))")
            }
            do throws(OutputFileError) {
                try OutputFile.write(text.utf8, to: output, inputs: [trace] + (labels.map { [$0] } ?? []))
            } catch {
                throw fail("\(output): cannot write the template file: \(error.reason)")
            }
            var counts: [String: Int] = [:]
            for t in templates { counts[t.name, default: 0] += 1 }
            let summary = counts.keys.sorted().map { "\($0) \(counts[$0]!)" }.joined(separator: ", ")
            print("\(output): \(templates.count) templates (\(summary))")
        }
    }

    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replay labelled strokes through a stroke recognizer; print the confusion matrix.",
            discussion: """
                Strokes labelled `none` are no gesture (a swipe, a scroll, an arc): whatever is \
                recognized for them is a false alarm, counted under the matrix. --negatives TRACE \
                adds every touch of another trace as such a stroke (data/everyday holds everyday \
                swipes, scrolls, arcs, nudges and taps). Without LABELS.csv, TRACE is all negatives.
                """)

        @Argument(help: "The trace (formats.md §1).")
        var trace: String
        @Argument(help: "The labels CSV (columns gesture,t_start_us,t_end_us; omit: every touch of TRACE is `none`).")
        var labels: String?
        @Option(name: .long, help: "The template file (default: the built-in sixteen shapes).")
        var templates: String?
        @Option(name: .long, help: "min_score of the recognizer (0…1).")
        var minScore: Double = StrokeGestureRecognizer.defaultMinimumScore
        @Option(name: .long, help: "min_length of the recognizer, px (default 30; checkmark: 36, 3 × its 12 px leg).")
        var minLength: Double?
        @Option(name: .long, help: "The recognizer: stroke or checkmark.")
        var kind: String = StrokeLearning.TestedKind.stroke.rawValue
        @Option(name: .long, parsing: .upToNextOption, help: "The gestures a stroke recognizer reports (default: all).")
        var gestures: [String] = []
        @Option(name: .long, help: "A trace of strokes that are no gesture: every touch of it counts as `none`.")
        var negatives: String?

        func validate() throws {
            guard (0...1).contains(minScore) else { throw ValidationError("--min-score must be within 0…1") }
            if let minLength, !(minLength.isFinite && minLength >= 0 && minLength <= 100_000) {
                throw ValidationError("--min-length must be within 0…100000")
            }
            guard StrokeLearning.TestedKind(rawValue: kind) != nil else {
                throw ValidationError("--kind must be stroke or checkmark")
            }
        }

        func run() throws {
            let t = try readTrace(trace)
            let l = try labels.map(readLabels) ?? StrokeLearning.touchSpans(in: t.frames)
            let set = try templates.map(readTemplates) ?? .builtIn
            for g in gestures where set.index(of: g) == nil {
                throw fail("--gestures: no template named \"\(g)\"")
            }
            let tested = StrokeLearning.TestedKind(rawValue: kind)!
            let minLength = self.minLength ?? (tested == .checkmark ? 36 : 30)
            var confusion = StrokeLearning.evaluate(
                frames: t.frames, panelWidth: t.header.panelWidth, panelHeight: t.header.panelHeight, labels: l,
                templates: set, minimumScore: minScore, kind: tested, gestures: gestures.isEmpty ? nil : gestures,
                minimumLength: minLength)
            if let negatives {
                let n = try readTrace(negatives)
                let more = StrokeLearning.evaluate(
                    frames: n.frames, panelWidth: n.header.panelWidth, panelHeight: n.header.panelHeight,
                    labels: StrokeLearning.touchSpans(in: n.frames), templates: set, minimumScore: minScore,
                    kind: tested, gestures: gestures.isEmpty ? nil : gestures, minimumLength: minLength)
                confusion.merge(more)
            }
            print(confusion.report, terminator: "")
        }
    }
}

extension Strokes {
    /// For tools/callgrind-strokes: the cost of a stroke recognizer, without threads or output.
    struct Bench: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replay a trace through one stroke recognizer --passes times (for callgrind).")

        @Argument(help: "The trace (formats.md §1).")
        var trace: String
        @Option(name: .long, help: "Passes over the trace (0…100000).")
        var passes = 1
        @Flag(name: .long, help: "Never match (min_length infinite): the cost of following the finger alone.")
        var noDecide = false
        @Option(name: .long, help: "Template file (formats.md §5); default: the built-in set.")
        var templates: String?

        func validate() throws {
            guard (0...100_000).contains(passes) else { throw ValidationError("--passes must be 0…100000") }
        }

        func run() throws {
            let t = try readTrace(trace)
            let templates = try self.templates.map(readTemplates) ?? .builtIn
            let clock: any TouchClock = SystemClock.shared
            let start = clock.now
            let r = StrokeLearning.replayForCost(
                frames: t.frames, panelWidth: t.header.panelWidth, panelHeight: t.header.panelHeight,
                templates: templates, passes: passes, decide: !noDecide)
            let elapsed = "\(Double(clock.now.microseconds(since: start)) / 1_000_000) seconds"
            let counts = "\(r.frames) frames, \(r.moving) moving, \(r.events) events"
            print("strokes bench: \(passes) passes, \(counts), \(elapsed)")
        }
    }
}

/// The prepared templates of a template file, or one clear error naming it.
private func readTemplates(_ path: String) throws -> StrokeTemplateSet {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw fail("\(path): cannot read the template file")
    }
    let text = String(decoding: data, as: UTF8.self)
    if let problem = BoardInputBounds.strokeTemplateProblem(text, file: path) { throw fail(problem) }
    do {
        return try StrokeTemplateSet(StrokeTemplateFile.parse(text, file: path))
    } catch {
        throw fail("\(error)")
    }
}

private func readTrace(_ path: String) throws -> Trace {
    do throws(TraceError) {
        return try TraceReader.read(path: path)
    } catch {
        throw fail("\(error)")
    }
}

private func readLabels(_ path: String) throws -> [StrokeLabel] {
    guard let data = FileManager.default.contents(atPath: path) else { throw fail("\(path): cannot read labels") }
    do throws(StrokeTemplateFileError) {
        return try StrokeLearning.parseLabels(String(decoding: data, as: UTF8.self), file: path)
    } catch {
        throw fail("\(error)")
    }
}
