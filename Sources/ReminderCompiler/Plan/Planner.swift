/// The window and zone a plan is compiled for.
struct PlanningWindow {
    /// The compile instant; notifications fire strictly after it.
    let now: Int64
    /// The last instant a notification may fire at.
    let windowEnd: Int64
    /// Offsets of the plan's zone around the window.
    let timeline: ZoneTimeline
    /// The zone, for dates outside the timeline's span.
    let rules: ZoneRules
    /// Zones reminders pin their times to, other than this one, by name (see `pinning`).
    var pinnedZones: [String: PinnedZone] = [:]

    func zoned(_ instant: Int64) -> ZonedInstant {
        ZonedInstant(seconds: instant, offsetSeconds: timeline.offset(at: instant))
    }

    func contains(_ instant: Int64) -> Bool { Self.contains(instant, after: now, through: windowEnd) }

    /// The window's rule on its two instants alone, for closures that should not capture
    /// (and copy) a whole window.
    static func contains(_ instant: Int64, after now: Int64, through windowEnd: Int64) -> Bool {
        instant > now && instant <= windowEnd
    }

    /// The timeline when it covers the days around `date`, else one made for them: events
    /// may name slots far outside the window.
    func timeline(covering date: CivilDate) -> ZoneTimeline {
        let day = Int64(date.dayNumber) * 86_400
        return timeline.span.contains(day - 86_400) && timeline.span.contains(day + 2 * 86_400)
            ? timeline : ZoneTimeline(rules: rules, span: (day - 3 * 86_400)...(day + 3 * 86_400))
    }
}

/// One reminder's occurrence at a slot: an index into the planner's reminders, and the slot.
struct MemberSlot {
    let reminder: Int
    let slot: Slot
}

/// The occurrences of one notification before rendering: a reminder's slot, or a group's
/// members at one slot.
///
/// A unit holds no string: the key its notifications' IDs start with comes from its first
/// member's reminder (`UnitKeys`). Held as a string, it was retained and released with
/// each of the 140 000 copies the planner makes of units while drafting and rendering W2.
struct NotificationUnit {
    /// Whether the unit is a group's notification (its key is the group's name), else its
    /// one reminder's (its key is the reminder's id).
    let isGroup: Bool
    /// The first member; most notifications have only this one, kept inline.
    let firstMember: MemberSlot
    /// Further members of a group, ascending by reminder id after the first; nil when there
    /// are none, so that a unit of one member holds no array, and copying one (which the
    /// planner does for each notification it drafts and renders) retains none. Spelt out
    /// for the reason `PlannedNotification.storedParent` gives.
    private var otherMembers: Optional<[MemberSlot]>

    init(isGroup: Bool, firstMember: MemberSlot, otherMembers: [MemberSlot] = []) {
        self.isGroup = isGroup
        self.firstMember = firstMember
        self.otherMembers = otherMembers.isEmpty ? nil : otherMembers
    }

    var slot: LocalDateTime { firstMember.slot.local }
    var instant: Int64 { firstMember.slot.instant }
    var memberCount: Int { 1 + (otherMembers?.count ?? 0) }

    func member(_ index: Int) -> MemberSlot {
        guard index != 0 else { return firstMember }
        // Callers pass positions below `memberCount`: past the first there are further
        // members. One past them traps, as the array's bounds check always did.
        return otherMembers![index - 1]
    }

    /// Adds a member after the others.
    mutating func append(_ member: MemberSlot) {
        if otherMembers?.append(member) == nil { otherMembers = [member] }
    }
}

/// The keys that units' notification IDs start with, by reminder: a group's name for a
/// group's unit, else the reminder's id. Made once with the planning order.
struct UnitKeys: Sendable {
    private let ids: [String]
    private let groups: [String?]

    init(_ reminders: [Reminder]) {
        ids = reminders.map(\.id)
        groups = reminders.map(\.group)
    }

    /// The key the unit's notifications' IDs start with.
    func key(of unit: NotificationUnit) -> String {
        let reminder = unit.firstMember.reminder
        return unit.isGroup ? groups[reminder] ?? ids[reminder] : ids[reminder]
    }

    /// The group's name, for a group's unit.
    func group(of unit: NotificationUnit) -> String? {
        unit.isGroup ? groups[unit.firstMember.reminder] : nil
    }

    /// The ID of the unit's own notification.
    func id(of unit: NotificationUnit) -> String {
        NotificationID.occurrence(key(of: unit), slot: unit.slot)
    }
}

