/// The plan JSON described in Plan format, byte for byte the same for the same plan.
///
/// Keys come in the order Plan format shows. Optional fields are omitted when empty; their
/// place is: `group` and `parent` after `reminders`; `category`, `sound`, `threadID`,
/// `userInfo`, `replaces` and `durationMinutes` (when not 15) after `interruptionLevel`.
public enum PlanJSON {
    /// The UTF-8 bytes of the plan, ending with a newline.
    public static func encode(_ plan: Plan) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024 + plan.notifications.count * 420)
        write(plan) { bytes.append(span: $0) }
        return bytes
    }

    /// Writes the plan's UTF-8 bytes to `sink` in chunks of about `chunkSize` bytes, so
    /// that a large plan is never held whole in memory as text.
    @_spi(Tooling) public static func write(
        _ plan: Plan, chunkSize: Int = 1 << 16, to sink: (Span<UInt8>) throws -> Void
    ) rethrows {
        var stream = PlanJSONStream(header: plan, chunkSize: chunkSize)
        try stream.append(contentsOf: plan.notifications, to: sink)
        try stream.finish(closing: plan, to: sink)
    }

    /// Categories by id, each an array of actions.
    static func write(_ categories: [String: [NotificationAction]], to writer: inout JSONWriter) {
        writer.beginObject()
        for (id, actions) in categories.sorted(by: { $0.key < $1.key }) {
            writer.fieldName(named: id)
            writer.beginArray()
            for action in actions {
                writer.element()
                write(action, to: &writer)
            }
            writer.endArray()
        }
        writer.endObject()
    }

    static func write(_ action: NotificationAction, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("id", action.id)
        writer.field("title", action.title)
        if action.destructive { writer.field("destructive", true) }
        if action.foreground { writer.field("foreground", true) }
        if let minutes = action.snoozeMinutes { writer.field("snoozeMinutes", minutes) }
        writer.endObject()
    }

    /// A notification's fields one by one: content read from a plan or made in code, or a
    /// notification written at another depth than a plan's.
    static func writeFieldByField(_ notification: borrowing PlannedNotification, to writer: inout JSONWriter) {
        let texts = notification.content.texts
        writer.field("id", notification.id)
        writer.field("kind", notification.kind.rawValue)
        writer.field("fireAt", notification.fireAt)
        if let deferredFrom = notification.deferredFrom { writer.field("deferredFrom", deferredFrom) }
        writer.field("slot", notification.slot)
        writeMembers(of: texts, to: &writer)
        if let parent = notification.parent { writer.field("parent", parent) }
        writeTexts(of: texts, to: &writer)
        if !notification.replaces.isEmpty { writer.field("replaces", notification.replaces) }
        writeDuration(of: texts, to: &writer)
        writer.field("numericId", Int(notification.numericId))
        writer.field(hexDigitsOf: notification.fingerprintValue, named: "fingerprint")
        writer.field("sequence", notification.sequence)
    }

    /// `timeZone`, `reminders` and `group`, which come between a notification's `slot` and
    /// its `parent`.
    static func writeMembers(of texts: NotificationTexts, to writer: inout JSONWriter) {
        if let timeZone = texts.timeZone { writer.field("timeZone", timeZone) }
        writer.field("reminders", texts.reminders)
        if let group = texts.group { writer.field("group", group) }
    }

    /// `title` through `userInfo`, which come between a notification's `parent` and its
    /// `replaces`.
    static func writeTexts(of texts: NotificationTexts, to writer: inout JSONWriter) {
        writer.field("title", texts.title)
        writer.field("body", texts.body)
        writer.field("interruptionLevel", texts.interruptionLevel.rawValue)
        if let category = texts.category { writer.field("category", category) }
        if let sound = texts.sound { writer.field("sound", sound) }
        if let threadID = texts.threadID { writer.field("threadID", threadID) }
        if !texts.userInfo.isEmpty {
            writer.fieldName("userInfo")
            writer.beginObject()
            for (key, value) in texts.userInfo.sorted(by: { $0.key < $1.key }) {
                writer.field(named: key, value)
            }
            writer.endObject()
        }
    }

    /// `durationMinutes`, when not 15, after `replaces`.
    static func writeDuration(of texts: NotificationTexts, to writer: inout JSONWriter) {
        if texts.durationMinutes != 15 { writer.field("durationMinutes", texts.durationMinutes) }
    }
}

