import Dispatch

/// Compiling a plan straight into its files, a few weeks of the window at a time, so that
/// memory holds the config and one stretch of the window rather than the whole plan.
///
/// The result is byte for byte what `plan(_:options:events:)` followed by `PlanJSON.write`
/// and `ICalendarExport.writeExpanded` give: the window is cut by instants into ranges
/// whose notifications are drafted, rendered and written in order. With a pending limit, a
/// first pass counts what the budget keeps (the JSON's `dropped` and `coveredUntil` come
/// before the notifications). Without one, everything in the window is kept and a single
/// pass writes; only the VTIMEZONE needs the last notification's instant first, which the
/// last ranges give.
@_spi(Tooling) public struct ChunkedCompilation {
    /// The config. One changed after the compilation was made from checked inputs is
    /// checked again before it is planned.
    public var config: ReminderConfig {
        didSet { validated = nil }
    }
    /// The config as validation passed it, when the compilation was made from checked inputs.
    private var validated: ValidatedConfig?
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
    /// Which notifications an expanded calendar holds; nil takes the config's
    /// `calendarScope`.
    public var calendarScope: CalendarScope?

    /// Creates a compilation of a config, which is checked before it is planned.
    public init(config: ReminderConfig, options: CompileOptions) {
        self.config = config
        self.options = options
    }

    /// Creates a compilation of a config and events read and checked by
    /// `ReminderCompiler.load`, which is planned without checking it again; nil when the
    /// inputs have errors.
    public init?(inputs: ReminderCompiler.Inputs, options: CompileOptions) {
        guard let config = inputs.config else { return nil }
        self.init(config: config, options: options)
        events = inputs.events
        diagnostics = inputs.diagnostics
        validated = inputs.validated
    }

    /// What the header, the VTIMEZONE and the end of the plan need from the whole window.
    private struct WindowSummary {
        /// Notifications in the window, before the budget.
        var total = 0
        /// The instants of the first and last notification kept.
        var firstKept: Int64?
        var lastKept: Int64?
        /// The instant of the first notification the budget cuts.
        var firstDropped: Int64?
        var suppressed: [SuppressedNotification] = []
        var warnings: [Diagnostic] = []
    }

