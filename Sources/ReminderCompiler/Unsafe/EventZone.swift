/// A zone that calendar events are written in: its offsets, and the bytes every event in
/// it shares — the UID's suffix, the `DTSTAMP` line and the `DTSTART` name — written once
/// and kept at one address, so that writing an event copies them without a string or a
/// retained array.
/// Its pointers point into bytes that are never changed: safe to read from any thread.
@safe final class EventZone: @unchecked Sendable {
    let timeline: ZoneTimeline
    private let bytes: PackedBytes
    /// `@domain`, valid while this object lives.
    let uidSuffix: UnsafeBufferPointer<UInt8>
    /// The `DTSTAMP` line, valid while this object lives.
    let stampLine: UnsafeBufferPointer<UInt8>
    /// `DTSTART;TZID=…`, valid while this object lives.
    let startName: UnsafeBufferPointer<UInt8>
    /// What an event of prepared content writes between its UID's value and its start's
    /// local date-time: the UID's suffix and CRLF, the `DTSTAMP` line, `DTSTART;TZID=…:`.
    let uidEndThroughStart: UnsafeBufferPointer<UInt8>
    /// The same for a start written in UTC (a local time that is ambiguous or skipped):
    /// it ends `DTSTART:`.
    let uidEndThroughUTCStart: UnsafeBufferPointer<UInt8>
    /// Whether `DTSTART;TZID=…:` and a local date-time fit on one line: a zone name of
    /// 47 characters or more (quotes counted) folds it.
    let localStartFitsOneLine: Bool

    /// The zone `timeline` is of, with its events' `DTSTART;TZID=…` name, the `@domain`
    /// that ends their UIDs and their `DTSTAMP` line (CRLF included).
    init(timeline: ZoneTimeline, startName: String, uidSuffix: String, stampLine: [UInt8]) {
        self.timeline = timeline
        let lineEnd: [UInt8] = [0x0D, 0x0A]
        let uidEndThroughStamp = Array(uidSuffix.utf8) + lineEnd + stampLine
        bytes = PackedBytes([
            Array(uidSuffix.utf8), stampLine, Array(startName.utf8),
            uidEndThroughStamp + Array(startName.utf8) + [UInt8(ascii: ":")], uidEndThroughStamp + Array("DTSTART:".utf8),
        ])
        unsafe self.uidSuffix = unsafe bytes.part(0)
        unsafe self.stampLine = unsafe bytes.part(1)
        unsafe self.startName = unsafe bytes.part(2)
        unsafe uidEndThroughStart = unsafe bytes.part(3)
        unsafe uidEndThroughUTCStart = unsafe bytes.part(4)
        localStartFitsOneLine = startName.utf8.count + 1 + 15 <= ICalendarWriter.maximumLineOctets
    }
}
