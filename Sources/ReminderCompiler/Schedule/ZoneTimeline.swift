/// A zone's UTC offsets over a span of time, precomputed once per compile so that each
/// slot costs a binary search instead of a call into the tz database.
@_spi(Tooling) public struct ZoneTimeline: Sendable {
    /// The zone's name.
    public let zoneName: String
    /// Instants (seconds since 1970 UTC) at which the offset changes, ascending.
    let transitionInstants: [Int64]
    /// `offsets[0]` holds before the first transition, `offsets[i + 1]` from transition i on.
    let offsets: [Int32]
    /// The span the table was built for.
    public let span: ClosedRange<Int64>

    /// Samples the zone every six hours across `span` and finds each change of offset to
    /// the second by bisection. Real zones never change offset twice within six hours, and
    /// sampling relies on nothing but the offset at an instant, whatever kind of change
    /// (daylight saving or a new standard offset) it is.
    public init(rules: ZoneRules, span: ClosedRange<Int64>) {
        let step: Int64 = 6 * 3600
        var instants: [Int64] = []
        var offsets: [Int32] = [Int32(rules.offsetSeconds(at: span.lowerBound))]
        var previousInstant = span.lowerBound
        var previousOffset = offsets[0]
        var sample = span.lowerBound
        while sample < span.upperBound {
            sample = min(sample + step, span.upperBound)
            let offset = Int32(rules.offsetSeconds(at: sample))
            if offset != previousOffset {
                // The change lies in (previousInstant, sample]: find its first second.
                var low = previousInstant
                var high = sample
                while high - low > 1 {
                    let middle = low + (high - low) / 2
                    if Int32(rules.offsetSeconds(at: middle)) == previousOffset { low = middle } else { high = middle }
                }
                instants.append(high)
                offsets.append(offset)
                previousOffset = offset
            }
            previousInstant = sample
        }
        self.zoneName = rules.name
        self.transitionInstants = instants
        self.offsets = offsets
        self.span = span
    }

    /// The UTC offset in seconds at an instant.
    public func offset(at instant: Int64) -> Int {
        // Number of transitions at or before `instant`.
        var low = 0
        var high = transitionInstants.count
        while low < high {
            let middle = (low + high) / 2
            if transitionInstants[middle] <= instant { low = middle + 1 } else { high = middle }
        }
        return Int(offsets[low])
    }

    /// The local date of an instant on this timeline.
    func localDate(of instant: Int64) -> CivilDate {
        CivilDate.split(localSeconds: instant + Int64(offset(at: instant))).date
    }

    /// The changes at which the offset falls (clocks go back, and local times repeat),
    /// ascending.
    var fallBackInstants: [Int64] {
        transitionInstants.indices.filter { offsets[$0 + 1] < offsets[$0] }.map { transitionInstants[$0] }
    }

    /// The offset in force throughout `instants`, or nil when it changes inside them: one
    /// search where asking at both ends takes two.
    func steadyOffset(throughout instants: ClosedRange<Int64>) -> Int? {
        var low = 0
        var high = transitionInstants.count
        while low < high {
            let middle = (low + high) / 2
            if transitionInstants[middle] <= instants.lowerBound { low = middle + 1 } else { high = middle }
        }
        // `low` transitions lie at or before the start; the next must lie after the end.
        guard low == transitionInstants.count || transitionInstants[low] > instants.upperBound else { return nil }
        return Int(offsets[low])
    }