extension JSONWriter {
    /// A field holding whole notifications as the plan writes them (the diff's and the
    /// reconciliation's `add`).
    mutating func field(_ name: StaticString, notifications: [PlannedNotification]) {
        fieldName(name)
        beginArray()
        for notification in notifications {
            element()
            PlanJSON.write(notification, to: &self)
        }
        endArray()
    }
}

/// The plan JSON written piece by piece: the header, each notification as it comes, then
/// the suppressed list and the warnings. `PlanJSON.write` and plans written in chunks
/// share it, so both give the same bytes.
struct PlanJSONStream {
    private var writer: JSONWriter
    private let chunkSize: Int

    /// Writes everything up to the opening of `notifications`; the header's own
    /// notifications, suppressed list and warnings are not written.
    init(header plan: Plan, chunkSize: Int = 1 << 16) {
        self.chunkSize = chunkSize
        writer = JSONWriter(reservingCapacity: chunkSize + 4096)
        writer.beginObject()
        writer.field("formatVersion", plan.formatVersion)
        writer.field("timeZone", plan.timeZone)
        if let version = plan.tzdataVersion { writer.field("tzdataVersion", version) }
        if let name = plan.calendarName { writer.field("calendarName", name) }
        if let domain = plan.uidDomain { writer.field("uidDomain", domain) }
        if let digest = plan.configDigest { writer.field("configDigest", digest) }
        writer.field("now", plan.now)
        writer.field("windowEnd", plan.windowEnd)
        writer.field("pendingLimit", plan.pendingLimit)
        writer.field("reservedSlots", plan.reservedSlots)
        writer.field("coveredUntil", plan.coveredUntil)
        writer.field("dropped", plan.dropped)
        writer.fieldName("categories")
        PlanJSON.write(plan.categories, to: &writer)
        writer.fieldName("notifications")
        writer.beginArray()
    }

    /// Appends the notifications in order, flushing to `sink` at each `chunkSize` bytes.
    mutating func append(contentsOf notifications: [PlannedNotification], to sink: (Span<UInt8>) throws -> Void) rethrows {
        try writer.appendNotifications(notifications, flushingAt: chunkSize, to: sink)
    }

    /// Writes the fields after the notifications: those of `plan` (its notifications are
    /// not read), known only once every notification was planned.
    mutating func finish(closing plan: Plan, to sink: (Span<UInt8>) throws -> Void) rethrows {
        writer.endArray()
        writer.fieldName("suppressed")
        writer.beginArray()
        for entry in plan.suppressed {
            writer.element()
            writer.beginObject()
            writer.field("id", entry.id)
            writer.field("fireAt", entry.fireAt)
            writer.field("reminders", entry.reminders)
            writer.field("reason", entry.reason.rawValue)
            writer.endObject()
        }
        writer.endArray()
        writer.field("warnings", plan.warnings)
        // Only after a change, so that plans without one keep their bytes.
        writeObject("seriesSequences", plan.seriesSequences) { writer, series, sequence in writer.field(named: series, sequence) }
        writeObject("reminderDigests", plan.reminderDigests) { writer, reminder, digest in writer.field(named: reminder, digest) }
        writeObject("reminderRevisions", plan.reminderRevisions) { writer, reminder, revision in writer.field(named: reminder, revision) }
        writer.endObject()
        writer.append("\n")
        try writer.flush(to: sink)
    }

    /// A map written as an object with its keys sorted, or nothing when it is empty.
    private mutating func writeObject<Value>(
        _ name: StaticString, _ values: [String: Value], _ writeMember: (inout JSONWriter, String, Value) -> Void
    ) {
        guard !values.isEmpty else { return }
        writer.fieldName(name)
        writer.beginObject()
        for (key, value) in values.sorted(by: { $0.key < $1.key }) { writeMember(&writer, key, value) }
        writer.endObject()
    }
}
