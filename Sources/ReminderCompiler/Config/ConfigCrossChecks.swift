/// The "can never fire" warnings (Config reference, "Validation"), which need the compile
/// instant and so are given for configs read from files when `now` is known.
extension ConfigDecoder {
    mutating func warnAboutSchedulesThatNeverFire(_ config: ReminderConfig, options: ConfigOptions) {
        guard let now = options.now, let zoneName = options.timeZoneOverride ?? config.timeZone,
              let zone = zones.zone(zoneName)
        else { return }
        reader.diagnostics.append(contentsOf: Self.neverFiringWarnings(config, now: now, zone: zone, zones: zones))
    }

    /// Warnings for reminders that produce no slot from `now` on (Config reference,
    /// "Validation"): an `end` or every `at` in the past, or a date rule that no date
    /// satisfies.
    static func neverFiringWarnings(_ config: ReminderConfig, now: Int64, zone planZone: ZoneRules, zones: TimeZoneDatabase) -> [Diagnostic] {
        /// Today, and the minute of today, in a zone.
        func today(in zone: ZoneRules) -> (date: CivilDate, minute: Int) {
            let localNow = now + Int64(zone.offsetSeconds(at: now))
            let (date, secondOfDay) = CivilDate.split(localSeconds: localNow)
            return (date, secondOfDay / 60)
        }
        let planToday = today(in: planZone)
        var warnings: [Diagnostic] = []
        // Each reminder is read in place, through a span: binding it (or its schedule), or
        // reading it through the array, copied every field, at every re-plan.
        let reminders = config.reminders.span
        for index in reminders.indices where reminders[index].enabled {
            // Today in the zone the reminder's dates are read in.
            let (today, minuteNow) = reminders[index].timeZone.flatMap { zones.zone($0) }.map(today(in:)) ?? planToday
            // Long enough for every month/leap-year pattern an interval of up to 1000 can visit.
            let searchLimit = today.adding(days: 146_097 * 2)
            let reason: String?
            if let end = reminders[index].schedule.end, end < today {
                reason = "its 'end' \(end) is before today (\(today))"
            } else if let count = reminders[index].schedule.count, let start = reminders[index].schedule.start,
                      let last = reminders[index].schedule.lastCountedDate, last < today {
                reason = "its 'count' of \(count) slots from \(start) ran out on \(last), before today (\(today))"
            } else if reminders[index].schedule.frequency == .once {
                let future = reminders[index].schedule.at.contains { slot in
                    slot.date > today || (slot.date == today && slot.time.minuteOfDay > minuteNow)
                }
                reason = future ? nil : "every 'at' is in the past"
            } else if reminders[index].schedule.firstFiringDate(onOrAfter: today, notAfter: searchLimit) == nil {
                reason = "no date from \(max(today, reminders[index].schedule.start ?? today)) on matches its schedule"
            } else {
                reason = nil
            }
            if let reason {
                warnings.append(Diagnostic(.warning, at: reminders[index].location, .neverFires(reminders[index].id, reason: reason)))
            }
        }
        return warnings
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