/// What planning takes from a validated config whatever the window: the reminders in
/// planning order and what is looked up by their place there. Made once with the check
/// (`ValidatedConfig.order`), so that re-planning a config does not sort it again.
struct PlanningOrder: Sendable {
    /// The enabled reminders, sorted by the key their notifications' IDs start with (the
    /// group's, else their own id), then by id: group members are listed in ascending
    /// order, nothing depends on the order of the file, and candidates come out nearly in
    /// the order of their IDs, which sorting them relies on to be cheap.
    let reminders: [Reminder]
    /// By reminder: where the key its notifications' IDs start with comes among all keys
    /// in byte order, or -1 for a key whose IDs may sort otherwise (see `Planner.keyRanks(of:)`).
    let keyRanks: [Int]
    /// The keys of units' IDs, by reminder.
    let unitKeys: UnitKeys
    /// By reminder: its times of day, for finding the slot an event names.
    let timesOfDay: [[LocalTime]]
    /// By reminder: what counting its schedule's firing dates takes (for rotation).
    let firingCounts: [FiringCounts]
    /// By reminder: `[id]`, so that single notifications share one array.
    let singleMemberLists: [[String]]
    /// Parsed title and body templates by group key.
    let templates: [String: GroupTemplates]
    /// The contents of each reminder's own notifications, made by the first plan that shows
    /// them and kept for every plan after it.
    let reminderContents: ReminderContents

    /// By reminder in the config's own order, enabled or not: its times of day, for the
    /// warnings, which walk the config in that order.
    let timesOfDayInConfigOrder: [[LocalTime]]

    init(_ config: ReminderConfig) {
        let all = config.reminders
        let places = all.indices.filter { all[$0].enabled }.sorted { (all[$0].group ?? all[$0].id, all[$0].id) < (all[$1].group ?? all[$1].id, all[$1].id) }
        let reminders = places.map { all[$0] }
        self.reminders = reminders
        keyRanks = Planner.keyRanks(of: reminders)
        unitKeys = UnitKeys(reminders)
        let timesOfDayInConfigOrder = all.map(\.schedule.timesOfDay.resolved)
        self.timesOfDayInConfigOrder = timesOfDayInConfigOrder
        timesOfDay = places.map { timesOfDayInConfigOrder[$0] }
        firingCounts = reminders.map { FiringCounts($0.schedule) }
        singleMemberLists = reminders.map { [$0.id] }
        reminderContents = ReminderContents(bodyCounts: reminders.map { $0.bodies.count })
        var templates: [String: GroupTemplates] = [:]
        for group in Set(reminders.compactMap(\.group)) {
            let definition = config.groups[group]
            templates[group] = GroupTemplates(
                title: GroupTemplate(definition?.title ?? "{count} reminders"), body: GroupTemplate(definition?.body ?? "{titles}")
            )
        }
        self.templates = templates
    }
}

/// Builds the notifications of a plan from a validated config (Planning rules, from
/// "Slots and the planning window" to "The budget").
struct Planner {
    /// The enabled reminders in planning order (`PlanningOrder.reminders`).
    let reminders: [Reminder]
    let config: ReminderConfig
    let window: PlanningWindow
    let events: ReminderEvents
    /// Made once: a plan written in chunks drafts and renders many times.
    let renderer: NotificationRenderer
    /// `PlanningOrder.keyRanks`.
    let keyRanks: [Int]
    /// `PlanningOrder.unitKeys`.
    let unitKeys: UnitKeys
    /// `PlanningOrder.timesOfDay`.
    let timesOfDay: [[LocalTime]]
    /// `PlanningOrder.firingCounts`.
    let firingCounts: [FiringCounts]
    /// What the events' `done`, `skip` and `snooze` do, worked out once: each event names
    /// its slot, so a plan drafted in many ranges resolves each event once, not once per
    /// range.
    private(set) var effects = ActionEffects()
    /// Where each reminder id stands among `reminders`, and the places of each group's
    /// members: the events' targets are looked up, not searched for (filled only when
    /// there are events that name notifications).
    private(set) var placeByID: [String: Int] = [:]
    private(set) var placesByGroup: [String: [Int]] = [:]

    init(
        config: ReminderConfig, order: PlanningOrder, window: PlanningWindow, events: ReminderEvents = ReminderEvents(),
        preparesOutput: Bool = true
    ) {
        self.config = config
        self.window = window
        self.events = events
        let reminders = order.reminders
        self.reminders = reminders
        self.renderer = NotificationRenderer(config: config, order: order, window: window, preparesOutput: preparesOutput)
        self.keyRanks = order.keyRanks
        self.unitKeys = order.unitKeys
        self.timesOfDay = order.timesOfDay
        firingCounts = order.firingCounts
        if !events.actions.isEmpty {
            for (place, reminder) in reminders.enumerated() {
                placeByID[reminder.id] = place
                if let group = reminder.group { placesByGroup[group, default: []].append(place) }
            }
            self.effects = actionEffects(events)
        }
    }

