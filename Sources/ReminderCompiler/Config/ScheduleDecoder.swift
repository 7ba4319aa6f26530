extension ConfigDecoder {
    static let scheduleKeys = [
        "frequency", "times", "timesPerDay", "everyMinutes", "window", "weekdays", "days", "weekdayOrdinals",
        "missingDays", "months", "interval", "count", "start", "end", "except", "at",
    ]
    static let windowKeys = ["from", "until"]
    static let frequencies = Schedule.Frequency.allCases.map { ($0.rawValue, $0) }
    static let missingDaysChoices = Schedule.MissingDays.allCases.map { ($0.rawValue, $0) }

    /// The keys a frequency accepts of those that only some frequencies accept. A switch,
    /// not a dictionary keyed by frequency, whose type the runtime would first have to
    /// check for `Hashable` by scanning every conformance of the binary (≈ 0.15 M
    /// instructions at each start).
    static func keys(applicableTo frequency: Schedule.Frequency) -> Set<String> {
        switch frequency {
        case .daily: ["times", "timesPerDay", "everyMinutes", "window", "interval", "count"]
        case .weekly: ["times", "timesPerDay", "everyMinutes", "window", "interval", "count", "weekdays"]
        case .monthly: ["times", "timesPerDay", "everyMinutes", "window", "interval", "count", "days", "weekdayOrdinals", "missingDays"]
        case .yearly:
            ["times", "timesPerDay", "everyMinutes", "window", "interval", "count", "days", "weekdayOrdinals", "missingDays", "months"]
        case .once: ["at"]
        }
    }

    /// Keys that only some frequencies accept.
    static let frequencySpecificKeys = Schedule.Frequency.allCases.reduce(into: Set<String>()) {
        $0.formUnion(keys(applicableTo: $1))
    }

    mutating func decodeSchedule(_ node: PlistNode, reminder: String) -> Schedule? {
        guard let fields = reader.fields(
            of: node, named: "schedule", context: "the schedule of \(reminder)", known: Self.scheduleKeys
        ) else { return nil }
        let errorsBefore = reader.diagnostics.errorCount
        // An unknown frequency still lets the other keys be checked, so that one run
        // reports every error of the schedule.
        let frequency = reader.require("frequency", in: fields) != nil
            ? reader.choice("frequency", in: fields, from: Self.frequencies, describing: "frequency") : nil
        var schedule = Schedule(frequency: frequency ?? .daily)

        if let frequency {
            let applicable = Self.keys(applicableTo: frequency)
            for entry in fields.dictionary.entries
            where Self.frequencySpecificKeys.contains(entry.key) && !applicable.contains(entry.key) {
                reader.diagnostics.error(.notApplicable(entry.key, frequency: frequency.rawValue), at: entry.keyLocation)
            }
        }

        if frequency == .once {
            if reader.require("at", in: fields) != nil, let items = reader.array("at", in: fields, nonEmpty: true) {
                schedule.at = Set(items.compactMap {
                    parse($0, key: "at", ConfigValueParsing.dateTime, message: DiagnosticMessage.invalidDateTime)
                }).sorted()
            }
        } else {
            if let times = decodeTimesOfDay(fields, frequency: frequency) { schedule.timesOfDay = times }
            if let interval = reader.integer("interval", in: fields, range: 1...1000, rangeText: "1–1000") {
                schedule.interval = interval
            }
            schedule.count = reader.integer("count", in: fields, range: Schedule.countRange, rangeText: Schedule.countRangeText)
        }
        if frequency == .weekly {
            _ = reader.require("weekdays", in: fields)
        }
        if frequency == .weekly || frequency == nil, let items = reader.array("weekdays", in: fields, nonEmpty: true) {
            schedule.weekdays = Set(items.compactMap { decodeWeekday($0) })
        }
        if frequency == .monthly || frequency == .yearly || frequency == nil {
            decodeMonthly(fields, requiredFor: frequency?.rawValue, into: &schedule)
        }
        if frequency == .yearly {
            if fields["months"] == nil { reader.diagnostics.error(.yearlyNeedsMonths, at: fields.location) }
        }
        if frequency == .yearly || frequency == nil, let items = reader.array("months", in: fields, nonEmpty: true) {
            schedule.months = Set(items.compactMap { decodeMonth($0) }).sorted()
        }
        if let start = fields["start"] { schedule.start = parse(start.value, key: "start", ConfigValueParsing.date, message: DiagnosticMessage.invalidDate) }
        if let end = fields["end"] { schedule.end = parse(end.value, key: "end", ConfigValueParsing.date, message: DiagnosticMessage.invalidDate) }
        if let items = reader.array("except", in: fields) {
            schedule.exceptions = Set(items.compactMap { parse($0, key: "except", ConfigValueParsing.date, message: DiagnosticMessage.invalidDate) })
        }
        if schedule.interval > 1, schedule.start == nil, fields["start"] == nil, let entry = fields["interval"] {
            reader.diagnostics.error(.intervalNeedsStart(Int64(schedule.interval)), at: entry.value.location)
        }
        if let count = schedule.count, fields["start"] == nil, let entry = fields["count"] {
            reader.diagnostics.error(.countNeedsStart(Int64(count)), at: entry.value.location)
        }
        if fields["count"] != nil, let entry = fields["end"] {
            reader.diagnostics.error(.countWithEnd, at: entry.keyLocation)
        }
        if let start = schedule.start, let end = schedule.end, end < start, let entry = fields["end"] {
            reader.diagnostics.error(.endBeforeStart(end: end.description, start: start.description), at: entry.value.location)
        }
        let errorsAfter = reader.diagnostics.errorCount
        return errorsAfter == errorsBefore && frequency != nil ? schedule : nil
    }

    private mutating func decodeTimesOfDay(_ fields: Fields, frequency: Schedule.Frequency?) -> Schedule.TimesOfDay? {
        let forms = ["times", "timesPerDay", "everyMinutes"]
        let present = forms.filter { fields[$0] != nil }
        guard present.count == 1, let form = present.first else {
            let location = present.count > 1 ? fields[present[1]]!.keyLocation : fields.location
            reader.diagnostics.error(.exactlyOneOf(forms, frequency: frequency?.rawValue ?? "repeating"), at: location)
            return nil
        }
        if form == "times" {
            if let windowEntry = fields["window"] {
                reader.diagnostics.error(.windowWithoutSpread, at: windowEntry.keyLocation)
            }
            guard let items = reader.array("times", in: fields, nonEmpty: true) else { return nil }
            let times = items.compactMap { parse($0, key: "times", ConfigValueParsing.time, message: DiagnosticMessage.invalidTime) }
            return times.count == items.count ? .list(times) : nil
        }
        let count = form == "timesPerDay"
            ? reader.integer("timesPerDay", in: fields, range: 1...1440, rangeText: "1–1440")
            : reader.integer("everyMinutes", in: fields, range: 5...720, rangeText: "5–720")
        guard let windowEntry = fields["window"] else {
            reader.diagnostics.error(.windowRequired(form), at: fields[form]!.keyLocation)
            return nil
        }
        guard let window = decodeWindow(windowEntry.value), let count else { return nil }
        guard form == "timesPerDay" else { return .every(minutes: count, window: window) }
        let spread = Schedule.TimesOfDay.spread(count: count, window: window)
        // Slots are whole minutes: more slots than minutes in the window share minutes.
        let distinct = spread.resolved.count
        if distinct < count, let entry = fields["timesPerDay"] {
            reader.diagnostics.warning(
                .timesCollapse(count: count, distinct: distinct, from: window.lowerBound, until: window.upperBound),
                at: entry.value.location
            )
        }
        return spread
    }

    private mutating func decodeWindow(_ node: PlistNode) -> ClosedRange<LocalTime>? {
        guard let fields = reader.fields(of: node, named: "window", context: "window", known: Self.windowKeys) else {
            return nil
        }
        let fromEntry = reader.require("from", in: fields)
        let untilEntry = reader.require("until", in: fields)
        guard let fromEntry, let untilEntry,
              let from = parse(fromEntry.value, key: "window.from", ConfigValueParsing.time, message: DiagnosticMessage.invalidTime),
              let until = parse(untilEntry.value, key: "window.until", ConfigValueParsing.time, message: DiagnosticMessage.invalidTime)
        else { return nil }
        guard from < until else {
            reader.diagnostics.error(.windowNotIncreasing(from: from.description, until: until.description), at: fromEntry.value.location)
            return nil
        }
        return from...until
    }

    private mutating func decodeWeekday(_ node: PlistNode) -> Weekday? {
        guard let text = reader.string(node, key: "weekdays") else { return nil }
        if let weekday = ConfigValueParsing.weekday(text) { return weekday }
        reader.diagnostics.error(
            .unknownValue(
                "weekday", value: text, expected: Weekday.allCases.map(\.name),
                suggestion: closestMatch(to: text, in: ConfigValueParsing.weekdaySpellings)
            ),
            at: node.location
        )
        return nil
    }

    /// A month number; a month's name gets the number as its suggestion.
    private mutating func decodeMonth(_ node: PlistNode) -> Int? {
        switch node.value {
        case .integer(let value) where (1...12).contains(value):
            return Int(value)
        case .integer(let value):
            reader.diagnostics.error(.invalidMonth(String(value), suggestion: nil), at: node.location)
        case .string(let text):
            reader.diagnostics.error(.invalidMonth("'\(text)'", suggestion: ConfigValueParsing.monthNumber(named: text)), at: node.location)
        default:
            reader.reportWrongType(node, key: "months", expected: "an <integer>")
        }
        return nil
    }

    /// `days`, `weekdayOrdinals` and `missingDays`, shared by monthly and yearly schedules;
    /// one of the first two is required for `frequency` when given.
    private mutating func decodeMonthly(_ fields: Fields, requiredFor frequency: String?, into schedule: inout Schedule) {
        if let frequency, fields["days"] == nil, fields["weekdayOrdinals"] == nil {
            reader.diagnostics.error(.needsDays(frequency: frequency), at: fields.location)
        }
        if let items = reader.array("days", in: fields, nonEmpty: true) {
            schedule.monthDays = Set(items.compactMap { node -> Int? in
                guard case .integer(let value) = node.value else {
                    reader.reportWrongType(node, key: "days", expected: "an <integer>")
                    return nil
                }
                guard (1...31).contains(value) || (-31 ... -1).contains(value) else {
                    reader.diagnostics.error(.invalidMonthDay(value), at: node.location)
                    return nil
                }
                return Int(value)
            }).sorted()
        }
        if let items = reader.array("weekdayOrdinals", in: fields, nonEmpty: true) {
            schedule.weekdayOrdinals = items.compactMap {
                parse($0, key: "weekdayOrdinals", ConfigValueParsing.weekdayOrdinal, message: DiagnosticMessage.invalidWeekdayOrdinal)
            }
        }
        if let missing = reader.choice("missingDays", in: fields, from: Self.missingDaysChoices, describing: "missingDays") {
            schedule.missingDays = missing
            if fields["days"] == nil, let entry = fields["missingDays"] {
                reader.diagnostics.error(.missingDaysNeedsDays, at: entry.keyLocation)
            }
        }
    }

    /// A `<string>` parsed by `parser`; reports `message(text)` when it does not parse.
    mutating func parse<Value>(
        _ node: PlistNode, key: String, _ parser: (String) -> Value?, message: (String) -> DiagnosticMessage
    ) -> Value? {
        guard let text = reader.string(node, key: key) else { return nil }
        guard let value = parser(text) else {
            reader.diagnostics.error(message(text), at: node.location)
            return nil
        }
        return value
    }
}
