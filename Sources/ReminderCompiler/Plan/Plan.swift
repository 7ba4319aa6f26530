/// A compiled plan (Plan format): dated one-time notifications with stable IDs.
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
    /// By reminder id: sixteen hex digits of everything in the config that shapes the
    /// reminder's calendar events (`ReminderCompiler.reminderDigest`), so that the next
    /// plan sees a change even where the two plans share no notification of it. Compiled
    /// with a previous plan, the previous digests of reminders this config leaves out
    /// (removed or disabled) stay, so that one that returns changed counts up.
    public var reminderDigests: [String: String] = [:]
    /// By reminder id: how many times its digest changed from plan to plan; added to the
    /// `SEQUENCE` of each of its series. A reminder not listed has 0. Entries stay when a
    /// reminder is removed, so that a sequence never goes back.
    public var reminderRevisions: [String: Int] = [:]

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
    /// `reminderDigests` come made (`ReminderCompiler.reminderDigests(of:planZone:)`): a
    /// compile makes several headers and digests them once.
    mutating func recordProvenance(of config: ReminderConfig, reminderDigests: [String: String]) {
        calendarName = config.calendarName
        uidDomain = config.uidDomain
        configDigest = config.sourceDigest
        self.reminderDigests = reminderDigests
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

    /// The stable ID (Planning rules, "Stable IDs").
    public var id: String {
        get { storedID.text(in: content) }
        set { storedID = .text(newValue) }
    }
    /// The kind.
    public var kind: Kind
    /// When it fires.
    public var fireAt: ZonedInstant
    /// The nominal local slot (for follow-ups and snoozes, the parent's).
    public var slot: LocalDateTime {
        get { storedSlot }
        set {
            writeOutIDs()
            storedSlot = newValue
        }
    }
    /// The parent notification's ID, for follow-ups and snoozes.
    public var parent: String? {
        get { storedParent?.text(in: content) }
        set { storedParent = newValue.map(StoredID.text) }
    }
    /// IDs the app removes from the notification centre when this one is delivered.
    public var replaces: [String]
    /// `id` hashed for platforms with integer notification IDs (Plan format).
    public var numericId: UInt32
    /// 0 when new; carried forward and incremented on change with a previous plan.
    public var sequence: Int
    /// When quiet hours deferred it: the instant it was due (`fireAt` is the quiet hours' end).
    public var deferredFrom: ZonedInstant?
    /// What it shows and whom it is for, shared by the notifications the planner renders
    /// from the same members and texts.
    private(set) var content: NotificationContent
    /// The ID, most often kept as the parts it is made of (see `StoredID`).
    private(set) var storedID: StoredID
    /// Spelled `Optional<StoredID>`, not `StoredID?`: a `var` of the `?` spelling starts
    /// out as `nil` before the initialiser runs, and the optimiser then builds each
    /// notification twice and copies one (70 000 copies and destroys in W2, 6 % of its count).
    private(set) var storedParent: Optional<StoredID>
    private var storedSlot: LocalDateTime

    /// The member reminders' ids, ascending.
    public var reminders: [String] {
        get { content.texts.reminders }
        set { change { $0.reminders = newValue } }
    }
    /// The group key, for group notifications and their follow-ups.
    public var group: String? {
        get { content.texts.group }
        set { change { $0.group = newValue } }
    }
    /// The title.
    public var title: String {
        get { content.texts.title }
        set { change { $0.title = newValue } }
    }
    /// The body.
    public var body: String {
        get { content.texts.body }
        set { change { $0.body = newValue } }
    }
    /// The interruption level.
    public var interruptionLevel: InterruptionLevel {
        get { content.texts.interruptionLevel }
        set { change { $0.interruptionLevel = newValue } }
    }
    /// The category (actions).
    public var category: String? {
        get { content.texts.category }
        set { change { $0.category = newValue } }
    }
    /// Passed through from the reminder.
    public var sound: String? {
        get { content.texts.sound }
        set { change { $0.sound = newValue } }
    }
    /// Passed through from the reminder.
    public var threadID: String? {
        get { content.texts.threadID }
        set { change { $0.threadID = newValue } }
    }
    /// Passed through from the reminder.
    public var userInfo: [String: String] {
        get { content.texts.userInfo }
        set { change { $0.userInfo = newValue } }
    }
    /// The calendar event's length.
    public var durationMinutes: Int {
        get { content.texts.durationMinutes }
        set { change { $0.durationMinutes = newValue } }
    }
    /// The zone its reminders pin their times to (`Reminder.timeZone`) when it is not the
    /// plan's: `slot` is a local time of this zone, while `fireAt` carries the plan zone's
    /// offset.
    public var timeZone: String? {
        get { content.texts.timeZone }
        set { change { $0.timeZone = newValue } }
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
        self.init(
            storedID: .text(id), kind: kind, fireAt: fireAt, slot: slot, parent: parent.map(StoredID.text),
            replaces: replaces, content: content, sequence: sequence, deferredFrom: deferredFrom
        )
    }

    /// A notification whose ID (and parent's) may be kept as parts; `content` must carry
    /// the key (`idKey`) of such IDs.
    init(
        storedID: StoredID, kind: Kind, fireAt: ZonedInstant, slot: LocalDateTime, parent: StoredID?, replaces: [String],
        content: NotificationContent, sequence: Int = 0, deferredFrom: ZonedInstant? = nil
    ) {
        // Worked out before any stored property is set: set last, it cost W2 4.1 M
        // instructions more (measured while `storedParent` was still spelt `StoredID?`).
        numericId = storedID.numericID(in: content)
        self.storedID = storedID
        self.kind = kind
        self.fireAt = fireAt
        self.storedSlot = slot
        self.storedParent = parent
        self.replaces = replaces
        self.sequence = sequence
        self.deferredFrom = deferredFrom
        self.content = content
    }

    /// Keeps the ID and the parent as text, before what they are made of changes.
    private mutating func writeOutIDs() {
        if case .occurrence = storedID { storedID = .text(id) }
        if case .occurrence? = storedParent { storedParent = parent.map(StoredID.text) }
    }

    /// Changes the texts: the content becomes this notification's own.
    private mutating func change(_ body: (inout NotificationTexts) -> Void) {
        writeOutIDs()
        content = content.changing(body)
    }

    /// Whether two notifications agree in every field the plan JSON holds for them.
    public static func == (lhs: PlannedNotification, rhs: PlannedNotification) -> Bool {
        lhs.id == rhs.id && lhs.kind == rhs.kind && lhs.fireAt == rhs.fireAt && lhs.slot == rhs.slot
            && lhs.parent == rhs.parent && lhs.replaces == rhs.replaces && lhs.numericId == rhs.numericId
            && lhs.sequence == rhs.sequence && lhs.deferredFrom == rhs.deferredFrom
            && (lhs.content === rhs.content || lhs.content.texts == rhs.content.texts)
    }

    /// Hashes the fields that `==` compares.
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
    /// Why it was removed (Planning rules, "Events and suppression").
    public enum Reason: String, Sendable, Hashable {
        /// `activity`: a logged activity suppressed it (look-back or counted goal);
        /// `done`, `skip`: an event with that action named it; `snoozed`: a snooze took it
        /// over.
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

/// Stable notification identifiers (Planning rules, "Stable IDs"; `numericId` in Plan
/// format).
public enum NotificationID {
    /// `{key}-{yyyyMMdd}-{HHmm}` for a reminder id or group key and a slot.
    public static func occurrence(_ key: String, slot: LocalDateTime) -> String {
        StoredID.occurrence(OccurrenceTail(slot: slot, followUp: 0)).text(keyText: key)
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

    /// `first < second` for IDs, compared byte by byte: IDs are ASCII (Config reference), whose
    /// byte order is String's order, and comparing bytes skips String's Unicode checks.
    static func precedes(_ first: String, _ second: String) -> Bool {
        var first = first
        var second = second
        first.makeContiguousUTF8()
        second.makeContiguousUTF8()
        return precedes(first.utf8.span, second.utf8.span)
    }

    /// `precedes` of two IDs' UTF-8 bytes.
    static func precedes(_ first: Span<UInt8>, _ second: Span<UInt8>) -> Bool {
        let common = Swift.min(first.count, second.count)
        let differing = firstDifference(first, second, within: common)
        return differing < common ? first[differing] < second[differing] : first.count < second.count
    }

    /// Whether two IDs' UTF-8 bytes are the same: String's `==` would compare them as
    /// Unicode, which IDs (ASCII) do not need.
    static func sameBytes(_ first: Span<UInt8>, _ second: Span<UInt8>) -> Bool {
        first.count == second.count && firstDifference(first, second, within: first.count) == first.count
    }

    /// The first index below `count` at which the two spans differ, or `count`.
    private static func firstDifference(_ first: Span<UInt8>, _ second: Span<UInt8>, within count: Int) -> Int {
        var index = 0
        while index < count, first[index] == second[index] { index += 1 }
        return index
    }

    /// FNV-1a 32-bit hash of the UTF-8 bytes, masked to 31 bits.
    public static func numericID(of id: String) -> UInt32 {
        var id = id
        id.makeContiguousUTF8()
        return numericID(ofBytes: id.utf8.span)
    }

    /// `numericID(of:)` of an ID's UTF-8 bytes.
    static func numericID(ofBytes bytes: Span<UInt8>) -> UInt32 {
        numericID(ofBytes: bytes, continuing: 0x811C_9DC5)
    }

    /// `numericID(ofBytes:)` of an ID whose first bytes gave `state` (`numericHash(of:)`).
    static func numericID(ofBytes bytes: Span<UInt8>, continuing state: UInt32) -> UInt32 {
        numericHash(of: bytes, continuing: state) & 0x7FFF_FFFF
    }

    /// The 32-bit FNV-1a state after `bytes`, before masking.
    static func numericHash(of bytes: Span<UInt8>, continuing state: UInt32 = 0x811C_9DC5) -> UInt32 {
        var hash = state
        for index in bytes.indices {
            hash ^= UInt32(bytes[index])
            hash = hash &* 0x0100_0193
        }
        return hash
    }
}

extension PlannedNotification {
    /// A snooze or one of its follow-ups: not an instance of any series, so the recurring
    /// calendar writes it as a plain event.
    var isSnoozeOrItsFollowUp: Bool {
        switch (kind, storedParent) {
        case (.snooze, _): return true
        // An occurrence's ID ends in its slot or its chain member, never in `-snooze`: no
        // need to join it to look.
        case (.followUp, .text(let parent)?): return parent.hasSuffix("-snooze")
        default: return false
        }
    }
}