    /// `keyRanks` of the reminders.
    static func keyRanks(of reminders: [Reminder]) -> [Int] {
        // Keys are identifiers (ASCII: validation), so strings that are equal have equal
        // bytes; they are ordered by their bytes. Kept as strings, whose dictionary the
        // process has already made: one keyed by byte arrays cost half a million
        // instructions of type metadata at its first use.
        let keys = Set(reminders.map { $0.group ?? $0.id }).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var rankByKey: [String: Int] = [:]
        for (rank, key) in keys.enumerated() { rankByKey[key] = rank }
        // A key that starts another sorts first, and so do its IDs, unless the other goes
        // on with `-`, which the shorter key's IDs go on with too: "a-1" against "a",
        // whose "a-20261123-0800" comes after "a-1-20261123-0800". In byte order, the keys
        // that start with a key follow it at once.
        for (index, key) in keys.enumerated() {
            var next = index + 1
            while next < keys.count, keys[next].utf8.starts(with: key.utf8) {
                if keys[next].utf8.dropFirst(key.utf8.count).first == UInt8(ascii: "-") {
                    rankByKey[key] = -1
                    rankByKey[keys[next]] = -1
                }
                next += 1
            }
        }
        return reminders.map { rankByKey[$0.group ?? $0.id] ?? -1 }
    }


    /// How long after its slot a notification may fire: slots this long before `now` may
    /// still have a follow-up, or a deferred notification, inside the window.
    var lateReach: Int64 { Self.lateReach(of: config) }

    /// The delay of the last follow-up of the longest chain, and a day more where quiet
    /// hours defer (a follow-up may be deferred too), in seconds.
    static func lateReach(of config: ReminderConfig) -> Int64 {
        let chain = Int64(config.reminders.compactMap { $0.followUp.map { $0.delayMinutes(ofMember: $0.chainLength) } }.max() ?? 0) * 60
        return chain + (config.quietHours?.action == .defer ? 86_400 : 0)
    }

    /// Expands every enabled reminder over the local dates the window touches, and merges
    /// grouped reminders by slot.
    /// The local dates whose slots can reach the window: from the day before `now` (less
    /// the longest follow-up) to the day after its end.
    var dateRange: ClosedRange<CivilDate> {
        window.timeline.localDate(of: window.now - lateReach).adding(days: -1)...window.timeline.localDate(of: window.windowEnd).adding(days: 1)
    }

    /// With `only`, the units of those reminders alone, with the other members of their
    /// groups: what the search for repeated numericIds drafts again.
    func units(dates: ClosedRange<CivilDate>? = nil, only: Set<Int>? = nil) -> [NotificationUnit] {
        let dates = dates ?? dateRange
        let groups = only.map { Set($0.compactMap { reminders[$0].group }) }
        let firstDate = dates.lowerBound
        let lastDate = dates.upperBound
        func isDrafted(_ index: Int) -> Bool {
            guard let only, let groups else { return true }
            return only.contains(index) || (reminders[index].group.map(groups.contains) ?? false)
        }
        // A reminder in a zone of its own: its local dates may lie a day either side of the
        // plan's; slots beyond the instants asked for are left out when drafting.
        func draftedDates(of index: Int) -> ClosedRange<CivilDate> {
            window.pinnedZone(of: reminders[index]) == nil ? firstDate...lastDate : firstDate.adding(days: -2)...lastDate.adding(days: 2)
        }
        // Room for every slot of the range, bounded without expanding, so that the array is
        // not copied as it grows: with room for one slot a day per reminder, W2's units were
        // copied once per range of four weeks (3.4 M instructions of copying; 2.3 M less in
        // all, the bound's sums counted). The bound counts every
        // date of the range (a weekly or monthly schedule fires on fewer, a group's members
        // share units), so the room stays within a limit: a window of years is drafted
        // whole only for a few rare searches.
        var units: [NotificationUnit] = []
        var slotBound = 0
        for index in reminders.indices where isDrafted(index) && slotBound < 1 << 16 {
            slotBound += reminders[index].schedule.slotCountBound(onDates: draftedDates(of: index), times: timesOfDay[index])
        }
        units.reserveCapacity(min(slotBound, 1 << 16))
        var groupUnitIndex: [String: [LocalDateTime: Int]] = [:]
        for index in reminders.indices where isDrafted(index) {
            let timeline = window.pinnedZone(of: reminders[index])?.timeline ?? window.timeline
            let dates = draftedDates(of: index)
            guard let group = reminders[index].group else {
                reminders[index].schedule.forEachSlot(onDates: dates, times: timesOfDay[index], counts: firingCounts[index], timeline: timeline) { slot in
                    units.append(NotificationUnit(isGroup: false, firstMember: MemberSlot(reminder: index, slot: slot)))
                }
                continue
            }
            // The group's units by slot, taken out for this reminder's slots (looked up by
            // the group's name once, not once a slot) and put back after.
            var unitBySlot = groupUnitIndex.removeValue(forKey: group) ?? [:]
            reminders[index].schedule.forEachSlot(onDates: dates, times: timesOfDay[index], counts: firingCounts[index], timeline: timeline) { slot in
                let member = MemberSlot(reminder: index, slot: slot)
                if let unitIndex = unitBySlot[slot.local] {
                    units[unitIndex].append(member)
                } else {
                    unitBySlot[slot.local] = units.count
                    units.append(NotificationUnit(isGroup: true, firstMember: member))
                }
            }
            groupUnitIndex[group] = unitBySlot
        }
        return units
    }

