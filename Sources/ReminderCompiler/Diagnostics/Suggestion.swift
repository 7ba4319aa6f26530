/// The candidate closest to `word`, when one is close enough to be a likely typo.
///
/// Uses the optimal-string-alignment distance (Levenshtein plus swapped neighbours),
/// compared without case, and also accepts a candidate that starts with `word` or is a
/// prefix of it (`horizon` → `horizonDays`). Ties go to the earlier candidate.
@_spi(Tooling) public func closestMatch(to word: String, in candidates: [String]) -> String? {
    // Names are short; a suggestion for a megabyte of text helps no one and costs seconds.
    guard word.utf8.count <= 256 else { return nil }
    let target = Array(word.lowercased())
    guard !target.isEmpty else { return nil }
    let tolerance = max(2, target.count / 3)
    var best: (candidate: String, distance: Int)?
    for candidate in candidates where candidate.utf8.count <= 4 * 256 {
        let lowered = Array(candidate.lowercased())
        let distance: Int
        if lowered.starts(with: target) || target.starts(with: lowered), min(lowered.count, target.count) >= 3 {
            distance = lowered == target ? 0 : 1
        } else if abs(lowered.count - target.count) > tolerance {
            // The distance is at least the difference in length: too far to be suggested.
            continue
        } else {
            distance = editDistance(target, lowered)
        }
        if distance < (best?.distance ?? Int.max) {
            best = (candidate, distance)
        }
    }
    guard let best else { return nil }
    return best.distance <= tolerance ? best.candidate : nil
}

/// Optimal-string-alignment edit distance between two character arrays.
func editDistance(_ lhs: [Character], _ rhs: [Character]) -> Int {
    if lhs.isEmpty { return rhs.count }
    if rhs.isEmpty { return lhs.count }
    let width = rhs.count + 1
    var previousRow = [Int](repeating: 0, count: width)
    var row = Array(0...rhs.count)
    var current = [Int](repeating: 0, count: width)
    for i in 1...lhs.count {
        current[0] = i
        for j in 1...rhs.count {
            let cost = lhs[i - 1] == rhs[j - 1] ? 0 : 1
            var value = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if i > 1, j > 1, lhs[i - 1] == rhs[j - 2], lhs[i - 2] == rhs[j - 1] {
                value = min(value, previousRow[j - 2] + 1)
            }
            current[j] = value
        }
        previousRow = row
        row = current
    }
    return row[rhs.count]
}
