/// What an app must do to go from one plan to the next (Planning rules, "Diff").
public struct PlanDiff: Sendable, Hashable {
    /// A notification in both plans whose fields differ.
    public struct Update: Sendable, Hashable {
        /// The notification's ID.
        public var id: String
        /// The changed fields, in the plan's key order: name, value before, value after.
        public var changes: [FieldChange]
        /// The new notification.
        public var notification: PlannedNotification
    }

    /// One changed field; a value is nil when the field is absent.
    public struct FieldChange: Sendable, Hashable {
        /// The field's key in the plan JSON.
        public var field: String
        /// The old plan's value, nil when absent there.
        public var before: FieldValue?
        /// The new plan's value, nil when absent there.
        public var after: FieldValue?
    }

    /// Only in the new plan: schedule these.
    public var add: [PlannedNotification] = []
    /// Only in the old plan and still pending at the new plan's `now`: remove these.
    public var cancel: [PlannedNotification] = []
    /// In both, changed: remove the old and schedule the new.
    public var update: [Update] = []
    /// Only in the old plan and already fired at the new plan's `now`: nothing to do.
    public var expired: [PlannedNotification] = []
    /// In both and identical apart from `sequence`.
    public var unchanged = 0
    /// Plan-level fields that differ (`planChanges(from:to:)`).
    public var plan: [FieldChange] = []
    /// The old plan's `coveredUntil`: what is added after it was past the old plan's reach,
    /// which the per-reminder summary (`byReminder`) tells apart from a changed reminder.
    public var oldCoveredUntil: Int64?
    /// The reminders of each plan's config, from its `reminderDigests`; nil for a plan
    /// without them. The per-reminder summary says when a reminder was removed or added.
    public var oldReminders: Set<String>?, newReminders: Set<String>?

    /// The reminders of both plans' configs, when both plans list them.
    static func reminders(of old: Plan, and new: Plan) -> (Set<String>?, Set<String>?) {
        guard !old.reminderDigests.isEmpty, !new.reminderDigests.isEmpty else { return (nil, nil) }
        return (Set(old.reminderDigests.keys), Set(new.reminderDigests.keys))
    }

    /// Whether there is anything to apply or review: a notification or a plan-level field.
    public var hasChanges: Bool { !add.isEmpty || !cancel.isEmpty || !update.isEmpty || !plan.isEmpty }

    /// Compares two plans by notification ID.
    public init(old: Plan, new: Plan) {
        plan = PlanDiff.planChanges(from: old, to: new)
        oldCoveredUntil = old.coveredUntil.seconds
        (oldReminders, newReminders) = Self.reminders(of: old, and: new)
        var oldByID: [String: Int] = [:]
        oldByID.reserveCapacity(old.notifications.count)
        for index in old.notifications.indices { oldByID[old.notifications[index].id] = index }
        var seen = Set<String>()
        seen.reserveCapacity(new.notifications.count)
        for index in new.notifications.indices {
            let id = new.notifications[index].id
            seen.insert(id)
            guard let oldIndex = oldByID[id] else {
                add.append(new.notifications[index])
                continue
            }
            let changes = PlanDiff.changes(from: old.notifications[oldIndex], to: new.notifications[index])
            if changes.isEmpty {
                unchanged += 1
            } else {
                update.append(Update(id: id, changes: changes, notification: new.notifications[index]))
            }
        }
        for index in old.notifications.indices where !seen.contains(old.notifications[index].id) {
            if old.notifications[index].fireAt.seconds > new.now.seconds {
                cancel.append(old.notifications[index])
            } else {
                expired.append(old.notifications[index])
            }
        }
    }

    /// Compares two plan files without decoding the notifications both hold unchanged:
    /// their bytes apart from `sequence` are compared first, and only those that differ are read.
    /// Nil when either file is not a well-formed plan (read it with `readPlan` for errors).
    public init?(oldFile: [UInt8], newFile: [UInt8]) {
        guard let computed = PlanDiff.comparingFiles(oldFile, newFile) else { return nil }
        self = computed
    }

    /// Compares two plan files read a piece at a time, as `init(oldFile:newFile:)` does,
    /// without holding either whole: each call of `oldPieces` or `newPieces` returns the
    /// file's next bytes, empty at its end and nil when it cannot be read. Nil when either
    /// file is not a well-formed plan or could not be read (read it with `readPlan` for
    /// errors).
    public init?(oldPieces: @escaping () -> [UInt8]?, newPieces: @escaping () -> [UInt8]?) {
        guard let computed = PlanDiff.comparing(PlanFileWindow(.pieces(oldPieces)), PlanFileWindow(.pieces(newPieces))) else { return nil }
        self = computed
    }

