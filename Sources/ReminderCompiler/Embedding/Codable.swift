/// `Codable` in the shapes the command line writes: a plan, its notifications, the diff
/// and events decode from the CLI's JSON with `JSONDecoder`, and encode to the same keys.
/// The CLI's own writer stays the byte-exact format (key order, indentation); these are
/// for apps and servers that exchange those files.

private func corrupted(_ decoder: any Decoder, _ text: String) -> DecodingError {
    .dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: text))
}

/// A value the plan JSON writes as one string, read back by `parse`.
private func decodeString<Value>(
    _ decoder: any Decoder, expected: String, _ parse: (String) -> Value?
) throws -> Value {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let value = parse(text) else { throw corrupted(decoder, "'\(text)' is not \(expected)") }
    return value
}

private func encodeString(_ text: String, to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(text)
}

extension ZonedInstant: Codable {
    /// Reads an RFC 3339 timestamp, keeping its offset.
    public init(from decoder: any Decoder) throws {
        self = try decodeString(decoder, expected: "an RFC 3339 instant", InstantParsing.zonedRFC3339)
    }

    /// Writes `rfc3339`.
    public func encode(to encoder: any Encoder) throws { try encodeString(rfc3339, to: encoder) }
}

extension LocalDateTime: Codable {
    /// Reads `YYYY-MM-DDTHH:MM`.
    public init(from decoder: any Decoder) throws {
        self = try decodeString(decoder, expected: "YYYY-MM-DDTHH:MM", ConfigValueParsing.dateTime)
    }

    /// Writes `YYYY-MM-DDTHH:MM`.
    public func encode(to encoder: any Encoder) throws { try encodeString(description, to: encoder) }
}

extension InterruptionLevel: Codable {}
extension PlannedNotification.Kind: Codable {}
extension SuppressedNotification.Reason: Codable {}


extension NotificationAction: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, title, destructive, foreground, snoozeMinutes
    }

    /// Reads an action; absent flags are false.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), title: try container.decode(String.self, forKey: .title),
            destructive: try container.decodeIfPresent(Bool.self, forKey: .destructive) ?? false,
            foreground: try container.decodeIfPresent(Bool.self, forKey: .foreground) ?? false,
            snoozeMinutes: try container.decodeIfPresent(Int.self, forKey: .snoozeMinutes)
        )
    }

    /// Writes the action as the plan does: flags only when set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        if destructive { try container.encode(true, forKey: .destructive) }
        if foreground { try container.encode(true, forKey: .foreground) }
        try container.encodeIfPresent(snoozeMinutes, forKey: .snoozeMinutes)
    }
}

extension PlannedNotification: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, kind, fireAt, deferredFrom, slot, timeZone, reminders, group, parent, title, body, interruptionLevel, category, sound, threadID
        case userInfo, replaces, durationMinutes, numericId, fingerprint, sequence
    }

    /// Reads a notification of the plan JSON; `numericId` and `fingerprint` are derived
    /// from the other fields, so they are computed rather than trusted.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), kind: try container.decode(Kind.self, forKey: .kind),
            fireAt: try container.decode(ZonedInstant.self, forKey: .fireAt),
            slot: try container.decode(LocalDateTime.self, forKey: .slot),
            reminders: try container.decode([String].self, forKey: .reminders),
            group: try container.decodeIfPresent(String.self, forKey: .group),
            parent: try container.decodeIfPresent(String.self, forKey: .parent),
            title: try container.decode(String.self, forKey: .title), body: try container.decode(String.self, forKey: .body),
            interruptionLevel: try container.decode(InterruptionLevel.self, forKey: .interruptionLevel),
            category: try container.decodeIfPresent(String.self, forKey: .category),
            sound: try container.decodeIfPresent(String.self, forKey: .sound),
            threadID: try container.decodeIfPresent(String.self, forKey: .threadID),
            userInfo: try container.decodeIfPresent([String: String].self, forKey: .userInfo) ?? [:],
            replaces: try container.decodeIfPresent([String].self, forKey: .replaces) ?? [],
            durationMinutes: try container.decodeIfPresent(Int.self, forKey: .durationMinutes) ?? 15,
            sequence: try container.decode(Int.self, forKey: .sequence),
            deferredFrom: try container.decodeIfPresent(ZonedInstant.self, forKey: .deferredFrom),
            timeZone: try container.decodeIfPresent(String.self, forKey: .timeZone)
        )
    }

    /// Writes the plan JSON's keys, optional ones only when set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(fireAt, forKey: .fireAt)
        try container.encodeIfPresent(deferredFrom, forKey: .deferredFrom)
        try container.encode(slot, forKey: .slot)
        try container.encodeIfPresent(timeZone, forKey: .timeZone)
        try container.encode(reminders, forKey: .reminders)
        try container.encodeIfPresent(group, forKey: .group)
        try container.encodeIfPresent(parent, forKey: .parent)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(interruptionLevel, forKey: .interruptionLevel)
        try container.encodeIfPresent(category, forKey: .category)
        try container.encodeIfPresent(sound, forKey: .sound)
        try container.encodeIfPresent(threadID, forKey: .threadID)
        if !userInfo.isEmpty { try container.encode(userInfo, forKey: .userInfo) }
        if !replaces.isEmpty { try container.encode(replaces, forKey: .replaces) }
        if durationMinutes != 15 { try container.encode(durationMinutes, forKey: .durationMinutes) }
        try container.encode(Int(numericId), forKey: .numericId)
        try container.encode(fingerprint, forKey: .fingerprint)
        try container.encode(sequence, forKey: .sequence)
    }
}

