import Foundation
import Testing
@testable import ReminderCompiler

/// Random schedules, biased toward what breaks calendar code: times around midnight and
/// the small hours, month ends, negative days, fifth weekdays, intervals.
struct ScheduleGenerator {
    var generator: SeededGenerator

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

    mutating func time() -> LocalTime {
        let tricky = [0, 30, 59, 60, 90, 120, 150, 179, 180, 210, 1380, 1410, 1439]
        return LocalTime(minuteOfDay: chance(60) ? tricky[int(0...tricky.count - 1)] : int(0...1439))!
    }

    mutating func schedule(around date: CivilDate) -> Schedule {
        let frequencies: [Schedule.Frequency] = [.daily, .weekly, .monthly, .monthly, .once]
        var schedule = Schedule(frequency: frequencies[int(0...4)])
        if chance(85) { schedule.start = date.adding(days: -int(0...400)) }
        if chance(25) { schedule.end = date.adding(days: int(0...60)) }
        if let start = schedule.start, let end = schedule.end, end < start { schedule.end = start }
        if schedule.frequency == .once {
            schedule.at = Set((0..<int(1...4)).map { _ in LocalDateTime(date: date.adding(days: int(-2...30)), time: time()) }).sorted()
            return schedule
        }
        if schedule.start != nil, chance(50) { schedule.interval = int(2...5) }
        switch int(0...9) {
        case 0:
            let from = int(0...1200)
            schedule.timesOfDay = .spread(count: int(1...6), window: LocalTime(minuteOfDay: from)!...LocalTime(minuteOfDay: int(from + 1...1439))!)
        case 1:
            let from = int(0...1200)
            schedule.timesOfDay = .every(minutes: int(5...240), window: LocalTime(minuteOfDay: from)!...LocalTime(minuteOfDay: int(from + 1...1439))!)
        default:
            schedule.timesOfDay = .list((0..<int(1...3)).map { _ in time() })
        }
        switch schedule.frequency {
        case .weekly:
            schedule.weekdays = Set((0..<int(1...4)).map { _ in Weekday(rawValue: int(1...7))! })
        case .monthly:
            if chance(70) {
                schedule.monthDays = Set((0..<int(1...3)).map { _ in chance(60) ? int(26...31) : (chance(50) ? -int(1...31) : int(1...31)) }).sorted()
                schedule.missingDays = chance(50) ? .skip : .lastDay
            }
            if schedule.monthDays.isEmpty || chance(30) {
                schedule.weekdayOrdinals = (0..<int(1...2)).map { _ in
                    Schedule.WeekdayOrdinal(ordinal: chance(50) ? int(1...5) : -int(1...5), weekday: Weekday(rawValue: int(1...7))!)
                }
            }
        default:
            break
        }
        if chance(30) { schedule.exceptions = Set((0..<int(1...3)).map { _ in date.adding(days: int(-2...20)) }) }
        return schedule
    }
}

@Suite("Expansion against a slow reference")
struct ExpansionPropertyTests {
    static let zones = [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Chatham", "Asia/Kolkata",
        "America/Santiago", "America/Havana", "Pacific/Apia", "Europe/Dublin", "Africa/Casablanca", "UTC",
        "Pacific/Kiritimati", "Pacific/Pago_Pago",
    ]

    /// Dates on which the zone changes offset (in the zone's local calendar), so that
    /// half of the cases straddle a transition.
    static func transitionDates(in zone: String) -> [CivilDate] {
        let timeZone = TimeZone(identifier: zone)!
        var dates: [CivilDate] = []
        var instant = Date(timeIntervalSince1970: 978_307_200)  // 2001-01-01
        while let next = timeZone.nextDaylightSavingTimeTransition(after: instant), next.timeIntervalSince1970 < 1_924_992_000 {
            let local = Int(next.timeIntervalSince1970) + timeZone.secondsFromGMT(for: next)
            dates.append(CivilDate(dayNumber: local / 86_400))
            instant = next
        }
        return dates
    }

