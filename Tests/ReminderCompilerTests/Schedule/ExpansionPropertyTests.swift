import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

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
        let frequencies: [Schedule.Frequency] = [.daily, .weekly, .monthly, .monthly, .yearly, .yearly, .once]
        var schedule = Schedule(frequency: frequencies[int(0...frequencies.count - 1)])
        if chance(85) { schedule.start = date.adding(days: -int(0...400)) }
        if chance(25) { schedule.end = date.adding(days: int(0...60)) }
        if let start = schedule.start, let end = schedule.end, end < start { schedule.end = start }
        if schedule.frequency == .once {
            schedule.at = Set((0..<int(1...4)).map { _ in LocalDateTime(date: date.adding(days: int(-2...30)), time: time()) }).sorted()
            return schedule
        }
        if schedule.start != nil, chance(50) { schedule.interval = int(2...5) }
        // Counts that end inside the ranges compared, and beyond them; a count replaces `end`.
        if schedule.start != nil, chance(35) {
            schedule.count = int(1...(chance(50) ? 12 : 600))
            schedule.end = nil
        }
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
        case .monthly, .yearly:
            if schedule.frequency == .yearly {
                // Often the month of the cases' centre, so that yearly slots fall inside them;
                // February for 29 February.
                let near = date.components.month
                schedule.months = Set((0..<int(1...3)).map { _ in chance(50) ? near : (chance(30) ? 2 : int(1...12)) }).sorted()
            }
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

extension LongComputationTests {
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
              .timeLimit(.minutes(3)), arguments: zones)
        func matchesReference(_ zone: String) async throws {
            let reference = ReferenceExpander(zone: zone)
            let rules = try #require(TimeZoneDatabase.system.zone(zone))
            let transitions = Self.transitionDates(in: zone)
            // Seeded by the zone's name, so each zone gets its own but repeatable cases.
            var random = ScheduleGenerator(generator: SeededGenerator(seed: zone.utf8.reduce(UInt64(17)) { $0 &* 31 &+ UInt64($1) }))
            var compared = 0
            // 110 a zone (150 until the CI's 20 minutes needed the core this test holds).
            for _ in 0..<110 {
                await Task.yield()  // let tests that await a child process have a thread
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
                // The room a planner reserves for the range holds every slot.
                #expect(schedule.slotCountBound(onDates: first...last, times: schedule.timesOfDay.resolved) >= expected.count, "\(schedule)")
                // The lookup of the one slot an event names finds each slot, and nothing at
                // a time that has none.
                let times = schedule.timesOfDay.resolved
                #expect(times == ReferenceExpander.times(schedule.timesOfDay))
                var probes = expected.map(\.local)
                for _ in 0..<8 {
                    probes.append(LocalDateTime(date: first.adding(days: random.int(0...(last.dayNumber - first.dayNumber))), time: random.time()))
                }
                for probe in probes {
                    var found: [Slot] = []
                    schedule.forEachSlot(at: probe, times: times, timeline: timeline) { found.append($0) }
                    #expect(found == expected.filter { $0.local == probe }, "\(zone) \(probe) \(schedule)")
                }
                // The date-level answer agrees with the reference's slots, `count` included.
                let referenceDates = Set(expected.map(\.local.date))
                var date = first
                while date <= last {
                    #expect(schedule.firesOn(date) == referenceDates.contains(date), "\(date) \(schedule)")
                    date = date.adding(days: 1)
                }
                compared += expected.count
            }
            #expect(compared > 70)
        }

        @Test("the last date a count reaches is the date of the reference's count-th slot")
        func lastCountedDate() async throws {
            var random = ScheduleGenerator(generator: SeededGenerator(seed: 0xC0C0))
            let reference = ReferenceExpander(zone: "UTC")
            var compared = 0
            for _ in 0..<300 {
                await Task.yield()  // let tests that await a child process have a thread
                var schedule = random.schedule(around: CivilDate(year: 2026, month: 3, day: 1)!)
                guard schedule.frequency != .once, let start = schedule.start else { continue }
                schedule.count = random.int(1...40)
                schedule.end = nil
                let times = schedule.timesOfDay.resolved.count
                // The count-th slot with `except` dates kept, as COUNT counts EXDATEs.
                var withoutExceptions = schedule
                withoutExceptions.exceptions = []
                withoutExceptions.count = nil
                let slots = reference.slots(withoutExceptions, from: start, through: start.adding(days: 3 * 366))
                let expected = slots.first { $0.rotationIndex == schedule.count! - 1 }?.local.date
                guard let expected else { continue }
                #expect(schedule.lastCountedDate == expected, "\(schedule) (\(times) times a day)")
                compared += 1
            }
            #expect(compared > 100)
        }
    }
}

/// `ExpansionPropertyTests` under its short name, for the tests of other suites.
typealias ExpansionPropertyTests = LongComputationTests.ExpansionPropertyTests

extension LongComputationTests {
    @Suite("Monthly and yearly rotation far from the anchor")
    struct FarRotationTests {
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

