/// What the caller knows beyond the file when validating a config.
public struct ConfigOptions: Sendable {
    /// A zone that replaces the config's `timeZone` (`--time-zone`).
    public var timeZoneOverride: String?
    /// The compile instant, seconds since 1970 UTC; enables the "can never fire" warnings.
    public var now: Int64?

    /// Creates options.
    public init(timeZoneOverride: String? = nil, now: Int64? = nil) {
        self.timeZoneOverride = timeZoneOverride
        self.now = now
    }
}

/// Turns a plist tree into a validated `ReminderConfig` (Config reference, with its
/// "Validation" section), reporting every problem in one pass.
struct ConfigDecoder {
    var reader = FieldReader()
    let zones: TimeZoneDatabase
    /// Group keys named by any reminder, even one with errors, so that a mistake in a
    /// reminder does not also make its group look unused.
    var usedGroupKeys: [String: SourceLocation] = [:]
    /// The id of every reminder whose id is valid, even one with other errors, so that a
    /// duplicate id is reported in the same run as those errors.
    var declaredReminderIDs: [(id: String, location: SourceLocation)] = []
    /// Category ids of the config, known before reminders and groups are read.
    var categoryIDs: [String] = []
    /// The decoded config once it passed every rule, for planning without a second check.
    var validated: ValidatedConfig?

    static let rootKeys = [
        "formatVersion", "timeZone", "horizonDays", "pendingLimit", "reservedSlots", "minimumCoverageDays",
        "calendarName", "uidDomain", "calendarScope", "quietHours", "groups", "categories", "reminders",
    ]
    static let groupKeys = ["title", "body", "category"]
    static let actionKeys = ["id", "title", "destructive", "foreground", "snoozeMinutes"]

    init(zones: TimeZoneDatabase) {
        self.zones = zones
    }

    /// Decodes the root node; returns nil when the config has errors.
    mutating func decode(_ root: PlistNode, options: ConfigOptions) -> ReminderConfig? {
        guard case .dictionary = root.value else {
            if case .invalid = root.value { return nil }
            reader.diagnostics.error(.rootNotDictionary(found: root.value.typeName), at: root.location)
            return nil
        }
        guard let fields = reader.fields(of: root, named: "plist", context: "the config", known: Self.rootKeys) else {
            return nil
        }
        var config = ReminderConfig(location: root.location)
        decodeSettings(fields, options: options, into: &config)
        if let categoriesEntry = fields["categories"] {
            config.categories = decodeCategories(categoriesEntry.value)
        }
        categoryIDs = config.categories.keys.sorted()
        if let groupsEntry = fields["groups"] {
            config.groups = decodeGroups(groupsEntry.value)
        }
        if let remindersEntry = reader.require("reminders", in: fields),
           let items = reader.array("reminders", in: fields)
        {
            if items.isEmpty {
                reader.diagnostics.warning(.noReminders, at: remindersEntry.value.location)
            }
            config.reminders = items.compactMap { decodeReminder($0) }
        }
        checkIdentifiers(config)
        checkGroupFollowUps(config)
        warnAboutUnusedGroups(config)
        if !reader.diagnostics.hasErrors {
            // The rules every config value passes, however it was made; what the decoder
            // accepted passes them too, so this reports nothing unless the two disagree.
            let checked = ConfigValidator.validated(config, zones: zones, timeZoneOverride: options.timeZoneOverride)
            reader.diagnostics.append(contentsOf: checked.diagnostics.filter {
                $0.severity == .error || ConfigValidator.ownedWarnings.contains($0.message.id)
            })
            validated = checked.config
        }
        if !reader.diagnostics.hasErrors {
            warnAboutSchedulesThatNeverFire(config, options: options)
        }
        if reader.diagnostics.hasErrors { validated = nil }
        return reader.diagnostics.hasErrors ? nil : config
    }

