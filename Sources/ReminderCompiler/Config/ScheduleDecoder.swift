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

    /// The schedule, with what could be read of it; `frequency` defaults to `daily` when
    /// it cannot be read (refused, so the validator skips the rules that depend on it).
    mutating func decodeSchedule(_ node: PlistNode, reminder: String) -> Schedule {
        guard let fields = reader.fields(
            of: node, named: "schedule", context: "the schedule of \(reminder)", known: Self.scheduleKeys
        ) else {
            reader.refusePart()
            return Schedule(frequency: .daily)
        }
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
            if reader.require("at", in: fields) != nil, let items = reader.array("at", in: fields) {
                schedule.at = Set(items.compactMap {
                    parse($0, key: "at", ConfigValueParsing.dateTime, message: DiagnosticMessage.invalidDateTime, refusing: .element)
                }).sorted()
            }
        } else {
            if let times = decodeTimesOfDay(fields, frequency: frequency) {
                schedule.timesOfDay = times
            } else {
                // Whatever went wrong was reported; the empty list in its place is not.
                reader.refuse("times")
            }
            if let interval = reader.integer("interval", in: fields) { schedule.interval = interval }
            schedule.count = reader.integer("count", in: fields)
        }
        if frequency == .weekly {
            _ = reader.require("weekdays", in: fields)
        }
        if frequency == .weekly || frequency == nil, let items = reader.array("weekdays", in: fields, nonEmpty: true) {
            schedule.weekdays = Set(items.compactMap { decodeWeekday($0) })
        }
        if frequency == .monthly || frequency == .yearly || frequency == nil {
            decodeMonthly(fields, into: &schedule)
        }
        if frequency == .yearly || frequency == nil, let items = reader.array("months", in: fields, nonEmpty: true) {
            schedule.months = Set(items.compactMap { decodeMonth($0) }).sorted()
        }
        if let start = fields["start"] {
            schedule.start = parse(start.value, key: "start", ConfigValueParsing.date, message: DiagnosticMessage.invalidDate, refusing: .value)
        }
        if let end = fields["end"] {
            schedule.end = parse(end.value, key: "end", ConfigValueParsing.date, message: DiagnosticMessage.invalidDate, refusing: .value)
        }
        if let items = reader.array("except", in: fields) {
            schedule.exceptions = Set(items.compactMap {
                parse($0, key: "except", ConfigValueParsing.date, message: DiagnosticMessage.invalidDate, refusing: .element)
            })
        }
        return schedule
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
            guard let items = reader.array("times", in: fields) else { return nil }
            let times = items.compactMap {
                parse($0, key: "times", ConfigValueParsing.time, message: DiagnosticMessage.invalidTime, refusing: .element)
            }
            return .list(times)
        }
        let count = reader.integer(form, in: fields)
        let window: ClosedRange<LocalTime>
        if let read = decodeWindow(fields) {
            window = read
        } else if let midnight = LocalTime(minuteOfDay: 0) {
            // The count is still checked, beside a window that stands in for the one
            // reported here (refused, so the validator says nothing of it).
            reader.refuse("window")
            window = midnight...midnight
        } else {
            return nil
        }
        guard let count else { return nil }
        return form == "timesPerDay" ? .spread(count: count, window: window) : .every(minutes: count, window: window)
    }

    /// The window, or nil when it cannot be read; a `from` that is not before `until` is
    /// reported here, since a range cannot hold it.
    private mutating func decodeWindow(_ schedule: Fields) -> ClosedRange<LocalTime>? {
        guard let windowEntry = schedule["window"] else {
            let form = ["timesPerDay", "everyMinutes"].first { schedule[$0] != nil } ?? "timesPerDay"
            reader.diagnostics.error(.windowRequired(form), at: schedule[form]?.keyLocation ?? schedule.location)
            return nil
        }
        guard let fields = reader.fields(of: windowEntry.value, named: "window", context: "window", known: Self.windowKeys) else {
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
        guard let text = reader.string(node, key: "weekdays") else {
            reader.refuse("weekdays", elementOf: true)
            return nil
        }
        if let weekday = ConfigValueParsing.weekday(text) { return weekday }
        reader.refuse("weekdays", elementOf: true)
        reader.diagnostics.error(
            .unknownValue(
                "weekday", value: text, expected: Weekday.allCases.map(\.name),
                suggestion: closestMatch(to: text, in: ConfigValueParsing.weekdaySpellings)
            ),
            at: node.location
        )
        return nil
    }

    /// A month number, in range or not (a rule the validator applies); a month's name gets
    /// the number as its suggestion.
    private mutating func decodeMonth(_ node: PlistNode) -> Int? {
        switch node.value {
        case .integer(let value):
            return Int(clamping: value)
        case .string(let text):
            reader.diagnostics.error(.invalidMonth("'\(text)'", suggestion: ConfigValueParsing.monthNumber(named: text)), at: node.location)
        default:
            reader.reportWrongType(node, key: "months", expected: "an <integer>")
        }
        reader.refuse("months", elementOf: true)
        return nil
    }

    /// `days`, `weekdayOrdinals` and `missingDays`, shared by monthly and yearly schedules.
    private mutating func decodeMonthly(_ fields: Fields, into schedule: inout Schedule) {
        if let items = reader.array("days", in: fields, nonEmpty: true) {
            schedule.monthDays = Set(items.compactMap { node -> Int? in
                guard case .integer(let value) = node.value else {
                    reader.reportWrongType(node, key: "days", expected: "an <integer>")
                    reader.refuse("days", elementOf: true)
                    return nil
                }
                return Int(clamping: value)
            }).sorted()
        }
        if let items = reader.array("weekdayOrdinals", in: fields, nonEmpty: true) {
            schedule.weekdayOrdinals = items.compactMap {
                parse(
                    $0, key: "weekdayOrdinals", ConfigValueParsing.weekdayOrdinal,
                    message: DiagnosticMessage.invalidWeekdayOrdinal, refusing: .element
                )
            }
        }
        if let missing = reader.choice("missingDays", in: fields, from: Self.missingDaysChoices, describing: "missingDays") {
            schedule.missingDays = missing
        }
        if fields["days"] == nil, let entry = fields["missingDays"] {
            reader.diagnostics.error(.missingDaysNeedsDays, at: entry.keyLocation)
        }
    }

    /// What a value that does not parse makes refused: nothing (its caller refuses the part
    /// it belongs to), the key's value, or an element of the key's array.
    enum Refusal {
        case none, value, element
    }

    /// A `<string>` parsed by `parser`; reports `message(text)` when it does not parse, and
    /// then records `key` of the current part as `refusing` says.
    mutating func parse<Value>(
        _ node: PlistNode, key: String, _ parser: (String) -> Value?, message: (String) -> DiagnosticMessage,
        refusing refusal: Refusal = .none
    ) -> Value? {
        let text = reader.string(node, key: key)
        let value = text.flatMap(parser)
        if let text, value == nil { reader.diagnostics.error(message(text), at: node.location) }
        if value == nil, refusal != .none { reader.refuse(key, elementOf: refusal == .element) }
        return value
    }
}
