extension PlanDiff {
    /// What a diff does to one reminder, told from the notifications it moves: the line a
    /// reviewer reads before the notification-by-notification detail ("Morning pills: times
    /// 08:00 → 08:30; 24 cancelled, 32 added").
    ///
    /// The signals come from notifications both plans could hold: an added notification
    /// past the old plan's `coveredUntil` is counted in `newInWindow` and tells nothing
    /// about the reminder (the window moved on). Follow-ups and snoozes count, but only
    /// occurrences (`single` and `group` notifications) give times and weekdays.
    public struct ReminderSummary: Sendable, Hashable {
        /// The reminder's id.
        public var reminder: String
        /// The title of one of its own notifications, when the diff holds one.
        public var title: String?
        /// Notifications of the reminder to add, cancel and update (a group notification
        /// counts for each of its members).
        public var added = 0, cancelled = 0, updated = 0
        /// Of `added`, those past the old plan's reach.
        public var newInWindow = 0
        /// Times of day (`HH:mm`) it no longer fires at, and those it now fires at, when
        /// both are known.
        public var timesBefore: [String] = [], timesAfter: [String] = []
        /// Weekdays (`monday`…) it no longer fires on, and those it now fires on, at the
        /// same times, when both are known.
        public var weekdaysBefore: [String] = [], weekdaysAfter: [String] = []
        /// The fields its updated notifications changed one way only (every update that
        /// changed the field gave the same before and after), in the order first met.
        public var fieldChanges: [FieldChange] = []
        /// The fields its updated notifications changed in different ways (`fireAt` after a
        /// change of zone), in the order first met: one name each, however many updates.
        public var variedFields: [String] = []
        /// Every changed field, in the order first met.
        var changedFields: [String] = []
        /// Whether the config of the new plan lost the reminder or gained it; nil when
        /// both have it, or when the plans do not list their reminders.
        public var configChange: ConfigChange?

        /// A reminder that one config has and the other does not.
        public enum ConfigChange: String, Sendable, Hashable {
            /// Only the old plan's config has it.
            case removed
            /// Only the new plan's config has it.
            case added
        }

        /// The summary as one line for people, without the reminder's name.
        public var description: String {
            var parts: [String] = []
            switch configChange {
            case .removed: parts.append("removed from the config")
            case .added: parts.append("new in the config")
            case nil: break
            }
            if !timesBefore.isEmpty { parts.append("times \(timesBefore.joined(separator: ", ")) → \(timesAfter.joined(separator: ", "))") }
            if !weekdaysBefore.isEmpty {
                parts.append("weekdays \(weekdaysBefore.joined(separator: ", ")) → \(weekdaysAfter.joined(separator: ", "))")
            }
            parts += fieldsDescription
            var counts: [String] = []
            if cancelled > 0 { counts.append("\(cancelled) cancelled") }
            if added > 0 { counts.append("\(added) added" + (newInWindow > 0 ? " (\(newInWindow) new in the window)" : "")) }
            if updated > 0 { counts.append("\(updated) updated") }
            parts.append(counts.joined(separator: ", "))
            return parts.joined(separator: "; ")
        }

        /// The field changes in short: `title: A → B` for a field changed one way, else its
        /// name alone; past three fields, their names alone (`title, body, sound changed`).
        var fieldsDescription: [String] {
            guard !changedFields.isEmpty else { return [] }
            if changedFields.count > 3 { return [changedFields.joined(separator: ", ") + " changed"] }
            return changedFields.map { field in fieldChanges.first { $0.field == field }?.displayed ?? "\(field) changed" }
        }

        /// Whether the reminder changed, rather than only gained what the window moved into.
        var hasChange: Bool { cancelled > 0 || updated > 0 || added > newInWindow }
    }

