// Plans a day of medication reminders in code, as an app does at launch, and prints what
// to schedule. The moment is fixed so that the output is the same on every run.
import Foundation
import ReminderCompiler

let berlin = TimeZone(identifier: "Europe/Berlin")!
let config = ReminderConfig(timeZone: berlin.identifier, reminders: [
    // A dose logged within two hours before 08:00 silences that day's reminder.
    Reminder(id: "aspirin", title: "Aspirin", schedule: .daily(times: ["08:00"]), lookback: .hours(2)),
    Reminder(id: "metformin", title: "Metformin", schedule: .daily(times: ["13:00", "19:00"])),
])
// Monday 2026-11-23, 07:30 in Berlin; the aspirin was already taken at 07:10.
let now = Date(timeIntervalSince1970: 1_795_415_400)
var events = ReminderEvents()
events.logActivity("aspirin", at: now.addingTimeInterval(-1200))

let result = ReminderCompiler.plan(config, options: CompileOptions(now: now, timeZone: berlin), events: events)
for diagnostic in result.diagnostics { print(diagnostic.formatted) }
guard let plan = result.plan else { exit(1) }
for notification in plan.notifications.prefix(4) {
    print(notification.id, notification.title)
}
