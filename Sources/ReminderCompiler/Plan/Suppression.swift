/// Why members were removed from a unit's notifications (Planning rules, "Events and
/// suppression").
struct UnitRemovals {
    /// Reason by member position, for the unit's own notification.
    var parent: [Int: SuppressedNotification.Reason] = [:]
    /// Reason by member position for each follow-up of the chain, `chain[0]` for
    /// `-followup`; shorter than the chain when its later members lost nobody.
    var chain: [[Int: SuppressedNotification.Reason]] = []

    var isEmpty: Bool { parent.isEmpty && chain.allSatisfy(\.isEmpty) }

    /// The removals of chain member `member` (from 1).
    func followUp(_ member: Int) -> [Int: SuppressedNotification.Reason] {
        member <= chain.count ? chain[member - 1] : [:]
    }

    /// Removes a member from chain member `member` unless it was removed already.
    mutating func removeFromFollowUp(_ member: Int, position: Int, reason: SuppressedNotification.Reason) {
        while chain.count < member { chain.append([:]) }
        if chain[member - 1][position] == nil { chain[member - 1][position] = reason }
    }

    /// Removes members from the chain from `firstMember` on and, when `firstMember` is 0
    /// (the notification itself was named), from the notification too; a member keeps the
    /// first reason it was removed for.
    mutating func remove(_ positions: [Int], fromFollowUp firstMember: Int, chainLength: Int, reason: SuppressedNotification.Reason) {
        let first = max(firstMember, 1)
        for position in positions {
            if firstMember == 0, parent[position] == nil { parent[position] = reason }
            // A member named beyond the chain removes nothing (and forms no reversed range).
            guard first <= chainLength else { continue }
            for member in first...chainLength {
                removeFromFollowUp(member, position: position, reason: reason)
            }
        }
    }
}

/// Identifies a unit: its reminder id or group key, and its slot.
struct UnitKey: Hashable {
    let key: String
    let slot: LocalDateTime
}

/// A snooze notification to add (Planning rules, "Events and suppression", on `snooze`).
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
    /// The snooze's own follow-up chain (`{X}-snooze-followup`, …) when X is a
    /// notification or member whose reminders have follow-ups; a snoozed follow-up is the
    /// reminder again already and gets none.
    let chain: FollowUpChain?
}

/// When a notification's follow-ups fire: `afterMinutes` after it, then every
/// `everyMinutes` (Planning rules, "Follow-ups and nag chains"). Members of a group
/// share one chain.
struct FollowUpChain {
    let parentInstant: Int64
    /// Seconds from the parent to the first member, and between later members.
    let firstDelay: Int64
    let step: Int64
    let length: Int

    /// Holds the follow-up's numbers only: made once per notification, it copies no texts.
    init(parentInstant: Int64, followUp: FollowUp) {
        self.parentInstant = parentInstant
        firstDelay = Int64(followUp.afterMinutes) * 60
        step = Int64(followUp.everyMinutes ?? followUp.afterMinutes) * 60
        length = followUp.chainLength
    }

    /// The instant of chain member `member` (from 1).
    func instant(_ member: Int) -> Int64 { parentInstant + firstDelay + Int64(member - 1) * step }
}

/// The effect of the events file's `done`, `skip` and `snooze` events.
struct ActionEffects {
    var removals: [UnitKey: UnitRemovals] = [:]
    var snoozes: [SnoozePlan] = []
    var warnings: [Diagnostic] = []
}

/// An occurrence ID taken apart: `{key}-{yyyyMMdd}-{HHmm}` with an optional follow-up
/// suffix (`-followup`, `-followup-2`, …).
struct OccurrenceReference {
    let key: String
    let slot: LocalDateTime
    /// The follow-up chain member named, from 1; 0 for the notification itself.
    let followUpMember: Int

    var isFollowUp: Bool { followUpMember > 0 }

    init?(_ id: String) {
        let (text, member) = NotificationID.splitFollowUp(Substring(id))
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
        followUpMember = member
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
        if let index = placeByID[key] {
            if let group = reminders[index].group { return .member(reminder: index, group: group) }
            return .single(reminder: index)
        }
        return placesByGroup[key] != nil ? .group(key) : nil
    }

    /// The unit of a key and slot, expanded on its own date: events may name notifications
    /// far outside the window (a snooze of yesterday's reminder).
    func unit(key: String, isGroup: Bool, slot: LocalDateTime) -> NotificationUnit? {
        var members: [MemberSlot] = []
        let places = isGroup ? placesByGroup[key] ?? [] : placeByID[key].map { [$0] } ?? []
        for index in places {
            let timeline = window.timeline(of: reminders[index], covering: slot.date)
            reminders[index].schedule.forEachSlot(at: slot, times: timesOfDay[index], counts: firingCounts[index], timeline: timeline) { found in
                members.append(MemberSlot(reminder: index, slot: found))
            }
        }
        guard let first = members.first else { return nil }
        return NotificationUnit(isGroup: isGroup, firstMember: first, otherMembers: Array(members.dropFirst()))
    }