    /// Writes the plan JSON to `planSink` and, with `icsSink`, the calendar in `calendarStyle`.
    ///
    /// The sinks are called on other threads than the caller's, each by one thread at a
    /// time and never after this returns. A recurring calendar needs only the config and
    /// what the events removed, so it is written last, in one piece.
    ///
    /// - Returns: the diagnostics, sorted; when they hold an error, nothing was written.
    public func write(
        planTo planSink: @escaping (UnsafeRawBufferPointer) throws -> Void,
        calendarTo icsSink: ((UnsafeRawBufferPointer) throws -> Void)? = nil,
        calendarSettings: CalendarSettings? = nil,
        calendarStyle: ICalendarStyle = .expanded
    ) throws -> [Diagnostic] {
        let budgeted = (options.pendingLimit ?? config.pendingLimit) != 0
        if let icsSink, calendarStyle == .expanded, budgeted, (calendarScope ?? config.calendarScope) == .window {
            // The plan as budgeted, then the calendar from a pass over the whole window.
            var planPass = self
            planPass.calendarScope = .plan
            let found = try planPass.write(planTo: planSink)
            guard !found.contains(where: { $0.severity == .error }) else { return found }
            var calendarPass = planPass
            calendarPass.options = options.withoutBudget
            _ = try calendarPass.write(planTo: { _ in }, calendarTo: icsSink, calendarSettings: calendarSettings, calendarStyle: .expanded)
            return found
        }
        let expandedSink = calendarStyle == .expanded ? icsSink : nil
        let validated: ValidatedConfig
        var found = diagnostics
        if let checked = self.validated, checked.timeZoneOverride == options.timeZone {
            validated = checked
        } else {
            switch PlanSetup.validate(config, options: options, diagnostics: diagnostics, zones: zones) {
            case .failure(let failure): return failure.diagnostics
            case .success(let checked): (validated, found) = checked
            }
        }
        let config = validated.config
        var setup: PlanSetup
        switch PlanSetup.prepare(validated, options: options, events: events, diagnostics: found, zones: zones) {
        case .failure(let failure): return failure.diagnostics
        case .success(let prepared): setup = prepared
        }
        let planner = Planner(config: config, window: setup.window, events: events)
        let ranges = planner.instantRanges(days: chunkDays)
        let capacity = setup.budget.keptCount(of: Int.max)
        let unlimited = capacity == Int.max
        func draft(_ range: (dates: ClosedRange<CivilDate>, instants: Range<Int64>)) -> PlanDraft { planner.draft(range) }

        var summary = WindowSummary()
        // The last range with notifications, drafted early for the VTIMEZONE and kept for
        // its turn rather than drafted twice.
        var lastDraft: (index: Int, draft: PlanDraft)?
        if unlimited {
            // Everything is kept; the calendar's VTIMEZONE also needs the last instant.
            if expandedSink != nil {
                for index in ranges.indices.reversed() {
                    let found = draft(ranges[index])
                    if let last = found.candidates.last {
                        summary.lastKept = last.fireAt
                        lastDraft = (index, found)
                        break
                    }
                }
            }
        } else {
            summary = countKept(ranges.lazy.map(draft), capacity: capacity)
        }
        let keptCount = unlimited ? Int.max : min(summary.total, capacity)
        let coveredUntil = setup.window.zoned(summary.firstDropped ?? setup.window.windowEnd)

        var header = Plan(
            timeZone: setup.zoneName, now: setup.window.zoned(setup.window.now),
            windowEnd: setup.window.zoned(setup.window.windowEnd), pendingLimit: setup.pendingLimit,
            reservedSlots: config.reservedSlots, coveredUntil: coveredUntil,
            dropped: unlimited ? 0 : summary.total - keptCount,
            categories: config.categories, notifications: [], suppressed: [], warnings: [], tzdataVersion: zones.version
        )
        header.recordProvenance(of: config)
        // The plan and the calendar are written on threads of their own, a range or two
        // behind the planning: on a machine with two cores they cost little time. Each
        // stream is written by one thread, range after range, so the bytes do not depend
        // on timing.
        let planStream = Box(PlanJSONStream(header: header))
        let planWriter = BackgroundWriter()
        // The calendar's VTIMEZONEs come before its events: the zones reminders pin, other
        // than the plan's, are found first by a pass over what the budget keeps (only for
        // configs that pin zones).
        let otherZones = expandedSink != nil && planner.window.pinsOtherZones
            ? zonesInUse(ranges.lazy.map(draft), keptCount: keptCount, planner: planner) : []
        func calendar(firstEvent: Int64?) -> ExpandedCalendarStream {
            ExpandedCalendarStream(
                header: header, settings: calendarSettings ?? CalendarSettings(config),
                eventSpan: (summary.firstKept ?? firstEvent).flatMap { first in summary.lastKept.map { first...$0 } },
                otherZones: otherZones, zones: zones
            )
        }
        // Made at the first event, whose instant starts the VTIMEZONE's span.
        var calendarStream: Box<ExpandedCalendarStream>?
        let calendarWriter = BackgroundWriter()
        // However this function ends, the writers are done before it returns.
        defer {
            planWriter.waitUntilDone()
            calendarWriter.waitUntilDone()
        }
        let sequences = previous.map { SequenceCarrier($0, now: setup.window.now) }
        var collisions = NumericIDCollisions()

        // Render and write what the budget keeps.
        var keptSnoozes: [PlannedNotification] = []
        var written = 0
        // The last notification written: the search for IDs with a repeated numericId reads
        // no further in the order of candidates.
        var lastWritten: (fireAt: Int64, id: String)?
        // Numbers are noted with the day their notification fires on, counted from the
        // window's first date, so that the search drafts single days again.
        let firstDay = planner.dateRange.lowerBound.dayNumber
        for (index, range) in ranges.enumerated() where written < keptCount {
            let draft = lastDraft?.index == index ? lastDraft!.draft : draft(range)
            if unlimited {
                if index == 0 { summary.warnings = draft.warnings }
                summary.suppressed += draft.suppressed
            }
            let take = min(draft.candidates.count, keptCount - written)
            var rendered = planner.render(draft.candidates[..<take], of: draft)
            if let sequences {
                for position in rendered.indices { sequences.carry(into: &rendered[position]) }
            }
            for position in rendered.indices {
                let day = planner.window.localDate(of: rendered[position].fireAt.seconds).dayNumber - firstDay
                collisions.note(rendered[position].numericId, in: day)
            }
            // A recurring calendar shows snoozes and their follow-ups as plain events.
            if icsSink != nil, expandedSink == nil { keptSnoozes += rendered.filter(\.isSnoozeOrItsFollowUp) }
            // Handed to the writers as a constant: they share it and never change it.
            let notifications = rendered
            try planWriter.submit { try planStream.value.append(contentsOf: notifications, to: planSink) }
            if let expandedSink, let first = notifications.first {
                let stream = calendarStream ?? Box(calendar(firstEvent: first.fireAt.seconds))
                calendarStream = stream
                try calendarWriter.submit { try stream.value.append(contentsOf: notifications, to: expandedSink) }
            }
            written += take
            if let last = rendered.last { lastWritten = (last.fireAt.seconds, last.id) }
        }
        // In the order the whole-plan compile reports them.
        setup.collector.append(contentsOf: summary.warnings)
        setup.warnAboutCoverage(until: coveredUntil)
        collisions.report(to: &setup.collector, at: config.location) { search in
            // Only the days where IDs with a repeated number came are drafted again, up to
            // the last notification written.
            guard let lastWritten else { return }
            let days = planner.instantRanges(days: 1)
            for day in search.places.sorted() where days.indices.contains(day) {
                let dayDraft = draft(days[day])
                for candidate in dayDraft.candidates {
                    let id = dayDraft.id(of: candidate)
                    guard candidate.fireAt < lastWritten.fireAt
                        || (candidate.fireAt == lastWritten.fireAt && !NotificationID.precedes(lastWritten.id, id))
                    else { break }
                    search.look(at: id)
                }
            }
        }
        let sorted = setup.collector.sorted
        let warnings = sorted.filter { $0.severity == .warning }.map(\.message.text)
        let seriesSequences = sequences?.seriesSequences(coveredUntil: coveredUntil.seconds) ?? [:]
        try planWriter.finish {
            try planStream.value.finish(
                suppressed: summary.suppressed, warnings: warnings, seriesSequences: seriesSequences, to: planSink
            )
        }
        if let expandedSink {
            let stream = calendarStream ?? Box(calendar(firstEvent: nil))
            try calendarWriter.finish { try stream.value.finish(to: expandedSink) }
        } else if let icsSink {
            var outline = header
            outline.suppressed = summary.suppressed
            outline.seriesSequences = seriesSequences
            outline.notifications = keptSnoozes
            let bytes = ICalendarExport.recurring(validated, plan: outline, zones: zones)
            try calendarWriter.finish { try bytes.withUnsafeBytes(icsSink) }
        }
        return sorted
    }

