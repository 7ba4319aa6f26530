/// The window and zone a plan is compiled for.
struct PlanningWindow {
    /// The compile instant; notifications fire strictly after it.
    let now: Int64
    /// The last instant a notification may fire at.
    let windowEnd: Int64
    /// Offsets of the plan's zone around the window.
    let timeline: ZoneTimeline

    func zoned(_ instant: Int64) -> ZonedInstant {
        ZonedInstant(seconds: instant, offsetSeconds: timeline.offset(at: instant))
    }

    func contains(_ instant: Int64) -> Bool { instant > now && instant <= windowEnd }

    /// The local date of an instant in the plan's zone.
    func localDate(of instant: Int64) -> CivilDate {
        CivilDate(dayNumber: Int((instant + Int64(timeline.offset(at: instant))).floorDivided(by: 86_400)))
    }
}

/// One reminder's occurrence at a slot: an index into the planner's reminders, and the slot.
struct MemberSlot {
    let reminder: Int
    let slot: Slot
}

/// The occurrences of one notification before rendering: a reminder's slot, or a group's
/// members at one slot.
struct NotificationUnit {
    /// The reminder id, or the group key.
    let key: String
    /// Set for group notifications.
    let group: String?
    /// The first member; most notifications have only this one, kept inline.
    let firstMember: MemberSlot
    /// Further members of a group, ascending by reminder id after the first.
    var otherMembers: [MemberSlot] = []

    var slot: LocalDateTime { firstMember.slot.local }
    var instant: Int64 { firstMember.slot.instant }
    var memberCount: Int { 1 + otherMembers.count }
    var id: String { NotificationID.occurrence(key, slot: slot) }

    func member(_ index: Int) -> MemberSlot { index == 0 ? firstMember : otherMembers[index - 1] }
}

/// Builds the notifications of a plan from a validated config (SPEC §5, §7).
struct Planner {
    /// The enabled reminders, sorted by id so that group members are listed in ascending
    /// order and nothing depends on the order of the file.
    let reminders: [Reminder]
    let config: ReminderConfig
    let window: PlanningWindow

    init(config: ReminderConfig, window: PlanningWindow) {
        self.config = config
        self.window = window
        self.reminders = config.reminders.filter(\.enabled).sorted { $0.id < $1.id }
    }


    /// The longest follow-up delay: slots this long before `now` may still have a
    /// follow-up inside the window.
    var followUpReach: Int64 {
        Int64(reminders.compactMap(\.followUp?.afterMinutes).max() ?? 0) * 60
    }

    /// Expands every enabled reminder over the local dates the window touches, and merges
    /// grouped reminders by slot.
    func units() -> [NotificationUnit] {
        let firstDate = window.localDate(of: window.now - followUpReach).adding(days: -1)
        let lastDate = window.localDate(of: window.windowEnd).adding(days: 1)
        var units: [NotificationUnit] = []
        var groupUnitIndex: [String: [LocalDateTime: Int]] = [:]
        for index in reminders.indices {
            let id = reminders[index].id
            guard let group = reminders[index].group else {
                reminders[index].schedule.forEachSlot(onDates: firstDate...lastDate, timeline: window.timeline) { slot in
                    units.append(NotificationUnit(key: id, group: nil, firstMember: MemberSlot(reminder: index, slot: slot)))
                }
                continue
            }
            reminders[index].schedule.forEachSlot(onDates: firstDate...lastDate, timeline: window.timeline) { slot in
                let member = MemberSlot(reminder: index, slot: slot)
                if let unitIndex = groupUnitIndex[group]?[slot.local] {
                    units[unitIndex].otherMembers.append(member)
                } else {
                    groupUnitIndex[group, default: [:]][slot.local] = units.count
                    units.append(NotificationUnit(key: group, group: group, firstMember: member))
                }
            }
        }
        return units
    }

    /// The notifications inside the window in SPEC §7's order `(fireAt, id)`, not yet
    /// rendered: the budget decides which of them are worth rendering.
    func candidates(of units: [NotificationUnit]) -> [Candidate] {
        let renderer = NotificationRenderer(config: config, reminders: reminders, window: window)
        var candidates: [Candidate] = []
        candidates.reserveCapacity(units.count)
        for index in units.indices {
            let unit = units[index]
            let inWindow = window.contains(unit.instant)
            let followUpInstant = renderer.followUpInstant(of: unit)
            let followUpInWindow = followUpInstant.map(window.contains) ?? false
            guard inWindow || followUpInWindow else { continue }
            let id = unit.id
            if inWindow {
                candidates.append(Candidate(fireAt: unit.instant, id: id, unit: index, isFollowUp: false))
            }
            if followUpInWindow, let followUpInstant {
                candidates.append(Candidate(fireAt: followUpInstant, id: id + "-followup", unit: index, isFollowUp: true))
            }
        }
        candidates.sort { $0.fireAt != $1.fireAt ? $0.fireAt < $1.fireAt : $0.id < $1.id }
        return candidates
    }

    /// Renders candidates into notifications, in the given order.
    func render(_ candidates: ArraySlice<Candidate>, of units: [NotificationUnit]) -> [PlannedNotification] {
        let renderer = NotificationRenderer(config: config, reminders: reminders, window: window)
        let replaced = earlierIDsOnSameDate(units)
        var notifications: [PlannedNotification] = []
        notifications.reserveCapacity(candidates.count)
        for candidate in candidates {
            let unit = units[candidate.unit]
            if candidate.isFollowUp {
                let parentID = String(candidate.id.dropLast("-followup".count))
                notifications.append(renderer.renderFollowUp(unit, id: candidate.id, parentID: parentID, at: candidate.fireAt))
            } else {
                notifications.append(renderer.render(unit, id: candidate.id, replaces: replaced[candidate.unit] ?? []))
            }
        }
        return notifications
    }

    /// For units whose reminders ask for `replacesEarlier`: the IDs of the same reminder's
    /// (or group's) earlier slots on the same local date (SPEC §5.5).
    private func earlierIDsOnSameDate(_ units: [NotificationUnit]) -> [Int: [String]] {
        var result: [Int: [String]] = [:]
        var byKeyAndDate: [String: [CivilDate: [Int]]] = [:]
        for index in units.indices
        where (0..<units[index].memberCount).contains(where: { reminders[units[index].member($0).reminder].replacesEarlier }) {
            byKeyAndDate[units[index].key, default: [:]][units[index].slot.date, default: []].append(index)
        }
        for dates in byKeyAndDate.values {
            for indices in dates.values {
                let ordered = indices.sorted { units[$0].slot < units[$1].slot }
                for (position, index) in ordered.enumerated() where position > 0 {
                    result[index] = ordered[..<position].map { units[$0].id }
                }
            }
        }
        return result
    }
}

/// A notification inside the window before rendering: when, its ID, and what it renders.
struct Candidate {
    let fireAt: Int64
    let id: String
    /// The index of its unit.
    let unit: Int
    /// Whether it is the unit's follow-up rather than the unit's own notification.
    let isFollowUp: Bool
}
