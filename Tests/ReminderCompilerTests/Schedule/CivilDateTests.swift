import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// A small deterministic generator (SplitMix64), so property tests repeat exactly.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Civil dates")
struct CivilDateTests {
    @Test("day numbers, components and weekdays agree with Foundation's Gregorian calendar")
    func againstFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var generator = SeededGenerator(seed: 2026)
        for _ in 0..<5000 {
            let dayNumber = Int.random(in: 0...2_932_896, using: &generator)  // 1970 … 9999
            let date = CivilDate(dayNumber: dayNumber)
            let reference = Date(timeIntervalSince1970: TimeInterval(dayNumber) * 86_400)
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: reference)
            let (year, month, day) = date.components
            #expect(year == parts.year && month == parts.month && day == parts.day)
            // Foundation: Sunday = 1 … Saturday = 7; ISO: Monday = 1 … Sunday = 7.
            #expect(date.weekday.rawValue == ((parts.weekday! + 5) % 7) + 1)
            #expect(CivilDate(year: year, month: month, day: day)?.dayNumber == dayNumber)
            #expect(CivilDate.daysInMonth(year: year, month: month)
                == calendar.range(of: .day, in: .month, for: reference)?.count)
        }
    }

    @Test("hand-checked dates")
    func handChecked() {
        #expect(CivilDate(dayNumber: 0).description == "1970-01-01")
        #expect(CivilDate(dayNumber: 0).weekday == .thursday)
        #expect(CivilDate(year: 2026, month: 11, day: 22)?.weekday == .sunday)
        #expect(CivilDate(year: 2028, month: 2, day: 29)?.description == "2028-02-29")
        #expect(CivilDate(year: 2026, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 9999, month: 12, day: 31)?.dayNumber == 2_932_896)
    }

    @Test("monthly rules pick the right days", arguments: [
        // (days, ordinals, missingDays, year, month, expected days)
        ([31], [String](), Schedule.MissingDays.skip, 2026, 11, [Int]()),
        ([31], [], .lastDay, 2026, 11, [30]),
        ([-1], [], .skip, 2028, 2, [29]),
        ([-31], [], .skip, 2026, 2, []),
        ([-31], [], .lastDay, 2026, 2, [1]),
        ([-31], [], .skip, 2026, 1, [1]),
        ([], ["5FR"], .skip, 2026, 11, []),       // November 2026 has four Fridays
        ([], ["5MO"], .skip, 2026, 11, [30]),      // and five Mondays
        ([], ["-1FR", "2TU"], .skip, 2026, 11, [10, 27]),
        ([1, 15], ["1SU"], .skip, 2026, 11, [1, 15]),
    ])
    func monthDays(_ days: [Int], _ ordinals: [String], _ missing: Schedule.MissingDays, _ year: Int, _ month: Int,
                   _ expected: [Int]) {
        var schedule = Schedule(frequency: .monthly)
        schedule.monthDays = days
        schedule.weekdayOrdinals = ordinals.compactMap(ConfigValueParsing.weekdayOrdinal)
        schedule.missingDays = missing
        #expect(schedule.monthDaysFiring(year: year, month: month) == expected)
    }
}