extension Plan: Codable {
    private enum CodingKeys: String, CodingKey {
        case formatVersion, timeZone, tzdataVersion, calendarName, uidDomain, configDigest, now, windowEnd, pendingLimit, reservedSlots, coveredUntil, dropped, categories
        case notifications, suppressed, warnings, seriesSequences, reminderDigests, reminderRevisions
    }

    /// Reads a plan JSON file of `formatVersion` 1.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .formatVersion)
        guard version == 1 else { throw corrupted(decoder, "plan formatVersion \(version) is not supported; expected 1") }
        self.init(
            timeZone: try container.decode(String.self, forKey: .timeZone), now: try container.decode(ZonedInstant.self, forKey: .now),
            windowEnd: try container.decode(ZonedInstant.self, forKey: .windowEnd),
            pendingLimit: try container.decode(Int.self, forKey: .pendingLimit),
            reservedSlots: try container.decode(Int.self, forKey: .reservedSlots),
            coveredUntil: try container.decode(ZonedInstant.self, forKey: .coveredUntil),
            dropped: try container.decode(Int.self, forKey: .dropped),
            categories: try container.decode([String: [NotificationAction]].self, forKey: .categories),
            notifications: try container.decode([PlannedNotification].self, forKey: .notifications),
            suppressed: try container.decode([SuppressedNotification].self, forKey: .suppressed),
            warnings: try container.decode([String].self, forKey: .warnings),
            tzdataVersion: try container.decodeIfPresent(String.self, forKey: .tzdataVersion)
        )
        seriesSequences = try container.decodeIfPresent([String: Int].self, forKey: .seriesSequences) ?? [:]
        reminderDigests = try container.decodeIfPresent([String: String].self, forKey: .reminderDigests) ?? [:]
        reminderRevisions = try container.decodeIfPresent([String: Int].self, forKey: .reminderRevisions) ?? [:]
        // Sequence numbers are iCalendar INTEGERs from 0, as the plan readers require.
        for (key, values) in [(CodingKeys.seriesSequences, seriesSequences), (.reminderRevisions, reminderRevisions)]
        where values.values.contains(where: { !(0...Int(Int32.max)).contains($0) }) {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "sequence numbers must be 0 to 2147483647")
        }
        calendarName = try container.decodeIfPresent(String.self, forKey: .calendarName)
        uidDomain = try container.decodeIfPresent(String.self, forKey: .uidDomain)
        configDigest = try container.decodeIfPresent(String.self, forKey: .configDigest)
    }

    /// Writes the plan JSON's keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(formatVersion, forKey: .formatVersion)
        try container.encode(timeZone, forKey: .timeZone)
        try container.encodeIfPresent(tzdataVersion, forKey: .tzdataVersion)
        try container.encodeIfPresent(calendarName, forKey: .calendarName)
        try container.encodeIfPresent(uidDomain, forKey: .uidDomain)
        try container.encodeIfPresent(configDigest, forKey: .configDigest)
        try container.encode(now, forKey: .now)
        try container.encode(windowEnd, forKey: .windowEnd)
        try container.encode(pendingLimit, forKey: .pendingLimit)
        try container.encode(reservedSlots, forKey: .reservedSlots)
        try container.encode(coveredUntil, forKey: .coveredUntil)
        try container.encode(dropped, forKey: .dropped)
        try container.encode(categories, forKey: .categories)
        try container.encode(notifications, forKey: .notifications)
        try container.encode(suppressed, forKey: .suppressed)
        try container.encode(warnings, forKey: .warnings)
        if !seriesSequences.isEmpty { try container.encode(seriesSequences, forKey: .seriesSequences) }
        if !reminderDigests.isEmpty { try container.encode(reminderDigests, forKey: .reminderDigests) }
        if !reminderRevisions.isEmpty { try container.encode(reminderRevisions, forKey: .reminderRevisions) }
    }
}

