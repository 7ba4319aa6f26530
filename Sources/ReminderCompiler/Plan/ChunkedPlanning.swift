/// Compiling a plan straight into its files, a few weeks of the window at a time, so that
/// memory holds the config and one stretch of the window rather than the whole plan.
///
/// The result is byte for byte what `plan(_:options:events:)` followed by `PlanJSON.write`
/// and `ICalendarExport.writeExpanded` give: the window is cut by instants into ranges
/// whose notifications are drafted, rendered and written in order. A first pass counts
/// what the budget keeps (the JSON's `dropped` and `coveredUntil` come before the
/// notifications); the second writes.
public struct ChunkedCompilation {
    /// The config, already validated.
    public var config: ReminderConfig
    /// The compile options.
    public var options: CompileOptions
    /// The events.
    public var events = ReminderEvents()
    /// Diagnostics found before planning (the config's and the events' warnings).
    public var diagnostics: [Diagnostic] = []
    /// A previous plan whose sequences are carried forward.
    public var previous: Plan?
    /// The zone database.
    public var zones: TimeZoneDatabase = .system
    /// Days of the window drafted at a time.
    public var chunkDays = 28

    /// Creates a compilation of a validated config.
    public init(config: ReminderConfig, options: CompileOptions) {
        self.config = config
        self.options = options
    }

    /// Writes the plan JSON to `planSink` and, with `icsSink`, the expanded calendar.
    ///
    /// - Returns: the diagnostics, sorted; when they hold an error, nothing was written.
    public func write(
        planTo planSink: (UnsafeRawBufferPointer) throws -> Void,
        calendarTo icsSink: ((UnsafeRawBufferPointer) throws -> Void)? = nil,
        calendarSettings: CalendarSettings? = nil
    ) throws -> [Diagnostic] {
        var setup: PlanSetup
        switch PlanSetup.prepare(config, options: options, diagnostics: diagnostics, zones: zones) {
        case .failure(let failure): return failure.diagnostics
        case .success(let prepared): setup = prepared
        }
        let planner = Planner(config: config, window: setup.window, events: events)
        let ranges = instantRanges(planner)
        let capacity = setup.budget.keptCount(of: Int.max)

        // Pass 1: count, and find what the header and the VTIMEZONE need.
        var total = 0
        var firstKept: Int64?
        var lastKept: Int64?
        var firstDropped: Int64?
        var keptNumericIDs: [UInt32] = []
        var suppressed: [SuppressedNotification] = []
        for (index, range) in ranges.enumerated() {
            let draft = planner.draft(of: planner.units(dates: range.dates), instants: range.instants)
            if index == 0 { setup.collector.append(contentsOf: draft.warnings) }
            suppressed += draft.suppressed
            for candidate in draft.candidates {
                if total < capacity {
                    firstKept = firstKept ?? candidate.fireAt
                    lastKept = candidate.fireAt
                    keptNumericIDs.append(NotificationID.numericID(of: candidate.id))
                } else if total == capacity {
                    firstDropped = candidate.fireAt
                }
                total += 1
            }
        }
        let keptCount = min(total, capacity)
        let coveredUntil = setup.window.zoned(firstDropped ?? setup.window.windowEnd)
        setup.warnAboutCoverage(until: coveredUntil)
        var collisions = NumericIDCollisions(numericIDs: keptNumericIDs)
        keptNumericIDs = []

        let header = Plan(
            timeZone: setup.zoneName, now: setup.window.zoned(setup.window.now),
            windowEnd: setup.window.zoned(setup.window.windowEnd), pendingLimit: setup.pendingLimit,
            reservedSlots: config.reservedSlots, coveredUntil: coveredUntil, dropped: total - keptCount,
            categories: config.categories, notifications: [], suppressed: [], warnings: []
        )
        var planStream = PlanJSONStream(header: header)
        var calendarStream = icsSink.map { _ in
            ExpandedCalendarStream(
                header: header, settings: calendarSettings ?? CalendarSettings(config),
                eventSpan: firstKept.flatMap { first in lastKept.map { first...$0 } }, zones: zones
            )
        }
        let sequences = previous.map(SequenceCarrier.init)

        // Pass 2: render and write what the budget keeps.
        var written = 0
        for range in ranges where written < keptCount {
            let draft = planner.draft(of: planner.units(dates: range.dates), instants: range.instants)
            let take = min(draft.candidates.count, keptCount - written)
            for var notification in planner.render(draft.candidates[..<take], of: draft) {
                sequences?.carry(into: &notification)
                collisions.check(notification, collector: &setup.collector, at: config.location)
                try planStream.append(notification, to: planSink)
                if let icsSink { try calendarStream?.append(notification, to: icsSink) }
            }
            written += take
        }
        let sorted = setup.collector.sorted
        try planStream.finish(suppressed: suppressed, warnings: sorted.filter { $0.severity == .warning }.map(\.message.text), to: planSink)
        if let icsSink { try calendarStream?.finish(to: icsSink) }
        return sorted
    }

    /// The window cut into ranges of instants at local midnights `chunkDays` apart, with
    /// the local dates whose slots can fire in each (a follow-up, or a slot moved by a
    /// daylight-saving change, can fire on another date than its slot's).
    private func instantRanges(_ planner: Planner) -> [(dates: ClosedRange<CivilDate>, instants: Range<Int64>)] {
        let dates = planner.dateRange
        let reachDays = Int((planner.followUpReach + 86_399) / 86_400)
        var result: [(ClosedRange<CivilDate>, Range<Int64>)] = []
        var start = dates.lowerBound
        var lowerInstant = Int64.min
        while start <= dates.upperBound {
            let next = start.adding(days: max(1, chunkDays))
            let upperInstant = next > dates.upperBound
                ? Int64.max : planner.window.timeline.instant(ofLocal: Int64(next.dayNumber) * 86_400).instant
            let expansion = max(dates.lowerBound, start.adding(days: -2 - reachDays))...min(dates.upperBound, next.adding(days: 1))
            result.append((expansion, lowerInstant..<upperInstant))
            lowerInstant = upperInstant
            start = next
        }
        return result
    }
}

/// Carries `sequence` numbers forward from a previous plan (SPEC §8).
struct SequenceCarrier {
    private let previous: Plan
    private var indexByID: [String: Int] = [:]

    init(_ previous: Plan) {
        self.previous = previous
        for index in previous.notifications.indices { indexByID[previous.notifications[index].id] = index }
    }

    /// An unchanged notification keeps the previous number, a changed one gets previous + 1,
    /// a new one keeps 0.
    func carry(into notification: inout PlannedNotification) {
        guard let index = indexByID[notification.id] else { return }
        let old = previous.notifications[index]
        notification.sequence = old.sequence + (PlanDiff.changes(from: old, to: notification).isEmpty ? 0 : 1)
    }
}