    @Test("the engine's slots, instants and rotation indices equal the reference's",
          .timeLimit(.minutes(15)), arguments: zones)
    func matchesReference(_ zone: String) throws {
        let reference = ReferenceExpander(zone: zone)
        let rules = try #require(TimeZoneDatabase.system.zone(zone))
        let transitions = Self.transitionDates(in: zone)
        // Seeded by the zone's name, so each zone gets its own but repeatable cases.
        var random = ScheduleGenerator(generator: SeededGenerator(seed: zone.utf8.reduce(UInt64(17)) { $0 &* 31 &+ UInt64($1) }))
        var compared = 0
        for _ in 0..<150 {
            let center = !transitions.isEmpty && random.chance(60)
                ? transitions[random.int(0...transitions.count - 1)]
                : CivilDate(dayNumber: random.int(11_323...21_900))  // 2001 … 2029
            let schedule = random.schedule(around: center)
            let first = center.adding(days: -random.int(1...3))
            let last = center.adding(days: random.int(0...35))
            let timeline = ZoneTimeline(
                rules: rules,
                span: (Int64(first.dayNumber) * 86_400 - 3 * 86_400)...(Int64(last.dayNumber) * 86_400 + 3 * 86_400)
            )
            var engine: [Slot] = []
            schedule.forEachSlot(onDates: first...last, timeline: timeline) { engine.append($0) }
            let expected = reference.slots(schedule, from: first, through: last)
            #expect(engine == expected, "\(zone) \(first)…\(last) \(schedule)")
            compared += expected.count
        }
        #expect(compared > 100)
    }
}

@Suite("Monthly rotation far from the anchor")
struct MonthlyRotationTests {
    /// Firing dates in [anchor, date) counted one month at a time, the slow way.
    static func countedMonthByMonth(_ schedule: Schedule, before date: CivilDate) -> Int {
        func months(_ date: CivilDate) -> Int { date.components.year * 12 + date.components.month - 1 }
        func firing(inMonth absolute: Int) -> [Int] {
            schedule.monthDaysFiring(year: absolute / 12, month: absolute % 12 + 1)
        }
        let anchor = schedule.anchor
        var count = 0
        if date >= anchor {
            var month = months(anchor)
            while month < months(date) {
                count += firing(inMonth: month).count
                month += schedule.interval
            }
            if month == months(date) { count += firing(inMonth: month).count { $0 < date.components.day } }
            count -= firing(inMonth: months(anchor)).count { $0 < anchor.components.day }
        } else {
            var month = months(anchor)
            while month - schedule.interval >= months(date) {
                month -= schedule.interval
                count -= firing(inMonth: month).count
            }
            if month == months(date) { count += firing(inMonth: month).count { $0 < date.components.day } }
            count -= firing(inMonth: months(anchor)).count { $0 < anchor.components.day }
        }
        return count
    }

    @Test("the counted rotation equals a month-by-month count, also centuries away and across 400-year cycles")
    func farFromAnchor() {
        var random = ScheduleGenerator(generator: SeededGenerator(seed: 4800))
        var compared = 0
        for _ in 0..<300 {
            var schedule = random.schedule(around: CivilDate(year: 2026, month: 1, day: 1)!)
            guard schedule.frequency == .monthly else { continue }
            schedule.start = random.chance(20) ? nil : CivilDate(year: random.int(1970...2100), month: random.int(1...12), day: random.int(1...28))
            schedule.interval = [1, 2, 3, 5, 7, 12, 13, 25, 400, 4800][random.int(0...9)]
            let date = CivilDate(year: random.int(1970...9999), month: random.int(1...12), day: random.int(1...28))!
            #expect(schedule.firingDatesBefore(date) == Self.countedMonthByMonth(schedule, before: date), "\(schedule) \(date)")
            compared += 1
        }
        #expect(compared > 50)
    }

    @Test("the first firing date equals a day-by-day search with firesOn, also for rare and never-firing schedules")
    func firstFiringDate() {
        var random = ScheduleGenerator(generator: SeededGenerator(seed: 0xF1257))
        let today = CivilDate(year: 2026, month: 11, day: 22)!
        for _ in 0..<400 {
            var schedule = random.schedule(around: today)
            // Intervals that make dates rare or impossible (every 12 months from a February, on the 30th).
            if schedule.frequency != .once, random.chance(40) {
                schedule.start = schedule.start ?? today.adding(days: -random.int(0...400))
                schedule.interval = [12, 24, 13, 52, 100, 400][random.int(0...5)]
            }
            let from = today.adding(days: random.int(-30...30))
            let limit = from.adding(days: random.int(0...3000))
            var expected: CivilDate?
            var date = from
            while date <= limit {
                if schedule.firesOn(date) {
                    expected = date
                    break
                }
                date = date.adding(days: 1)
            }
            #expect(schedule.firstFiringDate(onOrAfter: from, notAfter: limit) == expected, "\(schedule) from \(from) to \(limit)")
        }
    }
}
