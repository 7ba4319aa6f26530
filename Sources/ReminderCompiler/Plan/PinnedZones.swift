/// A zone that reminders pin their times to (`Reminder.timeZone`), other than the plan's.
struct PinnedZone {
    let rules: ZoneRules
    /// Over the same span as the plan zone's timeline.
    let timeline: ZoneTimeline
}

extension PlanningWindow {
    /// The window with the zones the config's enabled reminders pin, other than the plan's,
    /// loaded over its timeline's span. A zone the database lacks is left out: validation
    /// reports it before anything is planned.
    func pinning(_ config: ReminderConfig, zones: TimeZoneDatabase) -> PlanningWindow {
        var pinned: [String: PinnedZone] = [:]
        for reminder in config.reminders where reminder.enabled {
            guard let name = reminder.timeZone, name != rules.name, pinned[name] == nil, let zoneRules = zones.zone(name) else {
                continue
            }
            pinned[name] = PinnedZone(rules: zoneRules, timeline: ZoneTimeline(rules: zoneRules, span: timeline.span))
        }
        var window = self
        window.pinnedZones = pinned
        return window
    }

    /// Whether some reminder reads its times in a zone other than the plan's.
    var pinsOtherZones: Bool { !pinnedZones.isEmpty }

    /// The zone a reminder's slots are read in, when it is not the plan's.
    func pinnedZone(of reminder: Reminder) -> PinnedZone? {
        guard !pinnedZones.isEmpty, let name = reminder.timeZone else { return nil }
        return pinnedZones[name]
    }

    /// The window as one reminder sees it: the same instants, with dates and local times
    /// in its own zone.
    func inZone(of reminder: Reminder) -> PlanningWindow {
        guard let zone = pinnedZone(of: reminder) else { return self }
        var window = PlanningWindow(now: now, windowEnd: windowEnd, timeline: zone.timeline, rules: zone.rules)
        window.pinnedZones = pinnedZones
        return window
    }

    /// The offsets a reminder's slots are read with.
    func timeline(of reminder: Reminder) -> ZoneTimeline {
        pinnedZone(of: reminder)?.timeline ?? timeline
    }

    /// The reminder's timeline around a date, which may lie far outside the window.
    func timeline(of reminder: Reminder, covering date: CivilDate) -> ZoneTimeline {
        inZone(of: reminder).timeline(covering: date)
    }

    /// The zone name a reminder's notifications carry in the plan (`timeZone`): nil when
    /// they follow the plan's zone.
    func zoneName(of reminder: Reminder) -> String? {
        pinnedZone(of: reminder)?.rules.name
    }
}

extension PlanDraft {
    /// The unit a candidate's notification is rendered from: its own, or its snooze's.
    func unit(of candidate: Candidate) -> NotificationUnit {
        switch candidate.kind {
        case .parent, .followUp: return units[candidate.unit]
        case .snooze(let index): return snoozes[index].unit
        case .snoozeFollowUp(let index): return snoozes[snoozeLinks[index].snooze].unit
        }
    }
}

extension Planner {
    /// The zone a candidate's notification carries in the plan (`timeZone`), as rendering
    /// gives it: nil when it follows the plan's zone.
    func zoneName(of candidate: Candidate, in draft: PlanDraft) -> String? {
        window.zoneName(of: reminders[draft.unit(of: candidate).firstMember.reminder])
    }
}
