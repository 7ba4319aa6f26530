/// Why one occurrence, notification or follow-up ID is in a plan or not: "why didn't my
/// 09:20 reminder come?"
@_spi(Tooling) public struct Explanation: Sendable, Hashable {
    /// The answer in one word.
    public enum Verdict: String, Sendable, Hashable {
        /// The plan has it (perhaps deferred, or merged into a group).
        case planned
        /// An event, look-back or quiet hours removed it.
        case suppressed
        /// In the window, but after the budget's cut.
        case dropped
        /// Its time is not after `now`, or after the window's end.
        case outsideWindow
        /// Its reminder's schedule has no such slot (or no such follow-up).
        case notInSchedule
        /// Its reminder is disabled.
        case disabled
        /// No reminder or group has the ID's key, or the ID is not an occurrence ID.
        case unknown
    }

    /// The answer: whether the plan has the ID, and if not, what kind of reason keeps it out.
    public var verdict: Verdict
    /// Sentences for a person, the first one the answer.
    public var lines: [String]
}

extension ReminderCompiler {
    /// Explains an ID against the plan of `config` at `options.now` with `events`.
    ///
    /// - Parameter planned: the plan of exactly these inputs when the caller compiled it
    ///   already (the command line does, to report its diagnostics), so that it is not
    ///   compiled twice; nil compiles it here.
    @_spi(Tooling) public static func explain(
        _ id: String, config: ReminderConfig, events: ReminderEvents = ReminderEvents(), options: CompileOptions,
        zones: TimeZoneDatabase = .system, planned: Plan? = nil
    ) -> Explanation {
        Explainer(id: id, config: config, events: events, options: options, zones: zones, planned: planned).explanation()
    }
}

/// Works out an `Explanation` from the plan, the plan without its budget, and the schedule.
struct Explainer {
    let id: String
    let config: ReminderConfig
    let events: ReminderEvents
    let options: CompileOptions
    let zones: TimeZoneDatabase
    /// The plan of these inputs, when the caller has it.
    let planned: Plan?

    func explanation() -> Explanation {
        let isSnooze = id.hasSuffix("-snooze") || id.contains("-snooze-followup")
        let occurrenceID = isSnooze ? id.replacingEvery("-snooze", with: "") : id
        guard let reference = OccurrenceReference(occurrenceID) else {
            return Explanation(verdict: .unknown, lines: [
                "'\(id)' is not an ID remindc gives: {reminder or group}-{yyyyMMdd}-{HHmm}, optionally with -followup, -followup-N or -snooze",
            ])
        }
        let members = config.reminders.filter { $0.id == reference.key || $0.group == reference.key }
        guard !members.isEmpty else {
            let keys = Array(Set(config.reminders.map(\.id) + config.reminders.compactMap(\.group))).sorted()
            let suggestion = closestMatch(to: reference.key, in: keys).map { "; did you mean '\($0)'?" } ?? ""
            return Explanation(verdict: .unknown, lines: ["no reminder or group of the config is called '\(reference.key)'\(suggestion)"])
        }
        var lines: [String] = []
        // A grouped reminder's occurrences come as its group's notification.
        var target = id
        var member: String?
        if members.count == 1, let reminder = members.first, reminder.id == reference.key, let group = reminder.group {
            if id.hasPrefix(reminder.id + "-") { target = group + "-" + id.dropFirst(reminder.id.count + 1) }
            member = reminder.id
            lines.append("reminder '\(reminder.id)' is in group '\(group)': its occurrence comes as the group's notification '\(target)'")
        }
        guard let plan = planned ?? ReminderCompiler.plan(config, options: options, events: events, zones: zones).plan,
              let rules = zones.zone(plan.timeZone)
        else {
            return Explanation(verdict: .unknown, lines: lines + ["the config does not compile; run 'remindc check'"])
        }
        let window = PlanningWindow(
            now: plan.now.seconds, windowEnd: plan.windowEnd.seconds,
            timeline: ZoneTimeline(rules: rules, span: (plan.now.seconds - 86_400 * 8)...(plan.windowEnd.seconds + 86_400)), rules: rules
        ).pinning(config, zones: zones)
        if let (index, notification) = plan.notifications.enumerated().first(where: { $0.element.id == target }) {
            return planned(notification, position: index + 1, of: plan, member: member, window: window, lines: lines)
        }
        if let entry = plan.suppressed.first(where: { $0.id == target && (member.map($0.reminders.contains) ?? true) }) {
            return Explanation(verdict: .suppressed, lines: lines + suppressed(entry, reference: reference, window: window))
        }
        let unbudgeted = ReminderCompiler.plan(config, options: options.withoutBudget, events: events, zones: zones).plan
        if let unbudgeted, let index = unbudgeted.notifications.firstIndex(where: { $0.id == target }) {
            let notification = unbudgeted.notifications[index]
            let kept = plan.notifications.count
            return Explanation(verdict: .dropped, lines: lines + [
                "'\(target)' (\(notification.fireAt.display)) is dropped by the budget: it is number \(index + 1) of \(unbudgeted.notifications.count) in the window, and the plan keeps the first \(kept) (pendingLimit \(plan.pendingLimit), reservedSlots \(plan.reservedSlots))",
                "coverage ends at \(plan.coveredUntil.display); a pendingLimit of \(index + 1 + plan.reservedSlots) would keep it, or planning again later will",
            ])
        }
        return outsideThePlan(reference: reference, members: members, plan: plan, window: window, isSnooze: isSnooze, lines: lines)
    }

