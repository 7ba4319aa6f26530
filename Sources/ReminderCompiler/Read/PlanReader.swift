/// Reads a plan JSON file back (Plan format) — a previous plan, or a plan to export — and
/// checks its structure; every error names the file, and the line and column.
enum PlanReader {
    /// The keys of a plan, of a notification and of a suppressed entry, and which of them a
    /// plan may leave out: all from the one table of the format.
    static let planKeys = PlanFileFormat.names(PlanFileFormat.plan)
    static let optionalPlanKeys = Set(planKeys).subtracting(PlanFileFormat.requiredNames(PlanFileFormat.plan))
    static let notificationKeys = PlanFileFormat.names(PlanFileFormat.notification)
    static let requiredNotificationKeys = PlanFileFormat.requiredNames(PlanFileFormat.notification)
    static let suppressedKeys = PlanFileFormat.names(PlanFileFormat.suppressed)
    static let kinds: [(String, PlannedNotification.Kind)] = [
        ("single", .single), ("group", .group), ("followUp", .followUp), ("snooze", .snooze),
    ]
    static let reasons: [(String, SuppressedNotification.Reason)] = [
        ("activity", .activity), ("done", .done), ("skip", .skip), ("snoozed", .snoozed), ("quietHours", .quietHours),
    ]

