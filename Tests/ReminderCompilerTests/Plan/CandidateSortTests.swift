import Testing
@testable import ReminderCompiler

/// The planner sorts candidates by time, dealing them into buckets by time first; the
/// reference is the obvious one: compare times, then the places the candidates came in.
@Suite("Sorting candidates by time")
struct CandidateSortTests {
    private func reference(_ candidates: [Candidate]) -> [Candidate] {
        candidates.enumerated()
            .sorted { ($0.element.fireAt, $0.offset) < ($1.element.fireAt, $1.offset) }
            .map(\.element)
    }

    /// What the sort may change of a candidate: its place. Its unit tells equal times apart.
    private func places(_ candidates: [Candidate]) -> [Int] { candidates.map(\.unit) }

    private func candidates(times: [Int64]) -> [Candidate] {
        times.enumerated().map { Candidate(fireAt: $1, dueAt: $1, unit: $0, kind: .parent) }
    }

    @Test("runs as a plan makes them, random orders, many equal times, and times far apart give the reference's order")
    func againstReference() {
        var generator = SeededGenerator(seed: 2026)
        var shapes: [[Int64]] = [[], [5], [3, 3, 3], [9, 8, 7, 6, 5]]
        for _ in 0..<300 {
            let count = Int.random(in: 0...400, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0:
                // Reminder by reminder, each one's times ascending: a few long runs.
                let reminders = Int.random(in: 1...12, using: &generator)
                shapes.append((0..<count).map { index in
                    Int64(index % max(1, count / reminders)) * 86_400 + Int64(index / max(1, count / reminders)) * 60
                })
            case 1:
                shapes.append((0..<count).map { _ in Int64.random(in: 1_700_000_000...1_800_000_000, using: &generator) })
            case 2:
                // Few distinct times: the order among equal ones must be kept.
                shapes.append((0..<count).map { _ in Int64.random(in: 0...3, using: &generator) * 1_800 })
            case 3:
                // Distinct times crowded into ten minutes but for one far away: the
                // crowd shares a bucket, which is sorted whole.
                shapes.append((0..<count).map { index in
                    index == count / 2 ? 1_800_000_000 : Int64.random(in: 1_700_000_000...1_700_000_600, using: &generator)
                })
            default:
                // The supported years' ends and negative instants.
                shapes.append((0..<count).map { _ in Int64.random(in: -62_135_596_800...253_402_300_799, using: &generator) })
            }
        }
        var compared = 0
        for times in shapes {
            var sorted = candidates(times: times)
            PlanDraft.sortByTime(&sorted)
            #expect(places(sorted) == places(reference(candidates(times: times))), "times \(times.prefix(12))…")
            compared += times.count
        }
        #expect(compared > 10_000)
    }

    @Test("times as far apart as Int64 allows are dealt and sorted in the same order")
    func spanTooWide() {
        let times: [Int64] = [.max, .min, 0, .max, .min, 7]
        var sorted = candidates(times: times)
        PlanDraft.sortByTime(&sorted)
        #expect(sorted.map(\.fireAt) == [.min, .min, 0, 7, .max, .max])
        #expect(places(sorted) == [1, 4, 2, 5, 0, 3])
    }
}
