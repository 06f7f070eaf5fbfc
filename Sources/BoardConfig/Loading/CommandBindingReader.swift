/// Reads the `[[binding]]`s whose action is `key` or `exec`, and `[exec]`.
enum CommandBindingReader {
    /// The actions of the `.command` family (`BindingActionKind`).
    static let actions = Set(BindingActionKind.boardNames(of: .command))

    /// Splits `[[binding]]` items into GPIO bindings and key/exec bindings (by `action`'s family;
    /// an unknown action goes to `BindingReader`, which reports it).
    static func split(_ items: [(index: Int, table: [String: TOMLNode])])
        -> (gpio: [(index: Int, table: [String: TOMLNode])], commands: [(index: Int, table: [String: TOMLNode])])
    {
        var gpio: [(index: Int, table: [String: TOMLNode])] = []
        var commands: [(index: Int, table: [String: TOMLNode])] = []
        for item in items {
            if case .string(let a)? = item.table["action"], actions.contains(a) {
                commands.append(item)
            } else {
                gpio.append(item)
            }
        }
        return (gpio, commands)
    }

    static func read(
        _ items: [(index: Int, table: [String: TOMLNode])], targets: BindingReader.Targets, _ log: inout IssueLog
    ) -> [CommandBindingDescription] {
        var out: [CommandBindingDescription] = []
        for (index, table) in items {
            let name: String? = if case .string(let s)? = table["recognizer"] { s } else { nil }
            var r = TableReader(table, path: itemPath("binding", index, name: name))
            if var b = readOne(&r, targets: targets, &log) {
                b.boardIndex = index
                out.append(b)
            }
        }
        return out
    }

    private static func readOne(_ r: inout TableReader, targets: BindingReader.Targets, _ log: inout IssueLog)
        -> CommandBindingDescription?
    {
        var ok = true
        var continuous: Bool? = nil
        let recognizer = r.string("recognizer", required: true, &log)
        if let name = recognizer {
            if let kind = targets.recognizers[name] {
                continuous = kind.continuous
            } else if targets.controls.contains(name) {
                continuous = false
            } else {
                var message = "unknown recognizer \"\(name)\""
                let candidates = Array(targets.recognizers.keys).sorted() + targets.controls.sorted()
                if let s = closestMatch(to: name, in: candidates) { message += " (did you mean \"\(s)\"?)" }
                log.add(r.keyPath("recognizer"), message)
                ok = false
            }
        }
        var state: BindingState? = continuous.map { $0 ? .began : .recognized }
        if let s = r.string("state", &log) {
            if let parsed = BindingState(rawValue: s), continuous.map({ $0 != (parsed == .recognized) }) ?? true {
                state = parsed
            } else {
                let allowed = continuous == true ? "began, changed, ended, cancelled" : "recognized"
                log.add(r.keyPath("state"), "\"\(recognizer ?? "")\" never reports \(s); it reports: \(allowed)")
                ok = false
            }
        }
        var action: CommandAction? = nil
        switch r.string("action", required: true, &log).flatMap(BindingActionKind.init(boardName:)) {
        case .key?: action = readKeys(&r, &log)
        case .exec?: action = readExec(&r, &log)
        case .pulse?, .hold?, .toggle?, nil: break  // `split` sends only the `.command` family here
        }
        r.finish(&log, owner: "a key or exec binding")
        guard ok, let recognizer, let state, let action else { return nil }
        return CommandBindingDescription(recognizer: recognizer, state: state, action: action)
    }

    /// `keys = ["KEY_LEFTMETA", "KEY_F5"]`: kernel key names; a wrong one gets a suggestion.
    private static func readKeys(_ r: inout TableReader, _ log: inout IssueLog) -> CommandAction? {
        guard let names = r.stringArray("keys", &log) else {
            if !r.has("keys") {
                log.add(r.keyPath("keys"), "missing required key (e.g. keys = [\"KEY_LEFTMETA\", \"KEY_F5\"])")
            }
            return nil
        }
        guard !names.isEmpty, names.count <= 8 else {
            log.add(r.keyPath("keys"), "must name 1 to 8 keys, got \(names.count)")
            return nil
        }
        var codes: [Int] = []
        for name in names {
            guard let code = KernelKeyNames.code(name) else {
                var message = "unknown key \"\(name)\"; key names are the kernel's (linux/input-event-codes.h)"
                let guess =
                    name.uppercased().hasPrefix("KEY_") || name.uppercased().hasPrefix("BTN_")
                    ? name.uppercased() : "KEY_" + name.uppercased()
                if KernelKeyNames.code(guess) != nil {
                    message += " (did you mean \"\(guess)\"?)"
                } else if let s = closestMatch(to: guess, in: KernelKeyNames.allNames) {
                    message += " (did you mean \"\(s)\"?)"
                }
                log.add(r.keyPath("keys"), message)
                return nil
            }
            codes.append(code)
        }
        return .key(names: names, codes: codes)
    }

    /// `command = ["/abs/program", "arg"]`, `timeout_ms`, `min_interval_ms`, `session`.
    private static func readExec(_ r: inout TableReader, _ log: inout IssueLog) -> CommandAction? {
        let argv = r.stringArray("command", &log)
        let timeout = r.integer("timeout_ms", in: 1...3_600_000, &log) ?? 10_000
        let interval = r.integer("min_interval_ms", in: 0...3_600_000, &log) ?? 1000
        let session = r.bool("session", &log) ?? false
        guard let argv else {
            if !r.has("command") {
                log.add(
                    r.keyPath("command"),
                    "missing required key (e.g. command = [\"/usr/local/bin/kiosk-admin\", \"--show\"])")
            }
            return nil
        }
        guard let program = argv.first, program.hasPrefix("/") else {
            log.add(
                r.keyPath("command"),
                "the program must be an absolute path (no shell, no PATH search), got \"\(argv.first ?? "")\"")
            return nil
        }
        _ = program
        return .exec(
            ExecCommand(
                argv: argv, timeoutMilliseconds: timeout, minimumIntervalMilliseconds: interval,
                runsInSession: session))
    }

    /// `[exec] user = "kiosk"`, `environment = { DISPLAY = ":0", … }`.
    static func readExecSection(_ table: [String: TOMLNode], _ log: inout IssueLog) -> ExecDescription {
        var r = TableReader(table, path: "exec")
        var d = ExecDescription()
        d.user = r.string("user", &log)
        if let env = r.table("environment", &log) {
            for (key, value) in env {
                if case .string(let s) = value, !key.isEmpty, !key.contains(Character("=")) {
                    d.environment[key] = s
                } else {
                    log.add("exec.environment.\(key)", "expected a string value, got \(value.shortDescription)")
                }
            }
        }
        r.finish(&log, owner: "[exec]")
        return d
    }

    /// `[passthrough] name = "…"`, `slots = 10`, `held_ends = "on_time"|"delivered"`.
    static func readPassthrough(_ table: [String: TOMLNode], _ log: inout IssueLog) -> PassthroughDescription {
        var r = TableReader(table, path: "passthrough")
        var d = PassthroughDescription()
        if let n = r.string("name", &log) { d.name = n }
        d.slots = r.integer("slots", in: 1...10, &log)
        if let s = r.string("held_ends", &log) {
            if let h = PassthroughDescription.HeldEnds(rawValue: s) {
                d.heldEnds = h
            } else {
                log.add(r.keyPath("held_ends"), "must be \"on_time\" or \"delivered\", got \"\(s)\"")
            }
        }
        r.finish(&log, owner: "[passthrough]")
        return d
    }
}
