/// Date-level questions about a schedule, on integer day numbers.
extension Schedule {
    /// The anchor that `interval` and rotating bodies count from: `start`, else 2000-01-01.
    public var anchor: CivilDate {
        start ?? CivilDate(dayNumber: CivilDate.dayNumber(year: 2000, month: 1, day: 1))
    }

    /// Whether the schedule has slots on `date`, honouring `start`, `end`, `except`,
    /// `interval` and `count`. For `once`, whether some `at` falls on that date.
    public func firesOn(_ date: CivilDate) -> Bool {
        isExpandable && admits(date) && repeatsOn(date) && (frequency == .once || isWithinCount(date))
    }

    /// The `at` entries of a `once` schedule that fire (those `firesOn` accepts the dates
    /// of), in `at`'s order. One pass: asking `firesOn` of each entry's date would search
    /// `at` once an entry, quadratic in a schedule of 100 000 entries.
    var firingEntries: [LocalDateTime] {
        guard frequency == .once, isExpandable else { return [] }
        return at.filter { admits($0.date) }
    }

    /// Whether `start`, `end` and `except` leave `date` to the date rule, within the days
    /// expansion works with.
    private func admits(_ date: CivilDate) -> Bool {
        guard CivilDate.expandableDays.contains(date.dayNumber) else { return false }
        if let start, date < start { return false }
        if let end, date > end { return false }
        return !exceptions.contains(date)
    }

    /// Whether the schedule's date rule (frequency, interval and days) picks `date`.
    private func repeatsOn(_ date: CivilDate) -> Bool {
        switch frequency {
        case .once:
            return at.contains { $0.date == date }
        case .daily:
            return (date.dayNumber - anchor.dayNumber).isMultiple(of: interval)
        case .weekly:
            guard weekdays.contains(date.weekday) else { return false }
            let weeks = (mondayOnOrBefore(date) - mondayOnOrBefore(anchor)) / 7
            return weeks.isMultiple(of: interval)
        case .monthly:
            let (year, month, day) = date.components
            let (anchorYear, anchorMonth, _) = anchor.components
            let months = (year * 12 + month) - (anchorYear * 12 + anchorMonth)
            guard months.isMultiple(of: interval) else { return false }
            return monthDayMask(year: year, month: month) & (1 << day) != 0
        case .yearly:
            let (year, month, day) = date.components
            guard (year - anchor.components.year).isMultiple(of: interval), months.contains(month) else { return false }
            return monthDayMask(year: year, month: month) & (1 << day) != 0
        }
    }

    /// The days of a month on which a monthly (or, in its `months`, yearly) schedule
    /// fires, before `start`, `end`, `except`, `interval` and `count` are applied;
    /// ascending, without duplicates.
    public func monthDaysFiring(year: Int, month: Int) -> [Int] {
        let mask = monthDayMask(year: year, month: month)
        return (1...31).filter { mask & (1 << $0) != 0 }
    }

    /// The days a monthly schedule fires on in one month, as bits (bit d for day d).
    func monthDayMask(year: Int, month: Int) -> UInt32 {
        let firstDay = CivilDate(dayNumber: CivilDate.dayNumber(year: year, month: month, day: 1))
        return monthDayMask(length: CivilDate.daysInMonth(year: year, month: month), firstWeekday: firstDay.weekday)
    }

    /// The days a monthly schedule fires on in a month of `length` days whose 1st is a
    /// `firstWeekday`: nothing else about the month matters, which makes months countable
    /// by table (see `MonthlyFiringCounts`).
    func monthDayMask(length: Int, firstWeekday: Weekday) -> UInt32 {
        var days: UInt32 = 0
        for entry in monthDays {
            let day = entry > 0 ? entry : length + 1 + entry
            if (1...length).contains(day) {
                days |= 1 << day
            } else if missingDays == .lastDay {
                days |= 1 << (entry > 0 ? length : 1)
            }
        }
        for rule in weekdayOrdinals {
            let day = rule.weekday.dayOfMonth(ordinal: rule.ordinal, length: length, firstWeekday: firstWeekday)
            if (1...length).contains(day) {
                days |= 1 << day
            }
        }
        return days
    }

    /// The first date on or after `from` (and not after `limit`) on which the schedule
    /// fires, or nil.
    ///
    /// Searches spans of a week, then of twice as long up to a year at a time, with the
    /// expansion's own date stepping (a month per step for monthly schedules), so that a schedule that never fires is known in about a
    /// thousand steps over eight centuries rather than in 300 000 days tried one by one.
    public func firstFiringDate(onOrAfter from: CivilDate, notAfter limit: CivilDate) -> CivilDate? {
        guard isExpandable else { return nil }
        let safe = CivilDate.expandableDays
        var lower = CivilDate(dayNumber: max(safe.lowerBound, max(from, start ?? from).dayNumber))
        let limit = CivilDate(dayNumber: min(safe.upperBound, limit.dayNumber))
        let last = min(limit, end ?? limit)
        if frequency == .once {
            return at.lazy.map(\.date).filter { $0 >= lower && $0 <= last && !exceptions.contains($0) }.min()
        }
        // The span looked at doubles from a week to a year: most schedules fire within
        // days, and a daily one walked a whole year's dates to find its first (a W1 re-plan
        // asks 20 times, for 76 000 instructions).
        var span = 7
        // Taken apart from the schedule: a closure reading `self.exceptions` copied the
        // whole schedule, at every call.
        let skipped = exceptions
        while lower <= last {
            let upper = min(last, lower.adding(days: span))
            span = min(2 * span, 365)
            var found: CivilDate?
            forEachFiringDate(from: lower, through: upper) { date in
                if found == nil, !skipped.contains(date) { found = date }
            }
            // Later dates come after more slots: past `count` here, past it everywhere.
            if let found { return isWithinCount(found) ? found : nil }
            lower = upper.adding(days: 1)
        }
        return nil
    }
}

/// The day number of the Monday on or before `date`.
func mondayOnOrBefore(_ date: CivilDate) -> Int {
    date.dayNumber - (date.weekday.rawValue - 1)
}
