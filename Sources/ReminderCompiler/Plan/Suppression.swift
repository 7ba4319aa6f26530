/// Why members were removed from a unit's notifications (SPEC §6).
struct UnitRemovals {
    /// Reason by member position, for the unit's own notification.
    var parent: [Int: SuppressedNotification.Reason] = [:]
    /// Reason by member position, for its follow-up.
    var followUp: [Int: SuppressedNotification.Reason] = [:]

    var isEmpty: Bool { parent.isEmpty && followUp.isEmpty }

    /// Removes members from the follow-up and, unless only the follow-up was named, from
    /// the unit's own notification; a member keeps the first reason it was removed for.
    mutating func remove(_ positions: [Int], followUpOnly: Bool, reason: SuppressedNotification.Reason) {
        for position in positions {
            if !followUpOnly, parent[position] == nil { parent[position] = reason }
            if followUp[position] == nil { followUp[position] = reason }
        }
    }
}

/// Identifies a unit: its reminder id or group key, and its slot.
struct UnitKey: Hashable {
    let key: String
    let slot: LocalDateTime
}

/// A snooze notification to add (SPEC §6 rule 3).
struct SnoozePlan {
    /// `{X}-snooze`.
    let id: String
    /// X.
    let parentID: String
    let fireAt: Int64
    /// X's unit; for a member ID, a single-member unit without group.
    let unit: NotificationUnit
    /// The members that no done/skip removed.
    let live: [Int]
    /// Whether X is a follow-up, whose texts the snooze shows.
    let isFollowUp: Bool
}

/// The effect of the events file's `done`, `skip` and `snooze` events.
struct ActionEffects {
    var removals: [UnitKey: UnitRemovals] = [:]
    var snoozes: [SnoozePlan] = []
    var warnings: [Diagnostic] = []
}

/// An occurrence ID taken apart: `{key}-{yyyyMMdd}-{HHmm}` with an optional `-followup`.
struct OccurrenceReference {
    let key: String
    let slot: LocalDateTime
    let isFollowUp: Bool

    init?(_ id: String) {
        var text = Substring(id)
        var followUp = false
        if text.hasSuffix("-followup") {
            followUp = true
            text = text.dropLast("-followup".count)
        }
        let bytes = Array(text.utf8)
        guard bytes.count > 14, bytes[bytes.count - 14] == UInt8(ascii: "-"), bytes[bytes.count - 5] == UInt8(ascii: "-"),
              let year = PlistScalarParser.decimal(bytes[(bytes.count - 13)..<(bytes.count - 9)]),
              let month = PlistScalarParser.decimal(bytes[(bytes.count - 9)..<(bytes.count - 7)]),
              let day = PlistScalarParser.decimal(bytes[(bytes.count - 7)..<(bytes.count - 5)]),
              let hour = PlistScalarParser.decimal(bytes[(bytes.count - 4)..<(bytes.count - 2)]),
              let minute = PlistScalarParser.decimal(bytes[(bytes.count - 2)...]),
              let date = CivilDate(year: year, month: month, day: day), hour < 24, minute < 60,
              let time = LocalTime(minuteOfDay: hour * 60 + minute)
        else { return nil }
        key = String(decoding: bytes[..<(bytes.count - 14)], as: UTF8.self)
        slot = LocalDateTime(date: date, time: time)
        isFollowUp = followUp
    }
}

extension Planner {
    /// What an ID names: a grouped reminder's member occurrence, a single reminder's
    /// notification, or a group's notification.
    enum Target {
        case member(reminder: Int, group: String)
        case single(reminder: Int)
        case group(String)
    }

    func target(named key: String) -> Target? {
        if let index = reminders.firstIndex(where: { $0.id == key }) {
            if let group = reminders[index].group { return .member(reminder: index, group: group) }
            return .single(reminder: index)
        }
        return reminders.contains { $0.group == key } ? .group(key) : nil
    }

    /// The unit of a key and slot, expanded on its own date: events may name notifications
    /// far outside the window (a snooze of yesterday's reminder).
    func unit(key: String, group: String?, slot: LocalDateTime) -> NotificationUnit? {
        let day = Int64(slot.date.dayNumber) * 86_400
        let timeline = window.timeline.span.contains(day - 86_400) && window.timeline.span.contains(day + 2 * 86_400)
            ? window.timeline
            : ZoneTimeline(rules: window.rules, span: (day - 3 * 86_400)...(day + 3 * 86_400))
        var members: [MemberSlot] = []
        for index in reminders.indices where group == nil ? reminders[index].id == key : reminders[index].group == group {
            reminders[index].schedule.forEachSlot(onDates: slot.date...slot.date, timeline: timeline) { found in
                if found.local == slot { members.append(MemberSlot(reminder: index, slot: found)) }
            }
        }
        guard let first = members.first else { return nil }
        var unit = NotificationUnit(key: key, group: group, firstMember: first)
        unit.otherMembers = Array(members.dropFirst())
        return unit
    }

