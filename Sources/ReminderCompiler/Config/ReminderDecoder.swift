extension ConfigDecoder {
    static let reminderKeys = [
        "id", "title", "body", "bodies", "enabled", "schedule", "group", "activity", "lookbackHours",
        "lookbackSameDay", "countsEntries", "followUp", "interruptionLevel", "category", "sound", "threadID", "userInfo",
        "durationMinutes", "replacesEarlier", "quietHours", "timeZone",
    ]
    static let followUpKeys = ["afterMinutes", "title", "body", "interruptionLevel", "repeat", "everyMinutes"]
    static let interruptionLevels = InterruptionLevel.allCases.map { ($0.rawValue, $0) }

    mutating func decodeReminder(_ node: PlistNode) -> Reminder? {
        // Name the reminder by its id in messages when the id is readable.
        var context = "this reminder"
        if case .dictionary(let dictionary) = node.value, case .string(let id)? = dictionary["id"]?.value.value,
           ConfigValueParsing.isValidIdentifier(id)
        {
            context = "reminder '\(id)'"
        }
        guard let fields = reader.fields(of: node, named: "reminder", context: context, known: Self.reminderKeys) else {
            return nil
        }
        let errorsBefore = reader.diagnostics.errorCount

        var id: String?
        if let entry = reader.require("id", in: fields), let text = reader.string(entry.value, key: "id") {
            if ConfigValueParsing.isValidIdentifier(text) {
                id = text
                declaredReminderIDs.append((text, node.location))
            } else {
                reader.diagnostics.error(.invalidIdentifier("reminder id", value: text), at: entry.value.location)
            }
        }
        let title = reader.require("title", in: fields) != nil ? reader.string("title", in: fields, nonEmpty: true) : nil
        let body = reader.string("body", in: fields)
        for (key, text) in [("title", title), ("body", body)] {
            if let text, text.hasSurroundingWhiteSpace, let entry = fields[key] {
                reader.diagnostics.warning(.surroundingSpaces(key), at: entry.value.location)
            }
        }
        var bodies: [String] = []
        if let items = reader.array("bodies", in: fields, nonEmpty: true) {
            bodies = items.compactMap { reader.string($0, key: "bodies") }
            if fields["body"] != nil, let entry = fields["bodies"] {
                reader.diagnostics.error(.exclusiveKeys("body", "bodies"), at: entry.keyLocation)
            }
        }
        let enabled = reader.boolean("enabled", in: fields)
        var schedule: Schedule?
        if let entry = reader.require("schedule", in: fields) {
            schedule = decodeSchedule(entry.value, reminder: context)
        }
        var group: String?
        if let entry = fields["group"], let text = reader.string(entry.value, key: "group") {
            if ConfigValueParsing.isValidIdentifier(text) {
                group = text
                if usedGroupKeys[text] == nil { usedGroupKeys[text] = entry.value.location }
            } else {
                reader.diagnostics.error(.invalidIdentifier("group key", value: text), at: entry.value.location)
            }
        }
        let activity = reader.string("activity", in: fields, nonEmpty: true)
        let lookbackHours = reader.real(
            "lookbackHours", in: fields, accepts: { $0 > 0 && $0 <= 168 }, rangeText: "more than 0 and at most 168"
        )
        let lookbackSameDay = reader.boolean("lookbackSameDay", in: fields)
        if lookbackSameDay == true, fields["lookbackHours"] != nil, let entry = fields["lookbackSameDay"] {
            reader.diagnostics.error(.exclusiveKeys("lookbackHours", "lookbackSameDay"), at: entry.keyLocation)
        }
        let countsEntries = reader.boolean("countsEntries", in: fields)
        if countsEntries == true, lookbackSameDay != true, let entry = fields["countsEntries"] {
            reader.diagnostics.error(.countsEntriesNeedsSameDay, at: entry.keyLocation)
        }
        var followUp: FollowUp?
        if let entry = fields["followUp"] {
            followUp = decodeFollowUp(entry.value, reminder: context)
        }
        let level = reader.choice(
            "interruptionLevel", in: fields, from: Self.interruptionLevels, describing: "interruptionLevel"
        )
        let category = decodeCategoryReference(fields)
        let sound = reader.string("sound", in: fields)
        let threadID = reader.string("threadID", in: fields)
        var userInfo: [String: String] = [:]
        if let entry = fields["userInfo"] {
            if case .dictionary(let dictionary) = entry.value.value {
                for item in dictionary.entries {
                    if let value = reader.string(item.value, key: "userInfo.\(item.key)") { userInfo[item.key] = value }
                }
            } else {
                reader.reportWrongType(entry.value, key: "userInfo", expected: "a <dict> of strings")
            }
        }
        let duration = reader.integer("durationMinutes", in: fields, range: 0...1440, rangeText: "0–1440")
        let replacesEarlier = reader.boolean("replacesEarlier", in: fields)
        let quietHours = reader.boolean("quietHours", in: fields)
        var timeZone: String?
        if let entry = fields["timeZone"], let zone = reader.string(entry.value, key: "timeZone") {
            if zones.contains(zone) {
                timeZone = zone
            } else {
                reader.diagnostics.error(.unknownTimeZone(zone, suggestion: zones.suggestion(for: zone)), at: entry.value.location)
            }
        }

        let errorsAfter = reader.diagnostics.errorCount
        guard errorsAfter == errorsBefore, let id, let title, let schedule else { return nil }
        var reminder = Reminder(id: id, title: title, schedule: schedule, activity: activity ?? id, location: node.location)
        reminder.body = body ?? ""
        reminder.bodies = bodies
        reminder.enabled = enabled ?? true
        reminder.group = group
        if let lookbackHours {
            reminder.lookback = .seconds(Int((lookbackHours * 3600).rounded()))
        } else if lookbackSameDay == true {
            reminder.lookback = countsEntries == true ? .sameDayCounted : .sameDay
        }
        reminder.followUp = followUp
        reminder.interruptionLevel = level ?? .active
        reminder.category = category
        reminder.sound = sound
        reminder.threadID = threadID
        reminder.userInfo = userInfo
        reminder.durationMinutes = duration ?? 15
        reminder.replacesEarlier = replacesEarlier ?? false
        reminder.quietHours = quietHours
        reminder.timeZone = timeZone
        return reminder
    }

    private mutating func decodeFollowUp(_ node: PlistNode, reminder: String) -> FollowUp? {
        guard let fields = reader.fields(
            of: node, named: "followUp", context: "followUp of \(reminder)", known: Self.followUpKeys
        ) else { return nil }
        let after = reader.require("afterMinutes", in: fields) != nil
            ? reader.integer("afterMinutes", in: fields, range: 1...1440, rangeText: "1–1440") : nil
        let title = reader.string("title", in: fields, nonEmpty: true)
        let body = reader.string("body", in: fields)
        let level = reader.choice("interruptionLevel", in: fields, from: Self.interruptionLevels, describing: "interruptionLevel")
        let repeatCount = reader.integer("repeat", in: fields, range: 1...12, rangeText: "1–12")
        let every = reader.integer("everyMinutes", in: fields, range: 1...1440, rangeText: "1–1440")
        guard let after else { return nil }
        return FollowUp(
            afterMinutes: after, title: title, body: body, interruptionLevel: level, repeatCount: repeatCount ?? 1,
            everyMinutes: every, location: node.location
        )
    }
}
