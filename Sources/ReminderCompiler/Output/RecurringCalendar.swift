extension ICalendarExport {
    /// The recurring calendar: one VEVENT per reminder and time of day with an RRULE that
    /// expresses its schedule, EXDATEs for `except` dates and for occurrences the plan
    /// suppressed, and each follow-up of the chain as a further VALARM; `once` slots as plain events.
    /// Expanded inside the plan's window it gives the plan's member occurrences, ungrouped
    /// and before the budget.
    ///
    /// Where one RRULE cannot say it all (monthly `days` with `missingDays: lastDay` beside
    /// other days, or `days` together with `weekdayOrdinals`), the series is its instants
    /// inside the window, listed as RDATEs after a rule of its first instance alone.
    ///
    /// A config that fails `ReminderConfig.validate()` gives a calendar without events.
    public static func recurring(_ config: ReminderConfig, plan: Plan, zones: TimeZoneDatabase = .system) -> [UInt8] {
        let validated = ConfigValidator.validated(config, zones: zones, timeZoneOverride: plan.timeZone).config
        // Without a stop signal the writing runs to its end.
        return recurring(config, validated: validated != nil, plan: plan, zones: zones, stopSignal: nil) ?? []
    }

    /// The recurring calendar of a config already validated for the plan's zone (the
    /// planning driver's), without checking it again; nil when `stopSignal` was raised
    /// before it was done.
    static func recurring(_ validated: ValidatedConfig, plan: Plan, zones: TimeZoneDatabase, stopSignal: StopSignal?) -> [UInt8]? {
        recurring(validated.config, validated: true, plan: plan, zones: zones, stopSignal: stopSignal)
    }

    private static func recurring(
        _ config: ReminderConfig, validated: Bool, plan: Plan, zones: TimeZoneDatabase, stopSignal: StopSignal?
    ) -> [UInt8]? {
        let settings = CalendarSettings(config)
        var writer = ICalendarWriter(reservingCapacity: 4096 + config.reminders.count * 1024)
        begin(&writer, plan: plan, settings: settings)
        guard validated, let rules = zones.zone(plan.timeZone),
              PlanSetup.isSupported(.instant(plan.now.seconds)), PlanSetup.isSupported(.instant(plan.windowEnd.seconds))
        else {
            writer.raw("END:VCALENDAR")
            return writer.bytes
        }
        // From ten days back: the week before the window decides which series libical
        // would misplace (see `RecurringSeries.troubledBeforeWindow`).
        let span = (plan.now.seconds - 10 * 86_400)...(plan.windowEnd.seconds + 3 * 86_400)
        let timeline = ZoneTimeline(rules: rules, span: span)
        let window = PlanningWindow(now: plan.now.seconds, windowEnd: plan.windowEnd.seconds, timeline: timeline, rules: rules)
            .pinning(config, zones: zones)
        let suppressedMembers = Set(plan.suppressed.flatMap { entry -> [String] in
            guard let reference = OccurrenceReference(entry.id), !reference.isFollowUp, !entry.id.hasSuffix("-snooze") else { return [] }
            return entry.reminders.map { NotificationID.occurrence($0, slot: reference.slot) }
        })
        // Members some of whose follow-ups the plan removed (skipped, done, logged in time,
        // or snoozed) while their own notification stays: split out of their series, with
        // the chain members removed.
        var silencedFollowUps: [String: Set<Int>] = [:]
        for entry in plan.suppressed {
            guard let reference = OccurrenceReference(entry.id), reference.isFollowUp else { continue }
            for reminder in entry.reminders {
                silencedFollowUps[NotificationID.occurrence(reminder, slot: reference.slot), default: []].insert(reference.followUpMember)
            }
        }
        var events: [[(String, String)]] = []
        var firstInstant = plan.now.seconds
        var lastInstant = plan.windowEnd.seconds
        // Zones other than the plan's that events are written in, each with its VTIMEZONE.
        var otherZones: [String: ZoneRules] = [:]
        for reminder in config.reminders.sorted(by: { $0.id < $1.id }) where reminder.enabled {
            // A reminder with a zone of its own is written in that zone; quiet hours still
            // keep the plan zone's clock.
            let reminderWindow = window.inZone(of: reminder)
            let series = RecurringSeries(
                reminder: reminder, window: reminderWindow, rules: reminderWindow.rules, quietTimeline: window.timeline, planRules: rules,
                suppressed: suppressedMembers, silencedFollowUps: silencedFollowUps, sequences: plan.seriesSequences,
                revision: plan.reminderRevisions[reminder.id] ?? 0,
                quietHours: reminder.observesQuietHours(at: reminder.interruptionLevel) ? config.quietHours : nil,
                stopSignal: stopSignal
            )
            guard let seriesEvents = series.events(settings: settings, stamp: ICalendarFormat.utcDateTime(plan.now.seconds)) else {
                return nil
            }
            for event in seriesEvents {
                events.append(event.lines)
                firstInstant = min(firstInstant, event.start)
                lastInstant = max(lastInstant, event.start)
                if let pinned = window.pinnedZone(of: reminder) { otherZones[pinned.rules.name] = pinned.rules }
            }
        }
        // Snoozes and their follow-ups have no series: they are plain events, as in the
        // expanded style.
        let standalone = plan.notifications.filter { $0.isSnoozeOrItsFollowUp }
        for notification in standalone {
            firstInstant = min(firstInstant, notification.fireAt.seconds)
            lastInstant = max(lastInstant, notification.fireAt.seconds)
            if let name = notification.timeZone, let pinned = window.pinnedZones[name] { otherZones[name] = pinned.rules }
        }
        if !events.isEmpty || !standalone.isEmpty {
            for (name, zoneRules) in [(plan.timeZone, rules)] + otherZones.sorted(by: { $0.key < $1.key }).map({ ($0.key, $0.value) }) {
                for (property, value) in VTimeZoneBuilder(rules: zoneRules).lines(named: name, for: firstInstant...lastInstant) {
                    writer.line(property, value)
                }
            }
        }
        for event in events {
            for (name, value) in event { writer.line(name, value) }
        }
        // Each zone's shared event lines are made once, not once an event (by pinned zone;
        // nil for the plan's own).
        var eventZones: [String?: EventZone] = [:]
        for notification in standalone {
            let zone = notification.timeZone.flatMap { window.pinnedZones[$0] }
            let eventZone = eventZones[zone?.rules.name] ?? eventZone(
                named: zone?.rules.name ?? plan.timeZone, timeline: zone?.timeline ?? timeline, now: plan.now.seconds, settings: settings
            )
            eventZones[zone?.rules.name] = eventZone
            writeEvent(notification, in: eventZone, to: &writer)
        }
        writer.raw("END:VCALENDAR")
        return writer.bytes
    }
}