    /// The notifications inside the window after the events, in the budget's order
    /// `(fireAt, id)` (Planning rules, "The budget"), not yet rendered: the budget decides
    /// which are worth rendering.
    ///
    /// With `instants`, only notifications and removals firing in that range are kept: a
    /// plan written in chunks drafts one range of instants at a time.
    ///
    /// Unless `sorted`, the candidates are left in the order they were made: a range drafted
    /// only to count what it holds needs no order.
    func draft(of units: [NotificationUnit], instants: Range<Int64>? = nil, sorted: Bool = true) -> PlanDraft {
        func accepts(_ instant: Int64) -> Bool { window.contains(instant) && (instants?.contains(instant) ?? true) }
        // Deferring quiet hours move a notification up to a day later: parts from a day
        // before the range may fire in it.
        let quiet = config.quietHours
        let lateness: Int64 = quiet?.action == .defer ? 86_400 : 0
        func mayFire(_ instant: Int64) -> Bool {
            guard lateness > 0 else { return accepts(instant) }
            return instant <= window.windowEnd && instant + lateness > window.now
                && (instants.map { instant < $0.upperBound && instant + lateness >= $0.lowerBound } ?? true)
        }
        // Taken out of the planner: a closure below that read it through `self` would copy
        // the whole planner, its arrays retained, once per unit (W1's re-plan 0.51 M → 0.74 M).
        let unitKeys = self.unitKeys
        var draft = PlanDraft(units: units, keyRanks: keyRanks, unitKeys: unitKeys)
        var removalsByUnit: [Int: UnitRemovals] = [:]
        if !effects.removals.isEmpty {
            for index in units.indices {
                if let removals = effects.removals[UnitKey(key: unitKeys.key(of: units[index]), slot: units[index].slot)] { removalsByUnit[index] = removals }
            }
        }
        draft.warnings = effects.warnings

        /// Adds one notification (of `unit`'s members at `among`, all when nil, less those
        /// in `removed`) due at `instant` as a candidate, after the quiet hours deferred or
        /// dropped it; lists the removed members where it would have fired inside the range,
        /// under the ID that `id` makes (only then).
        func place(
            _ instant: Int64, id: () -> String, unit: NotificationUnit, among positions: [Int]?,
            removed: [Int: SuppressedNotification.Reason], followUp: Bool, kind: Candidate.Kind, unitIndex: Int
        ) {
            let total = positions?.count ?? unit.memberCount
            var fireAt = instant
            if let quiet {
                let members = positions ?? Array(0..<unit.memberCount)
                let live = members.filter { removed[$0] == nil }
                // One member exempt (critical, or `quietHours: false`) keeps the notification
                // on time; one the events removed entirely is judged by all its members.
                let observed = (live.isEmpty ? members : live).allSatisfy { position in
                    let reminder = reminders[unit.member(position).reminder]
                    let level = followUp ? reminder.followUp?.interruptionLevel ?? reminder.interruptionLevel : reminder.interruptionLevel
                    return reminder.observesQuietHours(at: level)
                }
                if observed {
                    guard let moved = quiet.outcome(of: instant, timeline: window.timeline) else {
                        guard accepts(instant) else { return }
                        var all = removed
                        for position in live { all[position] = .quietHours }
                        if !all.isEmpty { draft.recordSuppressed(all, of: unit, id: id(), fireAt: instant, reminders: reminders) }
                        return
                    }
                    fireAt = moved
                }
            }
            guard accepts(fireAt) else { return }
            if removed.count < total {
                draft.candidates.append(Candidate(fireAt: fireAt, dueAt: instant, unit: unitIndex, kind: kind))
            }
            if !removed.isEmpty { draft.recordSuppressed(removed, of: unit, id: id(), fireAt: fireAt, reminders: reminders) }
        }

        let lookBackApplies = !events.activities.isEmpty
        // Without events no unit loses members, and the per-unit bookkeeping is skipped.
        let mayRemove = lookBackApplies || !removalsByUnit.isEmpty
        var order = DailySlotOrder()
        draft.candidates.reserveCapacity(units.count)
        for index in units.indices {
            let unit = units[index]
            let inWindow = mayFire(unit.instant)
            let chain = renderer.followUpChain(of: unit)
            let chainInWindow = chain.map { chain in (1...chain.length).contains { mayFire(chain.instant($0)) } } ?? false
            guard inWindow || chainInWindow else { continue }
            var removals = mayRemove ? removalsByUnit[index] ?? UnitRemovals() : UnitRemovals()
            if lookBackApplies {
                applyLookBack(to: unit, chain: chain, removals: &removals, order: &order)
            }
            if inWindow {
                place(unit.instant, id: { unitKeys.id(of: unit) }, unit: unit, among: nil, removed: removals.parent, followUp: false, kind: .parent, unitIndex: index)
            }
            if chainInWindow, let chain {
                for link in 1...chain.length where mayFire(chain.instant(link)) {
                    place(
                        chain.instant(link), id: { NotificationID.followUp(of: unitKeys.id(of: unit), member: link) }, unit: unit, among: nil,
                        removed: removals.followUp(link), followUp: true, kind: .followUp(link), unitIndex: index
                    )
                }
            }
            if mayRemove, !removals.isEmpty { draft.removals[index] = removals }
        }
        for (index, snooze) in effects.snoozes.enumerated() {
            if mayFire(snooze.fireAt) {
                place(
                    snooze.fireAt, id: { snooze.id }, unit: snooze.unit, among: snooze.live, removed: [:], followUp: snooze.isFollowUp,
                    kind: .snooze(index), unitIndex: -1
                )
            }
            guard let chain = snooze.chain else { continue }
            for link in 1...chain.length where mayFire(chain.instant(link)) {
                // The snooze's follow-ups answer to the look-back like the notification's.
                var removed: [Int: SuppressedNotification.Reason] = [:]
                if lookBackApplies {
                    for position in snooze.live where lookBackRemoves(snooze.unit.member(position), upTo: chain.instant(link), order: &order) {
                        removed[position] = .activity
                    }
                }
                if !removed.isEmpty { draft.snoozeChainRemovals[SnoozeLink(snooze: index, link: link)] = removed }
                draft.snoozeLinks.append(SnoozeLink(snooze: index, link: link))
                place(
                    chain.instant(link), id: { NotificationID.followUp(of: snooze.id, member: link) }, unit: snooze.unit,
                    among: snooze.live, removed: removed, followUp: true, kind: .snoozeFollowUp(draft.snoozeLinks.count - 1), unitIndex: -1
                )
            }
        }
        draft.snoozes = effects.snoozes
        if sorted { draft.sortCandidates() }
        draft.suppressed.sort { ($0.fireAt.seconds, $0.id, $0.reason.rawValue) < ($1.fireAt.seconds, $1.id, $1.reason.rawValue) }
        draft.suppressed = draft.suppressed.map { entry in
            var entry = entry
            entry.fireAt = window.zoned(entry.fireAt.seconds)
            return entry
        }
        return draft
    }

