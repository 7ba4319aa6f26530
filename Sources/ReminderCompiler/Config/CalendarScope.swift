/// Which notifications the expanded calendar holds (Planning rules, "Calendar scope"):
/// root `calendarScope`, `--ics-scope`.
public enum CalendarScope: String, Sendable, Hashable, CaseIterable {
    /// The plan's notifications, after the budget (the default).
    case plan
    /// Every notification of the window before the budget: a calendar has no limit of
    /// pending notifications, so it shows the whole horizon while the plan stays budgeted.
    case window
}

extension CompileOptions {
    /// The same compile without a pending limit: what a `window`-scoped calendar holds.
    public var withoutBudget: CompileOptions {
        var options = self
        options.pendingLimit = 0
        return options
    }
}