extension ReminderEvents: Codable {
    private enum CodingKeys: String, CodingKey {
        case formatVersion, events
    }

    private enum EventKeys: String, CodingKey {
        case activity, at, occurrence, action, minutes
    }

    /// Reads an events file's JSON (`{"events": [...]}`); instants are RFC 3339 strings.
    public init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let version = try container.decodeIfPresent(Int.self, forKey: .formatVersion), version != 1 {
            throw corrupted(decoder, "events formatVersion \(version) is not supported; expected 1")
        }
        var list = try container.nestedUnkeyedContainer(forKey: .events)
        while !list.isAtEnd {
            let event = try list.nestedContainer(keyedBy: EventKeys.self)
            func instant() throws -> Int64 {
                let text = try event.decode(String.self, forKey: .at)
                guard let seconds = InstantParsing.rfc3339(text) else { throw corrupted(decoder, "'\(text)' is not an RFC 3339 instant") }
                return seconds
            }
            if let activity = try event.decodeIfPresent(String.self, forKey: .activity) {
                logActivity(activity, at: try instant())
                continue
            }
            let occurrence = try event.decode(String.self, forKey: .occurrence)
            switch try event.decode(String.self, forKey: .action) {
            case "done": record(.done, occurrence: occurrence)
            case "skip": record(.skip, occurrence: occurrence)
            case "snooze": record(.snooze(at: try instant(), minutes: try event.decodeIfPresent(Int.self, forKey: .minutes)), occurrence: occurrence)
            case let other: throw corrupted(decoder, "unknown action '\(other)'; expected one of 'done', 'skip', 'snooze'")
            }
        }
    }

    /// Writes `{"formatVersion": 1, "events": [...]}`: activities by name and instant (in
    /// UTC), then the actions in their order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(1, forKey: .formatVersion)
        var list = container.nestedUnkeyedContainer(forKey: .events)
        for (activity, instants) in activities.sorted(by: { $0.key < $1.key }) {
            for instant in instants {
                var event = list.nestedContainer(keyedBy: EventKeys.self)
                try event.encode(activity, forKey: .activity)
                try event.encode(ZonedInstant(seconds: instant, offsetSeconds: 0).rfc3339, forKey: .at)
            }
        }
        for action in actions {
            var event = list.nestedContainer(keyedBy: EventKeys.self)
            try event.encode(action.occurrence, forKey: .occurrence)
            switch action.kind {
            case .done: try event.encode("done", forKey: .action)
            case .skip: try event.encode("skip", forKey: .action)
            case .snooze(let at, let minutes):
                try event.encode("snooze", forKey: .action)
                try event.encode(ZonedInstant(seconds: at, offsetSeconds: 0).rfc3339, forKey: .at)
                try event.encodeIfPresent(minutes, forKey: .minutes)
            }
        }
    }
}

