#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a well-formed plan JSON straight into a `Plan`, without building a tree: diffs
/// and re-plans read plans of tens of thousands of notifications.
///
/// It accepts any JSON layout but gives up (returns nil) at the first thing it does not
/// expect; `PlanReader` then reads the file again and reports exactly what is wrong, at
/// its line and column. So the fast path never decides what an error message says.
struct FastPlanReader {
    /// The tokens, from the one JSON scanner: a plan this reader accepts is valid JSON.
    var scanner: JSONScanner
    /// Where the last notification located or checked keeps its ID's bytes and its
    /// `sequence` value, for `PlanFileStream`.
    private(set) var lastIDRange: Range<Int>?
    private(set) var lastSequenceStart: Int?
    /// For each kind of object and each of its members, the member that followed it in the
    /// last such object read, and the bytes from the end of its value to the start of the
    /// next one's. Each kind has its own 32 entries from its `KnownKeys.tableBase`, so that
    /// what one kind of object taught is never applied to another; in them,
    /// `KnownKeys.objectStart` stands for the opening brace and `KnownKeys.unpredicted` for
    /// a member of a later format, after which nothing is predicted.
    private var followers = [Int](repeating: 0, count: 4 * 32)
    private var separators = [[UInt8]](repeating: [], count: 4 * 32)

    /// Anything valid JSON but not the plan's shape.
    struct GiveUp: Error {}

    /// A notification read from its byte range, for `PlanIndex`.
    static func notification(in buffer: UnsafeBufferPointer<UInt8>, at range: Range<Int>) -> PlannedNotification? {
        var reader = unsafe FastPlanReader(scanner: JSONScanner(UnsafeBufferPointer(rebasing: buffer[..<range.upperBound]), at: range.lowerBound))
        return try? reader.notification()
    }

    /// A whole plan, read through the same stream a `diff` reads its plans with; nil
    /// for anything the reader does not expect.
    static func read(_ data: [UInt8]) -> Plan? {
        unsafe data.withUnsafeBufferPointer { buffer in
            guard var stream = unsafe PlanFileStream(PlanFileWindow(borrowing: buffer)) else { return nil }
            var notifications: [PlannedNotification] = []
            var ids = Set<String>()
            while let notification = stream.next({ try $0.notification() }) {
                guard ids.insert(notification.id).inserted else { return nil }
                notifications.append(notification)
            }
            guard var plan = stream.plan else { return nil }
            plan.notifications = notifications
            return plan
        }
    }

    init(scanner: JSONScanner) {
        self.scanner = scanner
    }

    // MARK: Values

    private mutating func string() throws -> String {
        try scanner.string()
    }

    /// An integer of up to 15 digits, which every integer of a plan fits; anything longer,
    /// or with a fraction or exponent, is left to the full reader.
    private mutating func integer() throws -> Int {
        // Most are plain digits, read in one pass; a sign, a fraction or an exponent goes
        // through the scanner's number grammar.
        if let value = scanner.plainInteger(maximumDigits: 15) { return value }
        guard let value = scanner.smallInteger(of: try scanner.number(), maximumDigits: 15) else { throw GiveUp() }
        return Int(value)
    }

    private mutating func bool() throws -> Bool {
        switch scanner.peek() {
        case UInt8(ascii: "t"): try scanner.literal("true"); return true
        case UInt8(ascii: "f"): try scanner.literal("false"); return false
        default: throw GiveUp()
        }
    }

    /// The members an object of a plan may have, as cases matched by their bytes: no
    /// string is made for a key, and a member is told by a `switch` over its case rather
    /// than by comparing strings (that, and trying each name in turn, were a quarter of a
    /// `diff`'s instructions).
    struct KnownKeys<Key: RawRepresentable<String> & CaseIterable & Sendable>: Sendable {
        let keys: [Key]
        /// Where this kind of object's entries start in a reader's learnt separators: 32 of
        /// them, room for 30 members (a test holds every kind to that).
        let tableBase: Int
        private let bytes: [[UInt8]]
        /// For each length, the indices of the names that long.
        private let byLength: [[Int]]

        /// The entries for the opening brace and for a member of a later format.
        var objectStart: Int { tableBase + 30 }
        var unpredicted: Int { tableBase + 31 }

