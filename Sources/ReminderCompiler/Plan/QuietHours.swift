/// Hours in which notifications stay silent (Planning rules, "Quiet hours"): root
/// `quietHours`.
public struct QuietHours: Sendable, Hashable {
    /// What happens to a notification that would fire inside the quiet hours.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// It fires at the end of the quiet hours instead (same ID and slot, `deferredFrom`).
        case `defer`
        /// It is left out (listed under `suppressed`, reason `quietHours`).
        case drop
    }

    /// The first quiet minute, in the plan zone's local time.
    public var from: LocalTime
    /// The first minute that is no longer quiet; before `from` when the hours cross midnight.
    public var until: LocalTime
    /// Defer or drop.
    public var action: Action
    /// Where the `quietHours` dict stands.
    public var location: SourceLocation

    /// Quiet from `from` until `until` (which may be on the next day), local time.
    public init(from: LocalTime, until: LocalTime, action: Action = .defer, location: SourceLocation = .inCode) {
        self.from = from
        self.until = until
        self.action = action
        self.location = location
    }

    /// Whether a local time of day is quiet: from `from` (included) to `until` (excluded),
    /// across midnight when `until` is not after `from`.
    func contains(_ time: LocalTime) -> Bool {
        from < until ? (time >= from && time < until) : (time >= from || time < until)
    }

    /// Where a notification firing at `instant` fires instead: `nil` when dropped, the
    /// same instant when not quiet. A deferred one fires when its quiet period ends: the
    /// first instant not before it whose local time is `until` (in a repeated hour, the
    /// `until` of the pass it is due in), read by the RFC 5545 rule (a time in a gap takes
    /// the offset before it).
    func outcome(of instant: Int64, timeline: ZoneTimeline) -> Int64? {
        let offset = Int64(timeline.offset(at: instant))
        let (date, secondOfDay) = CivilDate.split(localSeconds: instant + offset)
        let day = Int64(date.dayNumber)
        guard let time = LocalTime(minuteOfDay: secondOfDay / 60), contains(time) else { return instant }
        guard action == .defer else { return nil }
        // The end is today when it is later in the day, else tomorrow.
        let endDay = time < until ? day : day + 1
        return timeline.firstInstant(ofLocal: endDay * 86_400 + Int64(until.minuteOfDay) * 60, notBefore: instant)
    }
}

extension Reminder {
    /// Whether quiet hours apply to this reminder's part of a notification whose level is
    /// `level` (its own, or its follow-up's): `quietHours: true` or `false` decides; else
    /// quiet hours apply unless the level is `critical`.
    func observesQuietHours(at level: InterruptionLevel) -> Bool {
        quietHours ?? (level != .critical)
    }
}
