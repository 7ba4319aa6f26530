/// The text of a diagnostic and a stable identifier for it.
///
/// Every message remindc can give is a named constructor below, so wording stays
/// consistent and tools can match on `id` rather than on English text.
public struct DiagnosticMessage: Sendable, Hashable {
    /// A stable, dotted identifier such as `config.unknown-key`.
    public let id: String
    /// The English sentence shown to the user.
    public let text: String

    /// Creates a message.
    public init(id: String, _ text: String) {
        self.id = id
        // Whatever a message quotes, it stays on one line.
        self.text = VisibleText.escaped(text)
    }
}

private func didYouMean(_ suggestion: String?) -> String {
    suggestion.map { "; did you mean '\($0)'?" } ?? ""
}

// MARK: - Reading files and XML

extension DiagnosticMessage {
    static func unreadableFile(_ reason: String) -> Self { Self(id: "input.unreadable", "cannot read the file: \(reason)") }
    static func inputTooLarge(limit: Int) -> Self {
        Self(id: "input.too-large", "the input is larger than the limit of \(limit) bytes")
    }
    static func tooManyValues(limit: Int) -> Self {
        Self(id: "input.too-many-values", "the input holds more than \(limit) values at once, more than any file remindc reads needs; it is read no further")
    }
    static var emptyInput: Self { Self(id: "input.empty", "the input is empty; expected a property list") }
    static func malformedXML(_ detail: String) -> Self { Self(id: "xml.malformed", "malformed XML: \(detail)") }
    static func forbiddenXML(_ detail: String) -> Self { Self(id: "xml.forbidden", "refused XML: \(detail)") }
    static func tagTooLong(limit: Int, quoteOpen: Bool = false) -> Self {
        quoteOpen
            ? Self(id: "xml.tag-too-long", "a quote opened in this tag is not closed within \(limit) bytes, the most one tag of a plist may take; close it")
            : Self(id: "xml.tag-too-long", "this tag is longer than \(limit) bytes, the most one tag of a plist may take: a plist's tags hold an element's name, and <plist> its version")
    }

    static func textTooLong(limit: Int) -> Self {
        Self(id: "xml.text-too-long", "this text is longer than \(limit) bytes, the most one text of a plist may hold; shorten it")
    }
    static func moreErrorsOmitted(_ count: Int, shown: Int) -> Self {
        Self(id: "input.more-errors", "and \(count) more error\(count == 1 ? "" : "s") in this file, not shown (the first \(shown) are)")
    }
    static func moreWarningsOmitted(_ count: Int, shown: Int) -> Self {
        Self(id: "input.more-warnings", "and \(count) more warning\(count == 1 ? "" : "s") of this run, not shown (the first \(shown) are)")
    }
    static func nestingTooDeep(limit: Int) -> Self {
        Self(id: "xml.too-deep", "elements nest deeper than the limit of \(limit) levels")
    }
}

// MARK: - Property-list structure

extension DiagnosticMessage {
    static func rootNotPlist(found: String) -> Self {
        Self(id: "plist.root", "the root element must be <plist>, found <\(found)>")
    }
    static var plistWithNamespace: Self {
        Self(id: "plist.namespace", "<plist> must not carry a namespace (xmlns); property lists have none")
    }
    static var emptyPlist: Self { Self(id: "plist.empty", "<plist> holds no value; expected one <dict>") }
    static var plistHoldsMoreThanOneValue: Self {
        Self(id: "plist.extra-value", "<plist> must hold exactly one value; this one is extra")
    }
    static func unexpectedText(inside container: String) -> Self {
        Self(id: "plist.stray-text", "unexpected text inside <\(container)>; expected only elements")
    }
    static func unknownPlistElement(_ name: String, suggestion: String?) -> Self {
        Self(id: "plist.unknown-element", "unknown property-list element <\(name)>\(didYouMean(suggestion))")
    }
    static func booleanNotEmpty(_ name: String) -> Self {
        Self(id: "plist.boolean-content", "<\(name)/> must be empty")
    }
    static func elementInsideText(_ container: String) -> Self {
        Self(id: "plist.element-in-text", "<\(container)> may hold only text, not elements")
    }
    static func keyWithoutValue(_ key: String) -> Self {
        Self(id: "plist.key-without-value", "key \(shown(key)) has no value after it")
    }
    static func valueWithoutKey(_ element: String) -> Self {
        Self(id: "plist.value-without-key", "<\(element)> inside <dict> has no <key> before it")
    }
    static func duplicateKey(_ key: String) -> Self { Self(id: "plist.duplicate-key", "duplicate key \(shown(key))") }
    static func firstDefinition(_ what: String) -> Self { Self(id: "note.first", "\(shown(what)) first appears here") }
    static func notAnInteger(_ text: String) -> Self {
        Self(id: "plist.integer", "\(shown(text)) is not an integer")
    }
    static func integerOverflow(_ text: String) -> Self {
        Self(id: "plist.integer-overflow", "integer \(shown(text)) does not fit in 64 bits")
    }
    static func notAReal(_ text: String) -> Self { Self(id: "plist.real", "\(shown(text)) is not a number") }
    static func realNotFinite(_ text: String) -> Self {
        Self(id: "plist.real-not-finite", "\(shown(text)) is not a finite number; nan and inf are not allowed")
    }
    static func invalidPlistDate(_ text: String) -> Self {
        Self(id: "plist.date", "\(shown(text)) is not a plist date; expected YYYY-MM-DDTHH:MM:SSZ")
    }
    static var invalidBase64: Self { Self(id: "plist.data", "<data> is not valid base64") }
}

