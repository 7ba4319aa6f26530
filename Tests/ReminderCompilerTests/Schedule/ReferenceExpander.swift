import Foundation
@_spi(Tooling) @testable import ReminderCompiler

/// A slow, obviously correct expansion of a schedule, independent of the engine: local
/// dates are walked one by one with Foundation's `Calendar`, and each local time is
/// turned into an instant by stepping through UTC minute by minute with `TimeZone`.
struct ReferenceExpander {
    let timeZone: TimeZone
    /// A Gregorian calendar in UTC, used only for date arithmetic on local dates.
    let dates: Calendar

    init(zone: String) {
        timeZone = TimeZone(identifier: zone)!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        dates = calendar
    }

    /// The `Date` at UTC midnight of a civil date, as the reference's date representation.
    func midnight(_ year: Int, _ month: Int, _ day: Int) -> Date {
        dates.date(from: DateComponents(year: year, month: month, day: day))!
    }

    func components(_ date: Date) -> (year: Int, month: Int, day: Int, weekday: Int) {
        let parts = dates.dateComponents([.year, .month, .day, .weekday], from: date)
        // Foundation: Sunday = 1; ISO: Monday = 1.
        return (parts.year!, parts.month!, parts.day!, (parts.weekday! + 5) % 7 + 1)
    }

    func daysBetween(_ from: Date, _ to: Date) -> Int {
        dates.dateComponents([.day], from: from, to: to).day!
    }

    /// Whether the schedule has slots on a date (the Config reference's `schedule` keys read literally), ignoring
    /// `except`, `start` and `end`.
    func repeatsOn(_ schedule: Schedule, _ date: Date) -> Bool {
        let anchorParts = schedule.anchor.components
        let anchor = midnight(anchorParts.year, anchorParts.month, anchorParts.day)
        let (year, month, day, weekday) = components(date)
        switch schedule.frequency {
        case .once:
            return false
        case .daily:
            let days = daysBetween(anchor, date)
            return days % schedule.interval == 0
        case .weekly:
            guard schedule.weekdays.contains(where: { $0.rawValue == weekday }) else { return false }
            let mondayOfDate = dates.date(byAdding: .day, value: -(weekday - 1), to: date)!
            let anchorWeekday = components(anchor).weekday
            let mondayOfAnchor = dates.date(byAdding: .day, value: -(anchorWeekday - 1), to: anchor)!
            let weeks = daysBetween(mondayOfAnchor, mondayOfDate) / 7
            return weeks % schedule.interval == 0
        case .monthly, .yearly:
            if schedule.frequency == .yearly {
                guard (year - anchorParts.year) % schedule.interval == 0, schedule.months.contains(month) else { return false }
            } else {
                let months = (year - anchorParts.year) * 12 + (month - anchorParts.month)
                guard months % schedule.interval == 0 else { return false }
            }
            let length = dates.range(of: .day, in: .month, for: date)!.count
            for entry in schedule.monthDays {
                var target = entry > 0 ? entry : length + 1 + entry
                if target > length || target < 1 {
                    guard schedule.missingDays == .lastDay else { continue }
                    target = entry > 0 ? length : 1
                }
                if target == day { return true }
            }
            for rule in schedule.weekdayOrdinals {
                // Every day of this month with the rule's weekday, in order.
                let matching = (1...length).filter { candidate in
                    components(midnight(year, month, candidate)).weekday == rule.weekday.rawValue
                }
                let index = rule.ordinal > 0 ? rule.ordinal - 1 : matching.count + rule.ordinal
                if matching.indices.contains(index), matching[index] == day { return true }
            }
            return false
        }
    }

