/// A notification content's share of the plan JSON, the fingerprint and the calendar
/// event, written once by the same functions that write unprepared content field by field,
/// so that both give the same bytes.
///
/// The bytes stay at one address for the object's life, so the writers read its `parts`
/// without a closure (which would copy the notification being written).
final class PreparedContent: @unchecked Sendable {
    /// The depth of a plan notification's fields (inside the plan's object, its
    /// `notifications` array and the notification's object), which the JSON parts are
    /// indented for.
    static let jsonDepth = 3

    /// Allocated once and never changed: safe to read from any thread.
    private let storage: UnsafeMutableBufferPointer<UInt8>
    /// `timeZone`, `reminders` and `group`.
    private let jsonMembers: Range<Int>
    /// `title` through `userInfo`.
    private let jsonTexts: Range<Int>
    /// `durationMinutes`, when not 15.
    private let jsonDuration: Range<Int>
    /// The fields the fingerprint hashes after the ID and the instant.
    private let fingerprintFields: Range<Int>
    /// The `DURATION` line.
    private let eventDuration: Range<Int>
    /// `SUMMARY` and `DESCRIPTION`.
    private let eventTexts: Range<Int>
    /// `CATEGORIES` through `END:VEVENT`.
    private let eventEnd: Range<Int>
    /// The key that IDs kept as parts start with (`NotificationContent.idKey`).
    private let idKeyRange: Range<Int>

    init(_ texts: NotificationTexts, idKey: String) {
        var bytes: [UInt8] = []
        func part(_ write: () -> [UInt8]) -> Range<Int> {
            let start = bytes.count
            bytes += write()
            return start..<bytes.count
        }
        func json(_ write: (inout JSONWriter) -> Void) -> Range<Int> {
            part {
                var writer = JSONWriter(fragmentAtDepth: Self.jsonDepth)
                write(&writer)
                return writer.bytes
            }
        }
        func event(_ write: (inout ICalendarWriter) -> Void) -> Range<Int> {
            part {
                var writer = ICalendarWriter()
                write(&writer)
                return writer.bytes
            }
        }
        jsonMembers = json { PlanJSON.writeMembers(of: texts, to: &$0) }
        jsonTexts = json { PlanJSON.writeTexts(of: texts, to: &$0) }
        jsonDuration = json { PlanJSON.writeDuration(of: texts, to: &$0) }
        fingerprintFields = part { FingerprintHash.fields(of: texts) }
        eventDuration = event { ICalendarExport.writeDuration(of: texts, to: &$0) }
        eventTexts = event { ICalendarExport.writeTexts(of: texts, to: &$0) }
        eventEnd = event { ICalendarExport.writeEnd(of: texts, to: &$0) }
        idKeyRange = part { Array(idKey.utf8) }
        storage = .allocate(capacity: bytes.count)
        _ = storage.initialize(from: bytes)
    }

    deinit {
        storage.deallocate()
    }

    /// The key that IDs kept as parts start with, in place: valid while this object lives.
    var idKey: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: UnsafeBufferPointer(storage)[idKeyRange])
    }

    /// The parts, in place: valid while this object lives.
    var parts: Parts {
        let buffer = UnsafeBufferPointer(storage)
        func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: buffer[range]) }
        return Parts(
            jsonMembers: slice(jsonMembers), jsonTexts: slice(jsonTexts), jsonDuration: slice(jsonDuration),
            fingerprintFields: slice(fingerprintFields), eventDuration: slice(eventDuration),
            eventTexts: slice(eventTexts), eventEnd: slice(eventEnd)
        )
    }

    /// The parts' bytes, valid while their `PreparedContent` lives.
    struct Parts {
        let jsonMembers: UnsafeBufferPointer<UInt8>
        let jsonTexts: UnsafeBufferPointer<UInt8>
        let jsonDuration: UnsafeBufferPointer<UInt8>
        let fingerprintFields: UnsafeBufferPointer<UInt8>
        let eventDuration: UnsafeBufferPointer<UInt8>
        let eventTexts: UnsafeBufferPointer<UInt8>
        let eventEnd: UnsafeBufferPointer<UInt8>
    }
}
