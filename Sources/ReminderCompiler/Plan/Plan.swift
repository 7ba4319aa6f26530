/// A compiled plan (SPEC §8): dated one-time notifications with stable IDs.
public struct Plan: Sendable, Hashable {
    /// Always 1.
    public var formatVersion = 1
    /// The IANA zone the plan was compiled in.
    public var timeZone: String
    /// The version of the tz database the compile host used (`2025b`), when it says:
    /// readers with another version may place instants differently.
    public var tzdataVersion: String?
    /// The config's `calendarName`, for calendars written from the plan alone.
    public var calendarName: String?
    /// The config's `uidDomain`, for calendars written from the plan alone.
    public var uidDomain: String?
    /// SHA-256 of the config file the plan was compiled from (`ReminderConfig.sourceDigest`).
    public var configDigest: String?
    /// The compile instant.
    public var now: ZonedInstant
    /// `now + horizonDays × 86 400 s`.
    public var windowEnd: ZonedInstant
    /// The pending limit applied (0 = unlimited).
    public var pendingLimit: Int
    /// Slots left free for the app.
    public var reservedSlots: Int
    /// The plan is complete before this instant.
    public var coveredUntil: ZonedInstant
    /// Notifications cut by the budget.
    public var dropped: Int
    /// Notification actions by category id.
    public var categories: [String: [NotificationAction]]
    /// The notifications, sorted by `(fireAt, id)`.
    public var notifications: [PlannedNotification]
    /// Notifications removed inside the window, with reasons.
    public var suppressed: [SuppressedNotification]
    /// Warnings about the plan, as sentences.
    public var warnings: [String]
    /// The `SEQUENCE` of each recurring calendar series that changed since the plans
    /// before it, by series ID (`NotificationID.series`); a series not listed has 0.
    /// Counted by `ReminderCompiler.carrySequences(into:from:)`.
    public var seriesSequences: [String: Int] = [:]

    /// Creates a plan.
    public init(
        timeZone: String, now: ZonedInstant, windowEnd: ZonedInstant, pendingLimit: Int, reservedSlots: Int,
        coveredUntil: ZonedInstant, dropped: Int, categories: [String: [NotificationAction]],
        notifications: [PlannedNotification], suppressed: [SuppressedNotification], warnings: [String],
        tzdataVersion: String? = nil
    ) {
        self.timeZone = timeZone
        self.tzdataVersion = tzdataVersion
        self.now = now
        self.windowEnd = windowEnd
        self.pendingLimit = pendingLimit
        self.reservedSlots = reservedSlots
        self.coveredUntil = coveredUntil
        self.dropped = dropped
        self.categories = categories
        self.notifications = notifications
        self.suppressed = suppressed
        self.warnings = warnings
    }
}

extension Plan {
    /// Records where the plan came from: the config's calendar name, UID domain and digest.
    mutating func recordProvenance(of config: ReminderConfig) {
        calendarName = config.calendarName
        uidDomain = config.uidDomain
        configDigest = config.sourceDigest
    }
}

/// One dated notification of a plan.
public struct PlannedNotification: Sendable, Hashable {
    /// What the notification stands for.
    public enum Kind: String, Sendable, Hashable {
        /// One reminder's occurrence.
        case single
        /// The merged occurrences of a group's members at one slot.
        case group
        /// The second notification after a parent.
        case followUp
        /// A snoozed notification fired again.
        case snooze
    }

    /// The stable ID (SPEC §5.2).
    public var id: String
    /// The kind.
    public var kind: Kind
    /// When it fires.
    public var fireAt: ZonedInstant
    /// The nominal local slot (for follow-ups and snoozes, the parent's).
    public var slot: LocalDateTime
    /// The parent notification's ID, for follow-ups and snoozes.
    public var parent: String?
    /// IDs the app removes from the notification centre when this one is delivered.
    public var replaces: [String]
    /// `id` hashed for platforms with integer notification IDs (SPEC §8).
    public var numericId: UInt32
    /// 0 when new; carried forward and incremented on change with a previous plan.
    public var sequence: Int
    /// When quiet hours deferred it: the instant it was due (`fireAt` is the quiet hours' end).
    public var deferredFrom: ZonedInstant?
    /// What it shows and whom it is for, shared by the notifications the planner renders
    /// from the same members and texts.
    var content: NotificationContent

