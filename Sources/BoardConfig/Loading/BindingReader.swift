/// Reads `[[binding]]` tables and checks them against the recognizers, regions and controller lines.
enum BindingReader {
    /// What a binding may name: recognizers by name with their kind, and control regions.
    struct Targets {
        var recognizers: [String: GestureKindName]
        var controls: Set<String>
        /// The controller's INT and reset lines, which no binding may drive.
        var reservedLines: [(name: String, line: GPIOLineDescription)]
    }

    /// A recognizer's kind as the binding check needs it.
    struct GestureKindName {
        var name: String
        var continuous: Bool
    }

    static func read(
        _ items: [(index: Int, table: [String: TOMLNode])], targets: Targets, _ log: inout IssueLog
    ) -> [BindingDescription] {
        var bindings: [BindingDescription] = []
        var firstUse: [LineKey: (index: Int, binding: BindingDescription)] = [:]
        for (index, table) in items {
            let recognizerName: String? = {
                if case .string(let s)? = table["recognizer"] { return s }
                return nil
            }()
            var r = TableReader(table, path: itemPath("binding", index, name: recognizerName))
            guard let binding = readOne(&r, targets: targets, &log) else { continue }
            let key = LineKey(chip: binding.line.chip, line: binding.line.line)
            if let reserved = targets.reservedLines.first(where: {
                LineKey(chip: $0.line.chip, line: $0.line.line) == key
            }) {
                log.add(r.keyPath("gpio"), "\(key) is the controller's \(reserved.name) line")
                continue
            }
            if let (first, _) = firstUse[key] {
                // Two bindings on one line would fight over its level (a hold released by the other's
                // pulse end): one line, one binding.
                log.add(
                    r.keyPath("gpio"),
                    "\(key) is already driven by binding[\(first)]; a line can be driven by one binding only")
                continue
            }
            firstUse[key] = (index, binding)
            bindings.append(binding)
        }
        return bindings
    }

    struct LineKey: Hashable, CustomStringConvertible {
        var chip: String
        var line: Int
        var description: String { "GPIO \(chip):\(line)" }
    }

    private static func readOne(_ r: inout TableReader, targets: Targets, _ log: inout IssueLog)
        -> BindingDescription?
    {
        var ok = true
        // Which recognizer (or control), and whether it is continuous.
        var continuous: Bool? = nil
        let recognizer = r.string("recognizer", required: true, &log)
        if let name = recognizer {
            if let kind = targets.recognizers[name] {
                continuous = kind.continuous
            } else if targets.controls.contains(name) {
                continuous = false
            } else {
                let candidates = Array(targets.recognizers.keys).sorted() + targets.controls.sorted()
                var message = "unknown recognizer \"\(name)\""
                if let s = closestMatch(to: name, in: candidates) {
                    message += " (did you mean \"\(s)\"?)"
                } else {
                    message += "; bindable: " + candidates.joined(separator: ", ")
                }
                log.add(r.keyPath("recognizer"), message)
                ok = false
            }
        } else {
            ok = false
        }

        var action: BindingAction? = nil
        let actionName = r.string("action", required: true, &log)
        switch actionName.flatMap(BindingActionKind.init(boardName:)) {
        case .pulse?:
            var ms = 100
            if r.has("pulse_ms") {
                if let v = r.integer("pulse_ms", in: 1...60_000, &log) { ms = v } else { ok = false }
            }
            action = .pulse(milliseconds: ms)
        case .hold?: action = .hold
        case .toggle?: action = .toggle
        case .key?, .exec?:
            // `CommandBindingReader.split` sends these to their own reader; never here.
            ok = false
        case nil:
            if let other = actionName {
                let names = BindingActionKind.boardNames
                var message = "unknown action \"\(other)\"; supported: " + names.joined(separator: ", ")
                if let s = closestMatch(to: other, in: names) { message += " (did you mean \"\(s)\"?)" }
                log.add(r.keyPath("action"), message)
            }
            ok = false
        }
        if actionName != "pulse", r.has("pulse_ms") {
            r.allow("pulse_ms")
            if action != nil { log.add(r.keyPath("pulse_ms"), "applies only to action = \"pulse\"") }
        }
        if action == .hold, continuous == false, let recognizer {
            log.add(
                r.keyPath("action"),
                "hold needs a continuous recognizer ("
                    + RecognizerKind.allCases.filter(\.isContinuous).map(\.boardName).joined(separator: ", ")
                    + "); \"\(recognizer)\" only "
                    + "reports recognized: use pulse or toggle")
            ok = false
        }

        var state: BindingState? = nil
        if let s = r.string("state", &log) {
            if let parsed = BindingState(rawValue: s) {
                if action == .hold {
                    log.add(r.keyPath("state"), "hold follows began until ended or cancelled; remove state")
                    ok = false
                } else if let continuous, continuous == (parsed == .recognized) {
                    let allowed = continuous ? "began, changed, ended, cancelled" : "recognized"
                    log.add(
                        r.keyPath("state"),
                        "\"\(recognizer ?? "")\" never reports \(s); it reports: \(allowed)")
                    ok = false
                } else {
                    state = parsed
                }
            } else {
                let names = BindingState.allCases.map(\.rawValue).joined(separator: ", ")
                log.add(r.keyPath("state"), "unknown state \"\(s)\"; one of \(names)")
                ok = false
            }
        } else if r.has("state") {
            ok = false
        }
        if state == nil, action != nil, action != .hold, let continuous {
            state = continuous ? .began : .recognized
        }

        var line: GPIOLineDescription? = nil
        if let t = r.table("gpio", &log) {
            line = readLine(t, path: r.keyPath("gpio"), &log)
            if line == nil { ok = false }
        } else if !r.has("gpio") {
            log.add(r.keyPath("gpio"), "missing required key (e.g. gpio = { chip = \"pinctrl-bcm2711\", line = 17 })")
            ok = false
        } else {
            ok = false
        }
        let initial = r.bool("initial", &log) ?? false
        r.finish(&log, owner: "a binding")
        guard ok, let recognizer, let action, let line else { return nil }
        return BindingDescription(
            recognizer: recognizer, state: state, action: action, line: line, initialActive: initial)
    }

    /// `{ chip = "pinctrl-bcm2711", line = 17, active_low = false }`.
    private static func readLine(_ table: [String: TOMLNode], path: String, _ log: inout IssueLog)
        -> GPIOLineDescription?
    {
        var r = TableReader(table, path: path)
        let chip = r.string("chip", required: true, &log)
        let line = r.integer("line", in: 0...1023, required: true, &log)
        let activeLow = r.bool("active_low", &log) ?? false
        r.finish(&log, owner: "a GPIO line")
        guard let chip, let line else { return nil }
        if chip == BindingDescription.simulatedChip && line >= BindingDescription.simulatedChipLines {
            log.add(
                joinPath(path, "line"),
                "must be in 0…\(BindingDescription.simulatedChipLines - 1) on the in-memory chip \"sim\", "
                    + "got \(line)")
            return nil
        }
        return GPIOLineDescription(chip: chip, line: line, activeLow: activeLow)
    }
}
