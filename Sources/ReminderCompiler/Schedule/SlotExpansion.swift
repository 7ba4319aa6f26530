/// One slot of a reminder's schedule: its nominal local time and its instant.
public struct Slot: Sendable, Hashable {
    /// The nominal local date and time the schedule produced.
    public var local: LocalDateTime
    /// The instant it fires (Planning rules, "Time zones and daylight-saving changes").
    public var instant: Int64
    /// Whether a daylight-saving gap moved it (02:30 on a spring-forward day fires at 03:30).
    public var movedByGap: Bool
    /// The slot's position among all slots counted from the anchor date, including those
    /// removed by `except`; selects the rotating body (Planning rules, "Rotating bodies").
    public var rotationIndex: Int
}

extension CivilDate {
    /// Day numbers expansion works with: the supported years and a wide margin, far from
    /// where day and second arithmetic could overflow.
    static let expandableDays = -1_000_000...4_000_000
}

extension Schedule {
    /// Whether expansion can run on the schedule's values without dividing by zero or
    /// overflowing: what `validate()` checks of them, less strictly.
    var isExpandable: Bool {
        let days = CivilDate.expandableDays
        return (1...1000).contains(interval)
            && days.contains(start?.dayNumber ?? 0) && days.contains(end?.dayNumber ?? 0)
            && at.allSatisfy { days.contains($0.date.dayNumber) && $0.time.isValid }
            && monthDays.allSatisfy { (-31...31).contains($0) }
            && weekdayOrdinals.allSatisfy { (-5...5).contains($0.ordinal) }
            && months.allSatisfy { (1...12).contains($0) }
            && (count ?? 1) > 0
    }
}

extension Schedule {
    /// Calls `visit` for every slot whose local date lies in `dates`, date by date and, on
    /// each date, time by time. `start`, `end`, `except`, `interval` and `count` apply.
    /// A schedule that fails `ReminderConfig.validate()` in a way expansion cannot survive
    /// (a zero interval, days beyond ±31, dates past the supported years) has no slots.
    @_spi(Tooling) public func forEachSlot(onDates dates: ClosedRange<CivilDate>, timeline: ZoneTimeline, _ visit: (Slot) -> Void) {
        forEachSlot(onDates: dates, times: nil, timeline: timeline, visit)
    }

    /// `forEachSlot(onDates:timeline:_:)` with the times of day given, as
    /// `timesOfDay.resolved` makes them (nil: made here): a caller that expands a schedule
    /// many times makes them once (a list is sorted into a new array each time, a fifth of
    /// the cost of expanding one date).
    ///
    /// `counts` are `FiringCounts(self)`, which a caller that expands a schedule many
    /// times makes once too.
    func forEachSlot(
        onDates dates: ClosedRange<CivilDate>, times resolvedTimes: [LocalTime]?, counts: FiringCounts? = nil, timeline: ZoneTimeline,
        _ visit: (Slot) -> Void
    ) {
        guard isExpandable, CivilDate.expandableDays.contains(dates.lowerBound.dayNumber),
              CivilDate.expandableDays.contains(dates.upperBound.dayNumber)
        else { return }
        let lower = max(dates.lowerBound, start ?? dates.lowerBound)
        let upper = min(dates.upperBound, end ?? dates.upperBound)
        guard lower <= upper else { return }
        if frequency == .once {
            for (index, slot) in at.enumerated()
            where slot.date >= lower && slot.date <= upper && !exceptions.contains(slot.date) {
                visit(makeSlot(slot, rotationIndex: index, timeline: timeline))
            }
            return
        }
        let times = resolvedTimes ?? timesOfDay.resolved
        var datesBefore = firingDatesBefore(lower, counts: counts)
        // The rotation index counts slots from `start`, which `count` requires: it is the
        // slot's place in the count.
        let countLimit = count ?? Int.max
        forEachFiringDate(from: lower, through: upper) { date in
            if !exceptions.contains(date) {
                // A date with no change of offset within a day of it takes one search for all
                // its times, not one each (`instant(ofLocal:)` asks the same of each time's
                // narrower span, and gets the same offset).
                let dayStart = Int64(date.dayNumber) * 86_400
                let steady = times.count > 1 ? timeline.steadyOffset(throughout: (dayStart - 86_400)...(dayStart + 2 * 86_400)) : nil
                for (index, time) in times.enumerated() {
                    let rotation = datesBefore * times.count + index
                    guard rotation < countLimit else { break }
                    let local = LocalDateTime(date: date, time: time)
                    if let steady {
                        let instant = dayStart + Int64(time.minuteOfDay) * 60 - Int64(steady)
                        visit(Slot(local: local, instant: instant, movedByGap: false, rotationIndex: rotation))
                    } else {
                        visit(makeSlot(local, rotationIndex: rotation, timeline: timeline))
                    }
                }
            }
            datesBefore += 1
        }
    }