    /// The member reminders' ids, ascending.
    public var reminders: [String] {
        get { content.texts.reminders }
        set { content = content.changing { $0.reminders = newValue } }
    }
    /// The group key, for group notifications and their follow-ups.
    public var group: String? {
        get { content.texts.group }
        set { content = content.changing { $0.group = newValue } }
    }
    /// The title.
    public var title: String {
        get { content.texts.title }
        set { content = content.changing { $0.title = newValue } }
    }
    /// The body.
    public var body: String {
        get { content.texts.body }
        set { content = content.changing { $0.body = newValue } }
    }
    /// The interruption level.
    public var interruptionLevel: InterruptionLevel {
        get { content.texts.interruptionLevel }
        set { content = content.changing { $0.interruptionLevel = newValue } }
    }
    /// The category (actions).
    public var category: String? {
        get { content.texts.category }
        set { content = content.changing { $0.category = newValue } }
    }
    /// Passed through from the reminder.
    public var sound: String? {
        get { content.texts.sound }
        set { content = content.changing { $0.sound = newValue } }
    }
    /// Passed through from the reminder.
    public var threadID: String? {
        get { content.texts.threadID }
        set { content = content.changing { $0.threadID = newValue } }
    }
    /// Passed through from the reminder.
    public var userInfo: [String: String] {
        get { content.texts.userInfo }
        set { content = content.changing { $0.userInfo = newValue } }
    }
    /// The calendar event's length.
    public var durationMinutes: Int {
        get { content.texts.durationMinutes }
        set { content = content.changing { $0.durationMinutes = newValue } }
    }
    /// The zone its reminders pin their times to (`Reminder.timeZone`) when it is not the
    /// plan's: `slot` is a local time of this zone, while `fireAt` carries the plan zone's
    /// offset.
    public var timeZone: String? {
        get { content.texts.timeZone }
        set { content = content.changing { $0.timeZone = newValue } }
    }

    /// Creates a notification; `numericId` is derived from `id`.
    public init(
        id: String, kind: Kind, fireAt: ZonedInstant, slot: LocalDateTime, reminders: [String], group: String? = nil,
        parent: String? = nil, title: String, body: String, interruptionLevel: InterruptionLevel,
        category: String? = nil, sound: String? = nil, threadID: String? = nil, userInfo: [String: String] = [:],
        replaces: [String] = [], durationMinutes: Int = 15, sequence: Int = 0, deferredFrom: ZonedInstant? = nil,
        timeZone: String? = nil
    ) {
        let texts = NotificationTexts(
            reminders: reminders, group: group, title: title, body: body, interruptionLevel: interruptionLevel,
            category: category, sound: sound, threadID: threadID, userInfo: userInfo, durationMinutes: durationMinutes,
            timeZone: timeZone
        )
        self.init(
            id: id, kind: kind, fireAt: fireAt, slot: slot, parent: parent, replaces: replaces,
            content: NotificationContent(texts), sequence: sequence, deferredFrom: deferredFrom
        )
    }

    /// A notification showing `content`, which may be shared with others.
    init(
        id: String, kind: Kind, fireAt: ZonedInstant, slot: LocalDateTime, parent: String?, replaces: [String],
        content: NotificationContent, sequence: Int = 0, deferredFrom: ZonedInstant? = nil
    ) {
        self.id = id
        self.kind = kind
        self.fireAt = fireAt
        self.slot = slot
        self.parent = parent
        self.replaces = replaces
        self.numericId = NotificationID.numericID(of: id)
        self.sequence = sequence
        self.deferredFrom = deferredFrom
        self.content = content
    }

    public static func == (lhs: PlannedNotification, rhs: PlannedNotification) -> Bool {
        lhs.id == rhs.id && lhs.kind == rhs.kind && lhs.fireAt == rhs.fireAt && lhs.slot == rhs.slot
            && lhs.parent == rhs.parent && lhs.replaces == rhs.replaces && lhs.numericId == rhs.numericId
            && lhs.sequence == rhs.sequence && lhs.deferredFrom == rhs.deferredFrom
            && (lhs.content === rhs.content || lhs.content.texts == rhs.content.texts)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(kind)
        hasher.combine(fireAt)
        hasher.combine(slot)
        hasher.combine(parent)
        hasher.combine(replaces)
        hasher.combine(sequence)
        hasher.combine(deferredFrom)
        hasher.combine(content.texts)
    }
}

/// A notification removed inside the window, and why.
public struct SuppressedNotification: Sendable, Hashable, Codable {
    /// Why it was removed (SPEC §6).
    public enum Reason: String, Sendable, Hashable {
        case activity, done, skip, snoozed
        /// Dropped by the config's quiet hours.
        case quietHours
    }