    /// Renders candidates into notifications, in the given order.
    func render(_ candidates: ArraySlice<Candidate>, of draft: PlanDraft) -> [PlannedNotification] {
        let replaced = earlierIDsOnSameDate(draft.units)
        var notifications: [PlannedNotification] = []
        notifications.reserveCapacity(candidates.count)
        for candidate in candidates {
            switch candidate.kind {
            case .parent:
                let unit = draft.units[candidate.unit]
                let live = draft.removals[candidate.unit].map { removals in
                    (0..<unit.memberCount).filter { removals.parent[$0] == nil }
                }
                notifications.append(renderer.notification(
                    id: renderer.occurrenceID(of: unit, followUp: 0), kind: unit.isGroup ? .group : .single, unit: unit, live: live, followUp: false,
                    fireAt: candidate.fireAt, parent: nil, replaces: replaced.isEmpty ? [] : replaced[candidate.unit] ?? []
                ))
            case .followUp(let link):
                let unit = draft.units[candidate.unit]
                let live = draft.removals[candidate.unit].map { removals in
                    let removed = removals.followUp(link)
                    return (0..<unit.memberCount).filter { removed[$0] == nil }
                }
                notifications.append(renderer.notification(
                    id: renderer.occurrenceID(of: unit, followUp: link), kind: .followUp, unit: unit, live: live,
                    followUp: true, fireAt: candidate.fireAt, parent: renderer.occurrenceID(of: unit, followUp: 0), replaces: []
                ))
            case .snooze(let index):
                let snooze = draft.snoozes[index]
                notifications.append(renderer.notification(
                    id: .text(snooze.id), kind: .snooze, unit: snooze.unit, live: snooze.live, followUp: snooze.isFollowUp,
                    fireAt: candidate.fireAt, parent: .text(snooze.parentID), replaces: []
                ))
            case .snoozeFollowUp(let index):
                let link = draft.snoozeLinks[index]
                let snooze = draft.snoozes[link.snooze]
                let removed = draft.snoozeChainRemovals[link] ?? [:]
                notifications.append(renderer.notification(
                    id: .text(draft.id(of: candidate)), kind: .followUp, unit: snooze.unit,
                    live: snooze.live.filter { removed[$0] == nil }, followUp: true, fireAt: candidate.fireAt,
                    parent: .text(snooze.id), replaces: []
                ))
            }
            if candidate.dueAt != candidate.fireAt {
                notifications[notifications.count - 1].deferredFrom = window.zoned(candidate.dueAt)
            }
        }
        return notifications
    }