/// The VEVENTs of one reminder in the recurring style.
struct RecurringSeries {
    let reminder: Reminder
    /// The window in the zone the reminder's times are read in.
    let window: PlanningWindow
    let rules: ZoneRules
    /// The plan zone's offsets over the window, which quiet hours are read with.
    let quietTimeline: ZoneTimeline
    /// The plan's zone, for quiet hours far from the window.
    let planRules: ZoneRules
    /// Member occurrence IDs the plan suppressed inside its window.
    let suppressed: Set<String>
    /// Member occurrence IDs whose follow-ups alone the plan removed, with the chain
    /// members removed.
    let silencedFollowUps: [String: Set<Int>]
    /// The plan's `seriesSequences`: every event of the reminder at a time of day (the
    /// series, and occurrences written on their own) carries its series' number.
    let sequences: [String: Int]
    /// The plan's `reminderRevisions` entry for the reminder: how often its definition
    /// changed, added to each series' number so that a change is seen however far the
    /// plans lie apart.
    let revision: Int
    /// The config's quiet hours where they apply to the reminder's own notifications.
    let quietHours: QuietHours?
    /// Ends the writing early when raised (the service's time limit).
    let stopSignal: StopSignal?

    /// Whether the work should stop.
    private var isStopped: Bool { stopSignal?.isRaised == true }

