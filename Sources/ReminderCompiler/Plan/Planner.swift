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

    /// The notifications inside the window, before the budget, sorted by `(fireAt, id)`.
    func candidates() -> [PlannedNotification] {
        let units = units()
        let replaced = earlierIDsOnSameDate(units)
        let renderer = NotificationRenderer(config: config, reminders: reminders, window: window)
        var notifications: [PlannedNotification] = []
        notifications.reserveCapacity(units.count)
        for index in units.indices {
            let unit = units[index]
            let inWindow = window.contains(unit.instant)
            let followUpInstant = renderer.followUpInstant(of: unit)
            let followUpInWindow = followUpInstant.map(window.contains) ?? false
            guard inWindow || followUpInWindow else { continue }
            let id = unit.id
            if inWindow {
                notifications.append(renderer.render(unit, id: id, replaces: replaced[index] ?? []))
            }
            if followUpInWindow, let followUpInstant {
                notifications.append(renderer.renderFollowUp(unit, parentID: id, at: followUpInstant))
            }
        }
        sortByFireTimeAndID(&notifications)
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

/// Sorts notifications by `(fireAt, id)`, SPEC §7's order. Positions are sorted and then
/// applied by swapping, so the large notification values are never copied.
func sortByFireTimeAndID(_ notifications: inout [PlannedNotification]) {
    // The keys are read out once: reading them through the array inside the comparator
    // would copy whole notifications.
    var fireTimes: [Int64] = []
    var ids: [String] = []
    fireTimes.reserveCapacity(notifications.count)
    ids.reserveCapacity(notifications.count)
    for index in notifications.indices {
        fireTimes.append(notifications[index].fireAt.seconds)
        ids.append(notifications[index].id)
    }
    var order = Array(notifications.indices)
    order.sort { fireTimes[$0] != fireTimes[$1] ? fireTimes[$0] < fireTimes[$1] : ids[$0] < ids[$1] }
    // order[i] is the position whose value belongs at i; follow each cycle once.
    for start in order.indices where order[start] != start {
        var current = start
        while order[current] != start {
            let next = order[current]
            notifications.swapAt(current, next)
            order[current] = current
            current = next
        }
        order[current] = current
    }
}