// MARK: - Config

extension DiagnosticMessage {
    static func rootNotDictionary(found: String) -> Self {
        Self(id: "config.root", "the config must be a <dict>, found <\(found)>")
    }
    static func wrongType(_ key: String, expected: String, found: String) -> Self {
        Self(id: "config.type", "\(shown(key)) must be \(expected), found <\(found)>")
    }
    static func missingKey(_ key: String, in container: String) -> Self {
        Self(id: "config.missing-key", "\(container) is missing the required key \(shown(key))")
    }
    static func unknownKey(_ key: String, in container: String, suggestion: String?) -> Self {
        Self(id: "config.unknown-key", "unknown key \(shown(key)) in \(container)\(didYouMean(suggestion))")
    }
    static func unsupportedFormatVersion(_ version: Int64) -> Self {
        Self(id: "config.format-version", "formatVersion \(version) is not supported; expected 1")
    }
    static func outOfRange(_ key: String, value: String, range: String) -> Self {
        Self(id: "config.range", "\(shown(key)) is \(value); expected \(range)")
    }
    static func emptyString(_ key: String) -> Self { Self(id: "config.empty-string", "\(shown(key)) must not be empty") }
    static func tooManyEntries(_ key: String, limit: Int) -> Self {
        Self(id: "config.too-many-entries", "\(shown(key)) holds more than \(limit) entries, more than any real config needs; none of them is read")
    }
    static func emptyArray(_ key: String) -> Self {
        Self(id: "config.empty-array", "\(shown(key)) must hold at least one entry")
    }
    static func invalidIdentifier(_ key: String, value: String) -> Self {
        Self(
            id: "config.identifier",
            "\(shown(value)) is not a valid \(key): expected a letter or digit, then up to 63 letters, digits, '.', '_' or '-'"
        )
    }
    static func unknownValue(_ key: String, value: String, expected: [String], suggestion: String?) -> Self {
        let choices = expected.map { "'\($0)'" }.joined(separator: ", ")
        return Self(id: "config.enum", "unknown \(key) \(shown(value)); expected one of \(choices)\(didYouMean(suggestion))")
    }
    static func invalidTime(_ text: String) -> Self {
        Self(id: "config.time", "\(shown(text)) is not a time of day; expected HH:MM from 00:00 to 23:59")
    }
    static func invalidDate(_ text: String) -> Self {
        Self(id: "config.date", "\(shown(text)) is not a calendar date; expected YYYY-MM-DD (years 1970–9999)")
    }
    static func invalidDateTime(_ text: String) -> Self {
        Self(id: "config.date-time", "\(shown(text)) is not a local date and time; expected YYYY-MM-DDTHH:MM")
    }
    static func invalidWeekdayOrdinal(_ text: String) -> Self {
        let suggestion = ConfigValueParsing.weekdayOrdinalSuggestion(for: text).map { "; did you mean '\($0)'?" } ?? ""
        return Self(
            id: "config.weekday-ordinal",
            "\(shown(text)) is not a weekday ordinal; expected an ordinal 1–5 or -1…-5 and MO, TU, WE, TH, FR, SA or SU, like '2TU' or '-1FR'\(suggestion)"
        )
    }
    static func invalidMonthDay(_ value: Int64) -> Self {
        Self(id: "config.month-day", "day \(value) is out of range; expected 1…31 or -31…-1")
    }
    static func windowNotIncreasing(from: String, until: String) -> Self {
        Self(id: "config.window", "window.from \(from) must be before window.until \(until)")
    }
    static func unknownTimeZone(_ zone: String, suggestion: String?) -> Self {
        Self(id: "config.time-zone", "unknown time zone \(shown(zone))\(didYouMean(suggestion))")
    }
    static var missingTimeZone: Self {
        Self(id: "config.missing-time-zone", "the config is missing the required key 'timeZone' (or give --time-zone)")
    }
    static func reservedSlotsTooMany(_ reserved: Int64, limit: Int64) -> Self {
        Self(id: "config.reserved-slots", "reservedSlots \(reserved) must be below pendingLimit \(limit)")
    }
    static func duplicateReminderID(_ id: String) -> Self {
        Self(id: "config.duplicate-id", "duplicate reminder id \(shown(id))")
    }
    static func reminderIDIsGroupKey(_ id: String) -> Self {
        Self(id: "config.id-is-group", "reminder id \(shown(id)) is also a group key; ids and group keys must differ")
    }
    static func groupKeyDefinedHere(_ key: String) -> Self {
        Self(id: "note.group-key", "group key \(shown(key)) is used here")
    }
    static func exclusiveKeys(_ first: String, _ second: String) -> Self {
        Self(id: "config.exclusive", "\(shown(first)) and \(shown(second)) cannot be used together")
    }
    static func exactlyOneOf(_ keys: [String], frequency: String) -> Self {
        let names = keys.map { "'\($0)'" }.joined(separator: ", ")
        return Self(id: "config.times", "a \(frequency) schedule needs exactly one of \(names)")
    }
    static func notApplicable(_ key: String, frequency: String) -> Self {
        Self(id: "config.not-applicable", "\(shown(key)) does not apply to a \(frequency) schedule")
    }
    static func windowRequired(_ key: String) -> Self {
        Self(id: "config.window-required", "\(shown(key)) needs a 'window' with 'from' and 'until'")
    }
    static var windowWithoutSpread: Self {
        Self(id: "config.window-unused", "'window' applies only with 'timesPerDay' or 'everyMinutes'")
    }
    static func needsDays(frequency: String) -> Self {
        Self(id: "config.\(frequency)-days", "a \(frequency) schedule needs 'days' or 'weekdayOrdinals'")
    }
    static var yearlyNeedsMonths: Self {
        Self(id: "config.yearly-months", "a yearly schedule needs 'months', an array of month numbers 1–12 (3 for March)")
    }
    static func invalidMonth(_ value: String, suggestion: Int?) -> Self {
        let hint = suggestion.map { "; did you mean \($0)?" } ?? ""
        return Self(id: "config.month", "month \(value) is not a month number; expected an <integer> 1–12\(hint)")
    }
    static func countNeedsStart(_ count: Int64) -> Self {
        Self(id: "config.count-start", "'count' \(count) needs a 'start' date to count its slots from")
    }
    static var countWithEnd: Self {
        Self(
            id: "config.count-end",
            "'count' and 'end' exclude each other, as COUNT and UNTIL do in RFC 5545; keep one of them"
        )
    }
    static var missingDaysNeedsDays: Self {
        Self(id: "config.missing-days", "'missingDays' applies only with 'days'")
    }
    static func intervalNeedsStart(_ interval: Int64) -> Self {
        Self(id: "config.interval-start", "'interval' \(interval) needs a 'start' date to count from")
    }
    static func quietHoursEmpty(_ time: String) -> Self {
        Self(
            id: "config.quiet-hours",
            "quietHours.from and quietHours.until are both \(time): the hours would be empty; for quiet hours across midnight give until before from, like 22:00 to 07:00"
        )
    }
    static var countsEntriesNeedsSameDay: Self {
        Self(
            id: "config.counts-entries",
            "'countsEntries' counts the entries of the slot's date and needs 'lookbackSameDay' set to true; add <key>lookbackSameDay</key><true/>"
        )
    }
    static func endBeforeStart(end: String, start: String) -> Self {
        Self(id: "config.end-before-start", "'end' \(end) is before 'start' \(start)")
    }
    static func unknownCategory(_ category: String, suggestion: String?) -> Self {
        Self(id: "config.category", "unknown category \(shown(category)); it must name an entry of 'categories'\(didYouMean(suggestion))")
    }
    static func groupFollowUpDisagrees(group: String, reminder: String, detail: String) -> Self {
        Self(
            id: "config.group-follow-up",
            "reminder \(shown(reminder)) in group \(shown(group)) \(detail); members of a group must share followUp.afterMinutes, repeat and everyMinutes"
        )
    }
    static func groupZonesDisagree(group: String, reminder: String, zone: String?) -> Self {
        Self(
            id: "config.group-time-zone",
            "reminder \(shown(reminder)) in group \(shown(group)) \(describeZone(zone)); members of a group share one slot, so they must share 'timeZone'"
        )
    }
    static func groupZoneOther(reminder: String, zone: String?) -> Self {
        Self(id: "note.group-time-zone", "reminder \(shown(reminder)) \(describeZone(zone))")
    }
    private static func describeZone(_ zone: String?) -> String {
        zone.map { "has timeZone '\($0)'" } ?? "follows the plan's zone (no timeZone)"
    }
    static func groupFollowUpOther(reminder: String, detail: String) -> Self {
        Self(id: "note.group-follow-up", "reminder \(shown(reminder)) \(detail)")
    }
    static func duplicateActionID(_ id: String) -> Self {
        Self(id: "config.duplicate-action", "duplicate action id \(shown(id)) in this category")
    }

