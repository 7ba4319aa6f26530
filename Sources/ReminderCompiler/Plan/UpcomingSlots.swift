/// One upcoming slot of a reminder, for `remindc next`.
@_spi(Tooling) public struct UpcomingSlot: Sendable, Hashable {
    /// The member occurrence ID (Planning rules, "Stable IDs").
    public var id: String
    /// The slot.
    public var slot: Slot
    /// When it fires, with the zone's offset then.
    public var fireAt: ZonedInstant
}

extension ReminderCompiler {
    /// The most slots `upcomingSlots` lists: ten times what `remindc next --count` takes,
    /// and about ten days of a schedule that fires every minute.
    @_spi(Tooling) public static let maximumUpcomingSlots = 10_000

    /// The next `count` slots of one reminder after `now`, in firing order, ignoring
    /// groups, events and budgets: the schedule alone, for a person to check.
    ///
    /// Searches forward in growing steps, up to 400 years, so a rare schedule (29 February
    /// every 12 months) is still found. Gives at most `maximumUpcomingSlots`, however many
    /// are asked for.
    @_spi(Tooling) public static func upcomingSlots(
        of reminder: Reminder, count: Int, after now: Int64, zone rules: ZoneRules
    ) -> [UpcomingSlot] {
        // Whole seconds of the supported years only, and schedules expansion survives.
        let count = min(count, maximumUpcomingSlots)
        guard count > 0, reminder.schedule.isExpandable, abs(now) < 400_000_000_000 else { return [] }
        let localNow = now + Int64(rules.offsetSeconds(at: now))
        var first = CivilDate.split(localSeconds: localNow).date.adding(days: -1)
        var span = 64
        // Slots and when they fire; IDs are made only for those returned. Within one
        // reminder, IDs order as their local times do (fixed-width digits after the same
        // prefix), so the local time breaks ties as the ID would.
        var found: [(slot: Slot, fireAt: ZonedInstant)] = []
        let limit = first.adding(days: 146_097)
        // A counted schedule ends with its last counted slot, as one with `end` does.
        let lastDate = [reminder.schedule.end, reminder.schedule.lastCountedDate].compactMap { $0 }.min()
        while first <= limit {
            let last = first.adding(days: span - 1)
            let timeline = ZoneTimeline(
                rules: rules,
                span: (Int64(first.dayNumber) * 86_400 - 2 * 86_400)...(Int64(last.dayNumber) * 86_400 + 3 * 86_400)
            )
            var chunk: [(slot: Slot, fireAt: ZonedInstant)] = []
            reminder.schedule.forEachSlot(onDates: first...last, timeline: timeline) { slot in
                guard slot.instant > now else { return }
                chunk.append((slot, ZonedInstant(seconds: slot.instant, offsetSeconds: timeline.offset(at: slot.instant))))
            }
            // A gap can move a slot past the next day's first slot; sort each chunk.
            found += chunk.sorted { ($0.fireAt.seconds, $0.slot.local) < ($1.fireAt.seconds, $1.slot.local) }
            if found.count >= count { break }
            if let lastDate, lastDate <= last { break }
            first = last.adding(days: 1)
            // Steps grow only past stretches without a slot, so that a dense schedule is
            // never expanded far beyond what was asked for.
            if chunk.isEmpty { span = min(span * 4, 146_097) }
        }
        return found.prefix(count).map { slot, fireAt in
            UpcomingSlot(id: NotificationID.occurrence(reminder.id, slot: slot.local), slot: slot, fireAt: fireAt)
        }
    }
}
