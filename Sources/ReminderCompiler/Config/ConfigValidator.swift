/// The rules of the Config reference's "Validation" section on a config value, however
/// it was made: decoded from a file, built in code, or decoded and then changed.
/// Planning relies on them (a zero interval would divide by zero), so
/// `ReminderCompiler.plan` runs them before anything else.
///
/// It is the one owner of these rules: the decoder reads a file's shape and leaves every
/// rule about values to it. A value is named by its key path
/// (`reminders[1].schedule.interval`) when its part of the config was built in code; in a
/// config read from a file, by the position of the value itself when the decoder gives
/// its `FileSites`, else by the position of its part.
struct ConfigValidator {
    let config: ReminderConfig
    let zones: TimeZoneDatabase
    /// A zone given beside the config (`--time-zone`, `CompileOptions.timeZone`).
    let timeZoneOverride: String?
    /// Where the values of a config just decoded stand, and which the decoder refused.
    let sites: FileSites?
    /// Whether the config was just decoded from a file, whose decoder then applied the
    /// rules about keys (a key that does not apply, keys that exclude or need each other,
    /// a missing `timeZone`): the validator applies their typed counterparts only to
    /// configs built in code, where there are no keys to look at.
    private var decoderCheckedTheKeys: Bool { sites != nil }
    private(set) var diagnostics: [Diagnostic] = []