extension FieldValue: Codable {
    /// Reads a value by its JSON type; an RFC 3339 string stays a string here (see
    /// `PlanDiffDocument.Change`, which knows that `fireAt` is an instant).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self = .integer(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let list = try? container.decode([String].self) {
            self = .strings(list)
        } else if let values = try? container.decode([String: String].self) {
            self = .dictionary(values)
        } else {
            self = .categories(try container.decode([String: [NotificationAction]].self))
        }
    }

    /// Writes the value as the plan JSON holds it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .integer(let number): try container.encode(number)
        case .instant(let instant): try container.encode(instant)
        case .strings(let list): try container.encode(list)
        case .dictionary(let values): try container.encode(values)
        case .categories(let categories): try container.encode(categories)
        }
    }
}

/// The diff as `remindc diff --format json` and `compile --diff` write it: whole
/// notifications to add and update, IDs to cancel and those expired.
public struct PlanDiffDocument: Sendable, Hashable, Codable {
    /// One changed field's values before and after; nil when absent.
    public struct Change: Sendable, Hashable, Codable {
        /// The old plan's value.
        public var before: FieldValue?
        /// The new plan's value.
        public var after: FieldValue?
    }

    /// A changed notification: its changed fields by key, and the new notification.
    public struct Update: Sendable, Hashable, Codable {
        /// The notification's ID.
        public var id: String
        /// The changed fields by their plan JSON key.
        public var changes: [String: Change]
        /// The new notification.
        public var notification: PlannedNotification

        private enum CodingKeys: String, CodingKey {
            case id, changes, notification
        }

        init(id: String, changes: [String: Change], notification: PlannedNotification) {
            self.id = id
            self.changes = changes
            self.notification = notification
        }

        /// Reads an update; `fireAt` values become instants again.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            notification = try container.decode(PlannedNotification.self, forKey: .notification)
            changes = try container.decode([String: Change].self, forKey: .changes)
            if var fireAt = changes["fireAt"] {
                fireAt.before = PlanDiffDocument.instant(fireAt.before)
                fireAt.after = PlanDiffDocument.instant(fireAt.after)
                changes["fireAt"] = fireAt
            }
        }
    }

    /// Always 1.
    public var formatVersion = 1
    /// Schedule these.
    public var add: [PlannedNotification]
    /// Remove these pending IDs.
    public var cancel: [String]
    /// Remove the old and schedule the new.
    public var update: [Update]
    /// Already fired: nothing to do.
    public var expired: [String]
    /// In both plans, unchanged.
    public var unchanged: Int
    /// Plan-level fields that changed, by key (absent in diffs written before them).
    public var plan: [String: Change] = [:]

    private enum CodingKeys: String, CodingKey {
        case formatVersion, add, cancel, update, expired, unchanged, plan
    }

    /// Reads a diff document; `coveredUntil` values become instants again.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        formatVersion = try container.decode(Int.self, forKey: .formatVersion)
        add = try container.decode([PlannedNotification].self, forKey: .add)
        cancel = try container.decode([String].self, forKey: .cancel)
        update = try container.decode([Update].self, forKey: .update)
        expired = try container.decode([String].self, forKey: .expired)
        unchanged = try container.decode(Int.self, forKey: .unchanged)
        plan = try container.decodeIfPresent([String: Change].self, forKey: .plan) ?? [:]
        if var covered = plan["coveredUntil"] {
            covered.before = Self.instant(covered.before)
            covered.after = Self.instant(covered.after)
            plan["coveredUntil"] = covered
        }
    }

    /// An RFC 3339 string read back as the instant it was written from.
    static func instant(_ value: FieldValue?) -> FieldValue? {
        guard case .string(let text)? = value, let parsed = InstantParsing.zonedRFC3339(text) else { return value }
        return .instant(parsed)
    }

    /// The document of a diff.
    public init(_ diff: PlanDiff) {
        add = diff.add
        cancel = diff.cancel.map(\.id)
        update = diff.update.map { update in
            Update(
                id: update.id,
                changes: Dictionary(uniqueKeysWithValues: update.changes.map { ($0.field, Change(before: $0.before, after: $0.after)) }),
                notification: update.notification
            )
        }
        expired = diff.expired.map(\.id)
        unchanged = diff.unchanged
        plan = Dictionary(uniqueKeysWithValues: diff.plan.map { ($0.field, Change(before: $0.before, after: $0.after)) })
    }
}