        init(tableBase: Int) {
            keys = Array(Key.allCases)
            self.tableBase = tableBase
            bytes = keys.map { Array($0.rawValue.utf8) }
            var byLength = [[Int]](repeating: [], count: (bytes.map(\.count).max() ?? 0) + 1)
            for (index, name) in bytes.enumerated() { byLength[name.count].append(index) }
            self.byLength = byLength
        }

        /// The index in `keys` of the name `raw` spells, if any; only names of its length
        /// are compared.
        func index(of raw: UnsafeBufferPointer<UInt8>) -> Int? {
            guard raw.count < byLength.count, let rawBase = raw.baseAddress else { return nil }
            for candidate in byLength[raw.count] {
                let same = unsafe bytes[candidate].withUnsafeBufferPointer { unsafe memcmp($0.baseAddress!, rawBase, raw.count) == 0 }
                if same { return candidate }
            }
            return nil
        }
    }

    /// A plan's members; `PlanFileFormat` names them, and a test checks that these agree.
    enum PlanMember: String, CaseIterable {
        case formatVersion, timeZone, tzdataVersion, calendarName, uidDomain, configDigest, now, windowEnd
        case pendingLimit, reservedSlots, coveredUntil, dropped, categories, notifications, suppressed, warnings
        case seriesSequences, reminderDigests, reminderRevisions
    }

    /// A notification's members.
    enum NotificationMember: String, CaseIterable {
        case id, kind, fireAt, deferredFrom, slot, timeZone, reminders, group, parent, title, body, interruptionLevel
        case category, sound, threadID, userInfo, replaces, durationMinutes, numericId, fingerprint, sequence
    }

    /// A suppressed entry's members.
    enum SuppressedMember: String, CaseIterable {
        case id, fireAt, reminders, reason
    }

    /// A category action's members, as `ConfigDecoder.actionKeys` names them.
    enum ActionMember: String, CaseIterable {
        case id, title, destructive, foreground, snoozeMinutes
    }

    static let planKeys = KnownKeys<PlanMember>(tableBase: 0)
    static let notificationKeys = KnownKeys<NotificationMember>(tableBase: 32)
    static let suppressedKeys = KnownKeys<SuppressedMember>(tableBase: 64)
    static let actionKeys = KnownKeys<ActionMember>(tableBase: 96)

    /// Calls `body` with each member of an object, which must consume the value. Members
    /// must be among `known`, each at most once; anything else is left to the full reader.
    private mutating func object<Key>(_ known: KnownKeys<Key>, _ body: (inout FastPlanReader, Key) throws -> Void) throws {
        guard try scanner.openObject() else { return }
        var seen: UInt64 = 0
        var previous = known.objectStart
        var isFirst = true
        while true {
            // Objects of one plan are laid out alike: the bytes that led from the previous
            // member's value to the next member's value last time (comma, whitespace, the
            // name in quotes, colon) are tried first. The same bytes are the same tokens,
            // so a match needs no scanning; scanning them and looking the name up cost a
            // diff of two W2 plans about 130 instructions a member.
            let valueEnd = scanner.position
            var index = followers[previous]
            let bytes = unsafe scanner.bytes
            if !separators[previous].isEmpty, unsafe separators[previous].withUnsafeBufferPointer({ separator in
                unsafe valueEnd + separator.count <= bytes.count
                    && memcmp(bytes.baseAddress! + valueEnd, separator.baseAddress!, separator.count) == 0
            }) {
                scanner.position += separators[previous].count
            } else {
                if !isFirst, try !scanner.continues(closing: UInt8(ascii: "}")) { return }
                guard let raw = unsafe try scanner.plainString(), !raw.isEmpty else { throw GiveUp() }
                try scanner.expect(UInt8(ascii: ":"), "':' after the member name")
                scanner.skipWhitespace()
                isFirst = false
                guard let found = unsafe known.index(of: raw) else {
                    // A key of a later format: skipped, as the format-version policy asks,
                    // and nothing is learnt across it.
                    try scanner.skipValue()
                    previous = known.unpredicted
                    continue
                }
                index = found
                if previous != known.unpredicted {
                    followers[previous] = index
                    separators[previous] = scanner.position - valueEnd <= 64 ? unsafe Array(scanner.bytes[valueEnd..<scanner.position]) : []
                }
            }
            isFirst = false
            previous = known.tableBase + index
            guard seen & (1 << UInt64(index)) == 0 else { throw GiveUp() }
            seen |= 1 << UInt64(index)
            try body(&self, known.keys[index])
        }
    }

