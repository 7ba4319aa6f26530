/// The pending-notification budget (Planning rules, "The budget").
struct Budget {
    /// Most notifications the plan may hold; 0 = unlimited.
    let pendingLimit: Int
    /// Slots left free for the app.
    let reservedSlots: Int

    /// How many of `count` candidates (ordered by `(fireAt, id)`) the plan keeps: the
    /// first `pendingLimit − reservedSlots`, or all when unlimited.
    func keptCount(of count: Int) -> Int {
        pendingLimit > 0 ? min(count, max(0, pendingLimit - reservedSlots)) : count
    }
}
