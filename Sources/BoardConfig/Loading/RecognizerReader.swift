import Gestures

/// Reads `[[recognizer]]` tables: the common UIKit keys and the keys of its kind
/// (`formats.md` §4). A key of another kind is an unknown key. References are checked by
/// `RecognizerGraphCheck`.
enum RecognizerReader {
    /// Longest time any `_ms` key may take: one hour (keeps µs arithmetic far from overflow).
    static let maxMilliseconds = 3_600_000
    /// Longest length, pt.
    static let maxLength = 1_000_000.0
    /// Most touches any recognizer may require: `TouchFrame.capacity`.
    static let maxTouches = 10

    static func read(_ index: Int, _ table: [String: TOMLNode], directory: String = ".", _ log: inout IssueLog)
        -> Located<RecognizerDescription>?
    {
        var r = TableReader(table, path: itemPath("recognizer", index, name: nil))
        let name = r.string("name", required: true, &log)
        r.path = itemPath("recognizer", index, name: name)
        var kind: RecognizerKind? = nil
        if let k = r.string("kind", required: true, &log) {
            kind = RecognizerKind(boardName: k)
            if kind == nil {
                let names = RecognizerKind.boardNames
                var message = "unknown kind \"\(k)\"; supported: " + names.joined(separator: ", ")
                if let s = closestMatch(to: k, in: names) { message += " (did you mean \"\(s)\"?)" }
                log.add(r.keyPath("kind"), message)
            }
        }
        let region = r.string("region", required: true, &log)
        let enabled = r.bool("enabled", &log) ?? true
        let cancels = r.bool("cancels_touches", &log) ?? true
        let delaysBegan = r.bool("delays_began", &log) ?? false
        let delaysEnded = r.bool("delays_ended", &log) ?? true
        let requireFail = r.stringArray("require_fail", &log) ?? []
        let simultaneous = r.stringArray("simultaneous", &log) ?? []
        guard let kind else {
            // Without a kind its keys cannot be judged; report only keys that belong to no kind.
            for key in RecognizerKind.allKeys { r.allow(key) }
            r.finish(&log, owner: "a recognizer")
            return nil
        }
        let parameters = readParameters(kind, directory: directory, &r, &log)
        r.finish(&log, owner: kind.recognizerPhrase)
        guard let name, let region, let parameters else { return nil }
        let recognizer = RecognizerDescription(
            name: name, parameters: parameters, region: region, enabled: enabled, cancelsTouches: cancels,
            delaysBegan: delaysBegan, delaysEnded: delaysEnded, requireFail: requireFail, simultaneous: simultaneous)
        return Located(value: recognizer, path: r.path)
    }

    /// The kind's keys with their defaults, one case per `RecognizerKind`. An invalid key is logged
    /// and its default kept, so that cross-reference checks still see the recognizer; a logged
    /// issue always rejects the board.
    private static func readParameters(
        _ kind: RecognizerKind, directory: String, _ r: inout TableReader, _ log: inout IssueLog
    )
        -> RecognizerParameters?
    {
        let ms = 1...maxMilliseconds
        let msFromZero = 0...maxMilliseconds
        let length = 0...maxLength
        let touches = 1...maxTouches
        let result: RecognizerParameters
        switch kind {
        case .tap:
            var p = TapParameters()
            p.taps = r.integer("taps", in: 1...Int.max, &log) ?? p.taps
            p.touches = r.integer("touches", in: touches, &log) ?? p.touches
            p.maxMovement = r.number("max_movement", in: length, &log) ?? p.maxMovement
            p.maxIntervalMilliseconds = r.integer("max_interval_ms", in: ms, &log) ?? p.maxIntervalMilliseconds
            p.maxTapDistance = r.number("max_tap_distance", in: length, &log) ?? p.maxTapDistance
            result = .tap(p)
        case .longPress:
            var p = LongPressParameters()
            p.minDurationMilliseconds = r.integer("min_duration_ms", in: msFromZero, &log) ?? p.minDurationMilliseconds
            p.allowableMovement = r.number("allowable_movement", in: length, &log) ?? p.allowableMovement
            p.touches = r.integer("touches", in: touches, &log) ?? p.touches
            p.taps = r.integer("taps", in: 0...Int.max, &log) ?? p.taps
            result = .longPress(p)
        case .pan:
            var p = PanParameters()
            p.minTouches = r.integer("min_touches", in: touches, &log) ?? p.minTouches
            if let maxTouches = r.integer("max_touches", in: 1...Int.max, &log) {
                if maxTouches < p.minTouches {
                    log.add(r.keyPath("max_touches"), "must be ≥ min_touches (\(p.minTouches)), got \(maxTouches)")
                }
                p.maxTouches = maxTouches
            }
            p.minDistance = r.number("min_distance", in: length, &log) ?? p.minDistance
            result = .pan(p)
        case .swipe:
            var p = SwipeParameters()
            if let d = readDirection(&r, &log) { p.direction = d }
            p.touches = r.integer("touches", in: touches, &log) ?? p.touches
            p.minDistance = r.number("min_distance", in: length, &log) ?? p.minDistance
            p.minVelocity = r.number("min_velocity", in: 0...1e9, &log) ?? p.minVelocity
            p.maxDurationMilliseconds = r.integer("max_duration_ms", in: ms, &log) ?? p.maxDurationMilliseconds
            result = .swipe(p)
        case .pinch: result = .pinch
        case .rotation: result = .rotation
        case .checkmark: result = .checkmark
        case .stroke: result = .stroke(StrokeReader.read(directory: directory, &r, &log))
        case .edgePan: return EdgePanReader.read(&r, &log)
        }
        return result
    }

    /// `direction = ["right", "up"]` (a single string is accepted too); never empty.
    private static func readDirection(_ r: inout TableReader, _ log: inout IssueLog) -> SwipeDirection? {
        guard let node = r.value("direction") else { return nil }
        let items: [TOMLNode]
        switch node {
        case .array(let a): items = a
        case .string: items = [node]
        default:
            log.add(r.keyPath("direction"), "expected an array of right, left, up, down, got \(node.typeName)")
            return nil
        }
        guard !items.isEmpty else {
            log.add(r.keyPath("direction"), "must name at least one of right, left, up, down")
            return nil
        }
        var set: SwipeDirection = []
        for item in items {
            guard case .string(let s) = item, let d = SwipeDirection(name: s) else {
                log.add(r.keyPath("direction"), "expected right, left, up or down, got \(item.shortDescription)")
                return nil
            }
            set.insert(d)
        }
        return set
    }
}
