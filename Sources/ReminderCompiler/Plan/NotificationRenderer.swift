/// Turns notification units into titled notifications (Planning rules, "Rotating bodies",
/// "Groups" and "Follow-ups and nag chains").
struct NotificationRenderer {
    let config: ReminderConfig
    /// The planner's reminders, which `MemberSlot.reminder` indexes.
    let reminders: [Reminder]
    let window: PlanningWindow
    /// `PlanningOrder.unitKeys`.
    let unitKeys: UnitKeys
    /// `PlanningOrder.singleMemberLists`.
    let singleMemberLists: [[String]]
    /// `PlanningOrder.templates`.
    let templates: [String: GroupTemplates]
    /// The contents made so far.
    private let contents: ContentCache
    /// `PlanningOrder.reminderContents`: one reminder's contents, kept for the next plan.
    private let reminderContents: ReminderContents
    /// Whether contents carry their output bytes (`NotificationContent.prepared`).
    let preparesOutput: Bool

    init(config: ReminderConfig, order: PlanningOrder, window: PlanningWindow, preparesOutput: Bool = true) {
        self.config = config
        self.preparesOutput = preparesOutput
        self.reminders = order.reminders
        self.window = window
        self.unitKeys = order.unitKeys
        self.singleMemberLists = order.singleMemberLists
        self.templates = order.templates
        reminderContents = order.reminderContents
        contents = ContentCache(reminderContents, preparingOutput: preparesOutput)
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

    /// A notification of `unit`'s live members (`nil`: all of them), with the content
    /// `content(of:live:followUp:)` gives. IDs kept as parts take their key from the
    /// content, which is the unit's.
    func notification(
        id: StoredID, kind: PlannedNotification.Kind, unit: NotificationUnit, live: [Int]?, followUp: Bool,
        fireAt: Int64, parent: StoredID?, replaces: [String]
    ) -> PlannedNotification {
        let content = content(of: unit, live: live, followUp: followUp)
        // A content made for another key (which the planner never does) gets its IDs as text.
        let key = unitKeys.key(of: unit)
        guard content.idKey == key else {
            return PlannedNotification(
                storedID: .text(id.text(keyText: key)), kind: kind,
                fireAt: window.zoned(fireAt), slot: unit.slot,
                parent: parent.map { .text($0.text(keyText: key)) }, replaces: replaces,
                content: content
            )
        }
        return PlannedNotification(
            storedID: id, kind: kind, fireAt: window.zoned(fireAt), slot: unit.slot, parent: parent, replaces: replaces,
            content: content
        )
    }

    /// The ID of `unit`'s notification, or of its follow-up chain's member `followUp`, as
    /// parts; the date's digits come from the last notification's when it had the same.
    func occurrenceID(of unit: NotificationUnit, followUp: Int) -> StoredID {
        let date = unit.slot.date
        if contents.tailDate != date {
            contents.tailDate = date
            contents.tailDateBytes = OccurrenceTail.dateBytes(of: date)
        }
        return .occurrence(OccurrenceTail(dateBytes: contents.tailDateBytes, time: unit.slot.time, followUp: followUp))
    }

    /// What a notification of `unit`'s live members (`nil`: all of them) shows: a group's
    /// texts come from its templates when two or more members are live, else from the one
    /// member (Planning rules, "Groups" and "Events and suppression"). Follow-ups and
    /// snoozes of follow-ups show the members' follow-up texts. Each distinct content is made once per plan.
    func content(of unit: NotificationUnit, live: [Int]?, followUp: Bool) -> NotificationContent {
        let firstLive = unit.member(live?.first ?? 0)
        if Self.isSingle(unit, live: live) {
            let index = firstLive.reminder
            let slot = contents.place(ofReminder: index, followUp: followUp, body: bodyIndex(of: firstLive))
            if let made = contents.single[slot] { return made }
            let made = NotificationContent(
                texts(of: unit, live: live, followUp: followUp), preparingOutput: preparesOutput, idKey: unitKeys.key(of: unit)
            )
            contents.single[slot] = made
            reminderContents.keep(made, at: slot, preparingOutput: preparesOutput)
            return made
        }
        // One array made to its size: an array literal per member made W2's 3 400 group
        // notifications allocate 9 000 times.
        let liveCount = live?.count ?? unit.memberCount
        var key: [Int] = []
        key.reserveCapacity(1 + 2 * liveCount)
        key.append(followUp ? 1 : 0)
        for index in 0..<liveCount {
            let member = unit.member(live?[index] ?? index)
            key.append(member.reminder)
            key.append(bodyIndex(of: member))
        }
        if let made = contents.shared[key] { return made }
        let made = NotificationContent(
            texts(of: unit, live: live, followUp: followUp), preparingOutput: preparesOutput, idKey: unitKeys.key(of: unit)
        )
        contents.shared[key] = made
        return made
    }

    /// Whether a notification of `unit`'s live members is one reminder's own: not a
    /// group's, and with one member.
    private static func isSingle(_ unit: NotificationUnit, live: [Int]?) -> Bool {
        (live?.count ?? unit.memberCount) <= 1 && !unit.isGroup
    }

    /// Which of its reminder's bodies a member shows: 0 without rotation.
    private func bodyIndex(of member: MemberSlot) -> Int {
        let count = reminders[member.reminder].bodies.count
        return count == 0 ? 0 : ((member.slot.rotationIndex % count) + count) % count
    }

    private func texts(of unit: NotificationUnit, live: [Int]?, followUp: Bool) -> NotificationTexts {
        // Members of a group share a zone (checked when the config is read).
        let zone = window.pinsOtherZones ? window.zoneName(of: reminders[unit.firstMember.reminder]) : nil
        let firstLive = unit.member(live?.first ?? 0)
        let firstIndex = firstLive.reminder
        let firstTexts = texts(of: firstLive, followUp: followUp)
        guard !Self.isSingle(unit, live: live) else {
            return NotificationTexts(
                reminders: singleMemberLists[firstIndex], group: nil, title: firstTexts.title, body: firstTexts.body,
                interruptionLevel: firstTexts.interruptionLevel, category: reminders[firstIndex].category,
                sound: reminders[firstIndex].sound, threadID: reminders[firstIndex].threadID,
                userInfo: reminders[firstIndex].userInfo, durationMinutes: reminders[firstIndex].durationMinutes, timeZone: zone
            )
        }
        let livePositions = live ?? Array(0..<unit.memberCount)
        let first = reminders[firstIndex]
        let members = livePositions.map { reminders[unit.member($0).reminder] }
        let memberTexts = livePositions.map { texts(of: unit.member($0), followUp: followUp) }
        var title = firstTexts.title
        var body = firstTexts.body
        let group = unitKeys.group(of: unit)
        let definition = group.flatMap { config.groups[$0] }
        if memberTexts.count > 1, let group, let template = templates[group] {
            let titles = memberTexts.map(\.title).joined(separator: ", ")
            let count = String(memberTexts.count)
            title = template.title.render(count: count, titles: titles)
            body = template.body.render(count: count, titles: titles)
        }
        return NotificationTexts(
            reminders: members.map(\.id), group: group, title: title, body: body,
            interruptionLevel: memberTexts.map(\.interruptionLevel).max() ?? .active,
            category: definition?.category ?? agreed(members.map(\.category)),
            sound: agreed(members.map(\.sound)), threadID: agreed(members.map(\.threadID)),
            userInfo: members.count == 1 ? first.userInfo : agreed(members.map(\.userInfo)) ?? [:],
            durationMinutes: members.map(\.durationMinutes).max() ?? 15, timeZone: zone
        )
    }

    /// The value all members share, or nil when they differ.
    private func agreed<Value: Equatable>(_ values: [Value?]) -> Value? {
        guard let first = values.first, values.allSatisfy({ $0 == first }) else { return nil }
        return first
    }
}

/// A group's title and body templates. A struct rather than a tuple, whose type a
/// dictionary of tuples made at its first use.
struct GroupTemplates: Sendable {
    let title: GroupTemplate
    let body: GroupTemplate
}

/// A group title or body with `{count}` and `{titles}` placeholders (Config reference,
/// `groups`).
struct GroupTemplate: Sendable {
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

/// The contents a renderer made, so that each is made (and its output prepared) once.
/// Used by one thread at a time, as its planner is.
private final class ContentCache {
    /// Contents of one reminder's notifications, at `ReminderContents.place(ofReminder:followUp:body:)`:
    /// those earlier plans of the config made, and those this one makes.
    var single: [NotificationContent?]
    private let places: ReminderContents
    /// Contents of group notifications, by whether they are follow-ups and by each live
    /// member's reminder and body.
    var shared: [[Int]: NotificationContent] = [:]
    /// The date whose digits IDs kept as parts took last, and those digits.
    var tailDate: CivilDate?
    var tailDateBytes: (UInt64, UInt64) = (0, 0)