    /// The zones other than the plan's that the first `keptCount` notifications carry.
    private func zonesInUse<Drafts: Sequence<PlanDraft>>(_ drafts: Drafts, keptCount: Int, planner: Planner) -> [String] {
        var found: Set<String> = []
        var seen = 0
        for draft in drafts where seen < keptCount {
            for candidate in draft.candidates.prefix(keptCount - seen) {
                if let name = planner.zoneName(of: candidate, in: draft) { found.insert(name) }
            }
            seen += min(draft.candidates.count, keptCount - seen)
        }
        return found.sorted()
    }

    /// The first pass of a limited plan: how many notifications the window holds, which
    /// the budget keeps, and what the events removed.
    private func countKept<Drafts: Sequence<PlanDraft>>(_ drafts: Drafts, capacity: Int) -> WindowSummary {
        var summary = WindowSummary()
        for (index, draft) in drafts.enumerated() {
            if index == 0 { summary.warnings = draft.warnings }
            summary.suppressed += draft.suppressed
            for candidate in draft.candidates {
                if summary.total < capacity {
                    summary.firstKept = summary.firstKept ?? candidate.fireAt
                    summary.lastKept = candidate.fireAt
                } else if summary.total == capacity {
                    summary.firstDropped = candidate.fireAt
                }
                summary.total += 1
            }
        }
        return summary
    }
}