    /// Calls `body` with each member name of an object whose names are data (reminder
    /// IDs, `userInfo` keys), which must consume the value; each name at most once.
    private mutating func members(_ body: (inout FastPlanReader, String) throws -> Void) throws {
        guard try scanner.openObject() else { return }
        var seenNames: Set<String> = []
        repeat {
            let key = try scanner.memberName()
            guard seenNames.insert(key).inserted else { throw GiveUp() }
            try body(&self, key)
        } while try scanner.continues(closing: UInt8(ascii: "}"))
    }

    private mutating func array(_ body: (inout FastPlanReader) throws -> Void) throws {
        guard try scanner.openArray() else { return }
        repeat { try body(&self) } while try scanner.continues(closing: UInt8(ascii: "]"))
    }

    private mutating func strings() throws -> [String] {
        var values: [String] = []
        try array { values.append(try $0.string()) }
        return values
    }

    /// An instant, parsed from the file's bytes (no string is made unless it has escapes).
    private mutating func instant() throws -> ZonedInstant {
        unsafe try Self.parsedString(&scanner, &lastInstant, { unsafe InstantParsing.zonedRFC3339(utf8: $0) }, InstantParsing.zonedRFC3339)
    }

    /// A notification's `slot`, parsed as `instant()` is.
    private mutating func slot() throws -> LocalDateTime {
        unsafe try Self.parsedString(&scanner, &lastSlot, { unsafe ConfigValueParsing.planSlot(utf8: $0) }, ConfigValueParsing.planSlot)
    }

    /// The string at the scanner parsed by `bytes` from the file in place (or taken from
    /// `last`), or by `text` when it has escapes.
    private static func parsedString<Value>(
        _ scanner: inout JSONScanner, _ last: inout LastParsed<Value>,
        _ bytes: (UnsafeBufferPointer<UInt8>) -> Value?, _ text: (String) -> Value?
    ) throws -> Value {
        let parsed: Value?
        if let raw = unsafe try scanner.plainString() {
            parsed = unsafe last.value(of: raw, bytes)
        } else {
            parsed = text(try scanner.string())
        }
        guard let parsed else { throw GiveUp() }
        return parsed
    }

    private var lastInstant = LastParsed<ZonedInstant>(), lastSlot = LastParsed<LocalDateTime>()

    /// The text of the last instant or slot parsed, and its value. Notifications in a row
    /// often share them (every reminder due at the same minute), and a text equal to the
    /// last one is not parsed again: parsing each cost a diff of two W2 plans 41 M
    /// instructions, most of them for texts just parsed.
    struct LastParsed<Value> {
        private var text: [UInt8] = []
        private var value: Value?

        /// The value `parse` gives `raw`, taken from the last call when `raw` is the same
        /// text; nil when `raw` is not one.
        mutating func value(of raw: UnsafeBufferPointer<UInt8>, _ parse: (UnsafeBufferPointer<UInt8>) -> Value?) -> Value? {
            if let value, let rawBase = raw.baseAddress, text.count == raw.count,
               unsafe text.withUnsafeBufferPointer({ unsafe memcmp($0.baseAddress!, rawBase, raw.count) == 0 }) {
                return value
            }
            value = unsafe parse(raw)
            text.removeAll(keepingCapacity: true)
            unsafe text.append(contentsOf: raw)
            return value
        }
    }

    // MARK: Plan

    /// The plan's members other than its notifications, as they are read one by one, and
    /// the plan they make, checked as `PlanReader` checks them.
    struct PlanFields {
        var version: Int?, zone: String?, tzdata: String?, now: ZonedInstant?, windowEnd: ZonedInstant?, coveredUntil: ZonedInstant?
        var limit: Int?, reserved: Int?, dropped: Int?
        var categories: [String: [NotificationAction]]?
        var hasNotifications = false, suppressed: [SuppressedNotification]?, warnings: [String]?
        var seriesSequences: [String: Int] = [:], reminderDigests: [String: String] = [:], reminderRevisions: [String: Int] = [:]
        var calendarName: String?, uidDomain: String?, configDigest: String?
        /// The members read so far, by their index in `planKeys`: each may appear once.
        var seen: UInt64 = 0