    static func read(_ bytes: [UInt8], path: String, diagnostics: inout DiagnosticCollector) -> Plan? {
        let json = JSONReader(maximumInputBytes: ReminderCompiler.maximumPlanBytes)
        // The notifications and the suppressed entries are read one at a time as the reader
        // passes them, not kept as a tree: a plan's long lists cost the memory of their
        // values, and lists of small wrong tokens none. What the reader finds inside them,
        // and what reading them as entries finds, are reported where the lists are.
        var notifications: [PlannedNotification] = []
        var suppressed: [SuppressedNotification] = []
        var firstLocationOfID: [String: SourceLocation] = [:]
        var entriesRead = DiagnosticCollector()
        var entryReader = FieldReader(), suppressedReader = FieldReader()
        let root = json.read(
            bytes, path: path, diagnostics: &diagnostics, streaming: .under(["notifications", "suppressed"]),
            elementDiagnostics: &entriesRead
        ) { key, node in
            if key == "suppressed" {
                guard let entry = suppressedEntry(node, reader: &suppressedReader), !suppressedReader.diagnostics.hasErrors else { return }
                suppressed.append(entry)
                return
            }
            guard let notification = notification(node, reader: &entryReader) else { return }
            // Two entries with one ID would make a diff cancel or update the wrong one.
            if let first = firstLocationOfID[notification.id] {
                entryReader.diagnostics.error(
                    .duplicateNotificationID(notification.id), at: node.location,
                    notes: [Diagnostic(.note, at: first, .firstDefinition(notification.id))]
                )
                return
            }
            firstLocationOfID[notification.id] = node.location
            // Past the first error the plan is refused: only the errors are still wanted.
            if !entryReader.diagnostics.hasErrors { notifications.append(notification) }
        }
        guard let root else {
            diagnostics.absorb(entriesRead)
            return nil
        }
        guard case .dictionary = root.value else {
            if case .invalid = root.value { return nil }
            diagnostics.error(.planRootNotObject(found: root.value), at: root.location)
            return nil
        }
        var reader = FieldReader()
        reader.diagnostics = diagnostics
        defer { diagnostics = reader.diagnostics }
        guard let fields = reader.fields(of: root, named: "plan", context: "the plan", known: planKeys, ignoringUnknownKeys: true) else { return nil }
        // Members added after the first plans are optional (see PlanFileFormat).
        for key in planKeys where !optionalPlanKeys.contains(key) { _ = reader.require(key, in: fields) }
        if let version = reader.integer("formatVersion", in: fields, range: Int64.min...Int64.max, rangeText: "1"),
           version != 1, let entry = fields["formatVersion"]
        {
            reader.diagnostics.error(.unsupportedPlanFormatVersion(Int64(version)), at: entry.value.location)
            return nil
        }
        let timeZone = reader.string("timeZone", in: fields, nonEmpty: true)
        let now = instant("now", in: fields, reader: &reader)
        let windowEnd = instant("windowEnd", in: fields, reader: &reader)
        let coveredUntil = instant("coveredUntil", in: fields, reader: &reader)
        let pendingLimit = reader.integer("pendingLimit", in: fields, range: 0...Int64.max, rangeText: "0 or more")
        let reserved = reader.integer("reservedSlots", in: fields, range: 0...Int64.max, rangeText: "0 or more")
        let dropped = reader.integer("dropped", in: fields, range: 0...Int64.max, rangeText: "0 or more")
        var categories: [String: [NotificationAction]] = [:]
        if let entry = fields["categories"] {
            if case .dictionary(let dictionary) = entry.value.value {
                for category in dictionary.entries {
                    guard case .array(let items) = category.value.value else {
                        reader.reportWrongType(category.value, key: category.key, expected: "an array of actions")
                        continue
                    }
                    categories[category.key] = items.compactMap { action($0, reader: &reader) }
                }
            } else {
                reader.reportWrongType(entry.value, key: "categories", expected: "an object")
            }
        }
        // Read already, streamed; a `notifications` that is not an array is reported here.
        _ = reader.array("notifications", in: fields)
        reader.diagnostics.absorb(entriesRead)
        reader.diagnostics.absorb(entryReader.diagnostics)
        _ = reader.array("suppressed", in: fields)
        reader.diagnostics.absorb(suppressedReader.diagnostics)
        let warnings = (reader.array("warnings", in: fields) ?? []).compactMap { reader.string($0, key: "warnings") }
        /// An optional object whose members' values `value` reads.
        func map<Value>(_ key: String, _ value: (PlistNode, String, inout FieldReader) -> Value?) -> [String: Value] {
            var values: [String: Value] = [:]
            guard let entry = fields[key] else { return values }
            guard case .dictionary(let dictionary) = entry.value.value else {
                reader.reportWrongType(entry.value, key: key, expected: "an object")
                return values
            }
            for member in dictionary.entries { values[member.key] = value(member.value, member.key, &reader) }
            return values
        }
        func sequence(_ node: PlistNode, _ key: String, _ reader: inout FieldReader) -> Int? {
            reader.integer(node, key: key, range: 0...Int64(Int32.max), rangeText: "0 to 2147483647")
        }
        let seriesSequences = map("seriesSequences", sequence)
        let reminderDigests = map("reminderDigests") { node, key, reader in reader.string(node, key: key) }
        let reminderRevisions = map("reminderRevisions", sequence)
        // The UID domain goes into every calendar UID: only what a config may give is read.
        let uidDomain = reader.string("uidDomain", in: fields, nonEmpty: true)
        if let uidDomain, !ConfigValueParsing.isValidDomain(uidDomain) {
            reader.diagnostics.error(.invalidPlanDomain(uidDomain), at: fields["uidDomain"]!.value.location)
        }
        guard !reader.diagnostics.hasErrors, let timeZone, let now, let windowEnd, let coveredUntil, let pendingLimit,
              let reserved, let dropped
        else { return nil }
        var plan = Plan(
            timeZone: timeZone, now: now, windowEnd: windowEnd, pendingLimit: pendingLimit, reservedSlots: reserved,
            coveredUntil: coveredUntil, dropped: dropped, categories: categories, notifications: notifications,
            suppressed: suppressed, warnings: warnings, tzdataVersion: reader.string("tzdataVersion", in: fields, nonEmpty: true)
        )
        plan.seriesSequences = seriesSequences
        plan.reminderDigests = reminderDigests
        plan.reminderRevisions = reminderRevisions
        plan.calendarName = reader.string("calendarName", in: fields, nonEmpty: true)
        plan.uidDomain = uidDomain
        plan.configDigest = reader.string("configDigest", in: fields, nonEmpty: true)
        return plan
    }

