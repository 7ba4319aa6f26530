/// The expanded calendar's events, read in place through pointers (see the invariants of
/// the `Unsafe` folder in Internals).

extension ICalendarExport {
    static func writeEvent(_ notification: borrowing PlannedNotification, in zone: EventZone, to writer: inout ICalendarWriter) {
        unsafe withUnsafePointer(to: notification) { unsafe writeEvent(at: $0, in: zone, to: &writer) }
    }

    /// `writeEvent` of the notification a pointer points to, its fields read in place
    /// (see `PlanJSON.write(at:to:)`). Inlined into the loop over the events, as it was
    /// before the one-go path was added to it: called, it left the line-by-line path's
    /// helpers called too, and the `ics` of a W2 plan (whose events are all written line
    /// by line) went from 1 305.6 M to 1 333.2 M instructions.
    @inline(__always)
    static func writeEvent(at pointer: UnsafePointer<PlannedNotification>, in zone: EventZone, to writer: inout ICalendarWriter) {
        // The parts are taken out of the prepared content at once: holding the content over
        // the call cost a retain and a release an event.
        if let parts = unsafe pointer.pointee.content.prepared?.parts, case .occurrence(let tail) = unsafe pointer.pointee.storedID,
           unsafe writer.preparedEvent(
               key: pointer.pointee.content.idKeyBytes, tail: tail, instant: pointer.pointee.fireAt.writableSeconds,
               sequence: pointer.pointee.sequence, parts: parts, zone: zone
           ) {
            return
        }
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
    /// Writes the event of a notification with prepared content and an ID kept as parts
    /// (`key` and `tail`) in one go: the bytes `writeEvent` writes line by line, in eight
    /// copies. Returns false, having written nothing, when its UID line would fold or its
    /// start would not be written whole on one line (a zone name of 47 characters or more, a
    /// year past 9999): the caller then writes it line by line.
    mutating func preparedEvent(
        key: UnsafeBufferPointer<UInt8>, tail: OccurrenceTail, instant: Int64, sequence: Int, parts: PreparedContent.Parts,
        zone: EventZone
    ) -> Bool {
        guard unsafe "UID:".utf8.count + key.count + tail.length + zone.uidSuffix.count <= Self.maximumLineOctets,
              lastEventStart.update(instant: instant, zone: zone)
        else { return false }
        let start = lastEventStart
        let uidEndThroughStart = unsafe start.utc ? zone.uidEndThroughUTCStart : zone.uidEndThroughStart
        wholeLines { buffer in
            buffer.append("BEGIN:VEVENT\r\nUID:" as StaticString)
            // The key copied inline: `tail.write(after:at:)` calls `memmove` for it.
            unsafe buffer.append(key)
            unsafe buffer.append(atMost: OccurrenceTail.maximumLength) { unsafe tail.write(at: $0) }
            unsafe buffer.append(uidEndThroughStart)
            unsafe buffer.append(atMost: 18) { destination in
                let length = start.utc ? 16 : 15
                unsafe UnsafeMutableRawPointer(destination).storeBytes(of: start.digits.0, as: UInt64.self)
                unsafe UnsafeMutableRawPointer(destination).storeBytes(of: start.digits.1, toByteOffset: 8, as: UInt64.self)
                unsafe destination[length] = 0x0D
                unsafe destination[length + 1] = 0x0A
                return length + 2
            }
            unsafe buffer.append(parts.eventDurationThroughTexts)
            unsafe buffer.append(atMost: 9 + 20 + 2) { destination in
                var length = unsafe putLiteral("SEQUENCE:", at: destination)
                unsafe length += putDecimal(sequence, at: destination + length)
                unsafe destination[length] = 0x0D
                unsafe destination[length + 1] = 0x0A
                return length + 2
            }
            unsafe buffer.append(parts.eventEnd)
        }
        return true
    }

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

/// The start of the event of prepared content written last: its instant and zone, whether
/// it is written in UTC, and its date-time's digits. Events in a row mostly share their
/// start (a year of W2 has 70 338 events in 2 539 runs of one instant), which is then
/// neither looked up in the zone nor made into digits again.
struct EventStartText {
    private var instant: Int64 = 0
    /// Held, so that another zone allocated later can never pass for this one.
    private var zone: EventZone?
    /// Whether the start is written in UTC, with a `Z`: a local time that is ambiguous, or
    /// one outside the span the zone was worked out over.
    private(set) var utc = false
    /// `ICalendarWriter.dateTimeDigits` of the start.
    private(set) var digits: (UInt64, UInt64) = (0, 0)

    /// Makes this the start of an event at `instant` in `zone`. Returns false, changing
    /// nothing, when the start's line would not be written whole (`preparedEvent`).
    mutating func update(instant: Int64, zone: EventZone) -> Bool {
        if instant == self.instant, self.zone === zone { return true }
        let local = ICalendarExport.unambiguousLocalTime(of: instant, timeline: zone.timeline)
        let seconds = local ?? instant
        guard local == nil || zone.localStartFitsOneLine, ICalendarWriter.dateTimeFitsFourDigitYears(localSeconds: seconds) else {
            return false
        }
        self.instant = instant
        self.zone = zone
        utc = local == nil
        digits = ICalendarWriter.dateTimeDigits(localSeconds: seconds)
        return true
    }
}