    /// Calls `visit` with the slots `forEachSlot` would visit on `local`'s date at
    /// `local`'s time, without expanding the date: an event names one slot, and a schedule
    /// every 5 minutes has 288 a day. `times` is `timesOfDay.resolved`, and `counts`
    /// `FiringCounts(self)`, which the caller makes once per reminder.
    func forEachSlot(
        at local: LocalDateTime, times: [LocalTime], counts: FiringCounts? = nil, timeline: ZoneTimeline, _ visit: (Slot) -> Void
    ) {
        let date = local.date
        guard frequency != .once else {
            forEachSlot(onDates: date...date, timeline: timeline) { if $0.local == local { visit($0) } }
            return
        }
        guard isExpandable, CivilDate.expandableDays.contains(date.dayNumber), !exceptions.contains(date),
              start.map({ $0 <= date }) ?? true, end.map({ date <= $0 }) ?? true
        else { return }
        var fires = false
        forEachFiringDate(from: date, through: date) { _ in fires = true }
        // The times are ascending and distinct: a binary search finds the slot's place.
        var low = 0, high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] < local.time { low = middle + 1 } else { high = middle }
        }
        guard fires, low < times.count, times[low] == local.time else { return }
        let rotation = firingDatesBefore(date, counts: counts) * times.count + low
        guard rotation < count ?? Int.max else { return }
        visit(makeSlot(local, rotationIndex: rotation, timeline: timeline))
    }

    /// At most how many slots `forEachSlot(onDates:times:counts:timeline:_:)` visits in
    /// `dates`, by arithmetic alone: a repeating schedule's times on every date of the
    /// range within `start` and `end` (at most `count`), a one-time schedule's `at`. A
    /// caller sizes its storage with it. (Counting the firing dates exactly costs a
    /// monthly or yearly schedule a walk over its months, more than the copies it saves.)
    func slotCountBound(onDates dates: ClosedRange<CivilDate>, times: [LocalTime]) -> Int {
        guard frequency != .once else { return at.count }
        let lower = max(dates.lowerBound, start ?? dates.lowerBound)
        let upper = min(dates.upperBound, end ?? dates.upperBound)
        guard lower <= upper else { return 0 }
        // Day numbers of supported dates are far from overflowing; others count nothing.
        let days = upper.dayNumber.subtractingReportingOverflow(lower.dayNumber)
        guard !days.overflow, days.partialValue < Int(Int32.max) else { return 0 }
        // A `count` below 1 (which validation refuses) bounds nothing below zero.
        return max(0, min((days.partialValue + 1) * times.count, count ?? Int.max))
    }

    /// Whether `count` leaves slots on a firing date: its first slot's place in the count
    /// is below it. Always true without `count`.
    func isWithinCount(_ date: CivilDate) -> Bool {
        guard let count else { return true }
        return firingDatesBefore(date) * timesOfDay.resolved.count < count
    }

    /// With `count`, the last date it reaches: the date of its last slot, which has no
    /// slot when it is an `except` date. Nil without `count`, or when the schedule never has
    /// that many slots in the supported years. Walks the firing dates from `start` a year
    /// at a time, so it costs one step per counted date.
    public var lastCountedDate: CivilDate? {
        // A count below 1 (which validation refuses) has no last date, and no arithmetic on it.
        guard let count, count > 0 else { return nil }
        let timesPerDate = timesOfDay.resolved.count
        guard timesPerDate > 0 else { return nil }
        return firingDate(number: (count - 1) / timesPerDate + 1)
    }

    /// The `number`-th date (from 1) on which the repeating schedule fires, counted from
    /// its anchor with `except` dates and without `count`; nil when the supported years
    /// hold fewer.
    func firingDate(number datesNeeded: Int) -> CivilDate? {
        guard frequency != .once, isExpandable, datesNeeded > 0 else { return nil }
        var seen = 0
        var found: CivilDate?
        var lower = anchor
        let lastDay = CivilDate(dayNumber: CivilDate.lastSupportedDay)
        while found == nil, lower <= lastDay {
            let upper = min(lastDay, lower.adding(days: 365))
            forEachFiringDate(from: lower, through: upper) { date in
                seen += 1
                if seen == datesNeeded { found = date }
            }
            lower = upper.adding(days: 1)
        }
        return found
    }

    private func makeSlot(_ local: LocalDateTime, rotationIndex: Int, timeline: ZoneTimeline) -> Slot {
        let localSeconds = Int64(local.date.dayNumber) * 86_400 + Int64(local.time.minuteOfDay) * 60
        let (instant, moved) = timeline.instant(ofLocal: localSeconds)
        return Slot(local: local, instant: instant, movedByGap: moved, rotationIndex: rotationIndex)
    }

    /// Calls `visit` for each date in the range on which the repeating schedule has slots,
    /// ignoring `except` (those dates still count for rotation) and `start`/`end` (the
    /// caller clips the range).
    func forEachFiringDate(from lower: CivilDate, through upper: CivilDate, _ visit: (CivilDate) -> Void) {
        let anchorDay = anchor.dayNumber
        switch frequency {
        case .once:
            return
        case .daily:
            var day = anchorDay + ceilingDivide(lower.dayNumber - anchorDay, interval) * interval
            while day <= upper.dayNumber {
                visit(CivilDate(dayNumber: day))
                day += interval
            }
        case .weekly:
            let anchorMonday = mondayOnOrBefore(anchor)
            let weekdaysInOrder = weekdays.sorted()
            var week = ceilingDivide(floorDivide(mondayOnOrBefore(lower) - anchorMonday, 7), interval) * interval
            while anchorMonday + 7 * week <= upper.dayNumber {
                for weekday in weekdaysInOrder {
                    let day = anchorMonday + 7 * week + weekday.rawValue - 1
                    if day >= lower.dayNumber && day <= upper.dayNumber { visit(CivilDate(dayNumber: day)) }
                }
                week += interval
            }
        case .monthly:
            let anchorMonth = absoluteMonth(of: anchor)
            var monthIndex = ceilingDivide(absoluteMonth(of: lower) - anchorMonth, interval) * interval
            while true {
                let (year, month) = yearAndMonth(anchorMonth + monthIndex)
                if CivilDate.dayNumber(year: year, month: month, day: 1) > upper.dayNumber { break }
                visitFiringDays(year: year, month: month, from: lower, through: upper, visit)
                monthIndex += interval
            }
        case .yearly:
            let anchorYear = anchor.components.year
            var year = anchorYear + ceilingDivide(lower.components.year - anchorYear, interval) * interval
            // Made once, not once a year: a range may span many years.
            let months = monthsInOrder
            while CivilDate.dayNumber(year: year, month: 1, day: 1) <= upper.dayNumber {
                for month in months {
                    visitFiringDays(year: year, month: month, from: lower, through: upper, visit)
                }
                year += interval
            }
        }
    }

    /// A yearly schedule's months ascending, each once: the decoder writes them so, and a
    /// schedule built in code may list them in any order or twice, which must neither
    /// visit a date twice nor out of order.
    var monthsInOrder: [Int] {
        var ordered: [Int] = []
        for month in months.sorted() where ordered.last != month { ordered.append(month) }
        return ordered
    }

    /// Calls `visit` for the month's firing days that lie in [lower, upper], ascending.
    private func visitFiringDays(
        year: Int, month: Int, from lower: CivilDate, through upper: CivilDate, _ visit: (CivilDate) -> Void
    ) {
        let firstDay = CivilDate.dayNumber(year: year, month: month, day: 1)
        var days = monthDayMask(length: CivilDate.daysInMonth(year: year, month: month), firstWeekday: CivilDate(dayNumber: firstDay).weekday)
        while days != 0 {
            let dayNumber = firstDay + days.trailingZeroBitCount - 1
            days &= days - 1
            if dayNumber >= lower.dayNumber && dayNumber <= upper.dayNumber { visit(CivilDate(dayNumber: dayNumber)) }
        }
    }

    /// How many dates with slots (counting `except` dates) lie in [anchor, date): the
    /// number of dates before `date` that body rotation counts (Planning rules, "Rotating
    /// bodies"). Closed form for daily and weekly schedules; for monthly and yearly ones,
    /// a pass over at most one 400-year cycle of months or years in between.
    /// Negative when `date` precedes the anchor, so that rotation stays periodic.
    /// `counts` are `FiringCounts(self)`, made here when not given.
    func firingDatesBefore(_ date: CivilDate, counts given: FiringCounts? = nil) -> Int {
        let anchorDay = anchor.dayNumber
        switch frequency {
        case .once:
            return 0
        case .daily:
            return ceilingDivide(date.dayNumber - anchorDay, interval)
        case .weekly:
            return weeklyDatesFromAnchorWeek(before: date) - weeklyDatesFromAnchorWeek(before: anchor)
        case .monthly:
            let counts = given?.monthly ?? MonthlyFiringCounts(self)
            return monthlyDatesFromAnchorMonth(before: date, counts: counts)
                - monthlyDatesFromAnchorMonth(before: anchor, counts: counts)
        case .yearly:
            let counts = given?.yearly ?? YearlyFiringCounts(self)
            return yearlyDatesFromAnchorYear(before: date, counts: counts) - yearlyDatesFromAnchorYear(before: anchor, counts: counts)
        }
    }

    /// Firing dates in [1 January of the anchor's year, date).
    private func yearlyDatesFromAnchorYear(before date: CivilDate, counts: YearlyFiringCounts) -> Int {
        let anchorYear = anchor.components.year
        let (year, month, day) = date.components
        let target = year - anchorYear
        let steps = ceilingDivide(target, interval)
        var count = steps >= 0
            ? counts.total(fromYear: anchorYear, steps: steps, interval: interval)
            : -counts.total(fromYear: anchorYear + steps * interval, steps: -steps, interval: interval)
        if target.isMultiple(of: interval) {
            for earlier in monthsInOrder where earlier <= month {
                let mask = monthDayMask(year: year, month: earlier)
                count += (earlier < month ? mask : mask & ((1 << UInt32(day)) - 1)).nonzeroBitCount
            }
        }
        return count
    }

    /// Firing dates in [Monday of the anchor's week, date).
    private func weeklyDatesFromAnchorWeek(before date: CivilDate) -> Int {
        let week = floorDivide(mondayOnOrBefore(date) - mondayOnOrBefore(anchor), 7)
        let fullWeeks = ceilingDivide(week, interval)
        let earlierThisWeek = week.isMultiple(of: interval) ? weekdays.count { $0 < date.weekday } : 0
        return fullWeeks * weekdays.count + earlierThisWeek
    }

    /// Firing dates in [first of the anchor's month, date).
    private func monthlyDatesFromAnchorMonth(before date: CivilDate, counts: MonthlyFiringCounts) -> Int {
        let anchorMonth = absoluteMonth(of: anchor)
        let target = absoluteMonth(of: date) - anchorMonth
        // The months anchor + k × interval for k in 0..<n, or, when n is negative, less
        // those for k in n..<0.
        let steps = ceilingDivide(target, interval)
        var count = steps >= 0
            ? counts.total(fromMonth: anchorMonth, steps: steps, interval: interval)
            : -counts.total(fromMonth: anchorMonth + steps * interval, steps: -steps, interval: interval)
        if target.isMultiple(of: interval) {
            let (year, month, day) = date.components
            count += (monthDayMask(year: year, month: month) & ((1 << UInt32(day)) - 1)).nonzeroBitCount
        }
        return count
    }
}

