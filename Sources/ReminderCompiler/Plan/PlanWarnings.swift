/// Warnings about valid inputs that would silently not do what they seem to: a reminder
/// that has nothing in this window, two slots a DST gap puts on one instant, events the
/// config cannot use or that have not happened yet.
struct PlanWarnings {
    let config: ReminderConfig
    let window: PlanningWindow
    let events: ReminderEvents
    /// Each reminder's times of day, in the config's order, as the check resolved them.
    let timesOfDay: [[LocalTime]]

    /// The warnings of a checked config planned in `window` with `events`.
    init(_ validated: ValidatedConfig, window: PlanningWindow, events: ReminderEvents) {
        config = validated.config
        self.window = window
        self.events = events
        timesOfDay = validated.order.timesOfDayInConfigOrder
    }

    /// At most this many unknown activities are named one by one; the rest are counted.
    static let maximumNamedActivities = 10

    var all: [Diagnostic] {
        remindersWithoutSlotInWindow() + slotsSharingAnInstant() + eventsAfterNow() + unusedActivities()
    }

    /// Reminders with no slot in `(now, windowEnd]` that still fire later. Those that never
    /// fire again already have their own warning (`config.never-fires`).
    func remindersWithoutSlotInWindow() -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        // Each reminder is read in place, through a span: binding it, its schedule or a
        // window in its zone, or reading it through the array, copied them, at every re-plan.
        let reminders = config.reminders.span
        for index in reminders.indices where reminders[index].enabled {
            // Dates in the zone the reminder's times are read in.
            let timeline = reminders[index].timeZone.flatMap { window.pinnedZones[$0]?.timeline } ?? window.timeline
            let firstDate = timeline.localDate(of: window.now).adding(days: -1)
            let lastDate = timeline.localDate(of: window.windowEnd)
            guard !hasSlotInWindow(reminders[index].schedule, times: timesOfDay[index], from: firstDate, through: lastDate, on: timeline)
            else { continue }
            // Long enough for every month/leap-year pattern an interval of up to 1000 can visit.
            let searchLimit = lastDate.adding(days: 146_097 * 2)
            let next = reminders[index].schedule.frequency == .once
                ? reminders[index].schedule.at.map(\.date).filter { $0 >= lastDate }.min()
                : reminders[index].schedule.firstFiringDate(onOrAfter: lastDate, notAfter: searchLimit)
            guard let next else { continue }
            let windowEnd = ZonedInstant(seconds: window.windowEnd, offsetSeconds: timeline.offset(at: window.windowEnd))
            warnings.append(Diagnostic(
                .warning, at: reminders[index].location,
                .noSlotInWindow(reminders[index].id, windowEnd: windowEnd.rfc3339, nextDate: next.description)
            ))
        }
        return warnings
    }

    /// Whether a schedule has a slot inside the window: the first firing dates are looked
    /// at one by one, and only until one has a slot inside or after the window.
    private func hasSlotInWindow(
        _ schedule: Schedule, times: [LocalTime], from firstDate: CivilDate, through lastDate: CivilDate, on timeline: ZoneTimeline
    ) -> Bool {
        // The closure takes the two instants, not the window: capturing the window copied
        // it, its zone rules and timeline with it, twice a date.
        let now = window.now, windowEnd = window.windowEnd
        var date = firstDate
        while let firing = schedule.firstFiringDate(onOrAfter: date, notAfter: lastDate) {
            var inside = false
            var after = false
            schedule.forEachSlot(onDates: firing...firing, times: times, timeline: timeline) { slot in
                if PlanningWindow.contains(slot.instant, after: now, through: windowEnd) {
                    inside = true
                } else if slot.instant > windowEnd {
                    after = true
                }
            }
            if inside { return true }
            if after { return false }
            date = firing.adding(days: 1)
        }
        return false
    }

    /// Slots of one reminder that a gap (clocks jumping forward) puts on one instant:
    /// 02:30 and 03:30 both fire at 03:30 when clocks skip from 02:00 to 03:00.
    func slotsSharingAnInstant() -> [Diagnostic] {
        // One warning per reminder: a reminder every minute shares 60 instants a gap.
        var warnings: [Diagnostic] = []
        let reminders = config.reminders.span
        for index in reminders.indices where reminders[index].enabled {
            // The gaps of the zone the reminder's times are read in.
            let timeline = reminders[index].timeZone.flatMap { window.pinnedZones[$0]?.timeline } ?? window.timeline
            var gapDates: [CivilDate] = []
            for index in timeline.transitionInstants.indices where timeline.offsets[index + 1] > timeline.offsets[index] {
                let transition = timeline.transitionInstants[index]
                guard transition > window.now - 86_400, transition <= window.windowEnd + 86_400 else { continue }
                let date = CivilDate.split(localSeconds: transition + Int64(timeline.offsets[index])).date
                // A gap may end after midnight: the next date's early slots are read with it too.
                gapDates += [date, date.adding(days: 1)]
            }
            var shared: [(date: CivilDate, instant: Int64, slots: [Slot])] = []
            var seen: Set<Int64> = []
            for date in gapDates {
                var slotsByInstant: [Int64: [Slot]] = [:]
                reminders[index].schedule.forEachSlot(onDates: date...date, timeline: timeline) { slot in
                    if window.contains(slot.instant) { slotsByInstant[slot.instant, default: []].append(slot) }
                }
                for (instant, slots) in slotsByInstant.sorted(by: { $0.key < $1.key })
                where slots.count > 1 && slots.contains(where: \.movedByGap) && seen.insert(instant).inserted {
                    shared.append((date, instant, slots))
                }
            }
            guard let first = shared.first else { continue }
            warnings.append(Diagnostic(
                .warning, at: reminders[index].location,
                .slotsShareInstant(
                    reminders[index].id, times: first.slots.map(\.local.time.description), date: first.date.description,
                    instant: window.zoned(first.instant).rfc3339, others: shared.count - 1
                )
            ))
        }
        return warnings
    }

    /// Events dated after `now`: planning takes them as already happened (an activity
    /// logged in the future suppresses future reminders), which is rarely what was meant.
    func eventsAfterNow() -> [Diagnostic] {
        let later = events.sources.dated.filter { $0.at > window.now }
        guard let first = later.first else { return [] }
        return [Diagnostic(.warning, at: first.location, .eventAfterNow(now: window.zoned(window.now).rfc3339, count: later.count))]
    }

    /// Activities logged in the events file that no reminder of the config has: a typo,
    /// or a reminder that was renamed, so the events suppress nothing.
    func unusedActivities() -> [Diagnostic] {
        let known = Set(config.reminders.map(\.activity))
        let unused = events.sources.firstOfActivity.filter { !known.contains($0.key) }.sorted { $0.value < $1.value }
        let candidates = known.sorted()
        var warnings = unused.prefix(Self.maximumNamedActivities).map { activity, location in
            Diagnostic(.warning, at: location, .unusedActivity(activity, suggestion: closestMatch(to: activity, in: candidates)))
        }
        if unused.count > Self.maximumNamedActivities {
            let location = unused[Self.maximumNamedActivities].value
            warnings.append(Diagnostic(.warning, at: location, .moreUnusedActivities(unused.count - Self.maximumNamedActivities)))
        }
        return warnings
    }
}
