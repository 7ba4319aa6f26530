/// The rules of the Config reference's "Validation" section on a config value, however
/// it was made: decoded from a file, built in code, or decoded and then changed.
/// Planning relies on them (a zero interval would divide by zero), so
/// `ReminderCompiler.plan` runs them before anything else.
///
/// A value is named by its key path (`reminders[1].schedule.interval`) when its part of
/// the config was built in code, and by the file position of its part otherwise. The
/// messages are the plist decoder's.
struct ConfigValidator {
    let config: ReminderConfig
    let zones: TimeZoneDatabase
    /// A zone given beside the config (`--time-zone`, `CompileOptions.timeZone`).
    let timeZoneOverride: String?
    private(set) var diagnostics: [Diagnostic] = []

    init(_ config: ReminderConfig, zones: TimeZoneDatabase, timeZoneOverride: String? = nil) {
        self.config = config
        self.zones = zones
        self.timeZoneOverride = timeZoneOverride
        checkSettings()
        checkCategories()
        checkGroups()
        checkReminders()
        warnAboutSharedSameDayActivities()
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    // MARK: - Reporting

    /// The key path for a part built in code, else the position of the part in its file.
    private func place(_ keyPath: String, in part: SourceLocation) -> SourceLocation {
        part.isKeyPath ? .keyPath(keyPath) : part
    }

    private mutating func error(_ message: DiagnosticMessage, _ keyPath: String, in part: SourceLocation, notes: [Diagnostic] = []) {
        diagnostics.append(Diagnostic(.error, at: place(keyPath, in: part), message, notes: notes))
    }

    private mutating func warning(_ message: DiagnosticMessage, _ keyPath: String, in part: SourceLocation, notes: [Diagnostic] = []) {
        diagnostics.append(Diagnostic(.warning, at: place(keyPath, in: part), message, notes: notes))
    }

    /// Warnings this validator alone gives, for configs read from files and built in code
    /// alike; the file decoder passes them on rather than finding them again.
    static let ownedWarnings: Set = ["config.same-day-shared-activity"]

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
                in: reminder.location,
                notes: [Diagnostic(.note, at: place("reminders[\(other)]", in: otherReminder.location), .sameDayActivitySharedOther(otherReminder.id))]
            )
        }
    }

    private mutating func checkRange<Value: Comparable>(
        _ value: Value, _ range: ClosedRange<Value>, key: String, rangeText: String, _ keyPath: String, in part: SourceLocation
    ) {
        if !range.contains(value) { error(.outOfRange(key, value: "\(value)", range: rangeText), keyPath, in: part) }
    }

    private mutating func checkIdentifier(_ text: String, what: String, _ keyPath: String, in part: SourceLocation) -> Bool {
        guard ConfigValueParsing.isValidIdentifier(text) else {
            error(.invalidIdentifier(what, value: text), keyPath, in: part)
            return false
        }
        return true
    }

    private mutating func checkNonEmpty(_ text: String, key: String, _ keyPath: String, in part: SourceLocation) {
        if text.isEmpty { error(.emptyString(key), keyPath, in: part) }
    }

    private mutating func checkCategoryReference(_ category: String?, _ keyPath: String, in part: SourceLocation) {
        guard let category, config.categories[category] == nil else { return }
        let known = config.categories.keys.sorted()
        error(.unknownCategory(category, suggestion: closestMatch(to: category, in: known)), keyPath, in: part)
    }

    // MARK: - Root

    private mutating func checkSettings() {
        let root = config.location
        if let zone = timeZoneOverride ?? config.timeZone {
            if !zones.contains(zone) {
                error(.unknownTimeZone(zone, suggestion: zones.suggestion(for: zone)), "timeZone", in: root)
            }
        } else {
            error(.missingTimeZone, "timeZone", in: root)
        }
        checkRange(config.horizonDays, 1...3660, key: "horizonDays", rangeText: "1–3660", "horizonDays", in: root)
        checkRange(config.pendingLimit, 0...1_000_000, key: "pendingLimit", rangeText: "0–1000000 (0 = unlimited)", "pendingLimit", in: root)
        checkRange(config.reservedSlots, 0...1_000_000, key: "reservedSlots", rangeText: "0–1000000", "reservedSlots", in: root)
        if config.pendingLimit > 0, config.reservedSlots >= config.pendingLimit, config.reservedSlots <= 1_000_000 {
            error(.reservedSlotsTooMany(Int64(config.reservedSlots), limit: Int64(config.pendingLimit)), "reservedSlots", in: root)
        }
        let coverage = config.minimumCoverageDays
        if !coverage.isFinite || !(0...3660).contains(coverage) {
            error(.outOfRange("minimumCoverageDays", value: "\(coverage)", range: "0–3660"), "minimumCoverageDays", in: root)
        }
        checkNonEmpty(config.calendarName, key: "calendarName", "calendarName", in: root)
        if !ConfigValueParsing.isValidDomain(config.uidDomain) {
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
            _ = checkIdentifier(id, what: "category id", path, in: config.location)
            var seen: Set<String> = []
            for (index, action) in actions.enumerated() {
                let actionPath = "\(path)[\(index)]"
                checkNonEmpty(action.id, key: "id", "\(actionPath).id", in: config.location)
                checkNonEmpty(action.title, key: "title", "\(actionPath).title", in: config.location)
                if let minutes = action.snoozeMinutes {
                    checkRange(minutes, 1...1440, key: "snoozeMinutes", rangeText: "1–1440", "\(actionPath).snoozeMinutes", in: config.location)
                }
                if !action.id.isEmpty, !seen.insert(action.id).inserted {
                    error(.duplicateActionID(action.id), "\(actionPath).id", in: config.location)
                }
            }
        }
    }

    private mutating func checkGroups() {
        let used = Set(config.reminders.compactMap(\.group))
        for (key, group) in config.groups.sorted(by: { $0.key < $1.key }) {
            let path = "groups.\(key)"
            _ = checkIdentifier(key, what: "group key", path, in: group.location)
            checkNonEmpty(group.title, key: "title", "\(path).title", in: group.location)
            checkCategoryReference(group.category, "\(path).category", in: group.location)
            if !used.contains(key) { warning(.unusedGroup(key), path, in: group.location) }
        }
    }

    // MARK: - Reminders

    private mutating func checkReminders() {
        var firstOfID: [String: (index: Int, location: SourceLocation)] = [:]
        var firstOfGroup: [String: Int] = [:]
        let groupKeys = Set(config.groups.keys).union(config.reminders.compactMap(\.group))
        for (index, reminder) in config.reminders.enumerated() {
            let path = "reminders[\(index)]"
            let part = reminder.location
            if checkIdentifier(reminder.id, what: "reminder id", "\(path).id", in: part) {
                if let first = firstOfID[reminder.id] {
                    error(
                        .duplicateReminderID(reminder.id), "\(path).id", in: part,
                        notes: [Diagnostic(.note, at: place("reminders[\(first.index)].id", in: first.location), .firstDefinition(reminder.id))]
                    )
                } else {
                    firstOfID[reminder.id] = (index, part)
                }
                if groupKeys.contains(reminder.id) { error(.reminderIDIsGroupKey(reminder.id), "\(path).id", in: part) }
            }
            checkNonEmpty(reminder.title, key: "title", "\(path).title", in: part)
            for (key, text) in [("title", reminder.title), ("body", reminder.body)] where text.hasSurroundingWhiteSpace {
                warning(.surroundingSpaces(key), "\(path).\(key)", in: part)
            }
            if !reminder.body.isEmpty, !reminder.bodies.isEmpty {
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
            checkNonEmpty(reminder.activity, key: "activity", "\(path).activity", in: part)
            if case .seconds(let seconds) = reminder.lookback, !(1...(168 * 3600)).contains(seconds) {
                let hours = Double(seconds) / 3600
                error(.outOfRange("lookbackHours", value: "\(hours)", range: "more than 0 and at most 168"), "\(path).lookback", in: part)
            }
            if let followUp = reminder.followUp {
                let followUpPart = followUp.location.isKeyPath ? part : followUp.location
                checkRange(followUp.afterMinutes, 1...1440, key: "afterMinutes", rangeText: "1–1440", "\(path).followUp.afterMinutes", in: followUpPart)
                if let title = followUp.title { checkNonEmpty(title, key: "title", "\(path).followUp.title", in: followUpPart) }
                checkRange(followUp.repeatCount, 1...12, key: "repeat", rangeText: "1–12", "\(path).followUp.repeatCount", in: followUpPart)
                if let every = followUp.everyMinutes {
                    checkRange(every, 1...1440, key: "everyMinutes", rangeText: "1–1440", "\(path).followUp.everyMinutes", in: followUpPart)
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

    /// Members of a group share one slot, so they must read it in one zone.
    private mutating func checkSharedZone(_ reminder: Reminder, index: Int, with firstIndex: Int, group: String) {
        let first = config.reminders[firstIndex]
        guard first.timeZone != reminder.timeZone else { return }
        error(
            .groupZonesDisagree(group: group, reminder: reminder.id, zone: reminder.timeZone), "reminders[\(index)].timeZone",
            in: reminder.location,
            notes: [Diagnostic(
                .note, at: place("reminders[\(firstIndex)].timeZone", in: first.location), .groupZoneOther(reminder: first.id, zone: first.timeZone)
            )]
        )
    }

    /// Members of a group share one follow-up, so they must agree on when.
    private mutating func checkSharedFollowUp(_ reminder: Reminder, index: Int, with firstIndex: Int, group: String) {
        let first = config.reminders[firstIndex]
        guard first.followUp?.timing != reminder.followUp?.timing else { return }
        func detail(_ member: Reminder) -> String { FollowUp.describe(member.followUp) }
        error(
            .groupFollowUpDisagrees(group: group, reminder: reminder.id, detail: detail(reminder)),
            "reminders[\(index)].followUp", in: reminder.followUp?.location ?? reminder.location,
            notes: [Diagnostic(
                .note, at: place("reminders[\(firstIndex)].followUp", in: first.followUp?.location ?? first.location),
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
        for (index, date) in schedule.exceptions.sorted().enumerated() {
            _ = checkDate(date, key: "except", "\(path).except[\(index)]", in: part)
        }
        if schedule.frequency == .once {
            if schedule.at.isEmpty { error(.emptyArray("at"), "\(path).at", in: part) }
            for (index, slot) in schedule.at.enumerated() where !slot.date.isSupported || !slot.time.isValid {
                error(.invalidDateTime("at[\(index)]"), "\(path).at[\(index)]", in: part)
            }
            let repeatingParts: [(String, Bool)] = [
                ("times", schedule.timesOfDay != .list([])), ("interval", schedule.interval != 1),
                ("weekdays", !schedule.weekdays.isEmpty), ("days", !schedule.monthDays.isEmpty),
                ("weekdayOrdinals", !schedule.weekdayOrdinals.isEmpty), ("missingDays", schedule.missingDays != .skip),
                ("months", !schedule.months.isEmpty), ("count", schedule.count != nil),
            ]
            for (key, isSet) in repeatingParts where isSet {
                error(.notApplicable(key, frequency: frequency), "\(path).\(key)", in: part)
            }
            checkStartAndEnd(schedule, path, in: part)
            return
        }
        if !schedule.at.isEmpty { error(.notApplicable("at", frequency: frequency), "\(path).at", in: part) }
        checkTimesOfDay(schedule.timesOfDay, path, in: part)
        checkRange(schedule.interval, 1...1000, key: "interval", rangeText: "1–1000", "\(path).interval", in: part)
        if schedule.interval > 1, schedule.start == nil {
            error(.intervalNeedsStart(Int64(schedule.interval)), "\(path).interval", in: part)
        }
        checkStartAndEnd(schedule, path, in: part)
        if let count = schedule.count {
            checkRange(Int64(count), Schedule.countRange, key: "count", rangeText: Schedule.countRangeText, "\(path).count", in: part)
            if schedule.start == nil { error(.countNeedsStart(Int64(count)), "\(path).count", in: part) }
            if schedule.end != nil { error(.countWithEnd, "\(path).end", in: part) }
        }
        let isWeekly = schedule.frequency == .weekly
        let isYearly = schedule.frequency == .yearly
        if isWeekly, schedule.weekdays.isEmpty { error(.emptyArray("weekdays"), "\(path).weekdays", in: part) }
        if !isWeekly, !schedule.weekdays.isEmpty { error(.notApplicable("weekdays", frequency: frequency), "\(path).weekdays", in: part) }
        if isYearly, schedule.months.isEmpty { error(.yearlyNeedsMonths, "\(path).months", in: part) }
        if !isYearly, !schedule.months.isEmpty { error(.notApplicable("months", frequency: frequency), "\(path).months", in: part) }
        for (index, month) in schedule.months.enumerated() where !(1...12).contains(month) {
            error(.invalidMonth(String(month), suggestion: nil), "\(path).months[\(index)]", in: part)
        }
        guard schedule.frequency == .monthly || isYearly else {
            for (key, isSet) in [("days", !schedule.monthDays.isEmpty), ("weekdayOrdinals", !schedule.weekdayOrdinals.isEmpty),
                                 ("missingDays", schedule.missingDays != .skip)] where isSet {
                error(.notApplicable(key, frequency: frequency), "\(path).\(key)", in: part)
            }
            return
        }
        if schedule.monthDays.isEmpty, schedule.weekdayOrdinals.isEmpty { error(.needsDays(frequency: frequency), "\(path).days", in: part) }
        for (index, day) in schedule.monthDays.enumerated() where !((1...31).contains(day) || (-31 ... -1).contains(day)) {
            error(.invalidMonthDay(Int64(day)), "\(path).days[\(index)]", in: part)
        }
        for (index, rule) in schedule.weekdayOrdinals.enumerated() where !((1...5).contains(rule.ordinal) || (-5 ... -1).contains(rule.ordinal)) {
            error(.invalidWeekdayOrdinal(rule.description), "\(path).weekdayOrdinals[\(index)]", in: part)
        }
        if schedule.missingDays == .lastDay, schedule.monthDays.isEmpty {
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
            if list.isEmpty { error(.emptyArray("times"), "\(path).times", in: part) }
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

    fileprivate init(config: ReminderConfig, timeZoneOverride: String?) {
        self.config = config
        self.timeZoneOverride = timeZoneOverride
    }

    /// The same config with the digest of the file it was read from, which no rule checks.
    func recordingSourceDigest(_ digest: String) -> ValidatedConfig {
        var config = config
        config.sourceDigest = digest
        return ValidatedConfig(config: config, timeZoneOverride: timeZoneOverride)
    }
}

extension ConfigValidator {
    /// Checks `config` (its parts built in code then named by key path) and gives it back
    /// validated when no rule fails, with every error and warning found.
    static func validated(
        _ config: ReminderConfig, zones: TimeZoneDatabase, timeZoneOverride: String?
    ) -> (config: ValidatedConfig?, diagnostics: [Diagnostic]) {
        let located = config.locatingPartsBuiltInCode()
        let validator = ConfigValidator(located, zones: zones, timeZoneOverride: timeZoneOverride)
        return (validator.hasErrors ? nil : ValidatedConfig(config: located, timeZoneOverride: timeZoneOverride), validator.diagnostics)
    }
}
