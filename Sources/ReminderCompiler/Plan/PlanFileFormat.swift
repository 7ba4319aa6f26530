/// The members of a plan file, listed once: their names in the order the writer writes
/// them, what each holds, the release that first wrote it, and whether a reader refuses a
/// plan without it. Both plan readers take their keys and required members from here; the
/// tests hold the writer, the `Codable` form, `schema/plan.schema.json` and the Plan format
/// article to the same table.
///
/// `formatVersion` stays 1 while members are only added: a member added later is optional
/// for the readers, so that plans written before it still read.
enum PlanFileFormat {
    /// What a member's value is, in the words of the Plan format article.
    enum ValueType: String, Sendable {
        case integer
        case string
        /// RFC 3339 with the offset of the plan's zone at that instant.
        case instant
        /// A local date and time of day without an offset, such as `2026-11-22T09:20`.
        case localSlot = "local slot"
        case object
        case array
        case arrayOfStrings = "array of strings"
        case objectOfStrings = "object of strings"

        /// The JSON type that holds the value.
        var jsonType: String {
            switch self {
            case .integer: "integer"
            case .string, .instant, .localSlot: "string"
            case .object, .objectOfStrings: "object"
            case .array, .arrayOfStrings: "array"
            }
        }
    }

    /// One member of a plan, a notification or a suppressed entry.
    struct Member: Sendable {
        /// The JSON key.
        let name: String
        /// What its value is.
        let type: ValueType
        /// The remindc release that first wrote it.
        let since: String
        /// Whether a reader refuses an object without it.
        let required: Bool

        init(_ name: String, _ type: ValueType, since: String = "0.1.0", required: Bool) {
            self.name = name
            self.type = type
            self.since = since
            self.required = required
        }
    }

    /// The plan's own members, in the order they are written.
    static let plan: [Member] = [
        Member("formatVersion", .integer, required: true),
        Member("timeZone", .string, required: true),
        // Provenance, added after the first plans (and not told by every host).
        Member("tzdataVersion", .string, required: false),
        Member("calendarName", .string, required: false),
        Member("uidDomain", .string, required: false),
        Member("configDigest", .string, required: false),
        Member("now", .instant, required: true),
        Member("windowEnd", .instant, required: true),
        Member("pendingLimit", .integer, required: true),
        Member("reservedSlots", .integer, required: true),
        Member("coveredUntil", .instant, required: true),
        Member("dropped", .integer, required: true),
        Member("categories", .object, required: true),
        Member("notifications", .array, required: true),
        Member("suppressed", .array, required: true),
        Member("warnings", .arrayOfStrings, required: true),
        // The calendar's SEQUENCE numbers, written only after a change.
        Member("seriesSequences", .object, required: false),
        Member("reminderDigests", .object, required: false),
        Member("reminderRevisions", .object, required: false),
    ]

    /// A notification's members, in the order they are written.
    static let notification: [Member] = [
        Member("id", .string, required: true),
        Member("kind", .string, required: true),
        Member("fireAt", .instant, required: true),
        Member("deferredFrom", .instant, required: false),
        Member("slot", .localSlot, required: true),
        Member("timeZone", .string, required: false),
        Member("reminders", .arrayOfStrings, required: true),
        Member("group", .string, required: false),
        Member("parent", .string, required: false),
        Member("title", .string, required: true),
        Member("body", .string, required: true),
        Member("interruptionLevel", .string, required: true),
        Member("category", .string, required: false),
        Member("sound", .string, required: false),
        Member("threadID", .string, required: false),
        Member("userInfo", .objectOfStrings, required: false),
        Member("replaces", .arrayOfStrings, required: false),
        Member("durationMinutes", .integer, required: false),
        Member("numericId", .integer, required: true),
        // Derived from the other members, and computed again when missing.
        Member("fingerprint", .string, required: false),
        Member("sequence", .integer, required: true),
    ]

    /// A suppressed entry's members, in the order they are written.
    static let suppressed: [Member] = [
        Member("id", .string, required: true),
        Member("fireAt", .instant, required: true),
        Member("reminders", .arrayOfStrings, required: true),
        Member("reason", .string, required: true),
    ]

    /// The names of `members`, in order.
    static func names(_ members: [Member]) -> [String] { members.map(\.name) }

    /// The names of the members a reader requires, in order.
    static func requiredNames(_ members: [Member]) -> [String] { members.filter(\.required).map(\.name) }
}
