/// A notification content's share of the plan JSON and the calendar event, written once
/// by the same functions that write unprepared content field by field, so that both give
/// the same bytes.
///
/// The bytes stay at one address for the object's life, so the writers read its `parts`
/// without a closure (which would copy the notification being written).
@safe final class PreparedContent: @unchecked Sendable {
    /// The depth of a plan notification's fields (inside the plan's object, its
    /// `notifications` array and the notification's object), which the JSON parts are
    /// indented for.
    static let jsonDepth = 3

    /// The parts' bytes, at one address.
    private let bytes: PackedBytes
    /// The parts, in place: valid while this object lives.
    let parts: Parts
    /// Whether the key that IDs kept as parts start with (`NotificationContent.idKey`)
    /// goes into JSON as it is (no quote, backslash or control character), as the
    /// identifiers that keys are always do.
    let idKeyNeedsNoEscape: Bool

    init(_ texts: NotificationTexts, idKey: String) {
        func json(_ write: (inout JSONWriter) -> Void) -> [UInt8] {
            var writer = JSONWriter(fragmentAtDepth: Self.jsonDepth)
            write(&writer)
            return writer.bytes
        }
        func event(_ write: (inout ICalendarWriter) -> Void) -> [UInt8] {
            var writer = ICalendarWriter()
            write(&writer)
            return writer.bytes
        }
        // The three JSON parts first and in this order, and the event's duration before its
        // texts: they are also copied as one.
        bytes = PackedBytes([
            json { PlanJSON.writeMembers(of: texts, to: &$0) },
            json { PlanJSON.writeTexts(of: texts, to: &$0) },
            json { PlanJSON.writeDuration(of: texts, to: &$0) },
            event { ICalendarExport.writeDuration(of: texts, to: &$0) },
            event { ICalendarExport.writeTexts(of: texts, to: &$0) },
            event { ICalendarExport.writeEnd(of: texts, to: &$0) },
        ])
        parts = unsafe Parts(
            jsonMembers: bytes.part(0), jsonTexts: bytes.part(1), jsonDuration: bytes.part(2),
            jsonMembersThroughDuration: bytes.parts(0, through: 2),
            eventDurationThroughTexts: bytes.parts(3, through: 4), eventEnd: bytes.part(5)
        )
        idKeyNeedsNoEscape = idKey.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    /// The parts' bytes, valid while their `PreparedContent` lives.
    @safe struct Parts {
        /// `timeZone`, `reminders` and `group`.
        let jsonMembers: UnsafeBufferPointer<UInt8>
        /// `title` through `userInfo`.
        let jsonTexts: UnsafeBufferPointer<UInt8>
        /// `durationMinutes`, when not 15.
        let jsonDuration: UnsafeBufferPointer<UInt8>
        /// The three above in one piece (they are written one after the other), for a
        /// notification with neither `parent` nor `replaces` between them.
        let jsonMembersThroughDuration: UnsafeBufferPointer<UInt8>
        /// The `DURATION` line, then `SUMMARY` and `DESCRIPTION`, in one piece.
        let eventDurationThroughTexts: UnsafeBufferPointer<UInt8>
        /// `CATEGORIES` through `END:VEVENT`.
        let eventEnd: UnsafeBufferPointer<UInt8>
    }
}