    /// For units whose reminders ask for `replacesEarlier`: the IDs of the same reminder's
    /// (or group's) earlier notifications on the same local date that hold an earlier slot
    /// of one of *this* unit's members that asks, each followed by its follow-up chain
    /// (Planning rules, "Replacing earlier notifications"). A group's notification never
    /// withdraws one that holds only other members.
    private func earlierIDsOnSameDate(_ units: [NotificationUnit]) -> [Int: [String]] {
        // Out of the planner, for the closures below (see `draft(of:instants:sorted:)`).
        let unitKeys = self.unitKeys
        var result: [Int: [String]] = [:]
        var byKeyAndDate: [String: [CivilDate: [Int]]] = [:]
        for index in units.indices
        where (0..<units[index].memberCount).contains(where: { reminders[units[index].member($0).reminder].replacesEarlier }) {
            byKeyAndDate[unitKeys.key(of: units[index]), default: [:]][units[index].slot.date, default: []].append(index)
        }
        for dates in byKeyAndDate.values {
            for indices in dates.values {
                let ordered = indices.sorted { units[$0].slot < units[$1].slot }
                // For each reminder that asks, the IDs of the earlier notifications holding it.
                var earlierHolding: [Int: [String]] = [:]
                // The earlier notifications, each with its IDs and the reminders that ask in it.
                var earlier: [(ids: [String], askers: Set<Int>)] = []
                for index in ordered {
                    let unit = units[index]
                    let askers = Set((0..<unit.memberCount).map { unit.member($0).reminder }.filter { reminders[$0].replacesEarlier })
                    if askers.count == 1, let only = askers.first {
                        if let ids = earlierHolding[only], !ids.isEmpty { result[index] = ids }
                    } else {
                        let ids = earlier.filter { !$0.askers.isDisjoint(with: askers) }.flatMap(\.ids)
                        if !ids.isEmpty { result[index] = ids }
                    }
                    var ids = [unitKeys.id(of: unit)]
                    if let chain = renderer.followUpChain(of: unit) {
                        ids += (1...chain.length).map { NotificationID.followUp(of: unitKeys.id(of: unit), member: $0) }
                    }
                    for asker in askers { earlierHolding[asker, default: []] += ids }
                    earlier.append((ids, askers))
                }
            }
        }
        return result
    }
}

/// A notification inside the window before rendering: when, and what it renders (which
/// makes its ID: `PlanDraft.id(of:)`).
struct Candidate {
    enum Kind {
        /// The unit's own notification.
        case parent
        /// A member of the unit's follow-up chain, from 1.
        case followUp(Int)
        /// A snooze, by index into the draft's snoozes.
        case snooze(Int)
        /// A member of a snooze's follow-up chain, by index into the draft's `snoozeLinks`
        /// (one integer, so that candidates stay small to sort).
        case snoozeFollowUp(Int)
    }

    let fireAt: Int64
    /// When it was due: `fireAt`, unless quiet hours deferred it.
    let dueAt: Int64
    /// The index of its unit (for parents and follow-ups).
    let unit: Int
    let kind: Kind
}

