extension ConfigDecoder {
    static let reminderKeys = [
        "id", "title", "body", "bodies", "enabled", "schedule", "group", "activity", "lookbackHours",
        "lookbackSameDay", "countsEntries", "followUp", "interruptionLevel", "category", "sound", "threadID", "userInfo",
        "durationMinutes", "replacesEarlier", "quietHours", "timeZone",
    ]
    static let followUpKeys = ["afterMinutes", "title", "body", "interruptionLevel", "repeat", "everyMinutes"]
    static let interruptionLevels = InterruptionLevel.allCases.map { ($0.rawValue, $0) }

    /// The reminder at `index` of `reminders`, with what could be read of it: a reminder
    /// the decoder cannot read whole stands in the list all the same, so that the
    /// validator's key paths (`reminders[2]`) are the file's.
    mutating func decodeReminder(_ node: PlistNode, index: Int) -> Reminder {
        reader.partPath = "reminders[\(index)]"
        defer { reader.partPath = "" }
        // Name the reminder by its id in messages when the id is readable.
        var context = "this reminder"
        if case .dictionary(let dictionary) = node.value, case .string(let id)? = dictionary["id"]?.value.value,
           ConfigValueParsing.isValidIdentifier(id)
        {
            context = "reminder '\(id)'"
        }
        var reminder = Reminder(id: "", title: "", schedule: Schedule(frequency: .daily), location: node.location)
        guard let fields = reader.fields(of: node, named: "reminder", context: context, known: Self.reminderKeys) else {
            reader.refusePart()
            return reminder
        }
        if reader.require("id", in: fields) != nil, let id = reader.string("id", in: fields) { reminder.id = id }
        if reader.require("title", in: fields) != nil, let title = reader.string("title", in: fields) { reminder.title = title }
        if let body = reader.string("body", in: fields) { reminder.body = body }
        if let items = reader.array("bodies", in: fields, nonEmpty: true) {
            reminder.bodies = items.compactMap { item in
                let text = reader.string(item, key: "bodies")
                if text == nil { reader.refuse("bodies", elementOf: true) }
                return text
            }
            if fields["body"] != nil, let entry = fields["bodies"] {
                reader.diagnostics.error(.exclusiveKeys("body", "bodies"), at: entry.keyLocation)
            }
        }
        if let enabled = reader.boolean("enabled", in: fields) { reminder.enabled = enabled }
        if let entry = reader.require("schedule", in: fields) {
            let partPath = reader.partPath
            reader.partPath += ".schedule"
            reminder.schedule = decodeSchedule(entry.value, reminder: context)
            reader.partPath = partPath
        }
        reminder.group = reader.string("group", in: fields)
        if let activity = reader.string("activity", in: fields) {
            reminder.activity = activity
        } else if fields["activity"] == nil {
            reminder.activity = reminder.id
            // The activity is the id when the file names none: nothing more to say of it
            // when the id was refused.
            if reader.wasRefused("id") { reader.refuse("activity") }
        }
        let lookbackHours = reader.real("lookbackHours", in: fields)
        let lookbackSameDay = reader.boolean("lookbackSameDay", in: fields)
        if lookbackSameDay == true, fields["lookbackHours"] != nil, let entry = fields["lookbackSameDay"] {
            reader.diagnostics.error(.exclusiveKeys("lookbackHours", "lookbackSameDay"), at: entry.keyLocation)
        }
        let countsEntries = reader.boolean("countsEntries", in: fields)
        if countsEntries == true, lookbackSameDay != true, let entry = fields["countsEntries"] {
            reader.diagnostics.error(.countsEntriesNeedsSameDay, at: entry.keyLocation)
        }
        if let lookbackHours, let entry = fields["lookbackHours"] {
            if let seconds = Self.seconds(ofHours: lookbackHours) {
                reminder.lookback = .seconds(seconds)
            } else {
                // Beyond what a count of seconds holds: the validator could only show the
                // value rounded, so it is reported here as the file wrote it.
                reader.diagnostics.error(
                    .outOfRange("lookbackHours", value: formatNumber(lookbackHours), range: Lookback.hoursRangeText), at: entry.value.location
                )
                reader.refuse("lookbackHours")
            }
        } else if lookbackSameDay == true {
            reminder.lookback = countsEntries == true ? .sameDayCounted : .sameDay
        }
        if let entry = fields["followUp"] {
            let partPath = reader.partPath
            reader.partPath += ".followUp"
            reminder.followUp = decodeFollowUp(entry.value, reminder: context)
            reader.partPath = partPath
        }
        if let level = reader.choice("interruptionLevel", in: fields, from: Self.interruptionLevels, describing: "interruptionLevel") {
            reminder.interruptionLevel = level
        }
        reminder.category = reader.string("category", in: fields)
        reminder.sound = reader.string("sound", in: fields)
        reminder.threadID = reader.string("threadID", in: fields)
        if let entry = fields["userInfo"] {
            if case .dictionary(let dictionary) = entry.value.value {
                for item in dictionary.entries {
                    if let value = reader.string(item.value, key: "userInfo.\(item.key)") { reminder.userInfo[item.key] = value }
                }
            } else {
                reader.reportWrongType(entry.value, key: "userInfo", expected: "a <dict> of strings")
            }
        }
        if let duration = reader.integer("durationMinutes", in: fields) { reminder.durationMinutes = duration }
        if let replacesEarlier = reader.boolean("replacesEarlier", in: fields) { reminder.replacesEarlier = replacesEarlier }
        reminder.quietHours = reader.boolean("quietHours", in: fields)
        reminder.timeZone = reader.string("timeZone", in: fields)
        return reminder
    }

    /// Whole seconds of `hours`; nil when a count of seconds cannot hold them exactly.
    static func seconds(ofHours hours: Double) -> Int? {
        let seconds = (hours * 3600).rounded()
        guard seconds.isFinite, abs(seconds) < 1e15 else { return nil }
        return Int(seconds)
    }

    /// The follow-up, or nil when it cannot be read whole (reported, and refused so that
    /// its group's members are not compared on it).
    private mutating func decodeFollowUp(_ node: PlistNode, reminder: String) -> FollowUp? {
        guard let fields = reader.fields(
            of: node, named: "followUp", context: "followUp of \(reminder)", known: Self.followUpKeys
        ) else {
            reader.refusePart()
            return nil
        }
        let after = reader.require("afterMinutes", in: fields) != nil ? reader.integer("afterMinutes", in: fields) : nil
        let title = reader.string("title", in: fields)
        let body = reader.string("body", in: fields)
        let level = reader.choice("interruptionLevel", in: fields, from: Self.interruptionLevels, describing: "interruptionLevel")
        let repeatCount = reader.integer("repeat", in: fields)
        let every = reader.integer("everyMinutes", in: fields)
        guard let after else {
            reader.refusePart()
            return nil
        }
        return FollowUp(
            afterMinutes: after, title: title, body: body, interruptionLevel: level, repeatCount: repeatCount ?? 1,
            everyMinutes: every, location: node.location
        )
    }
}