    /// The removed notification's ID.
    public var id: String
    /// When it would have fired.
    public var fireAt: ZonedInstant
    /// Its member reminders.
    public var reminders: [String]
    /// Why.
    public var reason: Reason
}

/// Stable notification identifiers (SPEC §5.2, §8).
public enum NotificationID {
    /// `{key}-{yyyyMMdd}-{HHmm}` for a reminder id or group key and a slot.
    public static func occurrence(_ key: String, slot: LocalDateTime) -> String {
        // Written straight into the string's storage: this runs once per slot.
        let (year, month, day) = slot.date.components
        let keyLength = key.utf8.count
        return String(unsafeUninitializedCapacity: keyLength + 14) { buffer in
            let start = buffer.baseAddress!
            let copied: Void? = key.utf8.withContiguousStorageIfAvailable { utf8 in
                start.update(from: utf8.baseAddress!, count: keyLength)
            }
            if copied == nil { _ = buffer.initialize(from: key.utf8) }
            // -yyyyMMdd-HHmm, two digits at a time; a year beyond 9999 keeps its last four.
            let digits = start + keyLength
            digits[0] = UInt8(ascii: "-")
            putDigitPair(year / 100 % 100, at: digits + 1)
            putDigitPair(year % 100, at: digits + 3)
            putDigitPair(month, at: digits + 5)
            putDigitPair(day, at: digits + 7)
            digits[9] = UInt8(ascii: "-")
            putDigitPair(slot.time.hour, at: digits + 10)
            putDigitPair(slot.time.minute, at: digits + 12)
            return keyLength + 14
        }
    }

    /// Chain member `member` of a notification's follow-ups: `{parent}-followup` for the
    /// first, `{parent}-followup-{member}` for the later ones.
    public static func followUp(of parent: String, member: Int) -> String {
        member == 1 ? parent + "-followup" : parent + "-followup-\(member)"
    }

    /// An ID without its follow-up suffix, and the chain member the suffix named (0 for
    /// none): `x-followup-3` gives `x` and 3.
    static func splitFollowUp(_ id: Substring) -> (base: Substring, member: Int) {
        if id.hasSuffix("-followup") { return (id.dropLast("-followup".count), 1) }
        guard let dash = id.lastIndex(of: "-") else { return (id, 0) }
        let digits = id[id.index(after: dash)...]
        let stem = id[..<dash]
        guard stem.hasSuffix("-followup"), (1...2).contains(digits.count), digits.first != "0",
              digits.allSatisfy({ $0.isASCII && $0.isNumber }), let member = Int(digits), (2...12).contains(member)
        else { return (id, 0) }
        return (stem.dropLast("-followup".count), member)
    }

    /// `{reminder}-{HHmm}`: a reminder's series at one time of day in the recurring
    /// calendar (its UID before the domain).
    public static func series(_ reminder: String, time: LocalTime) -> String {
        "\(reminder)-\(zeroPadded(time.hour, 2))\(zeroPadded(time.minute, 2))"
    }

    /// `first < second` for IDs, compared byte by byte: IDs are ASCII (SPEC §3.1), whose
    /// byte order is String's order, and comparing bytes skips String's Unicode checks.
    static func precedes(_ first: String, _ second: String) -> Bool {
        let compared: Bool?? = first.utf8.withContiguousStorageIfAvailable { firstBytes in
            second.utf8.withContiguousStorageIfAvailable { secondBytes in
                let common = Swift.min(firstBytes.count, secondBytes.count)
                var index = 0
                while index < common {
                    if firstBytes[index] != secondBytes[index] { return firstBytes[index] < secondBytes[index] }
                    index += 1
                }
                return firstBytes.count < secondBytes.count
            }
        }
        return compared.flatMap { $0 } ?? (first < second)
    }

    /// FNV-1a 32-bit hash of the UTF-8 bytes, masked to 31 bits.
    public static func numericID(of id: String) -> UInt32 {
        func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
            var hash: UInt32 = 0x811C_9DC5
            for byte in bytes {
                hash ^= UInt32(byte)
                hash = hash &* 0x0100_0193
            }
            return hash & 0x7FFF_FFFF
        }
        return id.utf8.withContiguousStorageIfAvailable(hash) ?? hash(id.utf8)
    }
}

extension PlannedNotification {
    /// A snooze or one of its follow-ups: not an instance of any series, so the recurring
    /// calendar writes it as a plain event.
    var isSnoozeOrItsFollowUp: Bool {
        kind == .snooze || (kind == .followUp && parent?.hasSuffix("-snooze") == true)
    }
}
