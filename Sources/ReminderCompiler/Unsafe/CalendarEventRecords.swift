/// The expanded calendar's events, read in place through pointers (see the invariants of
/// the `Unsafe` folder in Internals).

extension ICalendarExport {
    static func writeEvent(_ notification: borrowing PlannedNotification, in zone: EventZone, to writer: inout ICalendarWriter) {
        unsafe withUnsafePointer(to: notification) { unsafe writeEvent(at: $0, in: zone, to: &writer) }
    }

    /// `writeEvent` of the notification a pointer points to, its fields read in place
    /// (see `PlanJSON.write(at:to:)`).
    static func writeEvent(at pointer: UnsafePointer<PlannedNotification>, in zone: EventZone, to writer: inout ICalendarWriter) {
        writer.lines("BEGIN:VEVENT\r\n")
        let uidSuffix = unsafe zone.uidSuffix
        let content = unsafe pointer.pointee.content
        unsafe pointer.pointee.storedID.withBytes(key: content.idKeyBytes) { unsafe writer.line("UID:", $0, uidSuffix) }
        unsafe writer.prepared(zone.stampLine)
        // Within the years 1–9999, as the plan JSON writes it.
        let instant = unsafe pointer.pointee.fireAt.writableSeconds
        if let local = unambiguousLocalTime(of: instant, timeline: zone.timeline) {
            unsafe writer.dateTime(zone.startName, localSeconds: local, utc: false)
        } else {
            writer.dateTime("DTSTART", localSeconds: instant, utc: true)
        }
        if let prepared = content.prepared {
            let parts = prepared.parts
            unsafe writer.prepared(parts.eventDurationThroughTexts)
            unsafe writeSequence(pointer.pointee.sequence, to: &writer)
            unsafe writer.prepared(parts.eventEnd)
        } else {
            let texts = content.texts
            writeDuration(of: texts, to: &writer)
            writeTexts(of: texts, to: &writer)
            unsafe writeSequence(pointer.pointee.sequence, to: &writer)
            writeEnd(of: texts, to: &writer)
        }
    }
}

extension ICalendarWriter {
    /// Appends the notifications' events in order, each read in place rather than copied, and
    /// hands the bytes to `sink` whenever `chunkSize` of them are waiting.
    mutating func appendEvents(
        of notifications: [PlannedNotification], planZone: EventZone, otherZones: [String: EventZone], flushingAt chunkSize: Int,
        to sink: (Span<UInt8>) throws -> Void
    ) rethrows {
        unsafe try notifications.withUnsafeBufferPointer { buffer in
            guard let first = buffer.baseAddress else { return }
            for index in buffer.indices {
                let notification = unsafe first + index
                // A notification of a reminder with a zone of its own is written at its local time there.
                let zone = unsafe otherZones.isEmpty
                    ? planZone : notification.pointee.content.texts.timeZone.flatMap { otherZones[$0] } ?? planZone
                unsafe ICalendarExport.writeEvent(at: notification, in: zone, to: &self)
                if byteCount >= chunkSize { try flush(to: sink) }
            }
        }
    }
}