        /// Firing dates in [anchor, date) counted one year at a time, the slow way.
        static func countedYearByYear(_ schedule: Schedule, before date: CivilDate) -> Int {
            func firing(inYear year: Int, before limit: CivilDate? = nil) -> Int {
                schedule.months.reduce(0) { total, month in
                    total + schedule.monthDaysFiring(year: year, month: month).count { day in
                        limit.map { CivilDate(year: year, month: month, day: day)! < $0 } ?? true
                    }
                }
            }
            let anchorYear = schedule.anchor.components.year
            let (year, _, _) = date.components
            var count = 0
            var current = anchorYear
            if year >= anchorYear {
                while current < year {
                    count += firing(inYear: current)
                    current += schedule.interval
                }
            } else {
                while current - schedule.interval >= year {
                    current -= schedule.interval
                    count -= firing(inYear: current)
                }
            }
            if current == year { count += firing(inYear: year, before: date) }
            return count - firing(inYear: anchorYear, before: schedule.anchor)
        }

        @Test("the counted rotation equals a month-by-month or year-by-year count, also centuries away and across 400-year cycles",
              arguments: [Schedule.Frequency.monthly, .yearly])
        func farFromAnchor(_ frequency: Schedule.Frequency) async {
            var random = ScheduleGenerator(generator: SeededGenerator(seed: frequency == .monthly ? 4800 : 400))
            // Intervals around the calendar's cycles: those that divide a year (counted a year at a time), 12 months, 4800 months, 4 and 400 years.
            let intervals = frequency == .monthly ? [1, 2, 3, 4, 5, 6, 7, 12, 13, 25, 400, 4800] : [1, 2, 3, 4, 7, 100, 400, 401, 1000]
            var compared = 0
            for _ in 0..<600 {
                await Task.yield()  // let tests that await a child process have a thread
                var schedule = random.schedule(around: CivilDate(year: 2026, month: 1, day: 1)!)
                guard schedule.frequency == frequency else { continue }
                schedule.start = random.chance(20) ? nil : CivilDate(year: random.int(1970...2100), month: random.int(1...12), day: random.int(1...28))
                schedule.interval = intervals[random.int(0...intervals.count - 1)]
                let date = CivilDate(year: random.int(1970...9999), month: random.int(1...12), day: random.int(1...28))!
                let slow = frequency == .monthly
                    ? Self.countedMonthByMonth(schedule, before: date) : Self.countedYearByYear(schedule, before: date)
                #expect(schedule.firingDatesBefore(date) == slow, "\(schedule) \(date)")
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

        @Test("a once schedule's firing entries are the entries whose dates firesOn accepts, in their order")
        func firingEntries() {
            var random = ScheduleGenerator(generator: SeededGenerator(seed: 0x0_4CE))
            let today = CivilDate(year: 2026, month: 11, day: 22)!
            var kept = 0, left = 0
            for _ in 0..<600 {
                var schedule = random.schedule(around: today)
                guard schedule.frequency == .once else { continue }
                // Entries out of order and repeated, and exceptions on some of their dates.
                schedule.at += schedule.at.reversed()
                if random.chance(40), let date = schedule.at.randomElement(using: &random.generator)?.date { schedule.exceptions.insert(date) }
                let expected = schedule.at.filter { schedule.firesOn($0.date) }
                #expect(schedule.firingEntries == expected, "\(schedule)")
                kept += expected.count
                left += schedule.at.count - expected.count
            }
            // Both outcomes occur.
            #expect(kept > 100 && left > 20, "\(kept) kept, \(left) left out")
        }
    }
}

/// `FarRotationTests` under its short name, for the tests of other suites.
typealias FarRotationTests = LongComputationTests.FarRotationTests

@Suite("Months built in code")
struct MonthsBuiltInCodeTests {
    @Test("a yearly schedule built with months out of order and repeated expands as its sorted, distinct months; the single-slot lookup agrees")
    func repeatedMonths() throws {
        let rules = try #require(TimeZoneDatabase.system.zone("Europe/Berlin"))
        let first = try #require(CivilDate(year: 2026, month: 1, day: 1))
        let last = try #require(CivilDate(year: 2028, month: 12, day: 31))
        let timeline = ZoneTimeline(rules: rules, span: (Int64(first.dayNumber) * 86_400 - 3 * 86_400)...(Int64(last.dayNumber) * 86_400 + 3 * 86_400))
        var clean = Schedule(frequency: .yearly)
        clean.start = first
        clean.monthDays = [1, 15]
        clean.months = [3, 5]
        clean.timesOfDay = .list([try #require(LocalTime(minuteOfDay: 540))])
        clean.count = 9
        var messy = clean
        messy.months = [5, 3, 3, 5]
        var expected: [Slot] = []
        clean.forEachSlot(onDates: first...last, timeline: timeline) { expected.append($0) }
        var found: [Slot] = []
        messy.forEachSlot(onDates: first...last, timeline: timeline) { found.append($0) }
        #expect(expected.count == 9)
        #expect(found == expected)
        #expect(messy.lastCountedDate == clean.lastCountedDate)
        for slot in expected {
            var looked: [Slot] = []
            messy.forEachSlot(at: slot.local, times: messy.timesOfDay.resolved, timeline: timeline) { looked.append($0) }
            #expect(looked == [slot])
        }
    }
}