    /// Applies `done`, `skip` and `snooze` events, and warns about unknown IDs (Planning
    /// rules, "Events and suppression").
    func actionEffects(_ events: ReminderEvents) -> ActionEffects {
        var effects = ActionEffects()
        // An event on {X}-snooze is an event on X.
        // So is an event on one of the snooze's follow-ups: done with the nag is done with X,
        // and snoozing it moves the snooze.
        var actionsByTarget: [String: [OccurrenceAction]] = [:]
        for action in events.actions {
            var target = Substring(action.occurrence)
            let (base, member) = NotificationID.splitFollowUp(target)
            if member > 0, base.hasSuffix("-snooze") { target = base }
            if target.hasSuffix("-snooze") { target = target.dropLast("-snooze".count) }
            actionsByTarget[String(target), default: []].append(action)
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
            let isGroup: Bool
            switch target {
            case .member(_, let key), .group(let key):
                unitKey = UnitKey(key: key, slot: reference.slot)
                isGroup = true
            case .single:
                unitKey = UnitKey(key: reference.key, slot: reference.slot)
                isGroup = false
            }
            let found = unit(key: unitKey.key, isGroup: isGroup, slot: reference.slot)
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
            // A follow-up ID names nothing when the unit's reminders have no follow-up, or a
            // chain that short.
            if reference.isFollowUp, let found,
               reference.followUpMember > reminders[found.firstMember.reminder].followUp?.chainLength ?? 0
            {
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
        func chainLength(of target: Resolved) -> Int {
            reminders[target.unit.firstMember.reminder].followUp?.chainLength ?? 0
        }
        for target in resolved {
            guard let last = target.actions.last(where: { $0.kind == .done || $0.kind == .skip }) else { continue }
            effects.removals[target.unitKey, default: UnitRemovals()].remove(
                target.positions, fromFollowUp: target.reference.followUpMember, chainLength: chainLength(of: target),
                reason: last.kind == .done ? .done : .skip
            )
        }
        // Pass 2: snoozes. Each snooze covers parts: a member's part in a notification and
        // in its follow-up chain, or, for a follow-up ID, in that follow-up and the later
        // ones. Snoozes may overlap (a member and its group, a notification and its
        // follow-up); each part goes to the covering snooze with the latest `at`, at equal
        // `at` the greater snooze ID, so that the result never depends on how IDs sort
        // (Planning rules, "Events and suppression", on overlapping snoozes).
        struct Part: Hashable {
            let unit: UnitKey
            let position: Int
            /// 0 for the notification, else the chain member.
            let member: Int
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
            let first = target.reference.followUpMember
            let last = max(chainLength(of: target), first)
            return target.positions.flatMap { position in
                (first...last).map { Part(unit: target.unitKey, position: position, member: $0) }
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
            let member = target.reference.followUpMember
            let removedBefore = member > 0
                ? removedByDoneOrSkip[target.unitKey]?.followUp(member) ?? [:] : removedByDoneOrSkip[target.unitKey]?.parent ?? [:]
            // The members whose part (the notification's, or the follow-up's for a follow-up
            // ID) this snooze won and no done/skip removed.
            let live = target.positions.filter { position in
                removedBefore[position] == nil
                    && winners[Part(unit: target.unitKey, position: position, member: member)]?.target == snooze.target
            }
            effects.removals[target.unitKey, default: UnitRemovals()].remove(
                target.positions, fromFollowUp: member, chainLength: chainLength(of: target), reason: .snoozed
            )
            guard !live.isEmpty else { continue }
            // A member ID snoozes as a single-member notification without group.
            let unit: NotificationUnit
            let positions: [Int]
            if target.asSingleMember {
                let member = target.unit.member(live[0])
                unit = NotificationUnit(isGroup: false, firstMember: member)
                positions = [0]
            } else {
                unit = target.unit
                positions = live
            }
            let minutes = snooze.minutes ?? snoozeMinutes(of: unit, live: positions)
            let fireAt = snooze.at + Int64(minutes) * 60
            let followUp = member == 0 ? reminders[unit.firstMember.reminder].followUp : nil
            effects.snoozes.append(SnoozePlan(
                id: target.id + "-snooze", parentID: target.id, fireAt: fireAt, unit: unit,
                live: positions, isFollowUp: member > 0, chain: followUp.map { FollowUpChain(parentInstant: fireAt, followUp: $0) }
            ))
        }
        return effects
    }

    /// The snooze length of the notification's category, else 10 minutes (Planning rules,
    /// "Events and suppression").
    func snoozeMinutes(of unit: NotificationUnit, live: [Int]) -> Int {
        let categories = live.map { reminders[unit.member($0).reminder].category }
        let category = unitKeys.group(of: unit).flatMap { config.groups[$0]?.category }
            ?? (categories.allSatisfy { $0 == categories.first } ? categories.first ?? nil : nil)
        return category.flatMap { config.categories[$0]?.compactMap(\.snoozeMinutes).first } ?? 10
    }

    /// How many activity events of `activity` lie in `range` (both ends included).
    func activityCount(_ activity: String, in range: ClosedRange<Int64>) -> Int {
        guard let instants = events.activities[activity] else { return 0 }
        func firstIndex(notBelow bound: Int64, orAbove: Bool) -> Int {
            var low = 0
            var high = instants.count
            while low < high {
                let middle = (low + high) / 2
                if orAbove ? instants[middle] <= bound : instants[middle] < bound { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return firstIndex(notBelow: range.upperBound, orAbove: true) - firstIndex(notBelow: range.lowerBound, orAbove: false)
    }

    /// Whether the look-back of a member removes its part in a notification firing at
    /// `instant` (the slot's own, a follow-up's or a snooze follow-up's): events of its
    /// activity from the look-back's start to `instant` (Planning rules, "Events and
    /// suppression"); with `countsEntries`, as many as the slot's place among the date's
    /// slots (Planning rules, "Counted goals").
    func lookBackRemoves(_ member: MemberSlot, upTo instant: Int64, order: inout DailySlotOrder) -> Bool {
        guard let lookback = reminders[member.reminder].lookback else { return false }
        let start: Int64
        var needed = 1
        switch lookback {
        case .seconds(let seconds):
            start = member.slot.instant - Int64(seconds)
        case .sameDay, .sameDayCounted:
            // Midnight of the slot's date in the zone the reminder is read in.
            start = window.timeline(of: reminders[member.reminder]).instant(ofLocal: Int64(member.slot.local.date.dayNumber) * 86_400).instant
            if lookback == .sameDayCounted { needed = order.place(of: member, in: self) }
        }
        return activityCount(reminders[member.reminder].activity, in: start...max(start, instant)) >= needed
    }

    /// Look-back suppression of a unit's members (Planning rules, "Events and
    /// suppression"), added to `removals` where no other event removed the member already.
    func applyLookBack(
        to unit: NotificationUnit, chain: FollowUpChain?, removals: inout UnitRemovals, order: inout DailySlotOrder
    ) {
        for position in 0..<unit.memberCount {
            let member = unit.member(position)
            guard reminders[member.reminder].lookback != nil else { continue }
            if removals.parent[position] == nil, lookBackRemoves(member, upTo: member.slot.instant, order: &order) {
                removals.parent[position] = .activity
            }
            guard let chain else { continue }
            for link in 1...chain.length where removals.followUp(link)[position] == nil {
                if lookBackRemoves(member, upTo: chain.instant(link), order: &order) {
                    removals.removeFromFollowUp(link, position: position, reason: .activity)
                }
            }
        }
    }
}

/// Where each slot stands among its reminder's slots of the same date, in firing order
/// (instant, then slot), for `countsEntries`: computed once per reminder and date.
struct DailySlotOrder {
    private struct Day: Hashable {
        let reminder: Int
        let date: CivilDate
    }

    private var slots: [Day: [(instant: Int64, local: LocalDateTime)]] = [:]

    /// The slot's place from 1.
    mutating func place(of member: MemberSlot, in planner: Planner) -> Int {
        let day = Day(reminder: member.reminder, date: member.slot.local.date)
        if slots[day] == nil {
            var found: [(instant: Int64, local: LocalDateTime)] = []
            let timeline = planner.window.timeline(of: planner.reminders[member.reminder], covering: day.date)
            planner.reminders[member.reminder].schedule.forEachSlot(onDates: day.date...day.date, timeline: timeline) { slot in
                found.append((slot.instant, slot.local))
            }
            found.sort { ($0.instant, $0.local) < ($1.instant, $1.local) }
            slots[day] = found
        }
        let ordered = slots[day] ?? []
        var low = 0
        var high = ordered.count
        while low < high {
            let middle = (low + high) / 2
            if (ordered[middle].instant, ordered[middle].local) < (member.slot.instant, member.slot.local) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low + 1
    }
}