/// How many dates a monthly schedule fires on per month, by the month's length and the
/// weekday of its 1st: 4 × 7 kinds of month, so a run of months is counted by lookups.
struct MonthlyFiringCounts: Sendable {
    /// Indexed by `(length − 28) × 7 + weekday of the 1st − 1`.
    private var counts: [Int] = []
    /// When kept, for a monthly schedule whose interval divides a year: the firing dates in
    /// a year of each kind (`kindOfYear`) in the schedule's own months, those whose number
    /// less one leaves `yearPhase` over when divided by `yearInterval`.
    private var yearTotals = InlineArray<14, Int>(repeating: 0)
    private var yearPhase = -1
    private var yearInterval = 0

    /// `keepingYearTotals` makes a monthly schedule's totals by kind of year ahead, for
    /// counts kept for many expansions (`FiringCounts`); counts made for one question make
    /// only the kinds it meets.
    init(_ schedule: Schedule, keepingYearTotals: Bool = false) {
        counts.reserveCapacity(28)
        for length in 28...31 {
            for weekday in Weekday.allCases {
                counts.append(schedule.monthDayMask(length: length, firstWeekday: weekday).nonzeroBitCount)
            }
        }
        let interval = schedule.interval
        if keepingYearTotals, schedule.frequency == .monthly, interval > 0, 12 % interval == 0 {
            let phase = (schedule.anchor.components.month - 1) % interval
            (yearPhase, yearInterval) = (phase, interval)
            for kind in 0..<14 { yearTotals[kind] = yearTotal(kind: kind) { ($0 - 1) % interval == phase } }
        }
    }

