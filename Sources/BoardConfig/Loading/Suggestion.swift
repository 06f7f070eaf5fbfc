/// The candidate closest to `word` by edit distance, when close enough to be a likely typo.
func closestMatch(to word: String, in candidates: [String]) -> String? {
    let a = Array(word)
    var best: (String, Int)? = nil
    for c in candidates {
        let d = editDistance(a, Array(c))
        let limit = max(1, min(3, c.count / 3))
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