    init(_ config: ReminderConfig, zones: TimeZoneDatabase, timeZoneOverride: String? = nil, sites: FileSites? = nil) {
        self.config = config
        self.zones = zones
        self.timeZoneOverride = timeZoneOverride
        self.sites = sites
        checkSettings()
        checkCategories()
        checkGroups()
        checkReminders()
        warnAboutSharedSameDayActivities()
        warnAboutRemindersQuietHoursDrop()
        warnAboutFollowUpsPastTheNextSlot()
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    // MARK: - Reporting

    /// The key path for a part built in code; else the position in the file of the value
    /// at `keyPath` (or of its key, or of `part`, as `site` says), or of `part` when the
    /// decoder gave no sites.
    private func place(
        _ keyPath: String, in part: SourceLocation, at site: FileSites.Site = .value, element: Int64? = nil
    ) -> SourceLocation {
        if part.isKeyPath { return .keyPath(keyPath) }
        guard site != .part, let sites else { return part }
        return sites.location(of: keyPath, site: site, element: element) ?? part
    }

    /// Whether the decoder refused the value at `keyPath` (or a part holding it), or any of
    /// `inputs`, the values a rule reads besides: it reported them already, and a rule
    /// applied to the default in their place would report what the file does not say.
    private func isRefused(_ keyPath: String, inputs: [String] = []) -> Bool {
        guard let sites else { return false }
        return sites.isRefused(keyPath) || inputs.contains { sites.isRefusedInPart($0) }
    }

    private mutating func error(
        _ message: DiagnosticMessage, _ keyPath: String, in part: SourceLocation, at site: FileSites.Site = .value,
        element: Int64? = nil, inputs: [String] = [], notes: [Diagnostic] = []
    ) {
        guard !isRefused(keyPath, inputs: inputs) else { return }
        diagnostics.append(Diagnostic(.error, at: place(keyPath, in: part, at: site, element: element), message, notes: notes))
    }

    private mutating func warning(
        _ message: DiagnosticMessage, _ keyPath: String, in part: SourceLocation, at site: FileSites.Site = .value,
        inputs: [String] = [], notes: [Diagnostic] = []
    ) {
        guard !isRefused(keyPath, inputs: inputs) else { return }
        diagnostics.append(Diagnostic(.warning, at: place(keyPath, in: part, at: site), message, notes: notes))
    }

    /// `lookbackSameDay` suppresses a slot for any entry of its activity since midnight: a
    /// reminder that shares its activity with another is silenced for the day by an entry
    /// meant for the other (an evening pill by the morning pill's). `countsEntries` asks
    /// for one entry per slot, which is what sharing wants, and is not warned about.
    private mutating func warnAboutSharedSameDayActivities() {
        var withActivity: [String: [Int]] = [:]
        for index in config.reminders.indices where config.reminders[index].enabled {
            withActivity[config.reminders[index].activity, default: []].append(index)
        }
        for index in config.reminders.indices where config.reminders[index].enabled && config.reminders[index].lookback == .sameDay {
            let reminder = config.reminders[index]
            guard let other = withActivity[reminder.activity]?.first(where: { $0 != index }) else { continue }
            let otherReminder = config.reminders[other]
            warning(
                .sameDayActivityShared(reminder.id, activity: reminder.activity, other: otherReminder.id), "reminders[\(index)]",
                in: reminder.location, at: .part, inputs: ["reminders[\(index)].activity", "reminders[\(other)].activity"],
                notes: [Diagnostic(.note, at: place("reminders[\(other)]", in: otherReminder.location, at: .part), .sameDayActivitySharedOther(otherReminder.id))]
            )
        }
    }

    /// Quiet hours that drop: a reminder whose every notification they hold (each time of
    /// day, and each follow-up, judged at its own time) is never delivered, which is valid
    /// but almost never meant. Reminders that quiet hours do not hold (`quietHours` false,
    /// `critical` without the key, or beside an exempt member of their group), follow-ups
    /// they do not hold, and reminders that read their times in a zone of their own (whose
    /// local times move against the plan zone's quiet hours) are left alone.
    private mutating func warnAboutRemindersQuietHoursDrop() {
        guard let quiet = config.quietHours, quiet.action == .drop else { return }
        // Which notifications quiet hours hold is the planner's rule (`observesQuietHours`).
        func isHeld(_ reminder: Reminder) -> Bool { reminder.observesQuietHours(at: reminder.interruptionLevel) }
        var exemptGroups = Set<String>()
        for reminder in config.reminders where reminder.enabled && !isHeld(reminder) {
            if let group = reminder.group { exemptGroups.insert(group) }
        }
        for index in config.reminders.indices where config.reminders[index].enabled {
            let reminder = config.reminders[index]
            guard isHeld(reminder), reminder.timeZone == nil, !(reminder.group.map(exemptGroups.contains) ?? false) else { continue }
            let times = reminder.schedule.frequency == .once ? reminder.schedule.at.map(\.time) : reminder.schedule.timesOfDay.resolved
            guard !times.isEmpty, times.allSatisfy(quiet.contains) else { continue }
            if let followUp = reminder.followUp {
                // A follow-up the quiet hours do not hold, or one past their end, is delivered.
                let followUpHeld = reminder.observesQuietHours(at: followUp.interruptionLevel ?? reminder.interruptionLevel)
                let delivered = !followUpHeld || times.contains { time in
                    followUp.timing.contains { delay in
                        // A delay outside what validation accepts (a config built in code) still
                        // gives a minute of the day, never an overflow.
                        let minute = ((time.minuteOfDay + delay % 1440) % 1440 + 1440) % 1440
                        return LocalTime(minuteOfDay: minute).map { !quiet.contains($0) } ?? true
                    }
                }
                if delivered { continue }
            }
            let shown = Set(times).sorted().prefix(4).map(\.description).joined(separator: ", ") + (Set(times).count > 4 ? ", …" : "")
            warning(
                .quietHoursDropEverySlot(reminder.id, times: shown, from: quiet.from.description, until: quiet.until.description),
                "reminders[\(index)].schedule", in: reminder.location, at: .value,
                inputs: ["reminders[\(index)].schedule", "quietHours"],
                notes: [Diagnostic(.note, at: place("quietHours", in: quiet.location, at: .part), .quietHoursDropHere)]
            )
        }
    }

    /// A follow-up chain that reaches a reminder's next slot: its last follow-up fires at
    /// or after the next notification of the same reminder, which nags about a slot the
    /// person has already been reminded of again. Slots are laid out over the schedule's
    /// cycle: a day (times of day) for daily schedules, a week (weekdays and times) for
    /// weekly ones, each repeated every `interval` cycles, so the last slot's next is the
    /// first of the next cycle. Monthly and yearly schedules are judged within a day.
    private mutating func warnAboutFollowUpsPastTheNextSlot() {
        for index in config.reminders.indices where config.reminders[index].enabled {
            let reminder = config.reminders[index]
            let schedule = reminder.schedule
            guard let followUp = reminder.followUp, schedule.frequency != .once else { continue }
            let chain = followUp.delayMinutes(ofMember: followUp.chainLength)
            let times = schedule.timesOfDay.resolved.map(\.minuteOfDay)
            // Slots as minutes from the start of one cycle, and the cycle's length.
            // An interval is at most 1000 once valid; one built in code may be any number, so it
            // is held there rather than let overflow the cycle.
            let interval = min(max(1, schedule.interval), 1000)
            let slots: [Int], cycle: Int?
            switch schedule.frequency {
            case .daily:
                (slots, cycle) = (times, 1440 * interval)
            case .weekly:
                let days = schedule.weekdays.isEmpty ? [] : schedule.weekdays.sorted()
                slots = days.flatMap { day in times.map { (day.rawValue - 1) * 1440 + $0 } }
                cycle = 10_080 * interval
            default:
                (slots, cycle) = (times, nil)
            }
            guard let first = slots.first, let last = slots.last else { continue }
            var gaps = zip(slots, slots.dropFirst()).map { (from: $0, gap: $1 - $0) }
            if let cycle { gaps.append((from: last, gap: cycle - last + first)) }
            guard let shortest = gaps.min(by: { $0.gap < $1.gap }), chain >= shortest.gap else { continue }
            func named(_ minute: Int) -> String {
                let time = LocalTime(minuteOfDay: minute % 1440)?.description ?? ""
                guard schedule.frequency == .weekly, let day = Weekday(rawValue: minute / 1440 % 7 + 1) else { return time }
                return "\(day.name) \(time)"
            }
            warning(
                .followUpPastNextSlot(
                    reminder.id, chainMinutes: chain, from: named(shortest.from), next: named(shortest.from + shortest.gap), gap: shortest.gap
                ),
                "reminders[\(index)].followUp", in: followUp.location, at: .part,
                inputs: ["reminders[\(index)].followUp", "reminders[\(index)].schedule"]
            )
        }
    }

    /// Reports `value` outside `range`; true when it is inside.
    @discardableResult
    private mutating func checkRange<Value: Comparable>(
        _ value: Value, _ range: ClosedRange<Value>, key: String, rangeText: String, _ keyPath: String, in part: SourceLocation
    ) -> Bool {
        guard range.contains(value) else {
            error(.outOfRange(key, value: "\(value)", range: rangeText), keyPath, in: part)
            return false
        }
        return true
    }

    private mutating func checkIdentifier(
        _ text: String, what: String, _ keyPath: String, in part: SourceLocation, at site: FileSites.Site = .value
    ) -> Bool {
        guard ConfigValueParsing.isValidIdentifier(text) else {
            error(.invalidIdentifier(what, value: text), keyPath, in: part, at: site)
            return false
        }
        return true
    }

    /// Reports an empty `text`; true when it holds something.
    @discardableResult
    private mutating func checkNonEmpty(_ text: String, key: String, _ keyPath: String, in part: SourceLocation) -> Bool {
        guard text.isEmpty else { return true }
        error(.emptyString(key), keyPath, in: part)
        return false
    }

    private mutating func checkCategoryReference(_ category: String?, _ keyPath: String, in part: SourceLocation) {
        guard let category, checkNonEmpty(category, key: "category", keyPath, in: part), config.categories[category] == nil
        else { return }
        let known = config.categories.keys.sorted()
        error(.unknownCategory(category, suggestion: closestMatch(to: category, in: known)), keyPath, in: part)
    }

    // MARK: - Root

    private mutating func checkSettings() {
        let root = config.location
        // The config's own zone is checked even when one is given beside it: the file
        // names it, and may be compiled without the override next time.
        for (zone, site) in [(config.timeZone, FileSites.Site.value), (timeZoneOverride, .part)] {
            guard let zone, !zones.contains(zone) else { continue }
            error(.unknownTimeZone(zone, suggestion: zones.suggestion(for: zone)), "timeZone", in: root, at: site)
        }
        if config.timeZone == nil, timeZoneOverride == nil, !decoderCheckedTheKeys { error(.missingTimeZone, "timeZone", in: root) }
        checkRange(config.horizonDays, 1...3660, key: "horizonDays", rangeText: "1–3660", "horizonDays", in: root)
        let limitValid = checkRange(
            config.pendingLimit, 0...1_000_000, key: "pendingLimit", rangeText: "0–1000000 (0 = unlimited)", "pendingLimit", in: root
        )
        if checkRange(config.reservedSlots, 0...1_000_000, key: "reservedSlots", rangeText: "0–1000000", "reservedSlots", in: root),
           limitValid, config.pendingLimit > 0, config.reservedSlots >= config.pendingLimit
        {
            error(
                .reservedSlotsTooMany(Int64(config.reservedSlots), limit: Int64(config.pendingLimit)), "reservedSlots", in: root,
                inputs: ["pendingLimit"]
            )
        }
        let coverage = config.minimumCoverageDays
        if !coverage.isFinite || !(0...3660).contains(coverage) {
            error(.outOfRange("minimumCoverageDays", value: formatNumber(coverage), range: "0–3660"), "minimumCoverageDays", in: root)
        }
        checkNonEmpty(config.calendarName, key: "calendarName", "calendarName", in: root)
        if checkNonEmpty(config.uidDomain, key: "uidDomain", "uidDomain", in: root), !ConfigValueParsing.isValidDomain(config.uidDomain) {
            error(.invalidDomain(config.uidDomain), "uidDomain", in: root)
        }
        if let quiet = config.quietHours {
            let part = quiet.location.isKeyPath ? root : quiet.location
            for (key, time) in [("from", quiet.from), ("until", quiet.until)] where !time.isValid {
                error(.invalidTime(time.description), "quietHours.\(key)", in: part)
            }
            if quiet.from == quiet.until { error(.quietHoursEmpty(quiet.from.description), "quietHours.until", in: part) }
        }
        if config.reminders.isEmpty { warning(.noReminders, "reminders", in: root) }
    }

    private mutating func checkCategories() {
        for (id, actions) in config.categories.sorted(by: { $0.key < $1.key }) {
            let path = "categories.\(id)"
            _ = checkIdentifier(id, what: "category id", path, in: config.location, at: .key)
            var firstIndexOfID: [String: Int] = [:]
            for (index, action) in actions.enumerated() {
                let actionPath = "\(path)[\(index)]"
                checkNonEmpty(action.id, key: "id", "\(actionPath).id", in: config.location)
                checkNonEmpty(action.title, key: "title", "\(actionPath).title", in: config.location)
                if let minutes = action.snoozeMinutes {
                    checkRange(minutes, 1...1440, key: "snoozeMinutes", rangeText: "1–1440", "\(actionPath).snoozeMinutes", in: config.location)
                }
                guard !action.id.isEmpty, !isRefused("\(actionPath).id") else { continue }
                if let first = firstIndexOfID[action.id] {
                    error(
                        .duplicateActionID(action.id), "\(actionPath).id", in: config.location,
                        notes: [Diagnostic(.note, at: place("\(path)[\(first)].id", in: config.location), .firstDefinition(action.id))]
                    )
                } else {
                    firstIndexOfID[action.id] = index
                }
            }
        }
    }

    private mutating func checkGroups() {
        let used = Set(config.reminders.compactMap(\.group))
        for (key, group) in config.groups.sorted(by: { $0.key < $1.key }) {
            let path = "groups.\(key)"
            let validKey = checkIdentifier(key, what: "group key", path, in: group.location, at: .key)
            checkNonEmpty(group.title, key: "title", "\(path).title", in: group.location)
            checkCategoryReference(group.category, "\(path).category", in: group.location)
            if validKey, !used.contains(key) { warning(.unusedGroup(key), path, in: group.location, at: .key) }
        }
    }

    // MARK: - Reminders

    private mutating func checkReminders() {
        var firstOfID: [String: (index: Int, location: SourceLocation)] = [:]
        var firstOfGroup: [String: Int] = [:]
        let groupKeyDefinitions = groupKeyDefinitions()
        for (index, reminder) in config.reminders.enumerated() {
            let path = "reminders[\(index)]"
            let part = reminder.location
            // A reminder read from a file is pointed at as a whole when its id repeats
            // another's or a group's: the note then points at the other.
            if !isRefused("\(path).id"), checkIdentifier(reminder.id, what: "reminder id", "\(path).id", in: part) {
                if let first = firstOfID[reminder.id] {
                    error(
                        .duplicateReminderID(reminder.id), "\(path).id", in: part, at: .part,
                        notes: [Diagnostic(
                            .note, at: place("reminders[\(first.index)].id", in: first.location, at: .part), .firstDefinition(reminder.id)
                        )]
                    )
                } else {
                    firstOfID[reminder.id] = (index, part)
                }
                if let definition = groupKeyDefinitions[reminder.id] {
                    error(
                        .reminderIDIsGroupKey(reminder.id), "\(path).id", in: part, at: .part,
                        notes: [Diagnostic(.note, at: definition, .groupKeyDefinedHere(reminder.id))]
                    )
                }
            }
            checkNonEmpty(reminder.title, key: "title", "\(path).title", in: part)
            for (key, text) in [("title", reminder.title), ("body", reminder.body)] where text.hasSurroundingWhiteSpace {
                warning(.surroundingSpaces(key), "\(path).\(key)", in: part)
            }
            if !decoderCheckedTheKeys, !reminder.body.isEmpty, !reminder.bodies.isEmpty {
                error(.exclusiveKeys("body", "bodies"), "\(path).bodies", in: part)
            }
            if let group = reminder.group, checkIdentifier(group, what: "group key", "\(path).group", in: part) {
                if let first = firstOfGroup[group] {
                    checkSharedFollowUp(reminder, index: index, with: first, group: group)
                    checkSharedZone(reminder, index: index, with: first, group: group)
                } else {
                    firstOfGroup[group] = index
                }
            }
            // An activity that is the id, by default, was reported as the id when invalid.
            if reminder.activity != reminder.id || ConfigValueParsing.isValidIdentifier(reminder.id) {
                checkNonEmpty(reminder.activity, key: "activity", "\(path).activity", in: part)
            }
            if case .seconds(let seconds) = reminder.lookback, !(1...(168 * 3600)).contains(seconds) {
                let hours = Double(seconds) / 3600
                error(
                    .outOfRange("lookbackHours", value: formatNumber(hours), range: Lookback.hoursRangeText), "\(path).lookback", in: part
                )
            }
            if let followUp = reminder.followUp {
                let followUpPart = followUp.location.isKeyPath ? part : followUp.location
                checkRange(
                    followUp.afterMinutes, FollowUp.minutesRange, key: "afterMinutes", rangeText: "1–1440", "\(path).followUp.afterMinutes",
                    in: followUpPart
                )
                if let title = followUp.title { checkNonEmpty(title, key: "title", "\(path).followUp.title", in: followUpPart) }
                checkRange(
                    followUp.repeatCount, FollowUp.repeatRange, key: "repeat", rangeText: "1–12", "\(path).followUp.repeatCount", in: followUpPart
                )
                if let every = followUp.everyMinutes {
                    checkRange(every, FollowUp.minutesRange, key: "everyMinutes", rangeText: "1–1440", "\(path).followUp.everyMinutes", in: followUpPart)
                }
            }
            if let zone = reminder.timeZone, !zones.contains(zone) {
                error(.unknownTimeZone(zone, suggestion: zones.suggestion(for: zone)), "\(path).timeZone", in: part)
            }
            checkCategoryReference(reminder.category, "\(path).category", in: part)
            checkRange(reminder.durationMinutes, 0...1440, key: "durationMinutes", rangeText: "0–1440", "\(path).durationMinutes", in: part)
            checkSchedule(reminder.schedule, "\(path).schedule", in: part)
        }
    }

    /// Where each group key is defined: its entry in `groups`, else the first reminder that
    /// names it.
    private func groupKeyDefinitions() -> [String: SourceLocation] {
        var definitions: [String: SourceLocation] = [:]
        for (key, group) in config.groups { definitions[key] = place("groups.\(key)", in: group.location, at: .key) }
        for (index, reminder) in config.reminders.enumerated() {
            guard let group = reminder.group, definitions[group] == nil else { continue }
            definitions[group] = place("reminders[\(index)].group", in: reminder.location)
        }
        return definitions
    }

    /// Members of a group share one slot, so they must read it in one zone; an unknown
    /// zone is reported as such, not compared (it is most likely the known one misspelt).
    private mutating func checkSharedZone(_ reminder: Reminder, index: Int, with firstIndex: Int, group: String) {
        let first = config.reminders[firstIndex]
        guard first.timeZone != reminder.timeZone,
              [first.timeZone, reminder.timeZone].allSatisfy({ $0.map(zones.contains) ?? true })
        else { return }
        error(
            .groupZonesDisagree(group: group, reminder: reminder.id, zone: reminder.timeZone), "reminders[\(index)].timeZone",
            in: reminder.location, at: .part, inputs: ["reminders[\(firstIndex)].timeZone"],
            notes: [Diagnostic(
                .note, at: place("reminders[\(firstIndex)].timeZone", in: first.location, at: .part),
                .groupZoneOther(reminder: first.id, zone: first.timeZone)
            )]
        )
    }

    /// Members of a group share one follow-up, so they must agree on when; a follow-up
    /// whose timing is out of range is reported as such, not compared.
    private mutating func checkSharedFollowUp(_ reminder: Reminder, index: Int, with firstIndex: Int, group: String) {
        let first = config.reminders[firstIndex]
        guard first.followUp?.timing != reminder.followUp?.timing,
              [first.followUp, reminder.followUp].allSatisfy({ $0?.hasTimingInRange ?? true })
        else { return }
        func detail(_ member: Reminder) -> String { FollowUp.describe(member.followUp) }
        error(
            .groupFollowUpDisagrees(group: group, reminder: reminder.id, detail: detail(reminder)),
            "reminders[\(index)].followUp", in: reminder.followUp?.location ?? reminder.location, at: .part,
            inputs: ["reminders[\(firstIndex)].followUp"],
            notes: [Diagnostic(
                .note, at: place("reminders[\(firstIndex)].followUp", in: first.followUp?.location ?? first.location, at: .part),
                .groupFollowUpOther(reminder: first.id, detail: detail(first))
            )]
        )
    }

    // MARK: - Schedules

    private mutating func checkDate(_ date: CivilDate, key: String, _ keyPath: String, in part: SourceLocation) -> Bool {
        guard date.isSupported else {
            error(.invalidDate("\(key) outside 1970–9999"), keyPath, in: part)
            return false
        }
        return true
    }

    private mutating func checkSchedule(_ schedule: Schedule, _ path: String, in part: SourceLocation) {
        let frequency = schedule.frequency.rawValue
        // A frequency the decoder could not read stands as `daily`: the rules that depend
        // on it are passed over, the others still apply.
        let frequencyKnown = !isRefused("\(path).frequency")
        for (index, date) in schedule.exceptions.sorted().enumerated() {
            _ = checkDate(date, key: "except", "\(path).except[\(index)]", in: part)
        }
        if schedule.frequency == .once {
            if schedule.at.isEmpty { error(.emptyArray("at"), "\(path).at", in: part, inputs: ["\(path).at"]) }
            for (index, slot) in schedule.at.enumerated() where !slot.date.isSupported || !slot.time.isValid {
                error(.invalidDateTime("at[\(index)]"), "\(path).at[\(index)]", in: part)
            }
            let repeatingParts: [(String, Bool)] = [
                ("times", schedule.timesOfDay != .list([])), ("interval", schedule.interval != 1),
                ("weekdays", !schedule.weekdays.isEmpty), ("days", !schedule.monthDays.isEmpty),
                ("weekdayOrdinals", !schedule.weekdayOrdinals.isEmpty), ("missingDays", schedule.missingDays != .skip),
                ("months", !schedule.months.isEmpty), ("count", schedule.count != nil),
            ]
            for (key, isSet) in repeatingParts where isSet && !decoderCheckedTheKeys {
                error(.notApplicable(key, frequency: frequency), "\(path).\(key)", in: part)
            }
            checkStartAndEnd(schedule, path, in: part)
            return
        }
        if !schedule.at.isEmpty, !decoderCheckedTheKeys { error(.notApplicable("at", frequency: frequency), "\(path).at", in: part) }
        checkTimesOfDay(schedule.timesOfDay, path, in: part)
        if checkRange(schedule.interval, 1...1000, key: "interval", rangeText: "1–1000", "\(path).interval", in: part),
           schedule.interval > 1, schedule.start == nil
        {
            error(.intervalNeedsStart(Int64(schedule.interval)), "\(path).interval", in: part, inputs: ["\(path).start"])
        }
        checkStartAndEnd(schedule, path, in: part)
        if let count = schedule.count {
            if checkRange(Int64(count), Schedule.countRange, key: "count", rangeText: Schedule.countRangeText, "\(path).count", in: part),
               schedule.start == nil
            {
                error(.countNeedsStart(Int64(count)), "\(path).count", in: part, inputs: ["\(path).start"])
            }
            if schedule.end != nil { error(.countWithEnd, "\(path).end", in: part, at: .key) }
        }
        for (index, month) in schedule.months.enumerated() where !(1...12).contains(month) {
            error(.invalidMonth(String(month), suggestion: nil), "\(path).months[\(index)]", in: part, element: Int64(month))
        }
        for (index, day) in schedule.monthDays.enumerated() where !((1...31).contains(day) || (-31 ... -1).contains(day)) {
            error(.invalidMonthDay(Int64(day)), "\(path).days[\(index)]", in: part, element: Int64(day))
        }
        for (index, rule) in schedule.weekdayOrdinals.enumerated() where !((1...5).contains(rule.ordinal) || (-5 ... -1).contains(rule.ordinal)) {
            error(.invalidWeekdayOrdinal(rule.description), "\(path).weekdayOrdinals[\(index)]", in: part)
        }
        guard frequencyKnown else { return }
        let isWeekly = schedule.frequency == .weekly
        let isYearly = schedule.frequency == .yearly
        let isMonthly = schedule.frequency == .monthly
        if isWeekly, schedule.weekdays.isEmpty {
            error(.emptyArray("weekdays"), "\(path).weekdays", in: part, inputs: ["\(path).weekdays"])
        }
        if isYearly, schedule.months.isEmpty { error(.yearlyNeedsMonths, "\(path).months", in: part, inputs: ["\(path).months"]) }
        if !decoderCheckedTheKeys {
            let keysOfOtherFrequencies: [(String, Bool)] = [
                ("weekdays", !isWeekly && !schedule.weekdays.isEmpty), ("months", !isYearly && !schedule.months.isEmpty),
                ("days", !isMonthly && !isYearly && !schedule.monthDays.isEmpty),
                ("weekdayOrdinals", !isMonthly && !isYearly && !schedule.weekdayOrdinals.isEmpty),
                ("missingDays", !isMonthly && !isYearly && schedule.missingDays != .skip),
            ]
            for (key, isSet) in keysOfOtherFrequencies where isSet {
                error(.notApplicable(key, frequency: frequency), "\(path).\(key)", in: part)
            }
        }
        guard isMonthly || isYearly else { return }
        if schedule.monthDays.isEmpty, schedule.weekdayOrdinals.isEmpty {
            error(.needsDays(frequency: frequency), "\(path).days", in: part, inputs: ["\(path).days", "\(path).weekdayOrdinals"])
        }
        if !decoderCheckedTheKeys, schedule.missingDays == .lastDay, schedule.monthDays.isEmpty {
            error(.missingDaysNeedsDays, "\(path).missingDays", in: part)
        }
    }

    private mutating func checkStartAndEnd(_ schedule: Schedule, _ path: String, in part: SourceLocation) {
        let startValid = schedule.start.map { checkDate($0, key: "start", "\(path).start", in: part) } ?? true
        let endValid = schedule.end.map { checkDate($0, key: "end", "\(path).end", in: part) } ?? true
        if startValid, endValid, let start = schedule.start, let end = schedule.end, end < start {
            error(.endBeforeStart(end: end.description, start: start.description), "\(path).end", in: part)
        }
    }

    private mutating func checkTimesOfDay(_ times: Schedule.TimesOfDay, _ path: String, in part: SourceLocation) {
        switch times {
        case .list(let list):
            if list.isEmpty { error(.emptyArray("times"), "\(path).times", in: part, inputs: ["\(path).times"]) }
            for (index, time) in list.enumerated() where !time.isValid {
                error(.invalidTime("times[\(index)]"), "\(path).times[\(index)]", in: part)
            }
        case .spread(let count, let window):
            checkRange(count, 1...1440, key: "timesPerDay", rangeText: "1–1440", "\(path).timesPerDay", in: part)
            if checkWindow(window, path, in: part), (1...1440).contains(count) {
                let distinct = times.resolved.count
                if distinct < count {
                    warning(.timesCollapse(count: count, distinct: distinct, from: window.lowerBound, until: window.upperBound), "\(path).timesPerDay", in: part)
                }
            }
        case .every(let minutes, let window):
            checkRange(minutes, 5...720, key: "everyMinutes", rangeText: "5–720", "\(path).everyMinutes", in: part)
            _ = checkWindow(window, path, in: part)
        }
    }

    private mutating func checkWindow(_ window: ClosedRange<LocalTime>, _ path: String, in part: SourceLocation) -> Bool {
        guard window.lowerBound.isValid, window.upperBound.isValid else {
            error(.invalidTime("window"), "\(path).window", in: part)
            return false
        }
        guard window.lowerBound < window.upperBound else {
            error(.windowNotIncreasing(from: window.lowerBound.description, until: window.upperBound.description), "\(path).window.from", in: part)
            return false
        }
        return true
    }
}

extension Lookback {
    /// What `lookbackHours` may be, as messages say it.
    static let hoursRangeText = "more than 0 and at most 168"
}

extension FollowUp {
    /// What `afterMinutes` and `everyMinutes` may be.
    static let minutesRange = 1...1440
    /// What `repeat` may be.
    static let repeatRange = 1...12

