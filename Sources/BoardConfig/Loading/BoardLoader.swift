#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Loads and validates board files (`formats.md` §4).
///
/// Either the whole board is valid and a `BoardDescription` comes back, or a `BoardFileError`
/// lists every issue found — never a half-configured board. Never traps on any input.
package enum BoardLoader {
    /// Reads and validates the board file at `path`. Relative trace paths are resolved
    /// against the file's directory; issues name the file as `path` was given.
    package static func load(path: String) throws(BoardFileError) -> BoardDescription {
        var log = IssueLog(file: path)
        if let problem = SimulationReader.unreadableReason(path) {
            log.add("", "cannot read board file: it \(problem)")
            throw BoardFileError(issues: log.issues)
        }
        if let size = fileSize(path), size > Int64(BoardInputBounds.maximumFileBytes) {
            log.add(
                "",
                "cannot read board file: it is \(size) bytes, more than the limit of "
                    + "\(BoardInputBounds.maximumFileBytes) (BoardInputBounds.maximumFileBytes)")
            throw BoardFileError(issues: log.issues)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            log.add("", "cannot read board file")
            throw BoardFileError(issues: log.issues)
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            log.add("", "cannot read board file: it is not valid UTF-8")
            throw BoardFileError(issues: log.issues)
        }
        let directory =
            path.contains(Character("/"))
            ? String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) : "."
        return try parse(text, file: path, directory: directory.isEmpty ? "/" : directory)
    }

    /// Validates the TOML `text` of a board file. `file` names it in issues and gives the board
    /// its name (the stem); `directory` anchors relative trace paths.
    package static func parse(_ text: String, file: String, directory: String) throws(BoardFileError)
        -> BoardDescription
    {
        var log = IssueLog(file: file)
        if text.utf8.count > BoardInputBounds.maximumFileBytes {
            log.add(
                "",
                "board file is \(text.utf8.count) bytes, more than the limit of \(BoardInputBounds.maximumFileBytes)")
            throw BoardFileError(issues: log.issues)
        }
        let root: [String: TOMLNode]
        do throws(TOMLNode.SyntaxError) {
            root = try TOMLNode.parse(text)
        } catch {
            log.add("", error.message, line: error.line, column: error.column)
            throw BoardFileError(issues: log.issues)
        }
        var board = validate(root, name: stem(of: file), directory: directory, &log)
        board?.file = file
        guard log.isEmpty, let board else {
            if log.isEmpty { log.add("", "invalid board file") }  // unreachable by construction; never crash
            // Each issue names its line too (formats.md §4), found from its key path.
            let lines = KeyLines(text)
            throw BoardFileError(
                issues: log.issues.map { issue in
                    var issue = issue
                    if issue.line == nil { issue.line = lines.line(of: issue.keyPath) }
                    return issue
                })
        }
        return board
    }

    /// Reads every section, then checks references; collects all issues in `log`.
    static func validate(_ root: [String: TOMLNode], name: String, directory: String, _ log: inout IssueLog)
        -> BoardDescription?
    {
        var r = TableReader(root, path: "")

        var panel: PanelDescription? = nil
        if let t = r.table("panel", &log) {
            panel = PanelReader.read(t, &log)
        } else if !r.has("panel") {
            log.add("panel", "missing [panel] section (width and height in pixels)")
        }

        var controller: ControllerDescription? = nil
        if let t = r.table("controller", &log) {
            controller = ControllerReader.read(t, &log)
        } else if !r.has("controller") {
            // No hardware: the board can be replayed and validated, not run.
        }

        var simulation: SimulationDescription? = nil
        if let t = r.table("simulation", &log) {
            if let controller, controller.bus != .simulated {
                log.add(
                    "simulation",
                    "[simulation] applies only to bus = \"sim\"; remove it or set controller.bus = \"sim\"")
            } else {
                simulation = SimulationReader.read(t, directory: directory, &log)
            }
        } else if controller?.bus == .simulated && !r.has("simulation") {
            log.add("simulation", "missing [simulation] section, required with controller.bus = \"sim\"")
        }

        var regions: [Located<RegionDescription>] = []
        if let items = r.tableArray("region", &log),
            withinBound(items.count, BoardInputBounds.maximumRegions, "region", "BoardInputBounds.maximumRegions", &log)
        {
            for (i, t) in items {
                if let region = RegionReader.read(i, t, &log) { regions.append(region) }
            }
            if items.isEmpty { log.add("region", "at least one [[region]] is required (the root)") }
        } else if !r.has("region") {
            log.add("region", "at least one [[region]] is required (the root)")
        }
        RegionTreeCheck.check(regions, &log)
        if let panel { RegionTreeCheck.checkWithinPanel(regions, panel, &log) }

        var recognizers: [Located<RecognizerDescription>] = []
        if let items = r.tableArray("recognizer", &log),
            withinBound(
                items.count, BoardInputBounds.maximumRecognizers, "recognizer",
                "the gesture engine's GestureEngine.maximumRecognizers",
                &log)
        {
            for (i, t) in items {
                if let recognizer = RecognizerReader.read(i, t, directory: directory, &log) {
                    recognizers.append(recognizer)
                }
            }
            if items.isEmpty { log.add("recognizer", "at least one [[recognizer]] is required") }
        } else if !r.has("recognizer") {
            log.add("recognizer", "at least one [[recognizer]] is required")
        }
        let regionNames = regionNamesForReferences(root, parsed: regions)
        RecognizerGraphCheck.check(recognizers, regionNames: regionNames, input: controller?.input, &log)

        var outputs: [OutputDescription] = [.stdout]
        var webSocket: WebSocketOutputDescription? = nil
        if let items = r.tableArray("output", &log),
            withinBound(items.count, BoardInputBounds.maximumOutputs, "output", "BoardInputBounds.maximumOutputs", &log)
        {
            outputs = OutputReader.read(items, &log, webSocket: &webSocket)
        }

        var bindings: [BindingDescription] = []
        var commandBindings: [CommandBindingDescription] = []
        if let items = r.tableArray("binding", &log),
            withinBound(
                items.count, BoardInputBounds.maximumBindings, "binding", "BoardInputBounds.maximumBindings", &log)
        {
            let targets = bindingTargets(recognizers, regions, controller)
            let (gpio, commands) = CommandBindingReader.split(items)
            bindings = BindingReader.read(gpio, targets: targets, &log)
            commandBindings = CommandBindingReader.read(commands, targets: targets, &log)
        }
        var exec = ExecDescription()
        if let t = r.table("exec", &log) { exec = CommandBindingReader.readExecSection(t, &log) }
        var passthrough: PassthroughDescription? = nil
        if let t = r.table("passthrough", &log) {
            passthrough = CommandBindingReader.readPassthrough(t, &log)
            EvdevKeys.checkPassthrough(controller, &log)
        }

        var realtime = RealTimeDescription()
        if let t = r.table("realtime", &log) { realtime = RealTimeReader.read(t, &log) }
        var metrics = MetricsDescription()
        if let t = r.table("metrics", &log) { metrics = MetricsReader.read(t, &log) }
        var display: DisplayDescription? = nil
        if let t = r.table("display", &log) { display = DisplayReader.read(t, &log) }
        if let line = display?.gpio {
            // The display's line is driven by the display alone, as a binding's line is by its binding.
            let others = bindings.map(\.line) + [controller?.interrupt, controller?.reset].compactMap { $0 }
            if others.contains(where: { $0.chip == line.chip && $0.line == line.line }) {
                log.add("display.gpio", "line \(line.chip):\(line.line) is already used by a binding or the controller")
                display = nil
            }
        }

        if display?.runsInSession == true, !outputs.includesEventSocket {
            log.add(
                "display.session",
                "session = true needs an [[output]] type = \"socket\": touchwire agent reads the screen's "
                    + "changes from it (docs/kiosk.md)")
            display = nil
        }

        r.finish(&log, owner: "a board file")

        guard let panel else { return nil }
        if controller?.bus == .simulated && simulation == nil { return nil }
        var board = BoardDescription(
            name: name, panel: panel, controller: controller, simulation: simulation,
            regions: regions.map(\.value), recognizers: recognizers.map(\.value), outputs: outputs,
            bindings: bindings)
        board.realtime = realtime
        board.commandBindings = commandBindings
        board.exec = exec
        board.passthrough = passthrough
        board.metrics = metrics
        board.webSocket = webSocket
        board.display = display
        return board
    }

    /// False (and one issue naming the limit) when a board has more than `limit` `[[section]]`s.
    private static func withinBound(
        _ count: Int, _ limit: Int, _ section: String, _ why: String, _ log: inout IssueLog
    ) -> Bool {
        guard count > limit else { return true }
        log.add(section, "\(count) [[\(section)]] tables, more than the limit of \(limit) (\(why))")
        return false
    }

    /// What `[[binding]]`s may name and which lines they may not drive.
    private static func bindingTargets(
        _ recognizers: [Located<RecognizerDescription>], _ regions: [Located<RegionDescription>],
        _ controller: ControllerDescription?
    ) -> BindingReader.Targets {
        var byName: [String: BindingReader.GestureKindName] = [:]
        for r in recognizers {
            byName[r.value.name] = .init(
                name: r.value.kind.description, continuous: r.value.recognizerKind.isContinuous)
        }
        var reserved: [(name: String, line: GPIOLineDescription)] = []
        if let i = controller?.interrupt { reserved.append(("interrupt", i)) }
        if let r = controller?.reset { reserved.append(("reset", r)) }
        return .init(
            recognizers: byName, controls: Set(regions.filter(\.value.control).map(\.value.name)),
            reservedLines: reserved)
    }

    /// Region names as written, including regions rejected for other reasons, so that one bad
    /// region does not also flag every recognizer attached to it.
    private static func regionNamesForReferences(_ root: [String: TOMLNode], parsed: [Located<RegionDescription>])
        -> [String]
    {
        var names = parsed.map(\.value.name)
        if case .array(let items)? = root["region"] {
            for case .table(let t) in items {
                if case .string(let s)? = t["name"], !names.contains(s) { names.append(s) }
            }
        }
        return names
    }

    /// The size of the file at `path` in bytes, when the file system says.
    static func fileSize(_ path: String) -> Int64? {
        guard let value = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] else { return nil }
        if let v = value as? Int64 { return v }
        if let v = value as? UInt64 { return Int64(clamping: v) }
        if let v = value as? Int { return Int64(v) }
        return nil
    }

    /// `boards/sim-demo.toml` → `sim-demo`.
    static func stem(of file: String) -> String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return base }
        return String(base[..<dot])
    }
}