    // Warnings

    static var noReminders: Self { Self(id: "config.no-reminders", "'reminders' is empty; the plan will be empty") }
    static func sameDayActivityShared(_ reminder: String, activity: String, other: String) -> Self {
        Self(
            id: "config.same-day-shared-activity",
            "reminder \(shown(reminder)) uses lookbackSameDay with the activity \(shown(activity)), which reminder \(shown(other)) also has: one entry for either silences \(shown(reminder)) for the rest of the day; give it an activity of its own, or add countsEntries to need one entry per slot"
        )
    }
    static func sameDayActivitySharedOther(_ reminder: String) -> Self {
        Self(id: "note.shared-activity", "reminder \(shown(reminder)) has the same activity")
    }
    static func quietHoursDropEverySlot(_ reminder: String, times: String, from: String, until: String) -> Self {
        Self(
            id: "config.quiet-hours-drop-every-slot",
            "every time of reminder \(shown(reminder)) (\(times)) lies in the quiet hours \(from)–\(until), which drop what they hold: it is never delivered; give quietHours the action 'defer', move its times, or give the reminder quietHours false"
        )
    }
    static var quietHoursDropHere: Self { Self(id: "note.quiet-hours", "the quiet hours are here") }
    static func followUpPastNextSlot(_ reminder: String, chainMinutes: Int, from: String, next: String, gap: Int) -> Self {
        Self(
            id: "config.follow-up-past-next-slot",
            "the follow-ups of reminder \(shown(reminder)) run until \(chainMinutes) minutes after each slot, but its slot at \(from) is followed by the next at \(next), \(gap) minutes later: a follow-up fires at or after the next notification; shorten the chain or space the times"
        )
    }
    static func unusedGroup(_ key: String) -> Self {
        Self(id: "config.unused-group", "group \(shown(key)) is not used by any reminder")
    }
    static func neverFires(_ reminder: String, reason: String) -> Self {
        Self(id: "config.never-fires", "reminder \(shown(reminder)) can never fire: \(reason)")
    }
}