    /// Whether every part of the timing is in range, so that members of a group can be
    /// compared on it.
    var hasTimingInRange: Bool {
        Self.minutesRange.contains(afterMinutes) && Self.repeatRange.contains(repeatCount)
            && (everyMinutes.map(Self.minutesRange.contains) ?? true)
    }
}

extension ReminderConfig {
    /// Checks the config against every rule of the Config reference's "Validation"
    /// section, as the plist decoder does, and returns the errors and warnings. Values of
    /// parts built in code are named by key path
    /// (`reminders[1].schedule.interval: error: 'interval' is 0; expected 1–1000`).
    ///
    /// - Parameters:
    ///   - timeZoneOverride: a zone given beside the config, which then need not name one
    ///     itself.
    ///   - zones: the tz database the zone names are checked against.
    public func validate(timeZoneOverride: String? = nil, zones: TimeZoneDatabase = .system) -> [Diagnostic] {
        ConfigValidator(self, zones: zones, timeZoneOverride: timeZoneOverride).diagnostics
    }
}

/// A config that passed every rule of the Config reference's "Validation" section, for the
/// zone it will be planned in. Only `ConfigValidator.validated(_:zones:timeZoneOverride:)`
/// makes one, so planning, which takes nothing else, never sees an unchecked config, and
/// a config decoded from a file is not checked a second time before it is planned.
struct ValidatedConfig: Sendable {
    /// The config, its parts built in code named by key path.
    let config: ReminderConfig
    /// The zone given beside the config when it was checked (`--time-zone`).
    let timeZoneOverride: String?
    /// The digest of every enabled reminder by id (`ReminderCompiler.reminderDigests`), in
    /// the zone the config is planned in, `timeZoneOverride` or the config's own; nil when
    /// neither names one. Made with the check, so that re-planning a config does not
    /// digest it again.
    let reminderDigests: [String: String]?
    /// The reminders in planning order, made with the check for the same reason.
    let order: PlanningOrder

