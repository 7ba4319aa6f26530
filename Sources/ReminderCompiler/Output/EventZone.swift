/// A zone that calendar events are written in: its offsets, and the bytes every event in
/// it shares — the UID's suffix, the `DTSTAMP` line and the `DTSTART` name — written once
/// and kept at one address, so that writing an event copies them without a string or a
/// retained array.
final class EventZone: @unchecked Sendable {
    let timeline: ZoneTimeline
    /// Allocated once and never changed: safe to read from any thread.
    private let storage: UnsafeMutableBufferPointer<UInt8>
    private let uidSuffixRange: Range<Int>
    private let stampLineRange: Range<Int>
    private let startNameRange: Range<Int>

    /// The zone `timeline` is of, with its events' `DTSTART;TZID=…` name, the `@domain`
    /// that ends their UIDs and their `DTSTAMP` line (CRLF included).
    init(timeline: ZoneTimeline, startName: String, uidSuffix: String, stampLine: [UInt8]) {
        self.timeline = timeline
        let parts = [Array(uidSuffix.utf8), stampLine, Array(startName.utf8)]
        storage = .allocate(capacity: parts.map(\.count).reduce(0, +))
        var ranges: [Range<Int>] = []
        var start = 0
        for part in parts {
            _ = UnsafeMutableBufferPointer(rebasing: storage[start..<(start + part.count)]).initialize(from: part)
            ranges.append(start..<(start + part.count))
            start += part.count
        }
        uidSuffixRange = ranges[0]
        stampLineRange = ranges[1]
        startNameRange = ranges[2]
    }

    deinit {
        storage.deallocate()
    }

    /// `@domain`, valid while this object lives.
    var uidSuffix: UnsafeBufferPointer<UInt8> { slice(uidSuffixRange) }
    /// The `DTSTAMP` line, valid while this object lives.
    var stampLine: UnsafeBufferPointer<UInt8> { slice(stampLineRange) }
    /// `DTSTART;TZID=…`, valid while this object lives.
    var startName: UnsafeBufferPointer<UInt8> { slice(startNameRange) }

    private func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: UnsafeBufferPointer(storage)[range])
    }
}
