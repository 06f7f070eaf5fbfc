/// The candidate closest to `word` by edit distance, when close enough to be a likely typo.
/// Words or candidates longer than 64 characters are not compared (no typo is that long, and
/// the distance costs the product of the lengths). A candidate whose length differs from the
/// word's by more than its limit is skipped unmeasured: the distance is at least that difference
/// (an unknown key is checked against every known key, so a board full of them stays cheap).
func closestMatch(to word: String, in candidates: [String]) -> String? {
    guard word.utf8.count <= 256 else { return nil }
    let a = Array(word)
    guard a.count <= 64 else { return nil }
    var best: (String, Int)? = nil
    for c in candidates where c.utf8.count <= 256 {
        let length = c.count
        guard length <= 64 else { continue }
        let limit = max(1, min(3, length / 3))
        guard abs(length - a.count) <= limit else { continue }
        let d = editDistance(a, Array(c))
        if d <= limit, best.map({ d < $0.1 }) ?? true { best = (c, d) }
    }
    return best?.0
}

/// Levenshtein distance.
private func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
