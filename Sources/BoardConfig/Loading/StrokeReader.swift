import Gestures

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads the keys of `kind = "stroke"` and loads its template file (`docs/strokes.md`): an
/// unreadable or malformed file is one issue naming the key, the file and the line.
enum StrokeReader {
    static func read(directory: String, _ r: inout TableReader, _ log: inout IssueLog) -> StrokeParameters {
        var p = StrokeParameters()
        if let file = r.string("templates", &log) {
            let path = absolutePath(file, relativeTo: directory)
            if let set = load(path: path, shownAs: file, key: r.keyPath("templates"), &log) {
                p.templatesPath = path
                p.templates = set
            }
        }
        if let gestures = r.stringArray("gestures", &log) {
            if gestures.isEmpty { log.add(r.keyPath("gestures"), "must name at least one template") }
            for g in gestures where !p.templates.names.contains(g) {
                var message = "no template named \"\(g)\"; the templates name: "
                message += p.templates.names.joined(separator: ", ")
                if let s = closestMatch(to: g, in: p.templates.names) { message += " (did you mean \"\(s)\"?)" }
                log.add(r.keyPath("gestures"), message)
            }
            p.gestures = gestures
        }
        p.minScore = r.number("min_score", in: 0...1, &log) ?? p.minScore
        p.minLength = r.number("min_length", in: 0...RecognizerReader.maxLength, &log) ?? p.minLength
        return p
    }

    /// The prepared templates of the file at `path`, or nil with an issue logged.
    static func load(path: String, shownAs file: String, key: String, _ log: inout IssueLog) -> StrokeTemplateSet? {
        if let problem = SimulationReader.unreadableReason(path) {
            log.add(key, "cannot read template file \(file): it \(problem)")
            return nil
        }
        if let size = BoardLoader.fileSize(path), size > Int64(BoardInputBounds.maximumStrokeTemplateFileBytes) {
            log.add(
                key,
                "cannot read template file \(file): it is \(size) bytes, more than the limit of "
                    + "\(BoardInputBounds.maximumStrokeTemplateFileBytes)")
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            log.add(key, "cannot read template file \(file)")
            return nil
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            log.add(key, "template file \(file) is not valid UTF-8")
            return nil
        }
        if let problem = BoardInputBounds.strokeTemplateProblem(text, file: file) {
            log.add(key, problem)
            return nil
        }
        do {
            let templates = try StrokeTemplateFile.parse(text, file: file)
            return try StrokeTemplateSet(templates)
        } catch let error as StrokeTemplateFileError {
            log.add(key, error.description)
        } catch let error as StrokeTemplateSet.EmptyStroke {
            log.add(key, "\(file): template \(error.index + 1) (\"\(error.name)\") has no length")
        } catch {
            log.add(key, "\(file): \(error)")
        }
        return nil
    }
}