    private func planned(
        _ notification: PlannedNotification, position: Int, of plan: Plan, member: String?, window: PlanningWindow, lines: [String]
    ) -> Explanation {
        var lines = lines
        lines.append("'\(notification.id)' is in the plan: \(AgendaText.label(notification.kind)) at \(notification.fireAt.display), number \(position) of \(plan.notifications.count), \"\(notification.title)\"")
        if let member, !notification.reminders.contains(member) {
            lines[lines.count - 1] += ", without '\(member)'"
            if let entry = plan.suppressed.first(where: { $0.id == notification.id && $0.reminders.contains(member) }) {
                lines += suppressed(entry, reference: OccurrenceReference(notification.id), window: window)
            }
            return Explanation(verdict: .suppressed, lines: lines)
        }
        if notification.reminders.count > 1 { lines.append("it merges the members \(notification.reminders.joined(separator: ", "))") }
        if let due = notification.deferredFrom, let quiet = config.quietHours {
            lines.append("quiet hours (\(quiet.from)–\(quiet.until), defer) moved it from \(due.display)")
        }
        return Explanation(verdict: .planned, lines: lines)
    }

    /// Which event, look-back or quiet hours removed an entry.
    private func suppressed(_ entry: SuppressedNotification, reference: OccurrenceReference?, window: PlanningWindow) -> [String] {
        var lines = ["'\(entry.id)' at \(entry.fireAt.display) is suppressed for \(entry.reminders.joined(separator: ", ")): \(entry.reason.rawValue)"]
        switch entry.reason {
        case .done, .skip, .snoozed:
            // The events on the same slot of the same reminder or group.
            let keys = Set(entry.reminders + config.reminders.filter { entry.reminders.contains($0.id) }.compactMap(\.group))
            for action in events.actions {
                guard let named = OccurrenceReference(action.occurrence.replacingEvery("-snooze", with: "")),
                      named.slot == reference?.slot, keys.contains(named.key)
                else { continue }
                lines.append("\(action.location): the event '\(Self.describe(action.kind))' on '\(action.occurrence)'")
            }
        case .activity:
            for reminder in config.reminders where entry.reminders.contains(reminder.id) {
                // The activities inside the reminder's look-back, from its start to the time the entry fired.
                var start = Int64.min
                if let slot = reference?.slot {
                    let timeline = window.timeline(of: reminder, covering: slot.date)
                    let midnight = Int64(slot.date.dayNumber) * 86_400
                    switch reminder.lookback {
                    case .seconds(let seconds):
                        start = timeline.instant(ofLocal: midnight + Int64(slot.time.minuteOfDay) * 60).instant - Int64(seconds)
                    case .sameDay, .sameDayCounted: start = timeline.instant(ofLocal: midnight).instant
                    case nil: break
                    }
                }
                let logged = events.sources.dated.filter { $0.activity == reminder.activity && $0.at >= start && $0.at <= entry.fireAt.seconds }
                let lookback = reminder.lookback.map(Self.describe) ?? "no look-back"
                lines.append("'\(reminder.id)' is satisfied by activity '\(reminder.activity)' (\(lookback))")
                for event in logged.suffix(3) { lines.append("\(event.location): '\(reminder.activity)' logged at \(window.zoned(event.at).display)") }
            }
        case .quietHours:
            if let quiet = config.quietHours { lines.append("quiet hours from \(quiet.from) until \(quiet.until) drop what falls inside them") }
        }
        return lines
    }