extension Planner {
    /// The window cut into ranges of instants at local midnights `days` apart, with the
    /// local dates whose slots can fire in each (a follow-up, or a slot moved by a
    /// daylight-saving change, can fire on another date than its slot's). Drafting range
    /// after range gives the whole window's candidates in order while memory holds one
    /// range.
    func instantRanges(days: Int) -> [(dates: ClosedRange<CivilDate>, instants: Range<Int64>)] {
        let dates = dateRange
        let reachDays = Int((lateReach + 86_399) / 86_400)
        var result: [(ClosedRange<CivilDate>, Range<Int64>)] = []
        var start = dates.lowerBound
        var lowerInstant = Int64.min
        while start <= dates.upperBound {
            let next = start.adding(days: max(1, min(days, 4000)))
            let upperInstant = next > dates.upperBound
                ? Int64.max : window.timeline.instant(ofLocal: Int64(next.dayNumber) * 86_400).instant
            let expansion = max(dates.lowerBound, start.adding(days: -2 - reachDays))...min(dates.upperBound, next.adding(days: 1))
            result.append((expansion, lowerInstant..<upperInstant))
            lowerInstant = upperInstant
            start = next
        }
        return result
    }

    /// The candidates and removals of one range.
    func draft(_ range: (dates: ClosedRange<CivilDate>, instants: Range<Int64>)) -> PlanDraft {
        draft(of: units(dates: range.dates), instants: range.instants)
    }
}

/// A value shared by the closures that a `BackgroundWriter` runs.
private final class Box<Value>: @unchecked Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// Runs writing jobs one after another on a thread of its own while the caller goes on.
/// At most two jobs wait, so that memory stays flat; the first error stops the rest and
/// is thrown to the caller at its next call.
private final class BackgroundWriter: @unchecked Sendable {
    private let queue = DispatchQueue(label: "remindc.writer")
    private let room = DispatchSemaphore(value: 2)
    private let failureLock = ThreadLock()
    private var storedFailure: Error?

    /// Set on `queue`, read on the caller's thread too.
    private var failure: Error? {
        get { failureLock.withLock { storedFailure } }
        set { failureLock.withLock { storedFailure = newValue } }
    }

    /// A job handed to the queue: the caller hands over state that only this writer's
    /// jobs touch from then on.
    private struct Job: @unchecked Sendable {
        let run: () throws -> Void
    }

    /// Queues `job`; throws when an earlier job failed.
    func submit(_ job: @escaping () throws -> Void) throws {
        if let failure { throw failure }
        room.wait()
        let handed = Job(run: job)
        queue.async { [self] in
            defer { room.signal() }
            guard failure == nil else { return }
            do {
                try handed.run()
            } catch {
                failure = error
            }
        }
    }

    /// Runs `job` after every queued one and waits for it; throws the first error.
    func finish(_ job: () throws -> Void) throws {
        try queue.sync {
            if let failure { throw failure }
            try job()
        }
    }

    /// Waits until every queued job has run.
    func waitUntilDone() {
        queue.sync {}
    }
}

extension ChunkedCompilation {
    /// The plan JSON and, with `calendarStyle`, the calendar, collected in memory by the same
    /// pass that writes files: for callers that answer with bytes (the service, batch jobs,
    /// an app) and must give exactly what `remindc compile -o … --ics …` writes.
    ///
    /// - Returns: the bytes, and the diagnostics, sorted; when they hold an error, the bytes
    ///   are empty.
    public func collect(calendarStyle: ICalendarStyle? = nil) -> (plan: [UInt8], calendar: [UInt8]?, diagnostics: [Diagnostic]) {
        let plan = CollectedBytes()
        let calendar = CollectedBytes()
        let found: [Diagnostic]
        do {
            found = try write(
                planTo: { plan.append($0) },
                calendarTo: calendarStyle.map { _ in { calendar.append($0) } },
                calendarStyle: calendarStyle ?? .expanded
            )
        } catch {
            // The sinks collect in memory and never throw.
            return ([], nil, diagnostics)
        }
        if found.contains(where: { $0.severity == .error }) { return ([], nil, found) }
        return (plan.bytes, calendarStyle == nil ? nil : calendar.bytes, found)
    }
}

/// Bytes appended by one writer thread at a time (the driver's guarantee) and read after
/// the write returned.
private final class CollectedBytes: @unchecked Sendable {
    var bytes: [UInt8] = []

    func append(_ chunk: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: chunk)
    }
}
