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
    /// The parts, in place: valid while this object lives.
    let parts: Parts
    /// The key that IDs kept as parts start with (`NotificationContent.idKey`), in place:
    /// valid while this object lives.
    let idKey: UnsafeBufferPointer<UInt8>
    /// Whether `idKey` goes into JSON as it is (no quote, backslash or control character),
    /// as the identifiers that keys are always do.
    let idKeyNeedsNoEscape: Bool

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
        let jsonMembers = json { PlanJSON.writeMembers(of: texts, to: &$0) }
        let jsonTexts = json { PlanJSON.writeTexts(of: texts, to: &$0) }
        let jsonDuration = json { PlanJSON.writeDuration(of: texts, to: &$0) }
        let fingerprintFields = part { FingerprintHash.fields(of: texts) }
        let eventDuration = event { ICalendarExport.writeDuration(of: texts, to: &$0) }
        let eventTexts = event { ICalendarExport.writeTexts(of: texts, to: &$0) }
        let eventEnd = event { ICalendarExport.writeEnd(of: texts, to: &$0) }
        let idKeyRange = part { Array(idKey.utf8) }
        storage = .allocate(capacity: bytes.count)
        _ = storage.initialize(from: bytes)
        let buffer = UnsafeBufferPointer(storage)
        func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: buffer[range]) }
        parts = Parts(
            jsonMembers: slice(jsonMembers), jsonTexts: slice(jsonTexts), jsonDuration: slice(jsonDuration),
            jsonMembersThroughDuration: slice(jsonMembers.lowerBound..<jsonDuration.upperBound),
            fingerprintFields: slice(fingerprintFields), eventDuration: slice(eventDuration),
            eventTexts: slice(eventTexts), eventEnd: slice(eventEnd)
        )
        self.idKey = slice(idKeyRange)
        idKeyNeedsNoEscape = idKey.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    deinit {
        storage.deallocate()
    }

    /// The parts' bytes, valid while their `PreparedContent` lives.
    struct Parts {
        /// `timeZone`, `reminders` and `group`.
        let jsonMembers: UnsafeBufferPointer<UInt8>
        /// `title` through `userInfo`.
        let jsonTexts: UnsafeBufferPointer<UInt8>
        /// `durationMinutes`, when not 15.
        let jsonDuration: UnsafeBufferPointer<UInt8>
        /// The three above in one piece (they are written one after the other), for a
        /// notification with neither `parent` nor `replaces` between them.
        let jsonMembersThroughDuration: UnsafeBufferPointer<UInt8>
        /// The fields the fingerprint hashes after the ID and the instant.
        let fingerprintFields: UnsafeBufferPointer<UInt8>
        /// The `DURATION` line.
        let eventDuration: UnsafeBufferPointer<UInt8>
        /// `SUMMARY` and `DESCRIPTION`.
        let eventTexts: UnsafeBufferPointer<UInt8>
        /// `CATEGORIES` through `END:VEVENT`.
        let eventEnd: UnsafeBufferPointer<UInt8>
    }
}
