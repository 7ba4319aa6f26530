/// Turns notification units into titled notifications (SPEC §5.3–§5.5).
struct NotificationRenderer {
    let config: ReminderConfig
    /// The planner's reminders, which `MemberSlot.reminder` indexes.
    let reminders: [Reminder]
    let window: PlanningWindow
    /// `[id]` for each reminder, made once so that single notifications share one array.
    let singleMemberLists: [[String]]
    /// Parsed title and body templates by group key.
    let templates: [String: (title: GroupTemplate, body: GroupTemplate)]

    init(config: ReminderConfig, reminders: [Reminder], window: PlanningWindow) {
        self.config = config
        self.reminders = reminders
        self.window = window
        self.singleMemberLists = reminders.map { [$0.id] }
        var templates: [String: (title: GroupTemplate, body: GroupTemplate)] = [:]
        for group in Set(reminders.compactMap(\.group)) {
            let definition = config.groups[group]
            templates[group] = (
                GroupTemplate(definition?.title ?? "{count} reminders"), GroupTemplate(definition?.body ?? "{titles}")
            )
        }
        self.templates = templates
    }

    /// A member's texts as one notification shows them.
    struct MemberTexts {
        var title: String
        var body: String
        var interruptionLevel: InterruptionLevel
    }

    func texts(of member: MemberSlot, followUp: Bool) -> MemberTexts {
        // Fields are read through the array: binding the whole reminder would copy it.
        let index = member.reminder
        let count = reminders[index].bodies.count
        var texts = MemberTexts(
            title: reminders[index].title,
            body: count == 0
                ? reminders[index].body : reminders[index].bodies[((member.slot.rotationIndex % count) + count) % count],
            interruptionLevel: reminders[index].interruptionLevel
        )
        if followUp, let replacement = reminders[index].followUp {
            texts.title = replacement.title ?? texts.title
            texts.body = replacement.body ?? texts.body
            texts.interruptionLevel = replacement.interruptionLevel ?? texts.interruptionLevel
        }
        return texts
    }

    /// When the unit's follow-ups fire, if its members have them. Members of a group agree
    /// on the chain (checked when the config is read).
    func followUpChain(of unit: NotificationUnit) -> FollowUpChain? {
        reminders[unit.firstMember.reminder].followUp.map { FollowUpChain(parentInstant: unit.instant, followUp: $0) }
    }

    /// A notification of `unit`'s live members (`nil`: all of them): a group's texts come
    /// from its templates when two or more members are live, else from the one member
    /// (SPEC §5.4, §6 rule 4). Follow-ups and snoozes of follow-ups show the members'
    /// follow-up texts.
    func notification(
        id: String, kind: PlannedNotification.Kind, unit: NotificationUnit, live: [Int]?, followUp: Bool,
        fireAt: Int64, parent: String?, replaces: [String]
    ) -> PlannedNotification {
        // Members of a group share a zone (checked when the config is read).
        let zone = window.pinsOtherZones ? window.zoneName(of: reminders[unit.firstMember.reminder]) : nil
        let firstLive = unit.member(live?.first ?? 0)
        let firstIndex = firstLive.reminder
        let firstTexts = texts(of: firstLive, followUp: followUp)
        guard (live?.count ?? unit.memberCount) > 1 || unit.group != nil else {
            return PlannedNotification(
                id: id, kind: kind, fireAt: window.zoned(fireAt), slot: unit.slot,
                reminders: singleMemberLists[firstIndex], group: nil,
                parent: parent, title: firstTexts.title, body: firstTexts.body,
                interruptionLevel: firstTexts.interruptionLevel, category: reminders[firstIndex].category,
                sound: reminders[firstIndex].sound, threadID: reminders[firstIndex].threadID,
                userInfo: reminders[firstIndex].userInfo, replaces: replaces,
                durationMinutes: reminders[firstIndex].durationMinutes, timeZone: zone
            )
        }
        let livePositions = live ?? Array(0..<unit.memberCount)
        let first = reminders[firstIndex]
        let members = livePositions.map { reminders[unit.member($0).reminder] }
        let memberTexts = livePositions.map { texts(of: unit.member($0), followUp: followUp) }
        var title = firstTexts.title
        var body = firstTexts.body
        let definition = unit.group.flatMap { config.groups[$0] }
        if memberTexts.count > 1, let group = unit.group, let template = templates[group] {
            let titles = memberTexts.map(\.title).joined(separator: ", ")
            let count = String(memberTexts.count)
            title = template.title.render(count: count, titles: titles)
            body = template.body.render(count: count, titles: titles)
        }
        return PlannedNotification(
            id: id, kind: kind, fireAt: window.zoned(fireAt), slot: unit.slot, reminders: members.map(\.id),
            group: unit.group, parent: parent, title: title, body: body,
            interruptionLevel: memberTexts.map(\.interruptionLevel).max() ?? .active,
            category: definition?.category ?? agreed(members.map(\.category)),
            sound: agreed(members.map(\.sound)), threadID: agreed(members.map(\.threadID)),
            userInfo: members.count == 1 ? first.userInfo : agreed(members.map(\.userInfo)) ?? [:],
            replaces: replaces, durationMinutes: members.map(\.durationMinutes).max() ?? 15, timeZone: zone
        )
    }

    /// The value all members share, or nil when they differ.
    private func agreed<Value: Equatable>(_ values: [Value?]) -> Value? {
        guard let first = values.first, values.allSatisfy({ $0 == first }) else { return nil }
        return first
    }
}

/// A group title or body with `{count}` and `{titles}` placeholders (SPEC §3.1).
struct GroupTemplate {
    private enum Part {
        case text(Substring)
        case count
        case titles
    }

    private let parts: [Part]

    init(_ template: String) {
        var parts: [Part] = []
        var rest = template[...]
        while let brace = rest.firstIndex(of: "{") {
            let tail = rest[brace...]
            if tail.hasPrefix("{count}") {
                parts.append(.text(rest[..<brace]))
                parts.append(.count)
                rest = tail.dropFirst("{count}".count)
            } else if tail.hasPrefix("{titles}") {
                parts.append(.text(rest[..<brace]))
                parts.append(.titles)
                rest = tail.dropFirst("{titles}".count)
            } else {
                parts.append(.text(rest[...brace]))
                rest = tail.dropFirst()
            }
        }
        parts.append(.text(rest))
        self.parts = parts
    }

    func render(count: String, titles: String) -> String {
        var result = ""
        for part in parts {
            switch part {
            case .text(let text): result += text
            case .count: result += count
            case .titles: result += titles
            }
        }
        return result
    }
}
