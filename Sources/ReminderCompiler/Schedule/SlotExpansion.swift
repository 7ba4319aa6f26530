/// One slot of a reminder's schedule: its nominal local time and its instant.
public struct Slot: Sendable, Hashable {
    /// The nominal local date and time the schedule produced.
    public var local: LocalDateTime
    /// The instant it fires (SPEC §5.1).
    public var instant: Int64
    /// Whether a daylight-saving gap moved it (02:30 on a spring-forward day fires at 03:30).
    public var movedByGap: Bool
    /// k of SPEC §5.3: the slot's position among all slots counted from the anchor date,
    /// including those removed by `except`; selects the rotating body.
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
    }
}

extension Schedule {
    /// Calls `visit` for every slot whose local date lies in `dates`, date by date and, on
    /// each date, time by time. `start`, `end`, `except` and `interval` apply.
    /// A schedule that fails `ReminderConfig.validate()` in a way expansion cannot survive
    /// (a zero interval, days beyond ±31, dates past the supported years) has no slots.
    public func forEachSlot(onDates dates: ClosedRange<CivilDate>, timeline: ZoneTimeline, _ visit: (Slot) -> Void) {
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
        let times = timesOfDay.resolved
        var datesBefore = firingDatesBefore(lower)
        forEachFiringDate(from: lower, through: upper) { date in
            if !exceptions.contains(date) {
                for (index, time) in times.enumerated() {
                    let rotation = datesBefore * times.count + index
                    visit(makeSlot(LocalDateTime(date: date, time: time), rotationIndex: rotation, timeline: timeline))
                }
            }
            datesBefore += 1
        }
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
                let firstDay = CivilDate.dayNumber(year: year, month: month, day: 1)
                if firstDay > upper.dayNumber { break }
                var days = monthDayMask(
                    length: CivilDate.daysInMonth(year: year, month: month), firstWeekday: CivilDate(dayNumber: firstDay).weekday
                )
                while days != 0 {
                    let dayNumber = firstDay + days.trailingZeroBitCount - 1
                    days &= days - 1
                    if dayNumber >= lower.dayNumber && dayNumber <= upper.dayNumber { visit(CivilDate(dayNumber: dayNumber)) }
                }
                monthIndex += interval
            }
        }
    }

    /// How many dates with slots (counting `except` dates) lie in [anchor, date): the
    /// number of dates before `date` that SPEC §5.3's rotation counts. Closed form for
    /// daily and weekly schedules; one pass over the months in between for monthly ones.
    /// Negative when `date` precedes the anchor, so that rotation stays periodic.
    func firingDatesBefore(_ date: CivilDate) -> Int {
        let anchorDay = anchor.dayNumber
        switch frequency {
        case .once:
            return 0
        case .daily:
            return ceilingDivide(date.dayNumber - anchorDay, interval)
        case .weekly:
            return weeklyDatesFromAnchorWeek(before: date) - weeklyDatesFromAnchorWeek(before: anchor)
        case .monthly:
            let counts = MonthlyFiringCounts(self)
            return monthlyDatesFromAnchorMonth(before: date, counts: counts)
                - monthlyDatesFromAnchorMonth(before: anchor, counts: counts)
        }
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
struct MonthlyFiringCounts {
    /// Indexed by `(length − 28) × 7 + weekday of the 1st − 1`.
    private var counts: [Int] = []

    init(_ schedule: Schedule) {
        counts.reserveCapacity(28)
        for length in 28...31 {
            for weekday in Weekday.allCases {
                counts.append(schedule.monthDayMask(length: length, firstWeekday: weekday).nonzeroBitCount)
            }
        }
    }

    /// The Gregorian calendar repeats every 400 years: 4800 months.
    private static let cycleMonths = 4800

    /// Firing dates in the months `first + k × interval` for k in 0..<steps. The kinds of
    /// month repeat every `cycleMonths / gcd(cycleMonths, interval)` steps, so at most one
    /// cycle is walked however far apart the months lie.
    func total(fromMonth first: Int, steps: Int, interval: Int) -> Int {
        var a = Self.cycleMonths
        var b = interval
        while b != 0 { (a, b) = (b, a % b) }
        let period = Self.cycleMonths / a
        let walked = min(steps, period)
        let fullCycles = steps / period
        let remainder = steps % period
        var cycleTotal = 0
        var remainderTotal = 0
        for step in 0..<walked {
            let (year, month) = yearAndMonth(first + step * interval)
            let length = CivilDate.daysInMonth(year: year, month: month)
            let firstWeekday = CivilDate(dayNumber: CivilDate.dayNumber(year: year, month: month, day: 1)).weekday
            let monthCount = counts[(length - 28) * 7 + firstWeekday.rawValue - 1]
            cycleTotal += monthCount
            if step < remainder { remainderTotal += monthCount }
        }
        return steps < period ? cycleTotal : fullCycles * cycleTotal + remainderTotal
    }
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
