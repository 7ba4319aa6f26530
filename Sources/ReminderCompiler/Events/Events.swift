/// What already happened, read from an events file (Planning rules, "Events and
/// suppression").
public struct ReminderEvents: Sendable, Hashable {
    /// Instants (seconds since 1970 UTC) at which each activity was logged, ascending.
    public var activities: [String: [Int64]] = [:]
    /// `done`, `skip` and `snooze` events, in file order.
    public var actions: [OccurrenceAction] = []
    /// Where the events stand in their file, for warnings; empty for events made in code.
    var sources = EventSources()

    /// No events.
    public init() {}
}

/// Where an events file's events stand, so that warnings about them can point there.
struct EventSources: Sendable, Hashable {
    /// An event's instant (`at`) and its place in the file.
    struct Dated: Sendable, Hashable {
        let at: Int64
        let location: SourceLocation
        /// The activity logged; nil for a snooze.
        var activity: String? = nil
    }

    /// The first event of each activity.
    var firstOfActivity: [String: SourceLocation] = [:]
    /// Every dated event (activities and snoozes), in file order.
    var dated: [Dated] = []
}

/// An event on one occurrence, notification or follow-up ID.
public struct OccurrenceAction: Sendable, Hashable {
    /// What was done.
    public enum Kind: Sendable, Hashable {
        /// The user dealt with it.
        case done
        /// The user skipped it.
        case skip
        /// Snoozed at an instant, for `minutes` (nil: the category's snooze, else 10).
        case snooze(at: Int64, minutes: Int?)
    }

    /// The ID the event names.
    public var occurrence: String
    /// What was done.
    public var kind: Kind
    /// Where the event stands in its file, for warnings.
    public var location: SourceLocation

    /// How long a snooze may last, in minutes: the one range events files and events built
    /// in code are held to.
    static let snoozeMinutesRange = 1...1440

    /// Whether the event is a snooze.
    var isSnooze: Bool {
        if case .snooze = kind { true } else { false }
    }

    /// Creates an event on an occurrence, notification or follow-up ID.
    public init(occurrence: String, kind: Kind, location: SourceLocation = .inCode) {
        self.occurrence = occurrence
        self.kind = kind
        self.location = location
    }
}

/// Reads events files: plist or JSON, told apart by their first non-blank character.
enum EventsDecoder {
    static let rootKeys = ["events", "formatVersion"]
    static let eventKeys = ["activity", "at", "occurrence", "action", "minutes"]
    static let actions = ["done", "skip", "snooze"]

    static func decode(_ bytes: [UInt8], path: String, diagnostics: inout DiagnosticCollector) -> ReminderEvents? {
        let firstByte = bytes.dropFirst(ByteOrderMark.length(of: bytes)).first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        var events = ReminderEvents()
        // A JSON file's entries are decoded as they are read, one at a time, and never held
        // as a tree: a 32 MiB file of millions of entries costs the memory of one. Their
        // diagnostics come after the root's, which are kept whatever the number of entries.
        var entriesRead = DiagnosticCollector()
        var entryReader = FieldReader()
        let root: PlistNode?
        if firstByte == UInt8(ascii: "<") {
            root = PlistReader().read(bytes, path: path, diagnostics: &diagnostics)
        } else {
            root = JSONReader().read(
                bytes, path: path, diagnostics: &diagnostics, streaming: .under(["events"]), elementDiagnostics: &entriesRead
            ) { _, node in
                decodeEvent(node, into: &events, reader: &entryReader)
            }
        }
        guard let root else {
            // Malformed JSON: what the reader found is reported, not what decoding the
            // entries before the mistake found, as for a file read whole.
            diagnostics.absorb(entriesRead)
            return nil
        }
        var reader = FieldReader()
        reader.diagnostics = diagnostics
        defer {
            reader.diagnostics.absorb(entriesRead)
            reader.diagnostics.absorb(entryReader.diagnostics)
            diagnostics = reader.diagnostics
        }
        guard case .dictionary = root.value else {
            if case .invalid = root.value { return nil }
            reader.diagnostics.error(.eventsRootNotDictionary, at: root.location)
            return nil
        }
        guard let fields = reader.fields(of: root, named: "events file", context: "the events file", known: rootKeys) else {
            return nil
        }
        if let version = reader.integer("formatVersion", in: fields, range: Int64.min...Int64.max, rangeText: "1"),
           version != 1, let entry = fields["formatVersion"]
        {
            reader.diagnostics.error(.unsupportedEventsFormatVersion(Int64(version)), at: entry.value.location)
        }
        // Read for its type and presence; a JSON file's entries were decoded as they came.
        if reader.require("events", in: fields) != nil, let items = reader.array("events", in: fields) {
            for item in items {
                decodeEvent(item, into: &events, reader: &reader)
            }
        }
        for activity in events.activities.keys { events.activities[activity]?.sort() }
        // The reader's own errors inside entries (a number past 64 bits) count too: such an
        // entry reaches the decoder as a value already reported.
        return reader.diagnostics.hasErrors || entriesRead.hasErrors || entryReader.diagnostics.hasErrors ? nil : events
    }

