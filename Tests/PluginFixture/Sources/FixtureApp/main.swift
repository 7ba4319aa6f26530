// Uses what remindc generated from medication.reminders.plist: a typo in any of these
// names is a compile error, not a notification that never matches.
let categories = MedicationReminders.Category.all.joined(separator: ",")
let actions = MedicationReminders.Category.Medication.actionIDs.joined(separator: ",")
print("\(MedicationReminders.Reminder.morningPills) \(MedicationReminders.Reminder.eveningWalk)")
print("group \(MedicationReminders.Group.morning) activity \(MedicationReminders.Activity.pills)")
print("category \(categories) actions \(actions) snooze \(MedicationReminders.Category.Medication.Action.snooze)")
