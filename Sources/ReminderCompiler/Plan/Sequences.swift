/// Carries `sequence` numbers forward from a previous plan (Plan format), and counts up
/// the `SEQUENCE` of each recurring calendar series that changed.
///
/// A series (a reminder at one time of day) changed when one of its instances changed,
/// appeared or disappeared where both plans are complete: after the new `now` and before
/// the earlier of the two `coveredUntil`. Instances that only enter at the window's end or
/// leave it at its start are the window moving on, not a change. Notifications are handed
/// in one at a time, so a plan written in chunks counts exactly as a whole one.
///
/// Instances see only where both plans hold notifications. A change to a reminder's
/// definition is seen however far apart the plans lie, and for series beyond either
/// plan's budget: each plan records a digest of every reminder (`reminderDigests`), and a
/// changed digest counts up the reminder's revision, which every series of it adds.
final class SequenceCarrier {
    private let previous: Plan
    private let now: Int64
    private var indexByID: [String: Int] = [:]
    private var matched: [Bool]
    /// The series with a change after `now`: the instant of their earliest change, and
    /// their reminder.
    private var earliestChange: [String: (instant: Int64, reminder: String)] = [:]

    init(_ previous: Plan, now: Int64) {
        self.previous = previous
        self.now = now
        matched = [Bool](repeating: false, count: previous.notifications.count)
        for index in previous.notifications.indices { indexByID[previous.notifications[index].id] = index }
    }

    /// An unchanged notification keeps the previous number, a changed one gets previous + 1,
    /// a new one keeps 0.
    func carry(into notification: inout PlannedNotification) {
        guard let index = indexByID[notification.id] else {
            noteSeriesChange(notification)
            return
        }
        matched[index] = true
        let old = previous.notifications[index]
        let changed = !PlanDiff.changes(from: old, to: notification).isEmpty
        notification.sequence = changed ? Self.countedUp(old.sequence) : old.sequence
        if changed { noteSeriesChange(notification) }
    }

    /// The new plan's `seriesSequences` and `reminderRevisions`, once every notification
    /// was carried. A reminder whose digest changed counts up its revision, which every
    /// series of it carries; the other series count up their own number where one of
    /// their instances changed. So one change counts once. A previous plan without
    /// digests (written before them) counts by instances alone.
    ///
    /// The digests come back with the previous plan's for reminders this one leaves out
    /// (removed or disabled): a reminder that returns changed is then still compared with
    /// what it was.
    func sequences(
        coveredUntil: Int64, digests: [String: String]
    ) -> (series: [String: Int], revisions: [String: Int], digests: [String: String]) {
        var revisions = previous.reminderRevisions
        var revised: Set<String> = []
        for (reminder, digest) in digests {
            if let before = previous.reminderDigests[reminder], before != digest {
                revisions[reminder] = Self.countedUp(revisions[reminder] ?? 0)
                revised.insert(reminder)
            }
        }
        for index in previous.notifications.indices where !matched[index] {
            noteSeriesChange(previous.notifications[index])
        }
        let completeUntil = min(coveredUntil, previous.coveredUntil.seconds)
        var sequences = previous.seriesSequences
        for (series, change) in earliestChange where change.instant < completeUntil && !revised.contains(change.reminder) {
            sequences[series] = Self.countedUp(sequences[series] ?? 0)
        }
        return (sequences, revisions, previous.reminderDigests.merging(digests) { _, current in current })
    }

    /// One more, up to the largest `INTEGER` iCalendar allows (a plan read from a file has
    /// no more; one built in code may).
    private static func countedUp(_ sequence: Int) -> Int {
        sequence < Int(Int32.max) ? sequence + 1 : sequence
    }

    private func noteSeriesChange(_ notification: PlannedNotification) {
        let instant = notification.fireAt.seconds
        // Snoozes are events of their own, with their own sequence.
        guard instant > now, notification.kind != .snooze else { return }
        for reminder in notification.reminders {
            let series = NotificationID.series(reminder, time: notification.slot.time)
            earliestChange[series] = (min(earliestChange[series]?.instant ?? instant, instant), reminder)
        }
    }
}