    /// Applies `done`, `skip` and `snooze` events (SPEC §6 rules 2, 3 and 5).
    func actionEffects(_ events: ReminderEvents, units: [NotificationUnit], unitIndex: [UnitKey: Int]) -> ActionEffects {
        var effects = ActionEffects()
        // An event on {X}-snooze is an event on X.
        var actionsByTarget: [String: [OccurrenceAction]] = [:]
        for action in events.actions {
            let target = action.occurrence.hasSuffix("-snooze")
                ? String(action.occurrence.dropLast("-snooze".count)) : action.occurrence
            actionsByTarget[target, default: []].append(action)
        }
        struct Resolved {
            let id: String
            let reference: OccurrenceReference
            let unitKey: UnitKey
            let unit: NotificationUnit
            let positions: [Int]
            let asSingleMember: Bool
            let actions: [OccurrenceAction]
        }
        var resolved: [Resolved] = []
        for (id, actions) in actionsByTarget.sorted(by: { $0.key < $1.key }) {
            guard let reference = OccurrenceReference(id), let target = target(named: reference.key) else {
                effects.warnings += actions.map { Diagnostic(.warning, at: $0.location, .unknownOccurrence($0.occurrence)) }
                continue
            }
            let unitKey: UnitKey
            let group: String?
            switch target {
            case .member(_, let key), .group(let key):
                unitKey = UnitKey(key: key, slot: reference.slot)
                group = key
            case .single:
                unitKey = UnitKey(key: reference.key, slot: reference.slot)
                group = nil
            }
            let found = unitIndex[unitKey].map { units[$0] } ?? unit(key: unitKey.key, group: group, slot: reference.slot)
            var positions: [Int] = []
            var asSingleMember = false
            if let found {
                if case .member(let reminder, _) = target {
                    positions = (0..<found.memberCount).filter { found.member($0).reminder == reminder }
                    asSingleMember = true
                } else {
                    positions = Array(0..<found.memberCount)
                }
            }
            // A follow-up ID names nothing when the unit's reminders have no follow-up.
            if reference.isFollowUp, let found, reminders[found.firstMember.reminder].followUp == nil {
                positions = []
            }
            guard let found, !positions.isEmpty else {
                effects.warnings += actions.map { Diagnostic(.warning, at: $0.location, .unknownOccurrence($0.occurrence)) }
                continue
            }
            resolved.append(Resolved(
                id: id, reference: reference, unitKey: unitKey, unit: found, positions: positions,
                asSingleMember: asSingleMember, actions: actions
            ))
        }
        // Pass 1: done and skip, so that every snooze knows which members are left.
        for target in resolved {
            guard let last = target.actions.last(where: { $0.kind == .done || $0.kind == .skip }) else { continue }
            effects.removals[target.unitKey, default: UnitRemovals()].remove(
                target.positions, followUpOnly: target.reference.isFollowUp, reason: last.kind == .done ? .done : .skip
            )
        }
        // Pass 2: snoozes. Each snooze covers parts: a member's part in a notification and
        // in its follow-up, or in the follow-up only for a follow-up ID. Snoozes may overlap
        // (a member and its group, a notification and its follow-up); each part goes to the
        // covering snooze with the latest `at`, at equal `at` the greater snooze ID, so that the
        // result never depends on how IDs sort (SPEC §6 rule 3).
        struct Part: Hashable {
            let unit: UnitKey
            let position: Int
            let isFollowUp: Bool
        }
        struct Snooze {
            let target: Int
            let at: Int64
            let minutes: Int?
        }
        func beats(_ first: Snooze, _ second: Snooze) -> Bool {
            first.at != second.at ? first.at > second.at : resolved[first.target].id + "-snooze" > resolved[second.target].id + "-snooze"
        }
        func parts(of target: Resolved) -> [Part] {
            target.positions.flatMap { position in
                target.reference.isFollowUp
                    ? [Part(unit: target.unitKey, position: position, isFollowUp: true)]
                    : [Part(unit: target.unitKey, position: position, isFollowUp: false),
                       Part(unit: target.unitKey, position: position, isFollowUp: true)]
            }
        }
        var snoozes: [Snooze] = []
        for (index, target) in resolved.enumerated() {
            // Snoozing one ID twice: the latest `at` wins.
            var latest: Snooze?
            for action in target.actions {
                if case .snooze(let at, let minutes) = action.kind, at >= (latest?.at ?? Int64.min) {
                    latest = Snooze(target: index, at: at, minutes: minutes)
                }
            }
            if let latest { snoozes.append(latest) }
        }
        var winners: [Part: Snooze] = [:]
        for snooze in snoozes {
            for part in parts(of: resolved[snooze.target]) {
                if let current = winners[part], !beats(snooze, current) { continue }
                winners[part] = snooze
            }
        }
        let removedByDoneOrSkip = effects.removals
        for snooze in snoozes {
            let target = resolved[snooze.target]
            let removedBefore = target.reference.isFollowUp
                ? removedByDoneOrSkip[target.unitKey]?.followUp ?? [:] : removedByDoneOrSkip[target.unitKey]?.parent ?? [:]
            // The members whose part (the notification's, or the follow-up's for a follow-up
            // ID) this snooze won and no done/skip removed.
            let live = target.positions.filter { position in
                removedBefore[position] == nil
                    && winners[Part(unit: target.unitKey, position: position, isFollowUp: target.reference.isFollowUp)]?
                        .target == snooze.target
            }
            effects.removals[target.unitKey, default: UnitRemovals()].remove(
                target.positions, followUpOnly: target.reference.isFollowUp, reason: .snoozed
            )
            guard !live.isEmpty else { continue }
            // A member ID snoozes as a single-member notification without group.
            let unit: NotificationUnit
            let positions: [Int]
            if target.asSingleMember {
                let member = target.unit.member(live[0])
                unit = NotificationUnit(key: reminders[member.reminder].id, group: nil, firstMember: member)
                positions = [0]
            } else {
                unit = target.unit
                positions = live
            }
            let minutes = snooze.minutes ?? snoozeMinutes(of: unit, live: positions)
            effects.snoozes.append(SnoozePlan(
                id: target.id + "-snooze", parentID: target.id, fireAt: snooze.at + Int64(minutes) * 60, unit: unit,
                live: positions, isFollowUp: target.reference.isFollowUp
            ))
        }
        return effects
    }

