/// The pending-notification budget of SPEC §7.
struct Budget {
    /// Most notifications the plan may hold; 0 = unlimited.
    let pendingLimit: Int
    /// Slots left free for the app.
    let reservedSlots: Int

    /// Keeps the first `pendingLimit − reservedSlots` candidates (already ordered by
    /// `(fireAt, id)`); the plan is complete before the first one dropped.
    func apply(to candidates: [PlannedNotification], windowEnd: ZonedInstant)
        -> (kept: [PlannedNotification], dropped: Int, coveredUntil: ZonedInstant)
    {
        guard pendingLimit > 0 else { return (candidates, 0, windowEnd) }
        let capacity = max(0, pendingLimit - reservedSlots)
        guard candidates.count > capacity else { return (candidates, 0, windowEnd) }
        return (Array(candidates.prefix(capacity)), candidates.count - capacity, candidates[capacity].fireAt)
    }
}