    /// The `SEQUENCE` of the series at `time`: both parts only ever grow, so their sum does,
    /// capped at the largest `INTEGER` iCalendar allows.
    func sequence(at time: LocalTime) -> Int {
        // Plans built in code may hold any numbers: the sum is kept within INTEGER's range.
        let series = min(max(sequences[NotificationID.series(reminder.id, time: time)] ?? 0, 0), Int(Int32.max))
        return min(series + min(max(revision, 0), Int(Int32.max)), Int(Int32.max))
    }

    struct Event {
        /// Content lines, already escaped where TEXT.
        let lines: [(String, String)]
        /// The first instance, for the VTIMEZONE span.
        let start: Int64
    }

    var schedule: Schedule { reminder.schedule }
    var zoneName: String { rules.name }

    /// Slots of the reminder due inside the window, or deferred by quiet hours into it, by
    /// time of day: one list for each of `times` (the schedule's resolved times, ascending),
    /// in its place. A dictionary keyed by the time hashed each of W2's 74 000 slots, a
    /// tenth of its recurring calendar.
    func windowSlotsByTime(_ times: [LocalTime]) -> [[Slot]] {
        let first = window.timeline.localDate(of: window.now).adding(days: quietHours == nil ? -1 : -2)
        let last = window.timeline.localDate(of: window.windowEnd).adding(days: 1)
        var slots = [[Slot]](repeating: [], count: times.count)
        for place in slots.indices { slots[place].reserveCapacity(min(last.dayNumber - first.dayNumber + 1, 4096)) }
        // The closure takes copies of what it needs, not `self` or the window: capturing
        // the series copied all of it for each date, a sixth of W2's recurring calendar,
        // and the window's test as a function copied the window for each date. Without
        // quiet hours nothing is deferred, and their zone's offsets are not taken along.
        let now = window.now, windowEnd = window.windowEnd
        let deferral = quietHours.map { quietHours in
            { [quietTimeline] (slot: Slot) in Self.deferredInstant(of: slot, quietHours: quietHours, timeline: quietTimeline) }
        }
        schedule.forEachSlot(onDates: first...last, times: times, timeline: window.timeline) { slot in
            let isInWindow = { PlanningWindow.contains($0, after: now, through: windowEnd) }
            if isInWindow(slot.instant) || deferral?(slot).map(isInWindow) == true {
                slots[Self.place(of: slot.local.time, in: times)].append(slot)
            }
        }
        return slots
    }

