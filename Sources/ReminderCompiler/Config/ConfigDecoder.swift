/// What the caller knows beyond the file when validating a config.
public struct ConfigOptions: Sendable, Hashable {
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
///
/// The decoder owns the file's shape — which keys each dict may and must hold, the type
/// of each value, the spelling of times, dates and choices — and reads every value it
/// can, in range or not. `ConfigValidator` then applies every rule about values, once,
/// to what was read, pointing at each value through `FileSites` and passing over values
/// the decoder already refused, so that one run reports every problem of the file.
struct ConfigDecoder {
    var reader = FieldReader()
    let zones: TimeZoneDatabase
    /// The decoded config once it passed every rule, for planning without a second check.
    var validated: ValidatedConfig?

    static let rootKeys = [
        "formatVersion", "timeZone", "horizonDays", "pendingLimit", "reservedSlots", "minimumCoverageDays",
        "calendarName", "uidDomain", "calendarScope", "quietHours", "groups", "categories", "reminders",
    ]
    static let groupKeys = ["title", "body", "category"]
    /// The most entries `reminders`, `groups` and `categories` may each hold. Each entry
    /// becomes a value of several hundred bytes before it is checked, so a list of tiny
    /// wrong entries cost some 340 bytes of memory a byte of JSON (a million `1` took
    /// 686 MB); past this, the whole list is refused with one error.
    static let maximumEntries = 100_000
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
        if let groupsEntry = fields["groups"] {
            config.groups = decodeGroups(groupsEntry.value)
        }
        if reader.require("reminders", in: fields) != nil, let items = reader.array("reminders", in: fields, atMost: Self.maximumEntries) {
            config.reminders = items.enumerated().map { decodeReminder($1, index: $0) }
        }
        let sites = FileSites(root: root, refused: reader.refused)
        let checked = ConfigValidator.validated(
            config, zones: zones, timeZoneOverride: options.timeZoneOverride, sites: sites
        )
        reader.diagnostics.append(contentsOf: checked.diagnostics)
        if !reader.diagnostics.hasErrors {
            validated = checked.config
            warnAboutSchedulesThatNeverFire(config, options: options)
        }
        return reader.diagnostics.hasErrors ? nil : config
    }

    private mutating func decodeSettings(_ fields: Fields, options: ConfigOptions, into config: inout ReminderConfig) {
        if reader.require("formatVersion", in: fields) != nil,
           let version = reader.integer("formatVersion", in: fields, range: Int64.min...Int64.max, rangeText: "1"),
           version != 1, let entry = fields["formatVersion"]
        {
            reader.diagnostics.error(.unsupportedFormatVersion(Int64(version)), at: entry.value.location)
        }
        if fields["timeZone"] != nil {
            config.timeZone = reader.string("timeZone", in: fields)
        } else if options.timeZoneOverride == nil {
            reader.diagnostics.error(.missingTimeZone, at: fields.location)
        }
        if let horizon = reader.integer("horizonDays", in: fields) { config.horizonDays = horizon }
        if let limit = reader.integer("pendingLimit", in: fields) { config.pendingLimit = limit }
        if let reserved = reader.integer("reservedSlots", in: fields) { config.reservedSlots = reserved }
        if let coverage = reader.real("minimumCoverageDays", in: fields) { config.minimumCoverageDays = coverage }
        if let name = reader.string("calendarName", in: fields) { config.calendarName = name }
        if let scope = reader.choice(
            "calendarScope", in: fields, from: CalendarScope.allCases.map { ($0.rawValue, $0) }, describing: "calendarScope"
        ) {
            config.calendarScope = scope
        }
        if let entry = fields["quietHours"] {
            config.quietHours = decodeQuietHours(entry.value)
        }
        if let domain = reader.string("uidDomain", in: fields) { config.uidDomain = domain }
    }

    private mutating func decodeGroups(_ node: PlistNode) -> [String: GroupDefinition] {
        guard case .dictionary(let dictionary) = node.value else {
            reader.reportWrongType(node, key: "groups", expected: "a <dict> of group key → group dict")
            return [:]
        }
        guard reader.withinEntryLimit(dictionary, key: "groups", limit: Self.maximumEntries) else { return [:] }
        var groups: [String: GroupDefinition] = [:]
        for entry in dictionary.entries {
            reader.partPath = "groups.\(entry.key)"
            defer { reader.partPath = "" }
            var group = GroupDefinition(location: entry.keyLocation)
            guard let fields = reader.fields(
                of: entry.value, named: entry.key, context: "group '\(entry.key)'", known: Self.groupKeys
            ) else {
                reader.refusePart()
                groups[entry.key] = group
                continue
            }
            if let title = reader.string("title", in: fields) { group.title = title }
            if let body = reader.string("body", in: fields) { group.body = body }
            group.category = reader.string("category", in: fields)
            groups[entry.key] = group
        }
        return groups
    }

    private mutating func decodeCategories(_ node: PlistNode) -> [String: [NotificationAction]] {
        guard case .dictionary(let dictionary) = node.value else {
            reader.reportWrongType(node, key: "categories", expected: "a <dict> of category id → array of actions")
            return [:]
        }
        guard reader.withinEntryLimit(dictionary, key: "categories", limit: Self.maximumEntries) else { return [:] }
        var categories: [String: [NotificationAction]] = [:]
        for entry in dictionary.entries {
            guard case .array(let items) = entry.value.value else {
                reader.reportWrongType(entry.value, key: entry.key, expected: "an <array> of action dicts")
                reader.partPath = "categories.\(entry.key)"
                reader.refusePart()
                reader.partPath = ""
                categories[entry.key] = []
                continue
            }
            categories[entry.key] = items.enumerated().map { index, item in
                reader.partPath = "categories.\(entry.key)[\(index)]"
                defer { reader.partPath = "" }
                guard let fields = reader.fields(
                    of: item, named: "action", context: "an action of category '\(entry.key)'", known: Self.actionKeys
                ) else {
                    reader.refusePart()
                    return NotificationAction(id: "", title: "")
                }
                let id = reader.require("id", in: fields) != nil ? reader.string("id", in: fields) : nil
                let title = reader.require("title", in: fields) != nil ? reader.string("title", in: fields) : nil
                return NotificationAction(
                    id: id ?? "", title: title ?? "", destructive: reader.boolean("destructive", in: fields) ?? false,
                    foreground: reader.boolean("foreground", in: fields) ?? false,
                    snoozeMinutes: reader.integer("snoozeMinutes", in: fields)
                )
            }
        }
        return categories
    }
}