    init(_ reminderContents: ReminderContents, preparingOutput: Bool) {
        places = reminderContents
        single = reminderContents.made(preparingOutput: preparingOutput)
    }

    func place(ofReminder reminder: Int, followUp: Bool, body: Int) -> Int {
        places.place(ofReminder: reminder, followUp: followUp, body: body)
    }
}

/// The contents of each reminder's own notifications (not a group's), kept with the
/// validated config (`PlanningOrder.reminderContents`) for every plan of it: they depend on
/// the reminder, its body and whether the notification is a follow-up, never on the
/// window, so an app that re-plans the same checked config makes each once. A W1 re-plan
/// made its 13 contents again for 93 000 instructions. Plans of one config may be made on
/// several threads at once; each takes the contents made so far at its start, and adds
/// those it makes, under a lock (Performance, "Re-planning in an app").
final class ReminderContents: Sendable {
    /// Where each reminder's places start: two per body (first notification, follow-up).
    private let firstPlace: [Int]
    /// Contents made so far, without and with their output bytes
    /// (`NotificationContent.prepared`), by place.
    private let contents: Locked<(plain: [NotificationContent?], prepared: [NotificationContent?])>

    init(bodyCounts: [Int]) {
        var places: [Int] = []
        var total = 0
        for count in bodyCounts {
            places.append(total)
            total += 2 * max(1, count)
        }
        firstPlace = places
        let none = [NotificationContent?](repeating: nil, count: total)
        contents = Locked((none, none))
    }

    func place(ofReminder reminder: Int, followUp: Bool, body: Int) -> Int {
        firstPlace[reminder] + 2 * body + (followUp ? 1 : 0)
    }

    /// The contents made so far, nil where none was.
    func made(preparingOutput: Bool) -> [NotificationContent?] {
        contents.withLock { preparingOutput ? $0.prepared : $0.plain }
    }

    /// Keeps a content a plan made, for the plans after it.
    func keep(_ content: NotificationContent, at place: Int, preparingOutput: Bool) {
        contents.withLock { made in
            if preparingOutput { made.prepared[place] = content } else { made.plain[place] = content }
        }
    }
}