    private mutating func decodeSettings(_ fields: Fields, options: ConfigOptions, into config: inout ReminderConfig) {
        if reader.require("formatVersion", in: fields) != nil,
           let version = reader.integer("formatVersion", in: fields, range: Int64.min...Int64.max, rangeText: "1"),
           version != 1, let entry = fields["formatVersion"]
        {
            reader.diagnostics.error(.unsupportedFormatVersion(Int64(version)), at: entry.value.location)
        }
        if let entry = fields["timeZone"] {
            if let zone = reader.string(entry.value, key: "timeZone") {
                if zones.contains(zone) {
                    config.timeZone = zone
                } else {
                    reader.diagnostics.error(
                        .unknownTimeZone(zone, suggestion: zones.suggestion(for: zone)), at: entry.value.location
                    )
                }
            }
        } else if options.timeZoneOverride == nil {
            reader.diagnostics.error(.missingTimeZone, at: fields.location)
        }
        if let horizon = reader.integer("horizonDays", in: fields, range: 1...3660, rangeText: "1–3660") {
            config.horizonDays = horizon
        }
        if let limit = reader.integer("pendingLimit", in: fields, range: 0...1_000_000, rangeText: "0–1000000 (0 = unlimited)") {
            config.pendingLimit = limit
        }
        if let reserved = reader.integer("reservedSlots", in: fields, range: 0...1_000_000, rangeText: "0–1000000") {
            config.reservedSlots = reserved
            if config.pendingLimit > 0, reserved >= config.pendingLimit, let entry = fields["reservedSlots"] {
                reader.diagnostics.error(
                    .reservedSlotsTooMany(Int64(reserved), limit: Int64(config.pendingLimit)), at: entry.value.location
                )
            }
        }
        if let coverage = reader.real(
            "minimumCoverageDays", in: fields, accepts: { (0...3660).contains($0) }, rangeText: "0–3660"
        ) {
            config.minimumCoverageDays = coverage
        }
        if let name = reader.string("calendarName", in: fields, nonEmpty: true) {
            config.calendarName = name
        }
        if let scope = reader.choice(
            "calendarScope", in: fields, from: CalendarScope.allCases.map { ($0.rawValue, $0) }, describing: "calendarScope"
        ) {
            config.calendarScope = scope
        }
        if let entry = fields["quietHours"] {
            config.quietHours = decodeQuietHours(entry.value)
        }
        if let domain = reader.string("uidDomain", in: fields, nonEmpty: true), let entry = fields["uidDomain"] {
            if ConfigValueParsing.isValidDomain(domain) {
                config.uidDomain = domain
            } else {
                reader.diagnostics.error(.invalidDomain(domain), at: entry.value.location)
            }
        }
    }

    private mutating func decodeGroups(_ node: PlistNode) -> [String: GroupDefinition] {
        guard case .dictionary(let dictionary) = node.value else {
            reader.reportWrongType(node, key: "groups", expected: "a <dict> of group key → group dict")
            return [:]
        }
        var groups: [String: GroupDefinition] = [:]
        for entry in dictionary.entries {
            guard ConfigValueParsing.isValidIdentifier(entry.key) else {
                reader.diagnostics.error(.invalidIdentifier("group key", value: entry.key), at: entry.keyLocation)
                continue
            }
            guard let fields = reader.fields(
                of: entry.value, named: entry.key, context: "group '\(entry.key)'", known: Self.groupKeys
            ) else { continue }
            var group = GroupDefinition(location: entry.keyLocation)
            if let title = reader.string("title", in: fields, nonEmpty: true) { group.title = title }
            if let body = reader.string("body", in: fields) { group.body = body }
            group.category = decodeCategoryReference(fields)
            groups[entry.key] = group
        }
        return groups
    }

    private mutating func decodeCategories(_ node: PlistNode) -> [String: [NotificationAction]] {
        guard case .dictionary(let dictionary) = node.value else {
            reader.reportWrongType(node, key: "categories", expected: "a <dict> of category id → array of actions")
            return [:]
        }
        var categories: [String: [NotificationAction]] = [:]
        for entry in dictionary.entries {
            guard ConfigValueParsing.isValidIdentifier(entry.key) else {
                reader.diagnostics.error(.invalidIdentifier("category id", value: entry.key), at: entry.keyLocation)
                continue
            }
            guard case .array(let items) = entry.value.value else {
                reader.reportWrongType(entry.value, key: entry.key, expected: "an <array> of action dicts")
                continue
            }
            var actions: [NotificationAction] = []
            var firstLocationOfAction: [String: SourceLocation] = [:]
            for item in items {
                guard let fields = reader.fields(
                    of: item, named: "action", context: "an action of category '\(entry.key)'", known: Self.actionKeys
                ) else { continue }
                let idEntry = reader.require("id", in: fields)
                let titleEntry = reader.require("title", in: fields)
                let id = idEntry != nil ? reader.string("id", in: fields, nonEmpty: true) : nil
                let title = titleEntry != nil ? reader.string("title", in: fields, nonEmpty: true) : nil
                let destructive = reader.boolean("destructive", in: fields)
                let foreground = reader.boolean("foreground", in: fields)
                let snooze = reader.integer("snoozeMinutes", in: fields, range: 1...1440, rangeText: "1–1440")
                guard let id, let title, let idEntry else { continue }
                if let first = firstLocationOfAction[id] {
                    reader.diagnostics.error(
                        .duplicateActionID(id), at: idEntry.value.location,
                        notes: [Diagnostic(.note, at: first, .firstDefinition(id))]
                    )
                    continue
                }
                firstLocationOfAction[id] = idEntry.value.location
                actions.append(NotificationAction(
                    id: id, title: title, destructive: destructive ?? false, foreground: foreground ?? false,
                    snoozeMinutes: snooze
                ))
            }
            categories[entry.key] = actions
        }
        return categories
    }
}

extension ConfigDecoder {
    /// A `category` value, which must name an entry of `categories`.
    mutating func decodeCategoryReference(_ fields: Fields) -> String? {
        guard let entry = fields["category"], let category = reader.string(entry.value, key: "category", nonEmpty: true)
        else { return nil }
        guard categoryIDs.contains(category) else {
            reader.diagnostics.error(
                .unknownCategory(category, suggestion: closestMatch(to: category, in: categoryIDs)),
                at: entry.value.location
            )
            return nil
        }
        return category
    }
}