/// A plan before rendering: the units, the candidates in order, and what the events did.
struct PlanDraft {
    let units: [NotificationUnit]
    var candidates: [Candidate] = []
    /// Removed members by unit index, only for units that lost some.
    var removals: [Int: UnitRemovals] = [:]
    var snoozes: [SnoozePlan] = []
    /// The snooze follow-ups among the candidates.
    var snoozeLinks: [SnoozeLink] = []
    /// Members the look-back removed from snooze follow-ups, where it removed some.
    var snoozeChainRemovals: [SnoozeLink: [Int: SuppressedNotification.Reason]] = [:]
    /// Removals inside the window (Planning rules, "Events and suppression"), sorted by
    /// `(fireAt, id, reason)`.
    var suppressed: [SuppressedNotification] = []
    /// Unknown IDs in the events.
    var warnings: [Diagnostic] = []

    /// `Planner.keyRanks`, by reminder.
    let keyRanks: [Int]
    /// `Planner.unitKeys`.
    let unitKeys: UnitKeys

    init(units: [NotificationUnit], keyRanks: [Int], unitKeys: UnitKeys) {
        self.units = units
        self.keyRanks = keyRanks
        self.unitKeys = unitKeys
    }

    /// A candidate's ID as it is stored, and the key an occurrence starts with.
    private func storedID(of candidate: Candidate) -> (id: StoredID, key: String) {
        switch candidate.kind {
        case .parent:
            return (.occurrence(OccurrenceTail(slot: units[candidate.unit].slot, followUp: 0)), unitKeys.key(of: units[candidate.unit]))
        case .followUp(let link):
            return (.occurrence(OccurrenceTail(slot: units[candidate.unit].slot, followUp: link)), unitKeys.key(of: units[candidate.unit]))
        case .snooze(let index):
            return (.text(snoozes[index].id), "")
        case .snoozeFollowUp(let index):
            let link = snoozeLinks[index]
            return (.text(NotificationID.followUp(of: snoozes[link.snooze].id, member: link.link)), "")
        }
    }

    /// A candidate's ID.
    /// The reminder of the unit a candidate belongs to: its first member's, or, for a
    /// snooze and its follow-ups, that of the unit snoozed.
    func reminder(of candidate: Candidate) -> Int {
        switch candidate.kind {
        case .parent, .followUp: units[candidate.unit].firstMember.reminder
        case .snooze(let index): snoozes[index].unit.firstMember.reminder
        case .snoozeFollowUp(let link): snoozes[snoozeLinks[link].snooze].unit.firstMember.reminder
        }
    }

    func id(of candidate: Candidate) -> String {
        let (id, key) = storedID(of: candidate)
        return id.text(keyText: key)
    }

    /// Whether the first candidate's ID sorts before the second's. The IDs of two units'
    /// notifications with different ranked keys sort as the keys do, so the ranks tell
    /// them apart, as they do most.
    func idPrecedes(_ first: Candidate, _ second: Candidate) -> Bool {
        let firstRank = keyRank(of: first)
        let secondRank = keyRank(of: second)
        if firstRank >= 0, secondRank >= 0, firstRank != secondRank { return firstRank < secondRank }
        // The parts are fetched first: closures reading the draft would copy it.
        let (firstID, firstKey) = storedID(of: first)
        let (secondID, secondKey) = storedID(of: second)
        return firstID.withSpan(key: firstKey) { firstBytes in
            secondID.withSpan(key: secondKey) { NotificationID.precedes(firstBytes, $0) }
        }
    }

    /// The rank of the key a unit's notification or follow-up starts with; -1 for snoozes.
    private func keyRank(of candidate: Candidate) -> Int {
        switch candidate.kind {
        case .parent, .followUp: return keyRanks[units[candidate.unit].firstMember.reminder]
        case .snooze, .snoozeFollowUp: return -1
        }
    }

    /// Sorts the candidates by `(fireAt, id)` (Planning rules, "The budget"): by time alone
    /// first, which compares integers, then each run of equal times by ID. Candidates are
    /// made reminder by reminder, in the order of their IDs' keys, so a run is almost
    /// always in order already and costs one comparison of IDs per candidate to check.
    mutating func sortCandidates() {
        var sorted = candidates
        candidates = []
        sortByTimeThenID(&sorted)
        candidates = sorted
    }

    /// `sortCandidates` of candidates held apart, so that comparing them reads the draft
    /// in place rather than copying it.
    private func sortByTimeThenID(_ sorted: inout [Candidate]) {
        Self.sortByTime(&sorted)
        var start = sorted.startIndex
        while start < sorted.endIndex {
            var end = start + 1
            var ordered = true
            while end < sorted.endIndex, sorted[end].fireAt == sorted[start].fireAt {
                if ordered, idPrecedes(sorted[end], sorted[end - 1]) { ordered = false }
                end += 1
            }
            if !ordered { sorted[start..<end].sort { idPrecedes($0, $1) } }
            start = end
        }
    }