    /// Firing dates in a year of `kind` (`kindOfYear`), in the months (1–12) `includes`
    /// accepts. Each month's 1st falls on the weekday its length moves the one before it
    /// to, from 1 January's, which the kind holds; 2001 and 2000 have a common and a leap
    /// year's month lengths.
    func yearTotal(kind: Int, includes: (Int) -> Bool) -> Int {
        let year = kind < 7 ? 2001 : 2000
        var weekday = kind % 7
        var count = 0
        for month in 1...12 {
            let length = CivilDate.daysInMonth(year: year, month: month)
            if includes(month) { count += counts[(length - 28) * 7 + weekday] }
            weekday = (weekday + length) % 7
        }
        return count
    }

    /// Firing dates in one month.
    func count(year: Int, month: Int) -> Int {
        let length = CivilDate.daysInMonth(year: year, month: month)
        let firstWeekday = CivilDate(dayNumber: CivilDate.dayNumber(year: year, month: month, day: 1)).weekday
        return counts[(length - 28) * 7 + firstWeekday.rawValue - 1]
    }

    /// Firing dates in the months `first + k × interval` for k in 0..<steps.
    ///
    /// When the interval divides a year, every year holds the same months of the
    /// schedule, and a year's count follows from its kind (a leap year or not, the weekday
    /// of its 1 January): whole years are counted a year at a time, each kind's count made
    /// once, and only the months before the first whole year and after the last are
    /// walked. Walking every month from the default anchor (2000) to a plan's window
    /// cost W2 8.1 M instructions, a year at a time 4.3 M.
    func total(fromMonth first: Int, steps: Int, interval: Int) -> Int {
        // A run shorter than two years is walked: the year-at-a-time count pays for
        // itself only over whole years.
        guard interval > 0, 12 % interval == 0, steps > 2 * (12 / interval) else {
            return walkedTotal(fromMonth: first, steps: steps, interval: interval)
        }
        let perYear = 12 / interval
        // The schedule's first month in each year is the first month of the year in step
        // with `first`; when `first` is a later one, it and the schedule's months after it
        // in its year are walked before the whole years.
        let monthOfYear = first - floorDivide(first, 12) * 12
        let phase = monthOfYear % interval
        let headSteps = monthOfYear == phase ? 0 : (11 - monthOfYear) / interval + 1
        var total = walkedTotal(fromMonth: first, steps: headSteps, interval: interval)
        let yearStart = first + headSteps * interval
        let years = (steps - headSteps) / perYear
        // The schedule's own phase has its totals made; another (a caller's own `first`)
        // makes each kind's once.
        var byKind = (phase, interval) == (yearPhase, yearInterval) ? yearTotals : InlineArray<14, Int>(repeating: -1)
        total += periodicTotal(from: floorDivide(yearStart, 12), steps: years, interval: 1, cycle: 400) { year in
            let kind = kindOfYear(year)
            if byKind[kind] < 0 { byKind[kind] = yearTotal(kind: kind) { ($0 - 1) % interval == phase } }
            return byKind[kind]
        }
        return total + walkedTotal(fromMonth: yearStart + years * 12, steps: (steps - headSteps) % perYear, interval: interval)
    }

