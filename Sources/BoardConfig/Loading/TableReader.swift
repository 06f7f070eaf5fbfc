/// Reads the keys of one TOML table with type and range checks, logging every problem.
///
/// Each accessor marks its key as known; `finish` then reports every key nobody asked
/// for as unknown (with a did-you-mean among the known keys). Accessors return nil when
/// the key is absent or invalid (an issue is logged for invalid), so callers write
/// `reader.integer("taps", …) ?? default`.
struct TableReader {
    /// The key path of the table itself (`panel`, `recognizer[1] "double-tap"`).
    var path: String
    private let entries: [String: TOMLNode]
    private var known: [String] = []

    init(_ entries: [String: TOMLNode], path: String) {
        self.entries = entries
        self.path = path
    }

    func keyPath(_ key: String) -> String { joinPath(path, key) }

    func has(_ key: String) -> Bool { entries[key] != nil }

    /// The raw value, marking `key` as known.
    mutating func value(_ key: String) -> TOMLNode? {
        if !known.contains(key) { known.append(key) }
        return entries[key]
    }

    /// Marks keys as known without reading them.
    mutating func allow(_ keys: String...) {
        for k in keys where !known.contains(k) { known.append(k) }
    }

    private func typeError(_ key: String, expected: String, got node: TOMLNode, _ log: inout IssueLog) {
        log.add(keyPath(key), "expected \(expected), got \(node.typeName) \(node.shortDescription)")
    }

    private func missing(_ key: String, _ log: inout IssueLog) {
        log.add(keyPath(key), "missing required key")
    }

    // MARK: scalars

    mutating func bool(_ key: String, _ log: inout IssueLog) -> Bool? {
        guard let node = value(key) else { return nil }
        guard case .bool(let b) = node else {
            typeError(key, expected: "true or false", got: node, &log)
            return nil
        }
        return b
    }

    mutating func string(_ key: String, required: Bool = false, nonEmpty: Bool = true, _ log: inout IssueLog)
        -> String?
    {
        guard let node = value(key) else {
            if required { missing(key, &log) }
            return nil
        }
        guard case .string(let s) = node else {
            typeError(key, expected: "a string", got: node, &log)
            return nil
        }
        if nonEmpty && s.isEmpty {
            log.add(keyPath(key), "must not be empty")
            return nil
        }
        return s
    }

    /// An integer within `range`; the message says "must be ≥ lower" when the range is open above.
    mutating func integer(_ key: String, in range: ClosedRange<Int>, required: Bool = false, _ log: inout IssueLog)
        -> Int?
    {
        guard let node = value(key) else {
            if required { missing(key, &log) }
            return nil
        }
        guard case .integer(let i) = node else {
            typeError(key, expected: "an integer", got: node, &log)
            return nil
        }
        guard range.contains(i) else {
            log.add(keyPath(key), rangeMessage(range, got: String(i)))
            return nil
        }
        return i
    }

    /// A finite number (integer or float) within `range`.
    mutating func number(
        _ key: String, in range: ClosedRange<Double>, required: Bool = false, _ log: inout IssueLog
    ) -> Double? {
        guard let node = value(key) else {
            if required { missing(key, &log) }
            return nil
        }
        let d: Double
        switch node {
        case .integer(let i): d = Double(i)
        case .double(let x): d = x
        default:
            typeError(key, expected: "a number", got: node, &log)
            return nil
        }
        guard d.isFinite else {
            log.add(keyPath(key), "must be a finite number, got \(node.shortDescription)")
            return nil
        }
        guard range.contains(d) else {
            log.add(keyPath(key), rangeMessage(range, got: node.shortDescription))
            return nil
        }
        return d
    }

    /// An array of strings (each non-empty).
    mutating func stringArray(_ key: String, _ log: inout IssueLog) -> [String]? {
        guard let node = value(key) else { return nil }
        guard case .array(let items) = node else {
            typeError(key, expected: "an array of strings", got: node, &log)
            return nil
        }
        var out: [String] = []
        var ok = true
        for (i, item) in items.enumerated() {
            guard case .string(let s) = item, !s.isEmpty else {
                log.add(keyPath(key) + "[\(i)]", "expected a non-empty string, got \(item.shortDescription)")
                ok = false
                continue
            }
            out.append(s)
        }
        return ok ? out : nil
    }

    /// A sub-table (inline or not).
    mutating func table(_ key: String, _ log: inout IssueLog) -> [String: TOMLNode]? {
        guard let node = value(key) else { return nil }
        guard case .table(let t) = node else {
            typeError(key, expected: "a table", got: node, &log)
            return nil
        }
        return t
    }

    /// An array of tables (`[[key]]`); each element's index is kept.
    mutating func tableArray(_ key: String, _ log: inout IssueLog) -> [(index: Int, table: [String: TOMLNode])]? {
        guard let node = value(key) else { return nil }
        guard case .array(let items) = node else {
            typeError(key, expected: "an array of tables ([[\(key)]])", got: node, &log)
            return nil
        }
        var out: [(Int, [String: TOMLNode])] = []
        for (i, item) in items.enumerated() {
            guard case .table(let t) = item else {
                log.add("\(keyPath(key))[\(i)]", "expected a table, got \(item.typeName) \(item.shortDescription)")
                continue
            }
            out.append((i, t))
        }
        return out
    }

    /// Logs every key that no accessor asked for. `owner` completes "unknown key … in <owner>".
    func finish(_ log: inout IssueLog, owner: String? = nil) {
        for key in entries.keys.sorted() where !known.contains(key) {
            var message = "unknown key"
            if let owner { message += " for \(owner)" }
            if let suggestion = closestMatch(to: key, in: known) {
                message += " (did you mean \"\(suggestion)\"?)"
            } else {
                message += "; known keys: " + known.joined(separator: ", ")
            }
            log.add(keyPath(key), message)
        }
    }
}

/// "must be ≥ 1, got 0" or "must be between 1 and 100, got 0".
func rangeMessage<T: Comparable & Numeric>(_ range: ClosedRange<T>, got: String) -> String {
    let unbounded: Bool
    if let r = range as? ClosedRange<Int> {
        unbounded = r.upperBound == .max
    } else if let r = range as? ClosedRange<Double> {
        unbounded = r.upperBound == .greatestFiniteMagnitude
    } else {
        unbounded = false
    }
    if unbounded { return "must be ≥ \(formatNumber(range.lowerBound)), got \(got)" }
    return "must be between \(formatNumber(range.lowerBound)) and \(formatNumber(range.upperBound)), got \(got)"
}

private func formatNumber<T>(_ value: T) -> String {
    if let d = value as? Double, d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
    return "\(value)"
}
