// Never compiled into anything: the build stops at the config's error first.
let brokenConfigReminders = BrokenReminders.Reminder.self