    /// `total(fromMonth:steps:interval:)` month by month.
    private func walkedTotal(fromMonth first: Int, steps: Int, interval: Int) -> Int {
        guard steps > 0 else { return 0 }
        // The months are asked for in ascending order: each one's length and the weekday
        // of its 1st follow from the month before, without converting dates.
        var (year, month) = yearAndMonth(first)
        var weekday = CivilDate(dayNumber: CivilDate.dayNumber(year: year, month: month, day: 1)).weekday.rawValue - 1
        var current = first
        return periodicTotal(from: first, steps: steps, interval: interval, cycle: 4800) { absolute in
            while current < absolute {
                weekday = (weekday + CivilDate.daysInMonth(year: year, month: month)) % 7
                month += 1
                if month > 12 {
                    month = 1
                    year += 1
                }
                current += 1
            }
            return counts[(CivilDate.daysInMonth(year: year, month: month) - 28) * 7 + weekday]
        }
    }
}

/// What counting a monthly or yearly schedule's firing dates takes, made once per
/// schedule: a plan expands each schedule once per range it drafts, and making these for
/// every range cost W2 3.7 M instructions.
enum FiringCounts: Sendable {
    case monthly(MonthlyFiringCounts)
    case yearly(YearlyFiringCounts)
    /// Daily, weekly and one-time schedules count without tables.
    case none