        /// Reads the value of `key`, any member but `notifications`, which the stream reads.
        mutating func read(_ key: PlanMember, from reader: inout FastPlanReader) throws {
            switch key {
            case .formatVersion: version = try reader.integer()
            case .timeZone: zone = try reader.string()
            case .tzdataVersion: tzdata = try reader.string()
            case .calendarName: calendarName = try reader.string()
            case .uidDomain: uidDomain = try reader.string()
            case .configDigest: configDigest = try reader.string()
            case .now: now = try reader.instant()
            case .windowEnd: windowEnd = try reader.instant()
            case .coveredUntil: coveredUntil = try reader.instant()
            case .pendingLimit: limit = try reader.integer()
            case .reservedSlots: reserved = try reader.integer()
            case .dropped: dropped = try reader.integer()
            case .categories: categories = try reader.categories()
            case .notifications: throw GiveUp()
            case .suppressed:
                var list: [SuppressedNotification] = []
                try reader.array { list.append(try $0.suppressedEntry()) }
                suppressed = list
            case .warnings: warnings = try reader.strings()
            case .seriesSequences: seriesSequences = try reader.sequences()
            case .reminderDigests: try reader.members { reader, reminder in reminderDigests[reminder] = try reader.string() }
            case .reminderRevisions: reminderRevisions = try reader.sequences()
            }
        }

        /// The plan these members make (without its notifications).
        func plan() throws -> Plan {
            guard version == 1, let zone, !zone.isEmpty, let now, let windowEnd, let coveredUntil, let limit, limit >= 0,
                  let reserved, reserved >= 0, let dropped, dropped >= 0, let categories, hasNotifications, let suppressed,
                  let warnings
            else { throw GiveUp() }
            var plan = Plan(
                timeZone: zone, now: now, windowEnd: windowEnd, pendingLimit: limit, reservedSlots: reserved,
                coveredUntil: coveredUntil, dropped: dropped, categories: categories, notifications: [],
                suppressed: suppressed, warnings: warnings, tzdataVersion: tzdata
            )
            plan.seriesSequences = seriesSequences
            plan.reminderDigests = reminderDigests
            plan.reminderRevisions = reminderRevisions
            plan.calendarName = calendarName
            // Anything a writer would put into a calendar UID unchecked goes to PlanReader,
            // which says where it is wrong.
            if let uidDomain, !ConfigValueParsing.isValidDomain(uidDomain) { throw GiveUp() }
            plan.uidDomain = uidDomain
            plan.configDigest = configDigest
            return plan
        }
    }

    /// An object of sequence numbers, each 0 to the largest `INTEGER` of iCalendar.
    private mutating func sequences() throws -> [String: Int] {
        var sequences: [String: Int] = [:]
        try members { reader, key in
            let sequence = try reader.integer()
            guard (0...Int(Int32.max)).contains(sequence) else { throw GiveUp() }
            sequences[key] = sequence
        }
        return sequences
    }

    private mutating func categories() throws -> [String: [NotificationAction]] {
        var result: [String: [NotificationAction]] = [:]
        try members { reader, category in
            var actions: [NotificationAction] = []
            try reader.array { reader in
                var id: String?, title: String?, destructive = false, foreground = false, snooze: Int?
                try reader.object(Self.actionKeys) { reader, key in
                    switch key {
                    case .id: id = try reader.string()
                    case .title: title = try reader.string()
                    case .destructive: destructive = try reader.bool()
                    case .foreground: foreground = try reader.bool()
                    case .snoozeMinutes: snooze = try reader.integer()
                    }
                }
                guard let id, let title, snooze.map({ (1...1440).contains($0) }) ?? true else { throw GiveUp() }
                actions.append(NotificationAction(id: id, title: title, destructive: destructive, foreground: foreground, snoozeMinutes: snooze))
            }
            result[category] = actions
        }
        return result
    }