    /// One summary per reminder the diff changes, by reminder id; reminders that only gained
    /// notifications past the old plan's reach are left out.
    public var byReminder: [ReminderSummary] {
        struct Signals {
            var summary: ReminderSummary
            var cancelledSlots: [LocalDateTime] = []
            var addedSlots: [LocalDateTime] = []
            /// Each changed field in the order first met, with its first change; nil once a
            /// later update changed it another way. Looked up, so that thousands of updates
            /// cost one comparison each.
            var fieldOrder: [String] = []
            var firstChange: [String: FieldChange?] = [:]
        }
        var byID: [String: Signals] = [:]
        func record(_ notification: PlannedNotification, _ body: (inout Signals) -> Void) {
            for reminder in notification.reminders {
                var signals = byID[reminder] ?? Signals(summary: ReminderSummary(reminder: reminder))
                if signals.summary.title == nil, notification.kind == .single { signals.summary.title = notification.title }
                body(&signals)
                byID[reminder] = signals
            }
        }
        func isOccurrence(_ notification: PlannedNotification) -> Bool { notification.kind == .single || notification.kind == .group }
        for notification in add {
            let beyondOldPlan = oldCoveredUntil.map { notification.fireAt.seconds >= $0 } ?? false
            record(notification) { signals in
                signals.summary.added += 1
                if beyondOldPlan {
                    signals.summary.newInWindow += 1
                } else if isOccurrence(notification) {
                    signals.addedSlots.append(notification.slot)
                }
            }
        }
        for notification in cancel {
            record(notification) { signals in
                signals.summary.cancelled += 1
                if isOccurrence(notification) { signals.cancelledSlots.append(notification.slot) }
            }
        }
        for update in update {
            record(update.notification) { signals in
                signals.summary.updated += 1
                for change in update.changes {
                    guard let first = signals.firstChange[change.field] else {
                        signals.fieldOrder.append(change.field)
                        signals.firstChange[change.field] = change
                        continue
                    }
                    if first != change { signals.firstChange[change.field] = .some(nil) }
                }
            }
        }
        return byID.keys.sorted().compactMap { id -> ReminderSummary? in
            guard var signals = byID[id] else { return nil }
            if let oldReminders, let newReminders, oldReminders.contains(id) != newReminders.contains(id) {
                signals.summary.configChange = oldReminders.contains(id) ? .removed : .added
            }
            // A reminder new in the config is a change even when all it adds lies past the
            // old plan's reach.
            guard signals.summary.hasChange || signals.summary.configChange != nil else { return nil }
            signals.summary.changedFields = signals.fieldOrder
            for field in signals.fieldOrder {
                if let change = signals.firstChange[field] ?? nil {
                    signals.summary.fieldChanges.append(change)
                } else {
                    signals.summary.variedFields.append(field)
                }
            }
            let timesGone = Set(signals.cancelledSlots.map(\.time)), timesNew = Set(signals.addedSlots.map(\.time))
            let before = timesGone.subtracting(timesNew), after = timesNew.subtracting(timesGone)
            if !before.isEmpty, !after.isEmpty {
                signals.summary.timesBefore = before.sorted().map(\.description)
                signals.summary.timesAfter = after.sorted().map(\.description)
            }
            // Weekdays, among the times both sides have: a weekly reminder moved to other days.
            let sharedTimes = timesGone.intersection(timesNew)
            let daysGone = Set(signals.cancelledSlots.filter { sharedTimes.contains($0.time) }.map(\.date.weekday))
            let daysNew = Set(signals.addedSlots.filter { sharedTimes.contains($0.time) }.map(\.date.weekday))
            let daysBefore = daysGone.subtracting(daysNew), daysAfter = daysNew.subtracting(daysGone)
            if !daysBefore.isEmpty, !daysAfter.isEmpty {
                signals.summary.weekdaysBefore = daysBefore.sorted().map(\.name)
                signals.summary.weekdaysAfter = daysAfter.sorted().map(\.name)
            }
            return signals.summary
        }
    }
}