    init(_ schedule: Schedule) {
        switch schedule.frequency {
        case .monthly: self = .monthly(MonthlyFiringCounts(schedule, keepingYearTotals: true))
        case .yearly: self = .yearly(YearlyFiringCounts(schedule))
        case .once, .daily, .weekly: self = .none
        }
    }

    var monthly: MonthlyFiringCounts? {
        if case .monthly(let counts) = self { return counts }
        return nil
    }

    var yearly: YearlyFiringCounts? {
        if case .yearly(let counts) = self { return counts }
        return nil
    }
}

/// How many dates a yearly schedule fires on per year, by whether the year is a leap year
/// and the weekday of its 1 January: 2 × 7 kinds of year.
struct YearlyFiringCounts: Sendable {
    /// Indexed by `(leap ? 7 : 0) + weekday of 1 January − 1`.
    private var counts: [Int] = []

    init(_ schedule: Schedule) {
        let months = MonthlyFiringCounts(schedule)
        let firingMonths = Set(schedule.monthsInOrder)
        counts = (0..<14).map { kind in months.yearTotal(kind: kind) { firingMonths.contains($0) } }
    }

    /// Firing dates in the years `first + k × interval` for k in 0..<steps.
    func total(fromYear first: Int, steps: Int, interval: Int) -> Int {
        periodicTotal(from: first, steps: steps, interval: interval, cycle: 400) { counts[kindOfYear($0)] }
    }
}

/// The sum of `countOf(first + k × interval)` for k in 0..<steps, where `countOf` repeats
/// every `cycle` units (the Gregorian calendar repeats every 400 years, 4800 months). The
/// terms repeat every `cycle / gcd(cycle, interval)` steps, so at most one period is walked
/// however far apart the units lie.
func periodicTotal(from first: Int, steps: Int, interval: Int, cycle: Int, countOf: (Int) -> Int) -> Int {
    var a = cycle
    var b = interval
    while b != 0 { (a, b) = (b, a % b) }
    let period = cycle / a
    let walked = min(steps, period)
    let remainder = steps % period
    var cycleTotal = 0
    var remainderTotal = 0
    for step in 0..<walked {
        let unitCount = countOf(first + step * interval)
        cycleTotal += unitCount
        if step < remainder { remainderTotal += unitCount }
    }
    return steps < period ? cycleTotal : (steps / period) * cycleTotal + remainderTotal
}

/// A year's kind, 0..<14, which fixes every month's length and the weekday of its 1st:
/// `(leap ? 7 : 0) + weekday of 1 January − 1` (Monday 0).
func kindOfYear(_ year: Int) -> Int {
    (CivilDate.isLeapYear(year) ? 7 : 0) + CivilDate(dayNumber: CivilDate.dayNumber(year: year, month: 1, day: 1)).weekday.rawValue - 1
}

/// Months since year 0 (year × 12 + month − 1), for month arithmetic.
func absoluteMonth(of date: CivilDate) -> Int {
    let (year, month, _) = date.components
    return year * 12 + month - 1
}

/// The year and month (1–12) of an absolute month.
func yearAndMonth(_ absoluteMonth: Int) -> (year: Int, month: Int) {
    (floorDivide(absoluteMonth, 12), absoluteMonth - floorDivide(absoluteMonth, 12) * 12 + 1)
}

/// Division rounding toward negative infinity.
func floorDivide(_ dividend: Int, _ divisor: Int) -> Int {
    let quotient = dividend / divisor
    return (dividend % divisor != 0 && (dividend < 0) != (divisor < 0)) ? quotient - 1 : quotient
}

/// Division rounding toward positive infinity.
func ceilingDivide(_ dividend: Int, _ divisor: Int) -> Int {
    -floorDivide(-dividend, divisor)
}