    /// Planning rules, "Time zones and daylight-saving changes", by brute force: every UTC minute within 30 hours is tried; the earliest
    /// whose local time equals the slot wins; when none does (a gap), the offset in force
    /// just before the local clock jumped over the slot applies.
    /// With `notBefore`, a time that occurs twice is its first occurrence at or after it.
    func instant(year: Int, month: Int, day: Int, minuteOfDay: Int, notBefore: Int64 = .min) -> (instant: Int64, moved: Bool) {
        let local = Int64(midnight(year, month, day).timeIntervalSince1970) + Int64(minuteOfDay) * 60
        func localTime(_ instant: Int64) -> Int64 {
            instant + Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant))))
        }
        var candidate = local - 15 * 3600
        while candidate <= local + 15 * 3600 {
            if localTime(candidate) == local, candidate >= notBefore { return (candidate, false) }
            candidate += 60
        }
        candidate = local - 15 * 3600
        while candidate <= local + 15 * 3600 {
            if localTime(candidate) < local && localTime(candidate + 60) > local {
                let offsetBefore = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(candidate))))
                return (local - offsetBefore, true)
            }
            candidate += 60
        }
        fatalError("no instant found for a local time")
    }

    /// The times of day by their definition: every minute the rule names, as a set, sorted.
    static func times(_ times: Schedule.TimesOfDay) -> [LocalTime] {
        var minutes = Set<Int>()
        switch times {
        case .list(let list): minutes = Set(list.map(\.minuteOfDay))
        case .spread(let count, let window):
            let from = window.lowerBound.minuteOfDay, to = window.upperBound.minuteOfDay
            for index in 0..<count { minutes.insert(count == 1 ? from : from + index * (to - from) / (count - 1)) }
        case .every(let step, let window):
            var minute = window.lowerBound.minuteOfDay
            while minute <= window.upperBound.minuteOfDay {
                minutes.insert(minute)
                minute += step
            }
        }
        return minutes.sorted().map { LocalTime(minuteOfDay: $0)! }
    }

    /// The slots on local dates first…last with their rotation index, k counted by walking
    /// every date from the anchor; with `count`, those whose k is below it.
    func slots(_ schedule: Schedule, from first: CivilDate, through last: CivilDate) -> [Slot] {
        if schedule.frequency == .once {
            return schedule.at.enumerated().compactMap { index, slot in
                guard slot.date >= first, slot.date <= last, !schedule.exceptions.contains(slot.date),
                      schedule.start.map({ slot.date >= $0 }) ?? true, schedule.end.map({ slot.date <= $0 }) ?? true
                else { return nil }
                let (year, month, day) = slot.date.components
                let (instant, moved) = instant(year: year, month: month, day: day, minuteOfDay: slot.time.minuteOfDay)
                return Slot(local: slot, instant: instant, movedByGap: moved, rotationIndex: index)
            }
        }
        let times = Self.times(schedule.timesOfDay)
        let anchorParts = schedule.anchor.components
        var date = midnight(anchorParts.year, anchorParts.month, anchorParts.day)
        let firstParts = first.components
        let lastParts = last.components
        let firstDate = midnight(firstParts.year, firstParts.month, firstParts.day)
        let lastDate = midnight(lastParts.year, lastParts.month, lastParts.day)
        // Without `start`, the anchor is 2000-01-01 and may lie after the window; walk back.
        var datesBefore = 0
        while date > firstDate {
            date = dates.date(byAdding: .day, value: -1, to: date)!
            if repeatsOn(schedule, date) { datesBefore -= 1 }
        }
        var result: [Slot] = []
        while date <= lastDate {
            let (year, month, day, _) = components(date)
            let civil = CivilDate(year: year, month: month, day: day)!
            if repeatsOn(schedule, date) {
                let inRange = date >= firstDate && schedule.start.map({ civil >= $0 }) ?? true
                    && schedule.end.map({ civil <= $0 }) ?? true
                if inRange && !schedule.exceptions.contains(civil) {
                    for (index, time) in times.enumerated() where datesBefore * times.count + index < schedule.count ?? .max {
                        let (instant, moved) = instant(year: year, month: month, day: day, minuteOfDay: time.minuteOfDay)
                        result.append(Slot(
                            local: LocalDateTime(date: civil, time: time), instant: instant, movedByGap: moved,
                            rotationIndex: datesBefore * times.count + index
                        ))
                    }
                }
                datesBefore += 1
            }
            date = dates.date(byAdding: .day, value: 1, to: date)!
        }
        return result
    }
}
