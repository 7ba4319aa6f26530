/// Carries `sequence` numbers forward from a previous plan (Plan format), and counts up
/// the `SEQUENCE` of each recurring calendar series that changed.
///
/// A series (a reminder at one time of day) changed when one of its instances changed,
/// appeared or disappeared where both plans are complete: after the new `now` and before
/// the earlier of the two `coveredUntil`. Instances that only enter at the window's end or
/// leave it at its start are the window moving on, not a change. Notifications are handed
/// in one at a time, so a plan written in chunks counts exactly as a whole one.
final class SequenceCarrier {
    private let previous: Plan
    private let now: Int64
    private var indexByID: [String: Int] = [:]
    private var matched: [Bool]
    /// The series with a change after `now`, and the instant of their earliest change.
    private var earliestChange: [String: Int64] = [:]

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

    /// The new plan's `seriesSequences`, once every notification was carried: the previous
    /// numbers, each changed series' counted up by one.
    func seriesSequences(coveredUntil: Int64) -> [String: Int] {
        for index in previous.notifications.indices where !matched[index] {
            noteSeriesChange(previous.notifications[index])
        }
        let completeUntil = min(coveredUntil, previous.coveredUntil.seconds)
        var sequences = previous.seriesSequences
        for (series, instant) in earliestChange where instant < completeUntil {
            sequences[series] = Self.countedUp(sequences[series] ?? 0)
        }
        return sequences
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
            earliestChange[series] = min(earliestChange[series] ?? instant, instant)
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
        plan.seriesSequences = carrier.seriesSequences(coveredUntil: plan.coveredUntil.seconds)
    }
}