    /// The place of a slot's time among the schedule's resolved times (ascending and
    /// distinct), which every slot's time is one of.
    private static func place(of time: LocalTime, in times: [LocalTime]) -> Int {
        var low = 0, high = times.count - 1
        while low < high {
            let middle = (low + high) / 2
            if times[middle] < time { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Times of day whose slot fell in a gap or a repeated hour in the week before the
    /// window: libical 3 misplaces later instances of such a series by the gap even when
    /// the series starts after it (Casablanca's 02:00 slots two weeks after the change of
    /// 2023-04-23 came an hour late), so those series are written as UTC instants too.
    func troubledBeforeWindow() -> Set<LocalTime> {
        var times: Set<LocalTime> = []
        let today = window.timeline.localDate(of: window.now)
        let now = window.now, timeline = window.timeline
        schedule.forEachSlot(onDates: today.adding(days: -8)...today, timeline: timeline) { slot in
            if slot.instant <= now, slot.movedByGap || Self.isRepeatedLocalTime(slot, timeline: timeline) { times.insert(slot.local.time) }
        }
        return times
    }

    /// Where quiet hours defer the slot's notification to, when they do.
    func deferredInstant(of slot: Slot) -> Int64? {
        Self.deferredInstant(of: slot, quietHours: quietHours, timeline: quietTimeline)
    }

    private static func deferredInstant(of slot: Slot, quietHours: QuietHours?, timeline: ZoneTimeline) -> Int64? {
        guard let quietHours, let moved = quietHours.outcome(of: slot.instant, timeline: timeline), moved != slot.instant
        else { return nil }
        return moved
    }

    /// The reminder's events; nil when the stop signal was raised before they were made.
    func events(settings: CalendarSettings, stamp: String) -> [Event]? {
        let sharedBody = bodyLines()
        if schedule.frequency == .once {
            var events: [Event] = []
            for (index, local) in schedule.firingEntries.enumerated() {
                // A schedule may hold as many entries as a config has bytes for.
                if index % 1024 == 0, isStopped { return nil }
                let id = NotificationID.occurrence(reminder.id, slot: local)
                guard !suppressed.contains(id) else { continue }
                let timeline = ZoneTimeline(rules: rules, span: instantSpan(around: local.date))
                let due = timeline.instant(ofLocal: localSeconds(local)).instant
                // Deferred by quiet hours to their end (dropped ones are suppressed above).
                let planClock = rules.name == planRules.name ? timeline : ZoneTimeline(rules: planRules, span: instantSpan(around: local.date))
                let instant = quietHours?.outcome(of: due, timeline: planClock) ?? due
                var lines = header(uid: "\(id)@\(settings.uidDomain)", stamp: stamp)
                // A single event is written at its actual time, as in the expanded style.
                lines.append(ICalendarExport.startProperty(instant, zone: zoneName, timeline: timeline))
                lines += body(sharedBody, time: local.time)
                events.append(Event(lines: lines, start: instant))
            }
            return events
        }
        // Sorted by time of day once: a schedule with 1 440 times would otherwise filter
        // the window's slots 1 440 times.
        let times = schedule.timesOfDay.resolved
        let inWindowByTime = windowSlotsByTime(times)
        let troubledTimes = troubledBeforeWindow()
        let (rrule, expressible) = recurrenceRule()
        let shared = SharedParts(
            rule: rrule, expressible: expressible,
            // The rule keeps the schedule's dates but for `except` and `count` unless it
            // changed the days of the month.
            ruleKeepsTheDays: expressible.frequency != .once && expressible.monthDays == schedule.monthDays
                && expressible.weekdayOrdinals == schedule.weekdayOrdinals && expressible.missingDays == schedule.missingDays,
            fallBacks: window.timeline.fallBackInstants,
            zoneParameter: "TZID=\(ICalendarExport.parameterValue(zoneName))", body: sharedBody
        )
        // Each time's first slot after now: the window's first after now, when it has one
        // (a time's slots fire in the order of their dates, and every slot due in the window
        // is there), else the first that `upcomingSlots` finds. Expanding from now again for
        // every reminder was a seventh of W2's recurring calendar.
        let now = window.now
        var firstByTime = inWindowByTime.map { slots in slots.first { $0.instant > now } }
        if firstByTime.contains(where: { $0 == nil }) {
            for upcoming in ReminderCompiler.upcomingSlots(of: reminder, count: times.count * 3, after: now, zone: rules) {
                let place = Self.place(of: upcoming.slot.local.time, in: times)
                if firstByTime[place] == nil { firstByTime[place] = upcoming.slot }
            }
        }
        var events: [Event] = []
        for (place, time) in times.enumerated() {
            if isStopped { return nil }
            guard let first = firstByTime[place] else { continue }
            let inWindow = inWindowByTime[place]
            // An occurrence some of whose follow-ups alone were removed leaves the series: as
            // an event of its own it keeps the alarms still due. So does one that quiet hours
            // deferred, as an event at its new time when that lies inside the window.
            let split = reminder.followUp == nil && quietHours == nil ? [] : inWindow.filter { slot in
                let id = NotificationID.occurrence(reminder.id, slot: slot.local)
                return (silencedFollowUps[id] != nil || deferredInstant(of: slot) != nil) && !suppressed.contains(id)
            }
            let splitLocals = Set(split.map(\.local))
            if let event = series(
                time: time, first: first, inWindow: inWindow, leavingOut: splitLocals, troubledBefore: troubledTimes.contains(time),
                shared: shared,
                settings: settings, stamp: stamp
            ) {
                events.append(event)
            }
            for slot in split {
                let id = NotificationID.occurrence(reminder.id, slot: slot.local)
                let instant = deferredInstant(of: slot) ?? slot.instant
                guard window.contains(instant) else { continue }
                var lines = header(uid: "\(id)@\(settings.uidDomain)", stamp: stamp)
                lines.append(("DTSTART", ICalendarFormat.utcDateTime(instant)))
                lines += body(bodyLines(leavingOutFollowUps: silencedFollowUps[id] ?? []), time: time)
                events.append(Event(lines: lines, start: instant))
            }
        }
        return events
    }

    private func localSeconds(_ local: LocalDateTime) -> Int64 {
        Int64(local.date.dayNumber) * 86_400 + Int64(local.time.minuteOfDay) * 60
    }

    private func instantSpan(around date: CivilDate) -> ClosedRange<Int64> {
        (Int64(date.dayNumber) * 86_400 - 3 * 86_400)...(Int64(date.dayNumber) * 86_400 + 3 * 86_400)
    }

    private func header(uid: String, stamp: String) -> [(String, String)] {
        [("BEGIN", "VEVENT"), ("UID", uid), ("DTSTAMP", stamp)]
    }

    /// What the series of one reminder share, made once for all its times of day.
    struct SharedParts {
        /// The RRULE, nil when none applies (`recurrenceRule()`).
        let rule: String?
        /// A schedule of exactly what the RRULE produces.
        let expressible: Schedule
        /// Whether the rule fires on the date of every slot of the schedule: it keeps the
        /// schedule's days, so asking it of each slot (a tenth of W2's recurring calendar)
        /// can be skipped.
        let ruleKeepsTheDays: Bool
        /// The changes at which the reminder's zone falls back, ascending.
        let fallBacks: [Int64]
        /// `TZID=…` with the zone the reminder's times are read in.
        let zoneParameter: String
        /// The lines of each event around its `SEQUENCE`.
        let body: BodyLines
    }

    /// An event's lines before and after its `SEQUENCE`: the same for each event of a
    /// reminder that keeps its whole follow-up chain, so made once per reminder (once per
    /// series, they were a tenth of W2's recurring calendar).
    struct BodyLines {
        let beforeSequence: [(String, String)]
        let afterSequence: [(String, String)]
    }

    private func bodyLines(leavingOutFollowUps silenced: Set<Int> = []) -> BodyLines {
        var before: [(String, String)] = [("DURATION", ICalendarFormat.duration(minutes: reminder.durationMinutes))]
        before.append(("SUMMARY", ICalendarWriter.escapeText(reminder.title)))
        // Rotating bodies cannot be written on a series; only a fixed body is.
        if reminder.bodies.isEmpty, !reminder.body.isEmpty {
            before.append(("DESCRIPTION", ICalendarWriter.escapeText(reminder.body)))
        }
        var after: [(String, String)] = []
        if let category = reminder.category { after.append(("CATEGORIES", ICalendarWriter.escapeText(category))) }
        after.append(("TRANSP", "TRANSPARENT"))
        after += alarm(trigger: "PT0S", description: reminder.title)
        // One alarm per follow-up of the chain.
        if let followUp = reminder.followUp {
            for member in 1...followUp.chainLength where !silenced.contains(member) {
                after += alarm(trigger: "PT\(followUp.delayMinutes(ofMember: member))M", description: followUp.title ?? reminder.title)
            }
        }
        after.append(("END", "VEVENT"))
        return BodyLines(beforeSequence: before, afterSequence: after)
    }

    /// An event's lines after its start: `lines` around the `SEQUENCE` of the series at
    /// `time`.
    private func body(_ lines: BodyLines, time: LocalTime) -> [(String, String)] {
        lines.beforeSequence + [("SEQUENCE", String(sequence(at: time)))] + lines.afterSequence
    }

    private func alarm(trigger: String, description: String) -> [(String, String)] {
        [("BEGIN", "VALARM"), ("ACTION", "DISPLAY"), ("TRIGGER", trigger),
         ("DESCRIPTION", ICalendarWriter.escapeText(description.isEmpty ? "Reminder" : description)), ("END", "VALARM")]
    }

    /// One series: the reminder at one time of day, in the subset every checked reader
    /// (RFC 5545 parsers, ical.js, libical, vobject, Radicale) expands alike:
    /// - DTSTART is the series' first instance and an instance of the RRULE; a series whose
    ///   first occurrence the rule cannot produce is written as its instants (below);
    ///   RDATEs are in UTC (libical reads an RDATE
    ///   with TZID as UTC); EXDATEs only remove instances of the rule (ical.js skips the
    ///   EXDATE after one that removes nothing);
    /// - a series with an instance in the window whose local time a DST change skips or
    ///   repeats is written as its instants in UTC (DTSTART, a rule of that one instance,
    ///   RDATEs): readers place such times differently, and libical shifts every later
    ///   instance after one in a gap;
    /// - so is a series with occurrences its rule cannot produce: an RDATE never stands
    ///   beside a rule of more than one instance, since sabre/vobject (SabreDAV, Baikal,
    ///   Nextcloud) expands an event that has RDATEs from its DTSTART and RDATEs alone
    ///   and leaves its RRULE out.
    ///
    /// Returns nil when the window holds no instance to start from.
    private func series(
        time: LocalTime, first: Slot, inWindow: [Slot], leavingOut split: Set<LocalDateTime>, troubledBefore: Bool,
        shared: SharedParts, settings: CalendarSettings, stamp: String
    ) -> Event? {
        let rrule = shared.rule, expressible = shared.expressible, fallBacks = shared.fallBacks
        let ruleKeepsTheDays = shared.ruleKeepsTheDays
        let ruleFiresOnSlot = { (slot: Slot) in ruleKeepsTheDays || expressible.firesOn(slot.local.date) }
        // Suppressed occurrences, and those written as events of their own, leave the series.
        // Most plans suppress nothing: then no slot's ID is made to look it up (making one
        // for each slot of the window was a quarter of W2's recurring calendar).
        let isSuppressed = { (slot: Slot) in
            (!split.isEmpty && split.contains(slot.local))
                || (!suppressed.isEmpty && suppressed.contains(NotificationID.occurrence(reminder.id, slot: slot.local)))
        }
        // A local time can repeat only within a day of a fall-back of the clocks (no change
        // of offset passes a day), so only slots near one, or past the span the offsets are
        // known for, are tested: testing each slot was a seventh of W2's recurring calendar.
        // A time's slots come in the order of their instants and are walked beside the
        // fall-backs (from the first again, should an instant come before the last).
        let span = window.timeline.span
        var nextFallBack = 0
        var previousInstant = Int64.min
        let troubled = troubledBefore || first.movedByGap || isRepeatedLocalTime(first) || inWindow.contains { slot in
            if slot.instant < previousInstant { nextFallBack = 0 }
            previousInstant = slot.instant
            while nextFallBack < fallBacks.count, fallBacks[nextFallBack] < slot.instant - 3 * 86_400 { nextFallBack += 1 }
            let mayRepeat = (nextFallBack < fallBacks.count && fallBacks[nextFallBack] <= slot.instant + 3 * 86_400)
                || slot.instant - 86_400 < span.lowerBound || slot.instant + 86_400 > span.upperBound
            return slot.movedByGap || (mayRepeat && isRepeatedLocalTime(slot))
        }
        let uid = "\(NotificationID.series(reminder.id, time: time))@\(settings.uidDomain)"
        let headerLines = header(uid: uid, stamp: stamp)
        var lines = headerLines
        // DTSTART must be an instance of the rule: the first one from the first upcoming
        // slot on, inside the window.
        let ruleStart = expressible.firesOn(first.local.date)
            ? first : inWindow.first { expressible.firesOn($0.local.date) && $0.local >= first.local }
        // DTSTART is the series' first instance (RFC 5545, 3.8.5.3), and CalDAV servers
        // index a series from it: when an occurrence the rule does not produce comes
        // before the rule's first instance, the series is written as its instants.
        let occursBeforeRule = ruleStart.map { start in
            inWindow.contains { $0.local < start.local && !isSuppressed($0) }
                || (first.local < start.local && !isSuppressed(first) && window.contains(first.instant))
        } ?? false
        // The window's occurrences the rule does not produce (on other days than its own,
        // all after its start).
        let extra = ruleStart.map { start in
            inWindow.filter { !ruleFiresOnSlot($0) || $0.local < start.local }
                .filter { !isSuppressed($0) && $0.local != start.local }
        } ?? []
        // Every instance of the window, each in UTC.
        let writtenAsInstants = { () -> Event? in
            var lines = headerLines
            var instants = inWindow.filter { !isSuppressed($0) }.map(\.instant)
            if !instants.contains(first.instant), !isSuppressed(first), window.contains(first.instant) { instants.append(first.instant) }
            instants.sort()
            guard let start = instants.first else { return nil }
            lines.append(("DTSTART", ICalendarFormat.utcDateTime(start)))
            if instants.count > 1 {
                // A rule that yields DTSTART alone: RFC 5545 lets RDATEs stand without an
                // RRULE, but Radicale's expansion (3.9) returns only DTSTART for a series
                // without one.
                lines.append(("RRULE", "FREQ=DAILY;COUNT=1"))
                lines += Self.listLines("RDATE", instants.dropFirst().map(ICalendarFormat.utcDateTime))
            }
            lines += body(shared.body, time: time)
            return Event(lines: lines, start: start)
        }
        guard let rrule, let start = ruleStart, !troubled, !occursBeforeRule, extra.isEmpty else { return writtenAsInstants() }
        let zoneParameter = shared.zoneParameter
        lines.append(("DTSTART;\(zoneParameter)", ICalendarFormat.localDateTime(localSeconds(start.local))))
        let counted = countOfRule(expressible, time: time, from: start.local.date)
        lines.append(("RRULE", counted.map { rrule + ";COUNT=\($0.count)" } ?? rrule))
        // EXDATEs remove instances of the rule only: `except` dates it would produce, and
        // occurrences the plan suppressed.
        let lastRuleDate = counted?.lastDate ?? CivilDate(dayNumber: CivilDate.lastSupportedDay)
        var excluded = Set(
            schedule.exceptions.filter { $0 >= start.local.date && $0 <= lastRuleDate && expressible.firesOn($0) }
                .map { LocalDateTime(date: $0, time: time) }
        )
        for slot in inWindow where isSuppressed(slot) && ruleFiresOnSlot(slot) && slot.local >= start.local {
            excluded.insert(slot.local)
        }
        if excluded.count > Self.maximumExcludedInstances { return writtenAsInstants() }
        if !excluded.isEmpty {
            lines += Self.listLines("EXDATE;\(zoneParameter)", excluded.sorted().map { ICalendarFormat.localDateTime(localSeconds($0)) })
        }
        lines += body(shared.body, time: time)
        return Event(lines: lines, start: start.instant)
    }

    /// The most EXDATEs a series written as a rule may have; past it, the series is written
    /// as its instants. ical.js (Thunderbird) gives up on a series, with "max tries have
    /// occurred", when more than 500 instances in a row are excluded, and a count of them
    /// all is what a writer can bound without expanding the rule.
    static let maximumExcludedInstances = 400

    /// The most values one RDATE or EXDATE line holds: libical (Evolution, KDE) keeps the
    /// first 500 values of one such property and drops the rest without a word, and
    /// RFC 5545 lets the property repeat.
    static let maximumValuesPerLine = 500

    /// A list property as lines of at most `maximumValuesPerLine` values each, in order.
    static func listLines(_ name: String, _ values: [String]) -> [(String, String)] {
        stride(from: 0, to: values.count, by: maximumValuesPerLine).map { start in
            (name, values[start..<min(start + maximumValuesPerLine, values.count)].joined(separator: ","))
        }
    }

    /// Whether a slot's local time occurs twice on its date (clocks fell back).
    private func isRepeatedLocalTime(_ slot: Slot) -> Bool {
        Self.isRepeatedLocalTime(slot, timeline: window.timeline)
    }

    private static func isRepeatedLocalTime(_ slot: Slot, timeline: ZoneTimeline) -> Bool {
        ICalendarExport.unambiguousLocalTime(of: slot.instant, timeline: timeline) == nil
    }

    /// The RRULE of the schedule, and a schedule of exactly what that RRULE produces (for
    /// RDATEs of the rest). `nil` when no RRULE applies (only RDATEs).
    func recurrenceRule() -> (String?, Schedule) {
        var parts: [String] = []
        var expressible = schedule
        expressible.exceptions = []
        switch schedule.frequency {
        case .once:
            return (nil, expressible)
        case .daily:
            parts.append("FREQ=DAILY")
        case .weekly:
            parts.append("FREQ=WEEKLY")
        case .monthly:
            parts.append("FREQ=MONTHLY")
        case .yearly:
            parts.append("FREQ=YEARLY")
        }
        if schedule.interval > 1 { parts.append("INTERVAL=\(schedule.interval)") }
        // The rule's own instances: `count` is written per time of day as COUNT.
        expressible.count = nil
        switch schedule.frequency {
        case .weekly:
            parts.append("BYDAY=" + schedule.weekdays.sorted().map(\.code).joined(separator: ","))
            parts.append("WKST=MO")
        case .monthly, .yearly:
            // RFC 5545 reads BYMONTHDAY and n-th BYDAY within each month of BYMONTH.
            if schedule.frequency == .yearly { parts.append("BYMONTH=" + schedule.months.map(String.init).joined(separator: ",")) }
            let needsLastDay = schedule.missingDays == .lastDay ? schedule.monthDays.filter { abs($0) > 28 } : []
            let plainDays = schedule.monthDays.filter { !needsLastDay.contains($0) }
            if schedule.weekdayOrdinals.isEmpty, plainDays.isEmpty, needsLastDay.count == 1, let day = needsLastDay.first {
                // A day no shorter than every month the rule visits (31, or 29 for
                // February alone) is, with lastDay, the month's last day, and its negative
                // the first. Other days would need BYSETPOS, which ical.js ignores: their
                // instants are listed.
                let longestMonth = schedule.frequency == .yearly ? schedule.months.map { Self.longestLength(ofMonth: $0) }.max() ?? 31 : 31
                guard abs(day) >= longestMonth else { return (nil, Schedule(frequency: .once)) }
                parts.append("BYMONTHDAY=\(day > 0 ? -1 : 1)")
                expressible.monthDays = [day > 0 ? -1 : 1]
                expressible.missingDays = .skip
            } else if !plainDays.isEmpty {
                // RFC 5545 skips days a month lacks, as `missingDays: skip` does.
                parts.append("BYMONTHDAY=" + plainDays.map(String.init).joined(separator: ","))
                expressible.monthDays = plainDays
                expressible.weekdayOrdinals = []
            } else if !schedule.weekdayOrdinals.isEmpty {
                parts.append("BYDAY=" + schedule.weekdayOrdinals.map(\.description).joined(separator: ","))
                expressible.monthDays = []
            } else {
                return (nil, Schedule(frequency: .once))
            }
        default:
            break
        }
        if let end = schedule.end {
            let last = ZoneTimeline(rules: rules, span: (Int64(end.dayNumber) * 86_400 - 3 * 86_400)...(Int64(end.dayNumber) * 86_400 + 3 * 86_400))
                .instant(ofLocal: Int64(end.dayNumber) * 86_400 + 86_399).instant
            parts.append("UNTIL=" + ICalendarFormat.utcDateTime(last))
        }
        return (parts.joined(separator: ";"), expressible)
    }

    /// The most days a month has in any year.
    private static func longestLength(ofMonth month: Int) -> Int {
        month == 2 ? 29 : CivilDate.daysInMonth(year: 2001, month: month)
    }

    /// With `count`, the rule's COUNT for the series at one time of day from `start`: the
    /// rule's dates from `start` through the last date on which `count` leaves that time a
    /// slot. EXDATEs use up COUNT as `except` dates use up `count`. Nil without `count`.
    func countOfRule(_ expressible: Schedule, time: LocalTime, from start: CivilDate) -> (count: Int, lastDate: CivilDate)? {
        let times = schedule.timesOfDay.resolved
        guard let count = schedule.count, let index = times.firstIndex(of: time), count > index,
              let lastDate = schedule.firingDate(number: (count - 1 - index) / times.count + 1)
        else { return nil }
        var ruleDates = 0
        expressible.forEachFiringDate(from: start, through: lastDate) { _ in ruleDates += 1 }
        return (ruleDates, lastDate)
    }
}