    /// The snooze length of the notification's category, else 10 minutes (SPEC §6).
    func snoozeMinutes(of unit: NotificationUnit, live: [Int]) -> Int {
        let categories = live.map { reminders[unit.member($0).reminder].category }
        let category = unit.group.flatMap { config.groups[$0]?.category }
            ?? (categories.allSatisfy { $0 == categories.first } ? categories.first ?? nil : nil)
        return category.flatMap { config.categories[$0]?.compactMap(\.snoozeMinutes).first } ?? 10
    }

    /// Whether an activity event of `activity` lies in `range` (both ends included).
    func activityLogged(_ activity: String, in range: ClosedRange<Int64>) -> Bool {
        guard let instants = events.activities[activity] else { return false }
        var low = 0
        var high = instants.count
        while low < high {
            let middle = (low + high) / 2
            if instants[middle] < range.lowerBound { low = middle + 1 } else { high = middle }
        }
        return low < instants.count && instants[low] <= range.upperBound
    }

    /// Look-back suppression of a unit's members (SPEC §6 rule 1), added to `removals`
    /// where no other event removed the member already.
    func applyLookBack(to unit: NotificationUnit, followUpInstant: Int64?, removals: inout UnitRemovals) {
        for position in 0..<unit.memberCount {
            let member = unit.member(position)
            guard let lookback = reminders[member.reminder].lookback else { continue }
            let slotInstant = member.slot.instant
            let start: Int64
            switch lookback {
            case .seconds(let seconds):
                start = slotInstant - Int64(seconds)
            case .sameDay:
                start = window.timeline.instant(ofLocal: Int64(member.slot.local.date.dayNumber) * 86_400).instant
            }
            let activity = reminders[member.reminder].activity
            if removals.parent[position] == nil, activityLogged(activity, in: start...max(start, slotInstant)) {
                removals.parent[position] = .activity
            }
            if let followUpInstant, removals.followUp[position] == nil,
               activityLogged(activity, in: start...max(start, followUpInstant))
            {
                removals.followUp[position] = .activity
            }
        }
    }
}