extension DiagnosticMessage {
    static func invalidDomain(_ text: String) -> Self {
        Self(id: "config.uid-domain", "\(shown(text)) is not a valid uidDomain; expected letters, digits, '.' and '-'")
    }

    /// A field of a plan file that must hold an ID remindc makes, but does not.
    static func invalidPlanID(_ field: String, _ text: String) -> Self {
        Self(
            id: "plan-file.invalid-id",
            "\(field) \(shown(text)) is not an ID remindc writes; expected letters, digits, '.', '_' and '-', starting with a letter or digit"
        )
    }

    /// A plan file's uidDomain that is not one a config may give.
    static func invalidPlanDomain(_ text: String) -> Self {
        Self(id: "plan-file.uid-domain", "uidDomain \(shown(text)) is not a valid uidDomain; expected letters, digits, '.' and '-'")
    }

    /// Untrusted text in a message: quoted, control characters spelt as escapes (so that a
    /// diagnostic stays one line in every format), at most 60 characters.
    static func shown(_ text: String) -> String {
        VisibleText.quoted(text)
    }
}

// MARK: - Planning

extension DiagnosticMessage {
    static func coverageTooShort(days: String, until: String, minimum: String) -> Self {
        Self(
            id: "plan.coverage",
            "the plan covers only \(days) days (until \(until)), less than minimumCoverageDays \(minimum); re-plan before then"
        )
    }
    static func numericIDCollision(_ numericID: UInt32, _ first: String, _ second: String) -> Self {
        Self(id: "plan.numeric-id", "numericId \(numericID) is shared by \(shown(first)) and \(shown(second))")
    }
    static func horizonOutOfRange(_ value: Int) -> Self {
        Self(id: "plan.horizon", "horizonDays \(value) is out of range; expected 1–3660")
    }
    static func reservedSlotsNotBelowLimit(_ reserved: Int, limit: Int) -> Self {
        Self(id: "plan.reserved-slots", "reservedSlots \(reserved) must be below the pending limit \(limit)")
    }
    static var planningStopped: Self {
        Self(id: "plan.stopped", "planning was stopped before it finished (a time limit ran out)")
    }
    static func calendarCutByBudget(kept: Int, dropped: Int, until: String) -> Self {
        Self(
            id: "calendar.cut-by-budget",
            "the calendar holds the plan's \(kept) notifications, up to \(until); the pending limit left \(dropped) more of the window to later plans, which calendarScope 'window' writes too (--ics-scope window on the command line)"
        )
    }
    static func planCalendarCutByBudget(kept: Int, dropped: Int, until: String) -> Self {
        Self(
            id: "calendar.cut-by-budget",
            "the calendar holds the plan's \(kept) notifications, up to \(until); the pending limit left \(dropped) more of the window out of the plan, which a compile with --ics-scope window writes too"
        )
    }
    static func outputTooLarge(_ output: String, limit: Int) -> Self {
        Self(
            id: "plan.output-too-large",
            "the \(output) would pass the limit of \(limit >> 20) MiB (\(limit) bytes); shorten horizonDays, or write the calendar with calendarScope 'plan' or the recurring style"
        )
    }
    static func planTooLarge(bound: Int, limit: Int) -> Self {
        Self(
            id: "plan.too-large",
            "the schedules could produce up to \(bound) notifications in the window, more than the limit of \(limit); shorten horizonDays or use fewer times"
        )
    }
    static var windowBeyondYear9999: Self {
        Self(id: "plan.window-year", "the planning window reaches beyond the year 9999")
    }
    static var noTimeZone: Self {
        Self(id: "plan.no-time-zone", "no time zone: the config has no 'timeZone' and none was given")
    }
    static var nowOutOfRange: Self {
        Self(id: "plan.now-range", "the compile instant must lie in the years 1970–9999")
    }
    static func unknownReminder(_ id: String, suggestion: String?) -> Self {
        Self(id: "plan.unknown-reminder", "no reminder has the id \(shown(id))\(didYouMean(suggestion))")
    }
}

