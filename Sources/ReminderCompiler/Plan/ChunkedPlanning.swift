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
    /// When raised, planning stops before its next range and the diagnostics end with
    /// `plan.stopped`.
    public var stopSignal: StopSignal?
    /// The most bytes `write` gives each output: the library's limits, smaller in tests.
    var outputLimits = (plan: ReminderCompiler.maximumPlanBytes, calendar: ReminderCompiler.maximumCalendarBytes)
    /// Whether each distinct content's output bytes are written once, ahead, for the plan
    /// and calendar writers: worth it when the plan is written, not for a plan returned to
    /// an app, which writes it field by field if ever (the same bytes).
    var preparesOutput = true

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

    /// Creates a compilation of a config that validation passed, planned without checking
    /// it again.
    init(validated: ValidatedConfig, options: CompileOptions) {
        self.init(config: validated.config, options: options)
        self.validated = validated
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
    /// Neither output may pass `ReminderCompiler.maximumPlanBytes` (the plan) or
    /// `ReminderCompiler.maximumCalendarBytes` (the calendar): the write stops at the first
    /// chunk that would, and the diagnostics end with an error naming the limit. What the
    /// sinks took until then must be thrown away, as the command line and the service do.
    ///
    /// - Returns: the diagnostics, sorted; when they hold an error, the output is not a
    ///   plan or calendar to keep.
    public func write(
        planTo planSink: @escaping (Span<UInt8>) throws -> Void,
        calendarTo icsSink: ((Span<UInt8>) throws -> Void)? = nil,
        calendarSettings: CalendarSettings? = nil,
        calendarStyle: ICalendarStyle = .expanded
    ) throws -> [Diagnostic] {
        let planBytes = ByteAllowance(limit: outputLimits.plan, output: "plan")
        let calendarBytes = ByteAllowance(limit: outputLimits.calendar, output: "calendar")
        do {
            return try writeWithoutLimits(
                planTo: { chunk in
                    try planBytes.take(chunk.count)
                    try planSink(chunk)
                },
                calendarTo: icsSink.map { sink in
                    { chunk in
                        try calendarBytes.take(chunk.count)
                        try sink(chunk)
                    }
                },
                calendarSettings: calendarSettings, calendarStyle: calendarStyle
            )
        } catch let tooLarge as ByteAllowance.Exceeded {
            var collector = DiagnosticCollector()
            collector.append(contentsOf: diagnostics)
            collector.error(.outputTooLarge(tooLarge.output, limit: tooLarge.limit), at: config.location)
            return collector.sorted
        }
    }

    /// `write`, without its limits on the outputs' sizes.
    private func writeWithoutLimits(
        planTo planSink: @escaping (Span<UInt8>) throws -> Void,
        calendarTo icsSink: ((Span<UInt8>) throws -> Void)?,
        calendarSettings: CalendarSettings?,
        calendarStyle: ICalendarStyle
    ) throws -> [Diagnostic] {
        let budgeted = (options.pendingLimit ?? config.pendingLimit) != 0
        if let icsSink, calendarStyle == .expanded, budgeted, (calendarScope ?? config.calendarScope) == .window {
            // The plan as budgeted, then the calendar from a pass over the whole window.
            var planPass = self
            planPass.calendarScope = .plan
            let found = try planPass.writeWithoutLimits(planTo: planSink, calendarTo: nil, calendarSettings: nil, calendarStyle: .expanded)
            guard !found.contains(where: { $0.severity == .error }) else { return found }
            var calendarPass = planPass
            calendarPass.options = options.withoutBudget
            let calendarFound = try calendarPass.writeWithoutLimits(
                planTo: { _ in }, calendarTo: icsSink, calendarSettings: calendarSettings, calendarStyle: .expanded
            )
            // Its warnings are the plan's; an error (the pass was stopped) ends the write.
            let calendarErrors = calendarFound.filter { $0.severity == .error }
            guard calendarErrors.isEmpty else {
                var collector = DiagnosticCollector()
                collector.append(contentsOf: found + calendarErrors)
                return collector.sorted
            }
            return found
        }
        let expandedSink = calendarStyle == .expanded ? icsSink : nil
        // The plan and the calendar are written on threads of their own, a range or two
        // behind the planning: on a machine with two cores they cost little time. Each
        // stream is written by one thread, range after range, so the bytes do not depend
        // on timing.
        var planStream: Box<PlanJSONStream>?
        let planWriter = BackgroundWriter()
        var calendarStream: Box<ExpandedCalendarStream>?
        let calendarWriter = BackgroundWriter()
        // However this function ends, the writers are done before it returns.
        defer {
            planWriter.waitUntilDone()
            calendarWriter.waitUntilDone()
        }
        var keptSnoozes: [PlannedNotification] = []
        // Only events make snoozes: without a snooze among them, no range is searched for one.
        let keepsSnoozes = icsSink != nil && expandedSink == nil && events.actions.contains(where: \.isSnooze)
        var calendarStart: DriveStart?
        func calendar(_ start: DriveStart, firstEvent: Int64?) -> ExpandedCalendarStream {
            ExpandedCalendarStream(
                header: start.header, settings: calendarSettings ?? CalendarSettings(config),
                eventSpan: (start.firstKept ?? firstEvent).flatMap { first in start.lastKept.map { first...$0 } },
                otherZones: start.otherZones, zones: zones
            )
        }
        let outcome = try drive(
            countFirst: true, needsLastInstant: expandedSink != nil, needsOtherZones: expandedSink != nil,
            begin: { start in
                planStream = Box(PlanJSONStream(header: start.header))
                calendarStart = start
            },
            receive: { notifications in
                // A recurring calendar shows snoozes and their follow-ups as plain events.
                if keepsSnoozes { keptSnoozes += notifications.filter { $0.isSnoozeOrItsFollowUp } }
                let planStream = planStream!
                try planWriter.submit { try planStream.value.append(contentsOf: notifications, to: planSink) }
                if let expandedSink, let first = notifications.first, let start = calendarStart {
                    // Made at the first event, whose instant starts the VTIMEZONE's span
                    // when the whole window was not counted first.
                    let stream = calendarStream ?? Box(calendar(start, firstEvent: first.fireAt.seconds))
                    calendarStream = stream
                    try calendarWriter.submit { try stream.value.append(contentsOf: notifications, to: expandedSink) }
                }
            }
        )
        guard case .success(let outline) = outcome else {
            if case .failure(let failure) = outcome { return failure.diagnostics }
            return []
        }
        let planStreamDone = planStream!
        try planWriter.finish {
            try planStreamDone.value.finish(closing: outline.plan, to: planSink)
        }
        if let expandedSink, let start = calendarStart {
            let stream = calendarStream ?? Box(calendar(start, firstEvent: nil))
            try calendarWriter.finish { try stream.value.finish(to: expandedSink) }
            if let note = ReminderCompiler.calendarCutNote(outline.plan, at: config.location) {
                var collector = DiagnosticCollector()
                collector.append(contentsOf: outline.diagnostics + [note])
                return collector.sorted
            }
        } else if let icsSink {
            var recurringOutline = outline.plan
            recurringOutline.notifications = keptSnoozes
            // The series leave out every snoozed occurrence of the window (EXDATE), so the
            // calendar holds every snooze of the window too, also those the budget cut.
            if outline.plan.dropped > 0, events.actions.contains(where: \.isSnooze) {
                var wholeWindow = self
                wholeWindow.options = options.withoutBudget
                // A stopped re-plan ends with `plan.stopped`, as the outline's own drive would.
                let whole = wholeWindow.plan()
                guard let unbudgeted = whole.plan else { return whole.diagnostics }
                recurringOutline.notifications = unbudgeted.notifications.filter { $0.isSnoozeOrItsFollowUp }
            }
            guard let bytes = ICalendarExport.recurring(outline.validated, plan: recurringOutline, zones: zones, stopSignal: stopSignal)
            else {
                var collector = DiagnosticCollector()
                collector.append(contentsOf: outline.diagnostics)
                collector.error(.planningStopped, at: config.location)
                return collector.sorted
            }
            try calendarWriter.finish { try icsSink(bytes.span) }
        }
        return outline.diagnostics
    }

    /// What the driver knows when it hands over the first notification.
    private struct DriveStart {
        /// The plan's header: with `countFirst`, its `dropped` and `coveredUntil` are final.
        var header: Plan
        /// The instants of the first and last notification kept, when known before the first
        /// is handed over.
        var firstKept: Int64?
        var lastKept: Int64?
        /// The zones, other than the plan's, that kept notifications carry.
        var otherZones: [String]
    }

    /// How a drive ends: its outline, or the errors that stopped it before or while it
    /// planned. Not a `Result`: a `Result` of `PlanSetup.Failure` is a generic type made at
    /// run time, whose `Failure: Error` the runtime checks against every conformance record
    /// of the binary, about 150 000 instructions of each process that plans.
    private enum DriveEnd {
        case success(DriveOutline)
        case failure(PlanSetup.Failure)
    }

    /// A finished drive: the plan's header with what the events removed, its warnings and
    /// its series' sequences (no notifications), the config as planned, and the sorted
    /// diagnostics.
    private struct DriveOutline {
        var plan: Plan
        var validated: ValidatedConfig
        var diagnostics: [Diagnostic]
        /// Notifications kept but not handed over, past `handOverAtMost`.
        var notHandedOver = 0
        /// Suppressed entries after the last notification handed over that stand apart: not
        /// a kept notification's (one that lost only some members shares its notification's
        /// ID). 0 when every range was handed over.
        var suppressedApartNotHandedOver = 0
    }

    /// The one planning driver. Checks the config when it was not checked already, then
    /// cuts the window into ranges of `chunkDays` and drafts, renders and hands over range
    /// after range what the budget keeps, in plan order, to `receive`; `begin` is called once
    /// before. Everything the events removed, and the warnings of planning, come with the
    /// outline at the end.
    ///
    /// - Parameters:
    ///   - countFirst: whether the budget's cut must be known before the first notification
    ///     (a streamed plan's `dropped` and `coveredUntil` come first): a limited plan is
    ///     then drafted twice, once to count. Otherwise a single pass counts as it goes and
    ///     the outline holds the final header.
    ///   - needsLastInstant: whether an unlimited plan's last instant is wanted in `begin`
    ///     (a calendar's VTIMEZONE spans the events).
    ///   - needsOtherZones: whether `begin` needs the zones kept notifications pin.
    ///   - handOverAtMost: once this many were handed over, the ranges after are drafted
    ///     and counted, not rendered (the outline says how many were kept after them).
    private func drive(
        countFirst: Bool, needsLastInstant: Bool, needsOtherZones: Bool, handOverAtMost: Int = .max,
        begin: (DriveStart) throws -> Void, receive: ([PlannedNotification]) throws -> Void
    ) rethrows -> DriveEnd {
        let validated: ValidatedConfig
        var found = diagnostics
        if let checked = self.validated, checked.timeZoneOverride == options.timeZone {
            validated = checked
        } else {
            do {
                (validated, found) = try PlanSetup.validate(config, options: options, diagnostics: diagnostics, zones: zones)
            } catch {
                return .failure(error)
            }
        }
        let config = validated.config
        var setup: PlanSetup
        do {
            setup = try PlanSetup.prepare(validated, options: options, events: events, diagnostics: found, zones: zones)
        } catch {
            return .failure(error)
        }
        let planner = Planner(config: config, order: validated.order, window: setup.window, events: events, preparesOutput: preparesOutput)
        let capacity = setup.budget.keptCount(of: Int.max)
        // With a budget, the first range is a week: what an app's budget keeps often lies
        // in its first days, and the ranges after the cut are only counted, unsorted.
        let ranges = planner.instantRanges(days: chunkDays, firstDays: capacity == Int.max ? nil : min(chunkDays, 7))
        let unlimited = capacity == Int.max
        // Whether a first pass counted the window: it then holds what the events removed.
        let counted = countFirst && !unlimited
        func draft(_ range: DraftRange) -> PlanDraft { planner.draft(range) }
        // Passes over the window end early once the stop signal is raised.
        let stopSignal = self.stopSignal
        func running(_ range: DraftRange) -> Bool { stopSignal?.isRaised != true }
        func stopped() -> DriveEnd? {
            guard stopSignal?.isRaised == true else { return nil }
            setup.collector.error(.planningStopped, at: config.location)
            return .failure(PlanSetup.Failure(diagnostics: setup.collector.sorted))
        }

        var summary = WindowSummary()
        // The last range with notifications, drafted early for the VTIMEZONE and kept for
        // its turn rather than drafted twice.
        var lastDraft: (index: Int, draft: PlanDraft)?
        if counted {
            summary = countKept(ranges.lazy.prefix(while: running).map(draft), capacity: capacity)
            if let stopped = stopped() { return stopped }
        } else if unlimited, needsLastInstant {
            for index in ranges.indices.reversed() {
                let found = draft(ranges[index])
                if let last = found.candidates.last {
                    summary.lastKept = last.fireAt
                    lastDraft = (index, found)
                    break
                }
            }
        }
        // Without a first count, the budget's cut is found as the ranges come.
        let keptCount = unlimited ? Int.max : counted ? min(summary.total, capacity) : capacity
        // Made with the check, in the zone the config was checked for: the plan's zone.
        let digestsOfTheCheck = (validated.timeZoneOverride ?? config.timeZone) == setup.zoneName ? validated.reminderDigests : nil
        let reminderDigests = digestsOfTheCheck ?? ReminderCompiler.reminderDigests(of: config, planZone: setup.zoneName)
        func header(dropped: Int, coveredUntil: ZonedInstant) -> Plan {
            var header = Plan(
                timeZone: setup.zoneName, now: setup.window.zoned(setup.window.now),
                windowEnd: setup.window.zoned(setup.window.windowEnd), pendingLimit: setup.pendingLimit,
                reservedSlots: config.reservedSlots, coveredUntil: coveredUntil, dropped: dropped,
                categories: config.categories, notifications: [], suppressed: [], warnings: [], tzdataVersion: zones.version
            )
            header.recordProvenance(of: config, reminderDigests: reminderDigests)
            return header
        }
        let knownCoveredUntil = setup.window.zoned(summary.firstDropped ?? setup.window.windowEnd)
        // The calendar's VTIMEZONEs come before its events: the zones reminders pin, other
        // than the plan's, are found first by a pass over what the budget keeps (only for
        // configs that pin zones).
        let otherZones = needsOtherZones && planner.window.pinsOtherZones
            ? zonesInUse(ranges.lazy.prefix(while: running).map(draft), keptCount: keptCount, planner: planner) : []
        if let stopped = stopped() { return stopped }
        try begin(DriveStart(
            header: header(dropped: counted ? summary.total - keptCount : 0, coveredUntil: knownCoveredUntil),
            firstKept: summary.firstKept, lastKept: summary.lastKept, otherZones: otherZones
        ))

        let sequences = previous.map { SequenceCarrier($0, now: setup.window.now) }
        var collisions = NumericIDCollisions()
        var written = 0
        var notHandedOver = 0
        var suppressedApartNotHandedOver = 0
        // Suppressed entries of the ranges handed over after their last notification: none
        // of them shares a later notification's ID.
        var suppressedAfterLastHandedOver = 0
        var skippedAny = false
        // The last notification handed over: the search for IDs with a repeated numericId
        // reads no further in the order of candidates.
        var lastWritten: (fireAt: Int64, id: String)?
        // Numbers are noted with the day their notification fires on, counted from the
        // window's first date, and the reminder of its unit, so that the search drafts
        // again only those reminders on those days. (A window too long for both in one
        // place notes the day alone, and the search drafts whole days.)
        let firstDay = planner.dateRange.lowerBound.dayNumber
        let windowDays = planner.dateRange.upperBound.dayNumber - firstDay + 1
        let reminderPlaces = windowDays * planner.reminders.count < Int(Int32.max) ? planner.reminders.count : 1
        for (index, range) in ranges.enumerated() {
            // After the budget's cut, ranges are drafted only to count what they hold.
            if written >= keptCount, counted || unlimited { break }
            if let stopped = stopped() { return stopped }
            // A range past the budget's cut is drafted only to count what it holds: its
            // candidates are not sorted (W1's re-plan counts its last days so).
            let countsOnly = written >= keptCount
            let draft = lastDraft?.index == index ? lastDraft!.draft : countsOnly ? planner.draft(range, sorted: false) : draft(range)
            if !counted {
                // Every range resolves the same events, so their warnings are taken once.
                if index == 0 { summary.warnings = draft.warnings }
                summary.suppressed += draft.suppressed
                summary.total += draft.candidates.count
            }
            let take = min(draft.candidates.count, keptCount - written)
            if !counted, take < draft.candidates.count, summary.firstDropped == nil {
                summary.firstDropped = countsOnly ? draft.candidates.lazy.map(\.fireAt).min() : draft.candidates[take].fireAt
            }
            if written >= handOverAtMost {
                if !skippedAny { suppressedApartNotHandedOver = suppressedAfterLastHandedOver }
                skippedAny = true
                written += take
                notHandedOver += take
                if !draft.suppressed.isEmpty {
                    let kept = Set(draft.candidates[..<take].map { draft.id(of: $0) })
                    suppressedApartNotHandedOver += draft.suppressed.count { !kept.contains($0.id) }
                }
                continue
            }
            if take > 0 {
                let last = draft.candidates[take - 1].fireAt
                suppressedAfterLastHandedOver = draft.suppressed.count { $0.fireAt.seconds > last }
            } else {
                suppressedAfterLastHandedOver += draft.suppressed.count
            }
            guard take > 0 else { continue }
            var rendered = planner.render(draft.candidates[..<take], of: draft)
            if let sequences {
                for position in rendered.indices { sequences.carry(into: &rendered[position]) }
            }
            // The ranges left are guessed to hold as many as this one; the guess is held to
            // twice what has come so far (or a small table), so that a dense first range
            // followed by sparse ones cannot make the table far larger than the plan.
            let guess = written + take * (ranges.count - index)
            collisions.expect(min(keptCount, guess, max(2 * (written + take), 1 << 17)))
            for position in rendered.indices {
                let day = planner.window.timeline.localDate(of: rendered[position].fireAt.seconds).dayNumber - firstDay
                let reminder = reminderPlaces == 1 ? 0 : draft.reminder(of: draft.candidates[position])
                collisions.note(rendered[position].numericId, in: day * reminderPlaces + reminder)
            }
            written += take
            if let last = rendered.last { lastWritten = (last.fireAt.seconds, last.id) }
            try receive(rendered)
        }
        let coveredUntil = setup.window.zoned(summary.firstDropped ?? setup.window.windowEnd)
        // In the order the warnings have always been reported.
        setup.collector.append(contentsOf: summary.warnings)
        setup.warnAboutCoverage(until: coveredUntil)
        collisions.report(to: &setup.collector, at: config.location) { search in
            // Only the days where IDs with a repeated number came are drafted again, up to
            // the last notification handed over.
            guard let lastWritten else { return }
            let days = planner.instantRanges(days: 1)
            var remindersByDay: [Int: Set<Int>] = [:]
            for place in search.places { remindersByDay[place / reminderPlaces, default: []].insert(place % reminderPlaces) }
            for day in remindersByDay.keys.sorted() where days.indices.contains(day) {
                // The day's notifications of those reminders (and of their groups' other
                // members), in plan order: every ID with a repeated number is among them.
                let only = reminderPlaces == 1 ? nil : remindersByDay[day]
                let dayDraft = planner.draft(of: planner.units(dates: days[day].dates, only: only), instants: days[day].instants)
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
        var outline = header(dropped: unlimited ? 0 : summary.total - min(summary.total, capacity), coveredUntil: coveredUntil)
        outline.suppressed = summary.suppressed
        outline.warnings = sorted.filter { $0.severity == .warning }.map(\.message.text)
        if let sequences {
            (outline.seriesSequences, outline.reminderRevisions, outline.reminderDigests) = sequences.sequences(
                coveredUntil: coveredUntil.seconds, digests: outline.reminderDigests
            )
        }
        return .success(DriveOutline(
            plan: outline, validated: validated, diagnostics: sorted, notHandedOver: notHandedOver,
            suppressedApartNotHandedOver: suppressedApartNotHandedOver
        ))
    }

    /// The whole plan in memory, from one pass of the driver: what `ReminderCompiler.plan`
    /// returns.
    func plan() -> CompileResult {
        var kept: [PlannedNotification] = []
        switch drive(countFirst: false, needsLastInstant: false, needsOtherZones: false, begin: { _ in }, receive: { kept += $0 }) {
        case .failure(let failure):
            return CompileResult(plan: nil, diagnostics: failure.diagnostics)
        case .success(var outline):
            outline.plan.notifications = kept
            return CompileResult(plan: outline.plan, config: outline.validated.config, diagnostics: outline.diagnostics)
        }
    }

    /// The plan JSON handed to `sink` range by range on the caller's thread, stopped at the
    /// plan limit as `write` stops it, and the plan itself, with its notifications only when
    /// `keepingNotifications`: for a caller that answers with the bytes and needs the plan
    /// beside them only for a diff or a reconciliation (batch jobs, the service), so that
    /// memory holds the answer and not the plan too, and no thread is started per answer.
    ///
    /// - Returns: the plan, nil when the diagnostics hold an error (the bytes given to
    ///   `sink` are then no plan to keep), and the diagnostics, sorted.
    func writePlan(keepingNotifications: Bool, to sink: (Span<UInt8>) -> Void) -> (plan: Plan?, diagnostics: [Diagnostic]) {
        let allowance = ByteAllowance(limit: outputLimits.plan, output: "plan")
        func take(_ chunk: Span<UInt8>) throws {
            try allowance.take(chunk.count)
            sink(chunk)
        }
        // An unlimited plan's header is final before its first notification, so its JSON
        // streams. A budgeted one holds at most the budget: it is written at the end, from
        // one pass, rather than counted by a pass of its own first.
        let streams = (options.pendingLimit ?? config.pendingLimit) == 0
        var stream: PlanJSONStream?
        var kept: [PlannedNotification] = []
        do {
            let outcome = try drive(
                countFirst: false, needsLastInstant: false, needsOtherZones: false,
                begin: { start in
                    if streams { stream = PlanJSONStream(header: start.header) }
                },
                receive: { notifications in
                    if keepingNotifications || !streams { kept += notifications }
                    try stream?.append(contentsOf: notifications, to: take)
                }
            )
            switch outcome {
            case .failure(let failure):
                return (nil, failure.diagnostics)
            case .success(var outline):
                if !streams {
                    stream = PlanJSONStream(header: outline.plan)
                    try stream?.append(contentsOf: kept, to: take)
                }
                try stream?.finish(closing: outline.plan, to: take)
                outline.plan.notifications = kept
                return (outline.plan, outline.diagnostics)
            }
        } catch {
            // Only the allowance throws.
            var collector = DiagnosticCollector()
            collector.append(contentsOf: diagnostics)
            collector.error(.outputTooLarge("plan", limit: allowance.limit), at: config.location)
            return (nil, collector.sorted)
        }
    }

    /// What an agenda of the whole window shows, in memory that does not grow with the
    /// window: the plan's header and suppressed list with its first notifications, the
    /// window's first notifications without the budget, at least `count` (whole ranges, so
    /// that every one up to the last listed is there), and how many agenda entries come
    /// after the last one listed: notifications, kept or dropped, and suppressed entries
    /// that stand apart from them. `unbudgeted` is nil when the budget dropped nothing.
    ///
    /// - Returns: nil plans when the compile has errors (see `diagnostics`).
    public func agendaListing(atLeast count: Int) -> (plan: Plan?, unbudgeted: Plan?, notListed: Int, diagnostics: [Diagnostic]) {
        typealias Listing = (plan: Plan, notifications: Int, apart: Int)
        func listing(_ compilation: ChunkedCompilation, count: Int) throws(PlanSetup.Failure) -> Listing {
            var kept: [PlannedNotification] = []
            let end = compilation.drive(
                countFirst: false, needsLastInstant: false, needsOtherZones: false, handOverAtMost: max(1, count),
                begin: { _ in }, receive: { kept += $0 }
            )
            switch end {
            case .failure(let failure):
                throw failure
            case .success(let outline):
                var plan = outline.plan
                plan.notifications = kept
                return (plan, outline.notHandedOver, outline.suppressedApartNotHandedOver)
            }
        }
        let planned: Listing
        do {
            planned = try listing(self, count: count)
        } catch {
            return (nil, nil, 0, error.diagnostics)
        }
        guard planned.plan.dropped > 0 else { return (planned.plan, nil, planned.notifications + planned.apart, []) }
        // The window without the budget: over the same ranges when the plan's own list
        // stopped before the budget's cut (every notification there is kept, so both count
        // alike), else on past the kept ones to `count` dropped ones.
        let listed = planned.plan.notifications.count
        let (sum, overflow) = count.addingReportingOverflow(listed)
        var wholeWindow = self
        wholeWindow.options = options.withoutBudget
        do {
            let window = try listing(wholeWindow, count: planned.notifications > 0 ? listed : overflow ? .max : sum)
            return (planned.plan, window.plan, window.notifications + window.apart, [])
        } catch {
            return (nil, nil, 0, error.diagnostics)
        }
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

/// One range of the window that is drafted at a time: its instants, and the local dates
/// whose slots can fire in them. A struct rather than a tuple: an array of labelled tuples
/// made its type at its first use, a third of a million instructions of a W1 `compile`.
struct DraftRange {
    let dates: ClosedRange<CivilDate>
    let instants: Range<Int64>
}

extension Planner {
    /// The window cut into ranges of instants at local midnights `days` apart, with the
    /// local dates whose slots can fire in each (a follow-up, or a slot moved by a
    /// daylight-saving change, can fire on another date than its slot's). Drafting range
    /// after range gives the whole window's candidates in order while memory holds one
    /// range.
    func instantRanges(days: Int, firstDays: Int? = nil) -> [DraftRange] {
        let dates = dateRange
        let reachDays = Int((lateReach + 86_399) / 86_400)
        var result: [DraftRange] = []
        var start = dates.lowerBound
        var lowerInstant = Int64.min
        while start <= dates.upperBound {
            let next = start.adding(days: max(1, min(result.isEmpty ? firstDays ?? days : days, 4000)))
            let upperInstant = next > dates.upperBound
                ? Int64.max : window.timeline.instant(ofLocal: Int64(next.dayNumber) * 86_400).instant
            let expansion = max(dates.lowerBound, start.adding(days: -2 - reachDays))...min(dates.upperBound, next.adding(days: 1))
            result.append(DraftRange(dates: expansion, instants: lowerInstant..<upperInstant))
            lowerInstant = upperInstant
            start = next
        }
        return result
    }

    /// The candidates and removals of one range.
    func draft(_ range: DraftRange, sorted: Bool = true) -> PlanDraft {
        draft(of: units(dates: range.dates), instants: range.instants, sorted: sorted)
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