    private static func instant(_ key: String, in fields: Fields, reader: inout FieldReader) -> ZonedInstant? {
        guard let text = reader.string(key, in: fields) else { return nil }
        guard let instant = InstantParsing.zonedRFC3339(text) else {
            reader.diagnostics.error(.notAnInstant(text), at: fields[key]!.value.location)
            return nil
        }
        return instant
    }

    private static func strings(_ key: String, in fields: Fields, reader: inout FieldReader) -> [String]? {
        reader.array(key, in: fields).map { $0.compactMap { reader.string($0, key: key) } }
    }

    /// `key`'s text when it is an ID remindc writes (`ConfigValueParsing.isValidPlanID`);
    /// otherwise an error at its place. Writers put such IDs into calendars, tables and
    /// pages as they stand, so nothing else gets past here.
    private static func id(_ key: String, in fields: Fields, reader: inout FieldReader) -> String? {
        guard let text = reader.string(key, in: fields) else { return nil }
        guard ConfigValueParsing.isValidPlanID(text) else {
            reader.diagnostics.error(.invalidPlanID(key, text), at: fields[key]!.value.location)
            return nil
        }
        return text
    }

    /// `key`'s array of IDs, each checked as `id` checks one.
    private static func ids(_ key: String, in fields: Fields, reader: inout FieldReader) -> [String]? {
        reader.array(key, in: fields).map { items in
            items.compactMap { item in
                guard let text = reader.string(item, key: key) else { return nil }
                guard ConfigValueParsing.isValidPlanID(text) else {
                    reader.diagnostics.error(.invalidPlanID(key, text), at: item.location)
                    return nil
                }
                return text
            }
        }
    }

    private static func action(_ node: PlistNode, reader: inout FieldReader) -> NotificationAction? {
        guard let fields = reader.fields(of: node, named: "action", context: "an action", known: ConfigDecoder.actionKeys, ignoringUnknownKeys: true),
              reader.require("id", in: fields) != nil, reader.require("title", in: fields) != nil,
              let id = reader.string("id", in: fields), let title = reader.string("title", in: fields)
        else { return nil }
        return NotificationAction(
            id: id, title: title, destructive: reader.boolean("destructive", in: fields) ?? false,
            foreground: reader.boolean("foreground", in: fields) ?? false,
            snoozeMinutes: reader.integer("snoozeMinutes", in: fields, range: 1...1440, rangeText: "1–1440")
        )
    }