// MARK: - JSON and events

extension DiagnosticMessage {
    static func malformedJSON(_ detail: String) -> Self { Self(id: "json.malformed", "malformed JSON: \(detail)") }
    static var nullNotAllowed: Self { Self(id: "json.null", "null is not allowed here") }
    static func unknownOccurrence(_ id: String) -> Self {
        Self(id: "events.unknown-id", "no reminder or group of the config has the occurrence \(shown(id)); the event is ignored")
    }
    static func keyNotForAction(_ key: String, action: String) -> Self {
        Self(id: "events.not-applicable", "\(shown(key)) does not apply to a \(shown(action)) event")
    }
    static var eventNeedsKind: Self {
        Self(id: "events.kind", "an event needs either 'activity' and 'at', or 'occurrence' and 'action'")
    }
    /// A plan file is JSON, so its root is named in JSON's words.
    static func planRootNotObject(found: PlistValue) -> Self {
        let name = switch found {
        case .string: "a string"
        case .integer, .real: "a number"
        case .boolean: "true or false"
        case .array: "an array"
        default: "<\(found.typeName)>"
        }
        return Self(id: "plan-file.root", "a plan must be a JSON object with the plan's keys, found \(name)")
    }
    static var eventsRootNotDictionary: Self {
        Self(id: "events.root", "an events file must be a dict (plist) or an object (JSON) with the key 'events'")
    }
    static func unsupportedEventsFormatVersion(_ version: Int64) -> Self {
        Self(id: "events.format-version", "events formatVersion \(version) is not supported; expected 1")
    }
    static func notAnInstant(_ text: String) -> Self {
        Self(
            id: "events.instant",
            "\(shown(text)) is not an instant; expected a plist <date> or an RFC 3339 string such as 2026-11-22T08:00:00Z"
        )
    }
}

