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

/// The occurrences of one notification before rendering: a reminder's slot, or a group's
/// members at one slot.
struct NotificationUnit {
    /// The reminder id, or the group key.
    let key: String
    /// Set for group notifications.
    let group: String?
    let slot: LocalDateTime
    let instant: Int64
    /// Members with their slots (for rotation), ascending by reminder id.
    var members: [(reminder: Reminder, slot: Slot)]

    var id: String { NotificationID.occurrence(key, slot: slot) }
}

/// Builds the notifications of a plan from a validated config (SPEC §5, §7).
struct Planner {
    let config: ReminderConfig
    let window: PlanningWindow

    /// The longest follow-up delay: slots this long before `now` may still have a
    /// follow-up inside the window.
    var followUpReach: Int64 {
        Int64(config.reminders.compactMap(\.followUp?.afterMinutes).max() ?? 0) * 60
    }

    /// Expands every enabled reminder over the local dates the window touches, and merges
    /// grouped reminders by slot.
    func units() -> [NotificationUnit] {
        let firstDate = window.localDate(of: window.now - followUpReach).adding(days: -1)
        let lastDate = window.localDate(of: window.windowEnd).adding(days: 1)
        var units: [NotificationUnit] = []
        var groupUnitIndex: [String: [LocalDateTime: Int]] = [:]
        // Sorted by id, so that members are listed in ascending order and the result does
        // not depend on the order of the file.
        for reminder in config.reminders.sorted(by: { $0.id < $1.id }) where reminder.enabled {
            reminder.schedule.forEachSlot(onDates: firstDate...lastDate, timeline: window.timeline) { slot in
                guard let group = reminder.group else {
                    units.append(NotificationUnit(
                        key: reminder.id, group: nil, slot: slot.local, instant: slot.instant, members: [(reminder, slot)]
                    ))
                    return
                }
                if let index = groupUnitIndex[group]?[slot.local] {
                    units[index].members.append((reminder, slot))
                } else {
                    groupUnitIndex[group, default: [:]][slot.local] = units.count
                    units.append(NotificationUnit(
                        key: group, group: group, slot: slot.local, instant: slot.instant, members: [(reminder, slot)]
                    ))
                }
            }
        }
        return units
    }

    /// The notifications inside the window, before the budget, sorted by `(fireAt, id)`.
    func candidates() -> [PlannedNotification] {
        let units = units()
        let replaced = earlierIDsOnSameDate(units)
        let renderer = NotificationRenderer(config: config, window: window)
        var notifications: [PlannedNotification] = []
        notifications.reserveCapacity(units.count)
        for (index, unit) in units.enumerated() {
            if window.contains(unit.instant) {
                notifications.append(renderer.render(unit, replaces: replaced[index]))
            }
            if let followUp = renderer.renderFollowUp(unit), window.contains(followUp.fireAt.seconds) {
                notifications.append(followUp)
            }
        }
        notifications.sort { ($0.fireAt.seconds, $0.id) < ($1.fireAt.seconds, $1.id) }
        return notifications
    }

    /// For units whose reminders ask for `replacesEarlier`: the IDs of the same reminder's
    /// (or group's) earlier slots on the same local date (SPEC §5.5).
    private func earlierIDsOnSameDate(_ units: [NotificationUnit]) -> [[String]] {
        var result = [[String]](repeating: [], count: units.count)
        var byKeyAndDate: [String: [CivilDate: [Int]]] = [:]
        for (index, unit) in units.enumerated() where unit.members.contains(where: { $0.reminder.replacesEarlier }) {
            byKeyAndDate[unit.key, default: [:]][unit.slot.date, default: []].append(index)
        }
        for dates in byKeyAndDate.values {
            for indices in dates.values {
                let ordered = indices.sorted { units[$0].slot < units[$1].slot }
                for (position, index) in ordered.enumerated() {
                    result[index] = ordered[..<position].map { units[$0].id }
                }
            }
        }
        return result
    }
}