    fileprivate init(config: ReminderConfig, timeZoneOverride: String?) {
        self.config = config
        self.timeZoneOverride = timeZoneOverride
        reminderDigests = (timeZoneOverride ?? config.timeZone).map { ReminderCompiler.reminderDigests(of: config, planZone: $0) }
        order = PlanningOrder(config)
    }

    /// The same config with the digest of the file it was read from, which no rule checks
    /// and no reminder's digest takes in.
    func recordingSourceDigest(_ digest: String) -> ValidatedConfig {
        var config = config
        config.sourceDigest = digest
        return ValidatedConfig(config: config, timeZoneOverride: timeZoneOverride, reminderDigests: reminderDigests, order: order)
    }

    private init(config: ReminderConfig, timeZoneOverride: String?, reminderDigests: [String: String]?, order: PlanningOrder) {
        self.config = config
        self.timeZoneOverride = timeZoneOverride
        self.reminderDigests = reminderDigests
        self.order = order
    }
}

/// A config `ReminderCompiler.check` validated, as kept with the config it returned
/// (`ReminderConfig.checked`): planning that config, unchanged, in the same zone and with
/// the same zone database, starts from here instead of checking it again.
final class CheckedConfig: Sendable {
    let validated: ValidatedConfig
    let zones: TimeZoneDatabase

    init(_ validated: ValidatedConfig, zones: TimeZoneDatabase) {
        self.validated = validated
        self.zones = zones
    }

    /// The validated config, when it serves a plan with these options and zones.
    func validated(for options: CompileOptions, zones: TimeZoneDatabase) -> ValidatedConfig? {
        validated.timeZoneOverride == options.timeZone && zones.isSame(as: self.zones) ? validated : nil
    }
}

extension ConfigValidator {
    /// Checks `config` (its parts built in code then named by key path) and gives it back
    /// validated when no rule fails, with every error and warning found.
    /// `sites`, for a config just decoded, point at each value in its file and name the
    /// values the decoder refused.
    static func validated(
        _ config: ReminderConfig, zones: TimeZoneDatabase, timeZoneOverride: String?, sites: FileSites? = nil
    ) -> (config: ValidatedConfig?, diagnostics: [Diagnostic]) {
        let located = config.locatingPartsBuiltInCode()
        let validator = ConfigValidator(located, zones: zones, timeZoneOverride: timeZoneOverride, sites: sites)
        return (validator.hasErrors ? nil : ValidatedConfig(config: located, timeZoneOverride: timeZoneOverride), validator.diagnostics)
    }
}