// MARK: - Plans

extension DiagnosticMessage {
    static func unsupportedPlanFormatVersion(_ version: Int64) -> Self {
        Self(id: "plan-file.format-version", "plan formatVersion \(version) is not supported; expected 1")
    }
    static func duplicateNotificationID(_ id: String) -> Self {
        Self(id: "plan-file.duplicate-id", "duplicate notification id \(shown(id)); each notification of a plan needs its own")
    }
}

// MARK: - Pending lists and jobs

extension DiagnosticMessage {
    static var pendingRootNotArray: Self {
        Self(id: "pending.root", "a pending list must be a JSON array of notifications")
    }
    static var pendingEntryNotObject: Self {
        Self(id: "pending.entry", "each pending notification must be an object with 'id' (or expo's 'identifier')")
    }
    static var pendingEntryWithoutID: Self {
        Self(id: "pending.id", "this pending notification has no 'id' (or 'identifier') string")
    }
    /// A batch job or service request that could not be read; `reason` says why.
    static func invalidJob(_ reason: String) -> Self {
        Self(id: "job.invalid", reason)
    }
    /// The service's answer other than 200, its id named by the HTTP status
    /// (`service.413`); `reason` says why.
    @_spi(Tooling) public static func serviceAnswer(status: Int, _ reason: String) -> Self {
        Self(id: "service.\(status)", reason)
    }
}

// MARK: - Silent surprises: valid inputs that do not do what they seem to

extension DiagnosticMessage {
    static func timesCollapse(count: Int, distinct: Int, from: LocalTime, until: LocalTime) -> Self {
        Self(
            id: "config.times-collapse",
            "timesPerDay \(count) between \(from) and \(until) gives only \(distinct) distinct times: slots fall on whole minutes"
        )
    }
    static func noSlotInWindow(_ reminder: String, windowEnd: String, nextDate: String?) -> Self {
        let next = nextDate.map { "; its next slot is on \($0)" } ?? ""
        return Self(id: "plan.no-slot-in-window", "reminder \(shown(reminder)) has no slot in this plan's window (until \(windowEnd))\(next)")
    }
    static func slotsShareInstant(_ reminder: String, times: [String], date: String, instant: String, others: Int) -> Self {
        let more = others > 0 ? " (and \(others) more instant\(others == 1 ? "" : "s") in this window where its slots coincide)" : ""
        return Self(
            id: "plan.gap-collision",
            "reminder \(shown(reminder)): its slots \(times.joined(separator: " and ")) on \(date) all fire at \(instant), "
                + "as clocks skip that hour\(more); the plan holds one notification for each"
        )
    }
    static func surroundingSpaces(_ key: String) -> Self {
        Self(
            id: "config.surrounding-spaces",
            "\(shown(key)) starts or ends with white space, which libical and CalDAV clients trim: calendars show it without"
        )
    }
    static func eventAfterNow(now: String, count: Int) -> Self {
        let others = count > 1 ? " (\(count) events are, this is the first)" : ""
        return Self(
            id: "events.after-now",
            "this event is dated after now (\(now))\(others); planning counts it as already happened"
        )
    }
    static func unusedActivity(_ activity: String, suggestion: String?) -> Self {
        Self(
            id: "events.unused-activity",
            "no reminder has the activity \(shown(activity)), so its events suppress nothing\(didYouMean(suggestion))"
        )
    }
    static func moreUnusedActivities(_ count: Int) -> Self {
        Self(id: "events.unused-activity", "and \(count) more activit\(count == 1 ? "y" : "ies") that no reminder has")
    }
}