extension ReminderCompiler {
    /// Carries `sequence` forward from a previous plan (Plan format): an unchanged
    /// notification keeps its number, a changed one gets the previous number + 1, a new
    /// one 0; and `seriesSequences`, counted up for each recurring series that changed.
    public static func carrySequences(into plan: inout Plan, from previous: Plan) {
        let carrier = SequenceCarrier(previous, now: plan.now.seconds)
        for index in plan.notifications.indices { carrier.carry(into: &plan.notifications[index]) }
        (plan.seriesSequences, plan.reminderRevisions, plan.reminderDigests) = carrier.sequences(
            coveredUntil: plan.coveredUntil.seconds, digests: plan.reminderDigests
        )
    }

    /// The digest of every enabled reminder of `config`, by id.
    static func reminderDigests(of config: ReminderConfig, planZone: String) -> [String: String] {
        var digests: [String: String] = [:]
        for reminder in config.reminders where reminder.enabled {
            digests[reminder.id] = reminderDigest(reminder, in: config, planZone: planZone)
        }
        return digests
    }

    /// Sixteen hex digits of everything that shapes a reminder's calendar events: its own
    /// fields but its place in the file, the plan's zone and the quiet hours. Sets and
    /// dictionaries are taken sorted, so the digest is the same in every process; each
    /// value goes into the hash as a length-prefixed field, so no two definitions run
    /// together into the same bytes.
    public static func reminderDigest(_ reminder: Reminder, in config: ReminderConfig, planZone: String) -> String {
        var hash = FingerprintHash()
        func text(_ value: String?) { hash.add(value ?? "\u{0}absent") }
        func number(_ value: Int?) { value.map { hash.add(decimal: Int64($0)) } ?? text(nil) }
        func numbers(_ values: [Int]) {
            number(values.count)
            for value in values { number(value) }
        }
        let schedule = reminder.schedule
        text(reminder.id)
        text(reminder.title)
        text(reminder.body)
        numbers([reminder.bodies.count])
        for body in reminder.bodies { text(body) }
        text(String(reminder.enabled))
        text(schedule.frequency.rawValue)
        // Lists whose order means nothing are taken sorted and without repeats, so that a
        // config written in another order, or read back from a file, digests the same.
        func sortedSet(_ values: [Int]) -> [Int] { Array(Set(values)).sorted() }
        numbers(schedule.timesOfDay.resolved.map(\.minuteOfDay))
        numbers(sortedSet(schedule.weekdays.map(\.rawValue)))
        numbers(sortedSet(schedule.monthDays))
        numbers(sortedSet(schedule.weekdayOrdinals.map { $0.ordinal * 8 + $0.weekday.rawValue }))
        text(schedule.missingDays.rawValue)
        numbers(sortedSet(schedule.months))
        number(schedule.interval)
        number(schedule.count)
        number(schedule.start?.dayNumber)
        number(schedule.end?.dayNumber)
        numbers(schedule.exceptions.map(\.dayNumber).sorted())
        numbers(schedule.at.map { $0.date.dayNumber * 1440 + $0.time.minuteOfDay })
        text(reminder.group)
        text(reminder.activity)
        switch reminder.lookback {
        case nil: text(nil)
        case .seconds(let seconds): text("seconds"); number(seconds)
        case .sameDay: text("sameDay")
        case .sameDayCounted: text("sameDayCounted")
        }
        if let followUp = reminder.followUp {
            numbers([followUp.afterMinutes, followUp.repeatCount, followUp.everyMinutes ?? followUp.afterMinutes])
            text(followUp.title)
            text(followUp.body)
            text(followUp.interruptionLevel?.rawValue)
        } else {
            text(nil)
        }
        text(reminder.interruptionLevel.rawValue)
        text(reminder.category)
        text(reminder.sound)
        text(reminder.threadID)
        number(reminder.userInfo.count)
        for (key, value) in reminder.userInfo.sorted(by: { $0.key < $1.key }) {
            text(key)
            text(value)
        }
        number(reminder.durationMinutes)
        text(String(reminder.replacesEarlier))
        text(reminder.quietHours.map(String.init))
        text(reminder.timeZone)
        text(planZone)
        if let quiet = config.quietHours {
            numbers([quiet.from.minuteOfDay, quiet.until.minuteOfDay])
            text(quiet.action.rawValue)
        } else {
            text(nil)
        }
        return FingerprintHash.hexDigits(of: hash.value)
    }
}