    /// The instant of a nominal local time, by Planning rules, "Time zones and
    /// daylight-saving changes" (RFC 5545 §3.3.5): a time that exists once is that
    /// instant; a time in a gap is read with the offset in force before the gap; a time
    /// that occurs twice is its first occurrence.
    ///
    /// - Parameter localSeconds: the local date and time as seconds since 1970-01-01T00:00
    ///   local.
    /// - Returns: the instant, and whether a gap moved the time.
    public func instant(ofLocal localSeconds: Int64) -> (instant: Int64, movedByGap: Bool) {
        // A day before and after (as instants) lies outside any offset change that can
        // affect this local time, since offsets stay within ±14 hours and real zones do not
        // change offset twice within two days.
        if let steady = steadyOffset(throughout: (localSeconds - 86_400)...(localSeconds + 86_400)) {
            return (localSeconds - Int64(steady), false)
        }
        let offsetBefore = Int64(offset(at: localSeconds - 86_400))
        let offsetAfter = Int64(offset(at: localSeconds + 86_400))
        if offsetBefore == offsetAfter {
            return (localSeconds - offsetBefore, false)
        }
        let early = localSeconds - offsetBefore
        let late = localSeconds - offsetAfter
        let earlyValid = Int64(offset(at: early)) == offsetBefore
        let lateValid = Int64(offset(at: late)) == offsetAfter
        switch (earlyValid, lateValid) {
        case (true, true): return (min(early, late), false)
        case (true, false): return (early, false)
        case (false, true): return (late, false)
        case (false, false): return (early, true)
        }
    }

    /// The first instant at or after `notBefore` whose local time is `localSeconds`: of a
    /// time that occurs twice, the first occurrence not before `notBefore` (the second when
    /// the first has passed); a time in a gap is read with the offset before the gap, as
    /// `instant(ofLocal:)` reads it.
    func firstInstant(ofLocal localSeconds: Int64, notBefore: Int64) -> Int64 {
        let read = instant(ofLocal: localSeconds)
        guard !read.movedByGap, read.instant < notBefore else { return read.instant }
        // The later occurrence, when there is one: read with the offset after the change.
        let offsetAfter = Int64(offset(at: localSeconds + 86_400))
        let late = localSeconds - offsetAfter
        return late >= notBefore && Int64(offset(at: late)) == offsetAfter ? late : read.instant
    }
}

/// An instant with the UTC offset of the plan's zone at that instant, as the plan writes it.
public struct ZonedInstant: Sendable, Hashable, Comparable {
    /// Seconds since 1970 UTC.
    public var seconds: Int64
    /// The zone's UTC offset at that instant, in seconds.
    public var offsetSeconds: Int

    /// Creates a zoned instant.
    public init(seconds: Int64, offsetSeconds: Int) {
        self.seconds = seconds
        self.offsetSeconds = offsetSeconds
    }

    /// The local date and time at this instant, as seconds since 1970-01-01T00:00 local.
    /// An instant or offset no plan holds (one built in code may) is first brought into
    /// the years 1–9999 and within a day's offset, so that nothing overflows.
    public var localSeconds: Int64 { writableSeconds + Int64(writableOffset) }

    /// The instants RFC 3339 and RFC 5545 can write: the years 1–9999 in UTC.
    static let writableRange: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

    /// `seconds`, brought into `writableRange`.
    var writableSeconds: Int64 { min(max(seconds, Self.writableRange.lowerBound), Self.writableRange.upperBound) }

    /// `offsetSeconds` when it is less than a day, as every zone's is; else 0.
    var writableOffset: Int { (-86_399...86_399).contains(offsetSeconds) ? offsetSeconds : 0 }

    /// RFC 3339 with the offset, e.g. `2026-11-22T09:00:00+01:00`. An offset with
    /// seconds (some zones before 1972) cannot be written in RFC 3339; the instant is
    /// then written in UTC with `Z`.
    public var rfc3339: String {
        let buffer = ByteBuffer(capacity: 32)
        appendRFC3339(to: buffer)
        return buffer.text
    }

    /// `+01:00`, `-03:30`, `+12:45`.
    public static func offsetText(_ offsetSeconds: Int) -> String {
        let sign = offsetSeconds < 0 ? "-" : "+"
        // `magnitude` rather than `abs`: a caller may pass Int.min.
        let magnitude = offsetSeconds.magnitude
        return "\(sign)\(zeroPadded(Int(magnitude / 3600), 2)):\(zeroPadded(Int(magnitude / 60 % 60), 2))"
    }

    /// Orders by instant.
    public static func < (lhs: ZonedInstant, rhs: ZonedInstant) -> Bool { lhs.seconds < rhs.seconds }
}