    /// Not in the plan in any form: the schedule has no such slot, it lies outside the
    /// window, or the reminder is off.
    private func outsideThePlan(
        reference: OccurrenceReference, members: [Reminder], plan: Plan, window: PlanningWindow, isSnooze: Bool, lines: [String]
    ) -> Explanation {
        var lines = lines
        if members.allSatisfy({ !$0.enabled }) {
            return Explanation(verdict: .disabled, lines: lines + ["'\(reference.key)' is disabled (enabled false)"])
        }
        for reminder in members where reminder.enabled {
            let zone = window.inZone(of: reminder)
            var slot: Slot?
            reminder.schedule.forEachSlot(onDates: reference.slot.date...reference.slot.date, timeline: zone.timeline(covering: reference.slot.date)) {
                if $0.local == reference.slot { slot = $0 }
            }
            guard let slot else {
                let after = ReminderCompiler.upcomingSlots(of: reminder, count: 3, after: Self.instant(of: reference.slot, in: zone), zone: zone.rules)
                let nearest = after.isEmpty ? "it has no later slot" : "the next slots are " + after.map { "\($0.id) (\($0.fireAt.display))" }.joined(separator: ", ")
                lines.append("\(reference.slot.date) \(reference.slot.time) is not a slot of the schedule of '\(reminder.id)'; \(nearest)")
                continue
            }
            if reference.followUpMember > reminder.followUp.map(\.chainLength) ?? 0 {
                lines.append("'\(reminder.id)' has \(reminder.followUp.map { "\($0.chainLength) follow-up(s)" } ?? "no followUp"), so there is no follow-up \(reference.followUpMember)")
                continue
            }
            if isSnooze {
                lines.append("a snooze exists only when an events file snoozes the notification at this slot")
                continue
            }
            let instant = slot.instant + Int64(reminder.followUp.map { reference.followUpMember > 0 ? $0.delayMinutes(ofMember: reference.followUpMember) : 0 } ?? 0) * 60
            let shown = window.zoned(instant).display
            if instant <= plan.now.seconds {
                return Explanation(verdict: .outsideWindow, lines: lines + ["it was due at \(shown), not after now (\(plan.now.display)): it has fired or been missed"])
            }
            return Explanation(verdict: .outsideWindow, lines: lines + [
                "it is due at \(shown), after the window's end (\(plan.windowEnd.display)); a longer horizonDays or a later plan brings it in",
            ])
        }
        return Explanation(verdict: .notInSchedule, lines: lines)
    }

    private static func instant(of local: LocalDateTime, in window: PlanningWindow) -> Int64 {
        window.timeline(covering: local.date).instant(ofLocal: Int64(local.date.dayNumber) * 86_400 + Int64(local.time.minuteOfDay) * 60).instant
    }

    private static func describe(_ kind: OccurrenceAction.Kind) -> String {
        switch kind {
        case .done: return "done"
        case .skip: return "skip"
        case .snooze(_, let minutes): return "snooze\(minutes.map { " \($0) minutes" } ?? "")"
        }
    }

    private static func describe(_ lookback: Lookback) -> String {
        switch lookback {
        case .seconds(let seconds): return "look-back \(Double(seconds) / 3600) hours"
        case .sameDay: return "look-back since midnight"
        case .sameDayCounted: return "counted since midnight"
        }
    }
}
