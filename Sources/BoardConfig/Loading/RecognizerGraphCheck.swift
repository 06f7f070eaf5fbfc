/// Checks recognizers against each other and the rest of the board: unique names, regions that
/// exist, require_fail / simultaneous naming other existing recognizers, require_fail acyclic,
/// and touch counts the controller can report.
enum RecognizerGraphCheck {
    static func check(
        _ recognizers: [Located<RecognizerDescription>], regionNames: [String], input chip: TouchInputKind?,
        _ log: inout IssueLog
    ) {
        var firstPath: [String: String] = [:]
        for r in recognizers {
            if let first = firstPath[r.value.name] {
                log.add(joinPath(r.path, "name"), "duplicate recognizer name (first defined at \(first))")
            } else {
                firstPath[r.value.name] = r.path
            }
        }
        let names = recognizers.map(\.value.name)
        for r in recognizers {
            if !regionNames.contains(r.value.region) {
                var message = "no region named \"\(r.value.region)\""
                if let s = closestMatch(to: r.value.region, in: regionNames) { message += " (did you mean \"\(s)\"?)" }
                log.add(joinPath(r.path, "region"), message)
            }
            checkReferences(r.value.requireFail, key: "require_fail", of: r, names: names, &log)
            checkReferences(r.value.simultaneous, key: "simultaneous", of: r, names: names, &log)
            if let chip, r.value.parameters.minimumTouches > chip.maxContacts {
                log.add(
                    r.path,
                    "\(r.value.recognizerKind.recognizerPhrase) needing \(r.value.parameters.minimumTouches) touches"
                        + " can never fire: the \(chip) reports at most \(chip.maxContacts) contact"
                        + (chip.maxContacts == 1 ? "" : "s"))
            }
        }
        reportRequireFailCycles(recognizers, &log)
    }

    private static func checkReferences(
        _ list: [String], key: String, of r: Located<RecognizerDescription>, names: [String], _ log: inout IssueLog
    ) {
        var seen: Set<String> = []
        for (i, other) in list.enumerated() {
            let path = joinPath(r.path, key) + "[\(i)]"
            if other == r.value.name {
                log.add(path, "a recognizer cannot name itself")
            } else if !names.contains(other) {
                var message = "no recognizer named \"\(other)\""
                if let s = closestMatch(to: other, in: names) { message += " (did you mean \"\(s)\"?)" }
                log.add(path, message)
            } else if !seen.insert(other).inserted {
                log.add(path, "\"\(other)\" is listed twice")
            }
        }
    }

    /// Depth-first search over require_fail edges; each cycle is reported once, at its first
    /// member in file order, as `a → b → a`.
    private static func reportRequireFailCycles(_ recognizers: [Located<RecognizerDescription>], _ log: inout IssueLog)
    {
        var edges: [String: [String]] = [:]
        var pathOf: [String: String] = [:]
        var order: [String] = []
        for r in recognizers where edges[r.value.name] == nil {
            edges[r.value.name] = r.value.requireFail.filter { $0 != r.value.name }
            pathOf[r.value.name] = r.path
            order.append(r.value.name)
        }
        enum Mark { case visiting, done }
        var marks: [String: Mark] = [:]
        var stack: [String] = []
        var reported: [Set<String>] = []

        func visit(_ node: String) {
            marks[node] = .visiting
            stack.append(node)
            for next in edges[node] ?? [] where edges[next] != nil {
                switch marks[next] {
                case .visiting:
                    if let start = stack.firstIndex(of: next) {
                        let cycle = Array(stack[start...])
                        let members = Set(cycle)
                        if !reported.contains(members) {
                            reported.append(members)
                            // Rotate so the cycle starts at its first member in file order.
                            let first = order.first { members.contains($0) } ?? next
                            let k = cycle.firstIndex(of: first) ?? 0
                            let rotated = Array(cycle[k...] + cycle[..<k])
                            let text = (rotated + [first]).joined(separator: " → ")
                            log.add(joinPath(pathOf[first] ?? first, "require_fail"), "require_fail cycle: \(text)")
                        }
                    }
                case .done: break
                case nil: visit(next)
                }
            }
            stack.removeLast()
            marks[node] = .done
        }
        for name in order where marks[name] == nil { visit(name) }
    }
}