    /// Compares the plan files at two paths as `init(oldPieces:newPieces:)` does, each read
    /// straight into the window that holds it. Nil when either cannot be opened or read,
    /// or is not a well-formed plan (read it with `readPlan` for errors).
    @_spi(Tooling) public init?(oldPath: String, newPath: String) {
        guard let oldDescriptor = FileAccess.openForReading(oldPath) else { return nil }
        let oldWindow = PlanFileWindow(.file(descriptor: oldDescriptor))
        guard let newDescriptor = FileAccess.openForReading(newPath),
              let computed = PlanDiff.comparing(oldWindow, PlanFileWindow(.file(descriptor: newDescriptor)))
        else { return nil }
        self = computed
    }


    init() {}

    /// The fields that differ, `sequence` aside.
    public static func changes(from old: PlannedNotification, to new: PlannedNotification) -> [FieldChange] {
        // Most notifications are unchanged: compare whole values before field by field.
        var same = old
        same.sequence = new.sequence
        if same == new { return [] }
        let before = FieldValue.fields(of: old)
        let after = FieldValue.fields(of: new)
        var result: [FieldChange] = []
        for name in FieldValue.fieldOrder where name != "sequence" {
            if before[name] != after[name] {
                result.append(FieldChange(field: name, before: before[name], after: after[name]))
            }
        }
        return result
    }
}

/// A notification field's value, as the plan JSON holds it.
public enum FieldValue: Sendable, Hashable {
    /// A string field (`title`, `slot`, `kind`, …).
    case string(String)
    /// A number field (`durationMinutes`, `numericId`, `sequence`).
    case integer(Int)
    /// `fireAt`, `deferredFrom`.
    case instant(ZonedInstant)
    /// `reminders`, `replaces`.
    case strings([String])
    /// `userInfo`.
    case dictionary([String: String])
    /// The plan's `categories`.
    case categories([String: [NotificationAction]])

    /// The notification keys in the order Plan format gives.
    static let fieldOrder = [
        "id", "kind", "fireAt", "deferredFrom", "slot", "timeZone", "reminders", "group", "parent", "title", "body",
        "interruptionLevel", "category", "sound", "threadID", "userInfo", "replaces", "durationMinutes", "numericId", "sequence",
    ]

    /// The fields the plan JSON writes for a notification (absent ones left out).
    static func fields(of notification: PlannedNotification) -> [String: FieldValue] {
        var fields: [String: FieldValue] = [
            "id": .string(notification.id), "kind": .string(notification.kind.rawValue),
            "fireAt": .instant(notification.fireAt), "slot": .string(notification.slot.description),
            "reminders": .strings(notification.reminders), "title": .string(notification.title),
            "body": .string(notification.body), "interruptionLevel": .string(notification.interruptionLevel.rawValue),
            "numericId": .integer(Int(notification.numericId)), "sequence": .integer(notification.sequence),
            "durationMinutes": .integer(notification.durationMinutes),
        ]
        if let deferredFrom = notification.deferredFrom { fields["deferredFrom"] = .instant(deferredFrom) }
        if let timeZone = notification.timeZone { fields["timeZone"] = .string(timeZone) }
        if let group = notification.group { fields["group"] = .string(group) }
        if let parent = notification.parent { fields["parent"] = .string(parent) }
        if let category = notification.category { fields["category"] = .string(category) }
        if let sound = notification.sound { fields["sound"] = .string(sound) }
        if let threadID = notification.threadID { fields["threadID"] = .string(threadID) }
        if !notification.userInfo.isEmpty { fields["userInfo"] = .dictionary(notification.userInfo) }
        if !notification.replaces.isEmpty { fields["replaces"] = .strings(notification.replaces) }
        return fields
    }

    /// How the text diff shows the value: `[a, b]`, `2026-11-23 09:20 +01:00`.
    public var display: String {
        switch self {
        case .string(let text): text
        case .integer(let value): String(value)
        case .instant(let instant): instant.display
        case .strings(let values): "[" + values.joined(separator: ", ") + "]"
        case .dictionary(let values): "{" + values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .categories(let categories):
            "{" + categories.sorted { $0.key < $1.key }.map { category, actions in
                "\(category): [" + actions.map(\.display).joined(separator: ", ") + "]"
            }.joined(separator: "; ") + "}"
        }
    }
}

extension NotificationAction {
    /// `snooze "Later" (snooze 10 min, destructive)`: an action as a diff shows it.
    var display: String {
        var attributes: [String] = []
        if let minutes = snoozeMinutes { attributes.append("snooze \(minutes) min") }
        if destructive { attributes.append("destructive") }
        if foreground { attributes.append("foreground") }
        return "\(id) \"\(title)\"" + (attributes.isEmpty ? "" : " (" + attributes.joined(separator: ", ") + ")")
    }
}

extension ZonedInstant {
    /// `2026-11-23 09:20 +01:00`: the local time a person reads in a diff. An instant or
    /// offset no plan holds is shown as `localSeconds` brings it in range.
    public var display: String {
        let local = localSeconds
        let (date, second) = CivilDate.split(localSeconds: local)
        return "\(date) \(zeroPadded(second / 3600, 2)):\(zeroPadded(second / 60 % 60, 2)) "
            + ZonedInstant.offsetText(writableOffset)
    }
}