    /// Sorts candidates by time, those with equal times kept in their order.
    ///
    /// The candidates are dealt into as many buckets as there are candidates, by time, in
    /// one pass that keeps their order (a counting sort on the time's high bits); a bucket
    /// then holds one time or a few, almost always in order already, and only a bucket out
    /// of order is sorted, by time and place. Sorting each range's candidates as packed
    /// integers (time and place) cost W2 13.4 M instructions, about 190 a candidate;
    /// dealing them, 6.8 M. Candidates crowded into one bucket cost that bucket's sort,
    /// never more than sorting them all.
    static func sortByTime(_ candidates: inout [Candidate]) {
        guard candidates.count > 1 else { return }
        var earliest = Int64.max
        var latest = Int64.min
        for candidate in candidates {
            earliest = min(earliest, candidate.fireAt)
            latest = max(latest, candidate.fireAt)
        }
        // The width of a bucket is a power of two seconds, the smallest that makes no more
        // buckets than candidates. Differences of instants are taken as unsigned, which
        // holds them exactly even between the ends of Int64.
        let span = UInt64(bitPattern: latest &- earliest)
        let bucketLimit = UInt64(candidates.count)
        var shift: UInt64 = 0
        while span >> shift >= bucketLimit { shift += 1 }
        func bucket(_ candidate: Candidate) -> Int { Int(UInt64(bitPattern: candidate.fireAt &- earliest) >> shift) }
        // Each bucket's first place, then, once the candidates are dealt, its end: the
        // first place of the next.
        var bounds = [Int](repeating: 0, count: Int(span >> shift) + 1)
        var dealt = [Candidate](repeating: candidates[0], count: candidates.count)
        do {
            // Spans: the arrays are written in place, without a check of uniqueness a write.
            var boundsInPlace = bounds.mutableSpan
            let source = candidates.span
            for index in source.indices { boundsInPlace[bucket(source[index])] += 1 }
            var total = 0
            for index in boundsInPlace.indices {
                let count = boundsInPlace[index]
                boundsInPlace[index] = total
                total += count
            }
            var dealtInPlace = dealt.mutableSpan
            for index in source.indices {
                let target = bucket(source[index])
                dealtInPlace[boundsInPlace[target]] = source[index]
                boundsInPlace[target] += 1
            }
        }
        var start = 0
        for end in bounds {
            defer { start = end }
            guard end - start > 1 else { continue }
            let range = start..<end
            guard range.dropFirst().contains(where: { dealt[$0].fireAt < dealt[$0 - 1].fireAt }) else { continue }
            if range.count <= 16 {
                // A few: each moved back past the later times before it, which keeps equal
                // times in their order and allocates nothing (W2's buckets are in order
                // already; a config of 40 reminders every 7 to 23 minutes, 156 420
                // notifications, took 536.1 M instructions with it, 539.4 M sorting every
                // bucket out of order the other way).
                for place in range.dropFirst() {
                    let moving = dealt[place]
                    var target = place
                    while target > start, dealt[target - 1].fireAt > moving.fireAt {
                        dealt[target] = dealt[target - 1]
                        target -= 1
                    }
                    dealt[target] = moving
                }
            } else {
                let order = range.sorted { (dealt[$0].fireAt, $0) < (dealt[$1].fireAt, $1) }
                let inOrder = order.map { dealt[$0] }
                dealt.replaceSubrange(range, with: inOrder)
            }
        }
        candidates = dealt
    }

    /// Lists the members removed from one notification, one entry per reason.
    mutating func recordSuppressed(
        _ removed: [Int: SuppressedNotification.Reason], of unit: NotificationUnit, id: String, fireAt: Int64,
        reminders: [Reminder]
    ) {
        guard !removed.isEmpty else { return }
        var byReason: [SuppressedNotification.Reason: [String]] = [:]
        for (position, reason) in removed {
            byReason[reason, default: []].append(reminders[unit.member(position).reminder].id)
        }
        for (reason, ids) in byReason {
            suppressed.append(SuppressedNotification(
                id: id, fireAt: ZonedInstant(seconds: fireAt, offsetSeconds: 0), reminders: ids.sorted(), reason: reason
            ))
        }
    }
}

/// A member of a snooze's follow-up chain: the snooze's index in the draft, and the member.
struct SnoozeLink: Hashable {
    let snooze: Int
    let link: Int
}