    private static func decodeEvent(_ node: PlistNode, into events: inout ReminderEvents, reader: inout FieldReader) {
        guard let fields = reader.fields(of: node, named: "event", context: "this event", known: eventKeys) else { return }
        if fields["activity"] != nil {
            for key in ["occurrence", "action", "minutes"] where fields[key] != nil {
                reader.diagnostics.error(.exclusiveKeys("activity", key), at: fields[key]!.keyLocation)
            }
            let activity = reader.string("activity", in: fields, nonEmpty: true)
            let at = reader.require("at", in: fields).flatMap { instant($0.value, reader: &reader) }
            if let activity, let at {
                events.activities[activity, default: []].append(at)
                if events.sources.firstOfActivity[activity] == nil { events.sources.firstOfActivity[activity] = node.location }
                events.sources.dated.append(EventSources.Dated(at: at, location: node.location, activity: activity))
            }
            return
        }
        guard fields["occurrence"] != nil else {
            reader.diagnostics.error(.eventNeedsKind, at: fields.location)
            return
        }
        let occurrence = reader.string("occurrence", in: fields, nonEmpty: true)
        guard reader.require("action", in: fields) != nil,
              let action = reader.choice("action", in: fields, from: actions.map { ($0, $0) }, describing: "action")
        else { return }
        let kind: OccurrenceAction.Kind
        if action == "snooze" {
            let at = reader.require("at", in: fields).flatMap { instant($0.value, reader: &reader) }
            let range = OccurrenceAction.snoozeMinutesRange
            let minutes = reader.integer("minutes", in: fields, range: Int64(range.lowerBound)...Int64(range.upperBound), rangeText: "1–1440")
            guard let at, fields["minutes"] == nil || minutes != nil else { return }
            kind = .snooze(at: at, minutes: minutes)
            events.sources.dated.append(EventSources.Dated(at: at, location: node.location))
        } else {
            for key in ["at", "minutes"] where fields[key] != nil {
                reader.diagnostics.error(.keyNotForAction(key, action: action), at: fields[key]!.keyLocation)
            }
            kind = action == "done" ? .done : .skip
        }
        if let occurrence {
            events.actions.append(OccurrenceAction(occurrence: occurrence, kind: kind, location: node.location))
        }
    }

    /// A plist `<date>` or an RFC 3339 string.
    private static func instant(_ node: PlistNode, reader: inout FieldReader) -> Int64? {
        switch node.value {
        case .date(let seconds):
            return seconds
        case .string(let text):
            guard let seconds = InstantParsing.rfc3339(text) else {
                reader.diagnostics.error(.notAnInstant(text), at: node.location)
                return nil
            }
            return seconds
        default:
            reader.reportWrongType(node, key: "at", expected: "a <date> or an RFC 3339 string")
            return nil
        }
    }
}