    /// Finds a notification's ID bytes and where its `sequence` starts, skipping its other
    /// values (scanned as JSON, not read).
    mutating func locateNotification() throws {
        lastIDRange = nil
        lastSequenceStart = nil
        try object(Self.notificationKeys) { reader, key in
            switch key {
            case .id:
                reader.scanner.skipWhitespace()
                let quote = reader.scanner.position
                // An ID with escapes has no range: the caller gives up, as `notification()` does.
                guard unsafe try reader.scanner.plainString() != nil else { throw GiveUp() }
                reader.lastIDRange = (quote + 1)..<(reader.scanner.position - 1)
            case .sequence:
                reader.scanner.skipWhitespace()
                reader.lastSequenceStart = reader.scanner.position
                guard (0...Int(Int32.max)).contains(try reader.integer()) else { throw GiveUp() }
            default:
                try reader.scanner.skipValue()
            }
        }
    }

    mutating func notification() throws -> PlannedNotification {
        var id: String?, kind: PlannedNotification.Kind?, fireAt: ZonedInstant?, slot: LocalDateTime?
        var reminders: [String]?, group: String?, parent: String?, title: String?, body: String?
        var level: InterruptionLevel?, category: String?, sound: String?, threadID: String?
        var userInfo: [String: String] = [:], replaces: [String] = [], duration = 15, numericID: Int?, sequence: Int?
        var deferredFrom: ZonedInstant?, timeZone: String?
        try object(Self.notificationKeys) { reader, key in
            switch key {
            case .id: id = try reader.string()
            case .kind: kind = PlannedNotification.Kind(rawValue: try reader.string())
            case .fireAt: fireAt = try reader.instant()
            case .deferredFrom: deferredFrom = try reader.instant()
            case .slot: slot = try reader.slot()
            case .timeZone: timeZone = try reader.string()
            case .reminders: reminders = try reader.strings()
            case .group: group = try reader.string()
            case .parent: parent = try reader.string()
            case .title: title = try reader.string()
            case .body: body = try reader.string()
            case .interruptionLevel: level = InterruptionLevel(rawValue: try reader.string())
            case .category: category = try reader.string()
            case .sound: sound = try reader.string()
            case .threadID: threadID = try reader.string()
            case .userInfo: try reader.members { reader, key in userInfo[key] = try reader.string() }
            case .replaces: replaces = try reader.strings()
            case .durationMinutes: duration = try reader.integer()
            case .numericId: numericID = try reader.integer()
            // Derived from the other fields: read past, and computed again when needed.
            case .fingerprint: _ = try reader.string()
            case .sequence: sequence = try reader.integer()
            }
        }
        guard let id, ConfigValueParsing.isValidPlanID(id), reminders?.allSatisfy(ConfigValueParsing.isValidPlanID) ?? false,
              group.map(ConfigValueParsing.isValidPlanID) ?? true, parent.map(ConfigValueParsing.isValidPlanID) ?? true,
              category.map(ConfigValueParsing.isValidPlanID) ?? true, replaces.allSatisfy(ConfigValueParsing.isValidPlanID),
              let kind, let fireAt, let slot, let reminders, let title, let body, let level,
              let numericID, (0...0x7FFF_FFFF).contains(numericID), let sequence, (0...Int(Int32.max)).contains(sequence),
              (0...1440).contains(duration)
        else { throw GiveUp() }
        return PlannedNotification(
            id: id, kind: kind, fireAt: fireAt, slot: slot, reminders: reminders, group: group, parent: parent, title: title,
            body: body, interruptionLevel: level, category: category, sound: sound, threadID: threadID, userInfo: userInfo,
            replaces: replaces, durationMinutes: duration, sequence: sequence, deferredFrom: deferredFrom, timeZone: timeZone
        )
    }

