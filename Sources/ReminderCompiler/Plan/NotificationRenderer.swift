/// Turns notification units into titled notifications (SPEC §5.3–§5.5).
struct NotificationRenderer {
    let config: ReminderConfig
    let window: PlanningWindow

    /// A member's texts as one notification shows them.
    struct MemberTexts {
        var title: String
        var body: String
        var interruptionLevel: InterruptionLevel
    }

    func texts(of reminder: Reminder, slot: Slot) -> MemberTexts {
        let body = reminder.bodies.isEmpty
            ? reminder.body
            : reminder.bodies[((slot.rotationIndex % reminder.bodies.count) + reminder.bodies.count) % reminder.bodies.count]
        return MemberTexts(title: reminder.title, body: body, interruptionLevel: reminder.interruptionLevel)
    }

    func followUpTexts(of reminder: Reminder, slot: Slot) -> MemberTexts {
        var result = texts(of: reminder, slot: slot)
        if let followUp = reminder.followUp {
            result.title = followUp.title ?? result.title
            result.body = followUp.body ?? result.body
            result.interruptionLevel = followUp.interruptionLevel ?? result.interruptionLevel
        }
        return result
    }

    func render(_ unit: NotificationUnit, replaces: [String]) -> PlannedNotification {
        let memberTexts = unit.members.map { texts(of: $0.reminder, slot: $0.slot) }
        return notification(
            id: unit.id, kind: unit.group == nil ? .single : .group, unit: unit, texts: memberTexts,
            fireAt: unit.instant, parent: nil, replaces: replaces
        )
    }

    /// The follow-up of a unit whose members have one, fired `afterMinutes` after it.
    func renderFollowUp(_ unit: NotificationUnit) -> PlannedNotification? {
        // Members of a group agree on afterMinutes (checked when the config is read).
        guard let afterMinutes = unit.members.first?.reminder.followUp?.afterMinutes else { return nil }
        let memberTexts = unit.members.map { followUpTexts(of: $0.reminder, slot: $0.slot) }
        return notification(
            id: unit.id + "-followup", kind: .followUp, unit: unit, texts: memberTexts,
            fireAt: unit.instant + Int64(afterMinutes) * 60, parent: unit.id, replaces: []
        )
    }

    /// A notification of `unit`'s members: a group's texts come from its templates when two
    /// or more members are live, else from the one member (SPEC §5.4).
    func notification(
        id: String, kind: PlannedNotification.Kind, unit: NotificationUnit, texts: [MemberTexts], fireAt: Int64,
        parent: String?, replaces: [String]
    ) -> PlannedNotification {
        let reminders = unit.members.map(\.reminder)
        var title = texts[0].title
        var body = texts[0].body
        var category = reminders[0].category
        if let group = unit.group {
            let definition = config.groups[group]
            if texts.count > 1 {
                let titles = texts.map(\.title).joined(separator: ", ")
                let count = String(texts.count)
                title = fill(definition?.title ?? "{count} reminders", count: count, titles: titles)
                body = fill(definition?.body ?? "{titles}", count: count, titles: titles)
            }
            category = definition?.category ?? agreed(reminders.map(\.category))
        }
        return PlannedNotification(
            id: id, kind: kind, fireAt: window.zoned(fireAt), slot: unit.slot, reminders: reminders.map(\.id),
            group: unit.group, parent: parent, title: title, body: body,
            interruptionLevel: texts.map(\.interruptionLevel).max() ?? .active, category: category,
            sound: agreed(reminders.map(\.sound)), threadID: agreed(reminders.map(\.threadID)),
            userInfo: reminders.count == 1 ? reminders[0].userInfo : agreed(reminders.map(\.userInfo)) ?? [:],
            replaces: replaces, durationMinutes: reminders.map(\.durationMinutes).max() ?? 15
        )
    }

    private func fill(_ template: String, count: String, titles: String) -> String {
        template.replacingOccurrences(of: "{count}", with: count).replacingOccurrences(of: "{titles}", with: titles)
    }

    /// The value all members share, or nil when they differ.
    private func agreed<Value: Equatable>(_ values: [Value?]) -> Value? {
        guard let first = values.first, values.allSatisfy({ $0 == first }) else { return nil }
        return first
    }
}

extension String {
    /// Every occurrence of `target` replaced, without Foundation.
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
