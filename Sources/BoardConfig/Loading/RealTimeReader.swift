/// Reads `[realtime]`: scheduling policy and priorities, memory locking, CPU affinity.
enum RealTimeReader {
    static func read(_ table: [String: TOMLNode], _ log: inout IssueLog) -> RealTimeDescription {
        var r = TableReader(table, path: "realtime")
        var d = RealTimeDescription()
        if let name = r.string("policy", &log) {
            if let p = RealTimeDescription.Policy(rawValue: name) {
                d.policy = p
            } else {
                log.add(r.keyPath("policy"), "must be \"other\", \"fifo\" or \"rr\", got \"\(name)\"")
            }
        }
        let keys = ["driver_priority", "recognizer_priority", "output_priority"]
        let given = keys.filter { r.has($0) }
        d.driverPriority = r.integer("driver_priority", in: 1...99, &log) ?? d.driverPriority
        d.recognizerPriority = r.integer("recognizer_priority", in: 1...99, &log) ?? d.recognizerPriority
        d.outputPriority = r.integer("output_priority", in: 0...99, &log) ?? d.outputPriority
        if d.policy == .other {
            for key in given {
                log.add(r.keyPath(key), "has no effect with policy = \"other\"; set policy = \"fifo\" or \"rr\"")
            }
        }
        d.lockMemory = r.bool("lock_memory", &log) ?? false
        if let node = r.value("cpus") {
            var cpus: [Int] = []
            if case .array(let items) = node {
                for item in items {
                    if case .integer(let i) = item, (0...1023).contains(i) {
                        if cpus.contains(i) {
                            log.add(r.keyPath("cpus"), "lists CPU \(i) twice")
                        } else {
                            cpus.append(i)
                        }
                    } else {
                        log.add(r.keyPath("cpus"), "must list CPU numbers 0…1023, got \(item.shortDescription)")
                    }
                }
            } else {
                log.add(
                    r.keyPath("cpus"), "expected an array of CPU numbers such as [1] or [2, 3], got \(node.typeName)")
            }
            d.cpus = cpus
        }
        r.finish(&log, owner: "[realtime]")
        return d
    }
}
