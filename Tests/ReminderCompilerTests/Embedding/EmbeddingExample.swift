// The example of the EmbeddingInAnApp article, compiled and run by EmbeddingExampleTests:
// the lines between the markers must equal the article's code block.
// Article: begin
import Foundation
import ReminderCompiler

/// The app's own record of a medication, as its database holds it.
struct Medication {
    let id: String
    let name: String
    let dose: String
    let times: [String]
    /// nil: every day.
    let weekdays: Set<Weekday>?
}

struct InvalidSchedule: Error {
    let problems: [Diagnostic]
}

/// Builds the config from the app's data, plans after the doses logged, and says what to
/// change in the OS's pending notifications.
func replan(
    medications: [Medication], doses: [(medication: String, at: Date)], pending: [PendingNotification],
    now: Date, zone: TimeZone
) throws -> (plan: Plan, changes: Reconciliation) {
    let reminders = medications.map { medication in
        // A time that does not parse is left out; validate() reports a reminder left without any.
        let times = Schedule.TimesOfDay.list(medication.times.compactMap(LocalTime.init))
        return Reminder(
            id: medication.id, title: medication.name, body: medication.dose,
            schedule: medication.weekdays.map { .weekly($0, times: times) } ?? .daily(times: times),
            group: "doses", lookback: .hours(4),
            followUp: FollowUp(afterMinutes: 30, title: "Not logged yet", interruptionLevel: .timeSensitive),
            category: "dose"
        )
    }
    var config = ReminderConfig(timeZone: zone.identifier, pendingLimit: 64, reservedSlots: 4, reminders: reminders)
    config.groups["doses"] = GroupDefinition(title: "{count} medications due", category: "dose")
    config.categories["dose"] = [
        NotificationAction(id: "taken", title: "Taken"),
        NotificationAction(id: "snooze", title: "Snooze 10 min", snoozeMinutes: 10),
    ]
    // Every rule of the config format, with key paths such as reminders[2].schedule.times[0].
    let problems = config.validate().filter { $0.severity == .error }
    guard problems.isEmpty else { throw InvalidSchedule(problems: problems) }

    var events = ReminderEvents()
    for dose in doses { events.logActivity(dose.medication, at: dose.at) }
    let result = ReminderCompiler.plan(config, options: CompileOptions(now: now, timeZone: zone), events: events)
    guard let plan = result.plan else { throw InvalidSchedule(problems: result.diagnostics) }
    return (plan, plan.reconcile(pending: pending))
}

#if canImport(UserNotifications)
import UserNotifications

/// What iOS holds, with the fingerprint each request was scheduled with.
func pendingRequests(_ center: UNUserNotificationCenter = .current()) async -> [PendingNotification] {
    await center.pendingNotificationRequests().map { request in
        PendingNotification(id: request.identifier, fingerprint: request.content.userInfo["fingerprint"] as? String)
    }
}

/// Removes, then adds: one-time calendar triggers whose date components carry the plan's zone.
func apply(_ changes: Reconciliation, of plan: Plan, to center: UNUserNotificationCenter = .current()) async throws {
    center.removePendingNotificationRequests(withIdentifiers: changes.remove)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = plan.zone ?? .current
    for notification in changes.add {
        let content = UNMutableNotificationContent()
        content.title = notification.title
        content.body = notification.body
        content.categoryIdentifier = notification.category ?? ""
        content.threadIdentifier = notification.threadID ?? ""
        content.userInfo = notification.userInfo.merging(["fingerprint": notification.fingerprint]) { _, new in new }
        switch notification.interruptionLevel {
        case .passive: content.interruptionLevel = .passive
        case .active: content.interruptionLevel = .active
        case .timeSensitive: content.interruptionLevel = .timeSensitive
        case .critical: content.interruptionLevel = .critical
        }
        let components = calendar.dateComponents(
            [.timeZone, .year, .month, .day, .hour, .minute, .second], from: notification.fireDate
        )
        let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: false)
        try await center.add(UNNotificationRequest(identifier: notification.id, content: content, trigger: trigger))
    }
}
#endif
// Article: end