    private static func notification(_ node: PlistNode, reader: inout FieldReader) -> PlannedNotification? {
        guard let fields = reader.fields(of: node, named: "notification", context: "a notification", known: notificationKeys, ignoringUnknownKeys: true)
        else { return nil }
        let missing = requiredNotificationKeys.filter { reader.require($0, in: fields) == nil }
        let id = id("id", in: fields, reader: &reader)
        let kind = reader.choice("kind", in: fields, from: kinds, describing: "kind")
        let fireAt = instant("fireAt", in: fields, reader: &reader)
        var slot: LocalDateTime?
        if let text = reader.string("slot", in: fields) {
            slot = ConfigValueParsing.planSlot(text)
            if slot == nil { reader.diagnostics.error(.invalidDateTime(text), at: fields["slot"]!.value.location) }
        }
        let level = reader.choice("interruptionLevel", in: fields, from: ConfigDecoder.interruptionLevels, describing: "interruptionLevel")
        var userInfo: [String: String] = [:]
        if let entry = fields["userInfo"], case .dictionary(let dictionary) = entry.value.value {
            for item in dictionary.entries {
                if let value = reader.string(item.value, key: "userInfo.\(item.key)") { userInfo[item.key] = value }
            }
        }
        guard missing.isEmpty, let id, let kind, let fireAt, let slot, let level,
              let reminders = ids("reminders", in: fields, reader: &reader),
              let title = reader.string("title", in: fields), let body = reader.string("body", in: fields),
              let sequence = reader.integer("sequence", in: fields, range: 0...Int64(Int32.max), rangeText: "0 to 2147483647")
        else { return nil }
        _ = reader.integer("numericId", in: fields, range: 0...0x7FFF_FFFF, rangeText: "0–2147483647")
        // Derived from the other fields (older plans lack it): checked for its type only.
        _ = reader.string("fingerprint", in: fields)
        return PlannedNotification(
            id: id, kind: kind, fireAt: fireAt, slot: slot, reminders: reminders, group: Self.id("group", in: fields, reader: &reader),
            parent: Self.id("parent", in: fields, reader: &reader), title: title, body: body, interruptionLevel: level,
            category: Self.id("category", in: fields, reader: &reader), sound: reader.string("sound", in: fields),
            threadID: reader.string("threadID", in: fields), userInfo: userInfo,
            replaces: ids("replaces", in: fields, reader: &reader) ?? [],
            durationMinutes: reader.integer("durationMinutes", in: fields, range: 0...1440, rangeText: "0–1440") ?? 15,
            sequence: sequence, deferredFrom: fields["deferredFrom"] == nil ? nil : instant("deferredFrom", in: fields, reader: &reader),
            timeZone: reader.string("timeZone", in: fields)
        )
    }

    private static func suppressedEntry(_ node: PlistNode, reader: inout FieldReader) -> SuppressedNotification? {
        guard let fields = reader.fields(of: node, named: "suppressed", context: "a suppressed entry", known: suppressedKeys, ignoringUnknownKeys: true),
              let id = id("id", in: fields, reader: &reader), let fireAt = instant("fireAt", in: fields, reader: &reader),
              let reminders = ids("reminders", in: fields, reader: &reader),
              let reason = reader.choice("reason", in: fields, from: reasons, describing: "reason")
        else { return nil }
        return SuppressedNotification(id: id, fireAt: fireAt, reminders: reminders, reason: reason)
    }
}

extension ReminderCompiler {
    /// The largest plan file read back (by `diff`, `ics` and `--previous`), and so the
    /// largest the command line writes: any plan remindc writes can be read again.
    ///
    /// Plans are far larger than configs: ten years of 100 reminders take about 260 MB.
    /// Reading a plan holds about 2.3 times its size, and `diff` holds two: at 384 MiB
    /// every command stays near 1 GB (measured figures in the README).
    public static let maximumPlanBytes = 384 << 20

    /// The largest calendar written, as large as the largest plan: ten years of 100
    /// reminders take about 270 MB as an expanded calendar. A config whose calendar would
    /// pass it is an error naming the limit, and no calendar file is written.
    public static let maximumCalendarBytes = maximumPlanBytes

    /// Whether a file given as a config or a plan holds a plan, told by its content rather
    /// than its name: a JSON object whose root has `notifications` or `now` and no
    /// `reminders`. A plist, a config in JSON, or a document too broken to tell is not a
    /// plan, so that its reader reports what is wrong with it as a config.
    public static func holdsPlan(_ bytes: [UInt8]) -> Bool {
        // The job scanner's pass over the root's members: values are skipped, not read.
        guard case .success(let members) = JSONScanner.members(of: bytes) else { return false }
        let keys = Set(members.map(\.key))
        guard !keys.contains("reminders") else { return false }
        return keys.contains("notifications") || keys.contains("now")
    }

    /// Reads a plan JSON file (Plan format); nil when it is malformed or of another
    /// `formatVersion`, with errors at their line and column.
    public static func readPlan(_ bytes: [UInt8], path: String, diagnostics: inout DiagnosticCollector) -> Plan? {
        if bytes.count <= maximumPlanBytes, let plan = FastPlanReader.read(bytes) { return plan }
        return PlanReader.read(bytes, path: path, diagnostics: &diagnostics)
    }
}