    /// What `notification()` checks, without making a value; a notification
    /// `notification()` refuses, or one with escapes in its ID, throws. Like
    /// `locateNotification()`, it keeps where the ID and the `sequence` value are.
    mutating func checkNotification() throws {
        lastIDRange = nil
        lastSequenceStart = nil
        let start = scanner.position
        var needsReading = false
        var hasID = false, hasKind = false, hasFireAt = false, hasSlot = false, hasReminders = false
        var hasTitle = false, hasBody = false, hasLevel = false, numericID: Int?, sequence: Int?, duration = 15
        try object(Self.notificationKeys) { reader, key in
            switch key {
            case .id:
                reader.scanner.skipWhitespace()
                let quote = reader.scanner.position
                // An ID with escapes has no range: the index gives up, as `locateNotification()` does.
                guard let raw = unsafe try reader.scanner.plainString(), unsafe ConfigValueParsing.isValidPlanID(bytes: raw)
                else { throw GiveUp() }
                reader.lastIDRange = (quote + 1)..<(reader.scanner.position - 1)
                hasID = true
            case .kind: hasKind = try reader.checkChoice(PlannedNotification.Kind.rawValues)
            case .fireAt:
                _ = try reader.instant()
                hasFireAt = true
            case .deferredFrom: _ = try reader.instant()
            case .slot:
                _ = try reader.slot()
                hasSlot = true
            case .reminders:
                try reader.array { reader in _ = try reader.checkPlanID() }
                hasReminders = true
            case .group, .parent, .category: _ = try reader.checkPlanID()
            case .replaces: try reader.array { reader in _ = try reader.checkPlanID() }
            case .title: hasTitle = try reader.checkString()
            case .body: hasBody = try reader.checkString()
            case .timeZone, .sound, .threadID, .fingerprint: _ = try reader.checkString()
            case .interruptionLevel: hasLevel = try reader.checkChoice(InterruptionLevel.rawValues)
            case .userInfo:
                // Its keys must differ: told apart by the full reading.
                needsReading = true
                try reader.scanner.skipValue()
            case .durationMinutes: duration = try reader.integer()
            case .numericId: numericID = try reader.integer()
            case .sequence:
                reader.scanner.skipWhitespace()
                reader.lastSequenceStart = reader.scanner.position
                sequence = try reader.integer()
            }
        }
        guard hasID, hasKind, hasFireAt, hasSlot, hasReminders, hasTitle, hasBody, hasLevel,
              let numericID, (0...0x7FFF_FFFF).contains(numericID), let sequence, (0...Int(Int32.max)).contains(sequence),
              (0...1440).contains(duration)
        else { throw GiveUp() }
        if needsReading {
            scanner.position = start
            _ = try notification()
        }
    }

    /// A string that is a valid plan ID, checked in place; one with escapes is decoded.
    private mutating func checkPlanID() throws -> Bool {
        if let raw = unsafe try scanner.plainString() {
            guard unsafe ConfigValueParsing.isValidPlanID(bytes: raw) else { throw GiveUp() }
        } else {
            guard ConfigValueParsing.isValidPlanID(try scanner.string()) else { throw GiveUp() }
        }
        return true
    }

    /// A string, checked as JSON and not made.
    private mutating func checkString() throws -> Bool {
        if unsafe try scanner.plainString() == nil { _ = try scanner.escapedString() }
        return true
    }

    /// A string that is one of `choices`, compared as bytes.
    private mutating func checkChoice(_ choices: [[UInt8]]) throws -> Bool {
        guard let raw = unsafe try scanner.plainString(), let rawBase = raw.baseAddress,
              choices.contains(where: { choice in
                  // Lengths first, then `memcmp`: comparing element by element cost a diff 33 M.
                  unsafe choice.count == raw.count && choice.withUnsafeBufferPointer { unsafe memcmp($0.baseAddress!, rawBase, raw.count) == 0 }
              })
        else { throw GiveUp() }
        return true
    }

    private mutating func suppressedEntry() throws -> SuppressedNotification {
        var id: String?, fireAt: ZonedInstant?, reminders: [String]?, reason: SuppressedNotification.Reason?
        try object(Self.suppressedKeys) { reader, key in
            switch key {
            case .id: id = try reader.string()
            case .fireAt: fireAt = try reader.instant()
            case .reminders: reminders = try reader.strings()
            case .reason: reason = SuppressedNotification.Reason(rawValue: try reader.string())
            }
        }
        guard let id, ConfigValueParsing.isValidPlanID(id), let reminders, reminders.allSatisfy(ConfigValueParsing.isValidPlanID),
              let fireAt, let reason
        else { throw GiveUp() }
        return SuppressedNotification(id: id, fireAt: fireAt, reminders: reminders, reason: reason)
    }
}

extension PlannedNotification.Kind {
    /// The plan file's spellings of the kinds.
    static let rawValues: [[UInt8]] = [Self.single, .group, .followUp, .snooze].map { Array($0.rawValue.utf8) }
}

extension InterruptionLevel {
    /// The plan file's spellings of the levels.
    static let rawValues: [[UInt8]] = allCases.map { Array($0.rawValue.utf8) }
}
