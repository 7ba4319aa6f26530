import ArgumentParser
@_spi(Tooling) import ReminderCompiler

/// `remindc compile CONFIG [options]`: write the plan.
struct Compile: ParsableCommand, ReportsDiagnostics {
    static let configuration = CommandConfiguration(
        commandName: "compile",
        abstract: "Compile a reminder config into a plan of dated one-time notifications.",
        discussion: "Writes the plan JSON to standard output, or atomically to -o FILE. Exit status 0 on success, 1 on any error."
    )

    @Argument(help: "The config file (plist XML or JSON).")
    var config: String

    @OptionGroup var moment: MomentOptions

    @Option(help: ArgumentHelp(SharedOptionHelp.events))
    var events: String?

    @Option(name: .customLong("horizon-days"), parsing: .unconditional, help: "Overrides the config's horizonDays (1–3660).")
    var horizonDays: Int?

    @Option(name: .customLong("pending-limit"), parsing: .unconditional, help: "Overrides the config's pendingLimit (0 = unlimited).")
    var pendingLimit: Int?

    @Option(name: .short, help: "The plan JSON file; default: standard output.")
    var output: String?

    @Option(help: "Also write the plan as an iCalendar (.ics) file.")
    var ics: String?

    @Option(name: .customLong("ics-style"), help: "expanded (one event per notification) or recurring (one series per reminder and time).")
    var icsStyle: ICalendarStyle = Self.defaultICSStyle

    @Option(name: .customLong("ics-scope"), help: "plan (the plan's notifications) or window (every notification of the window, before the budget); default: the config's calendarScope.")
    var icsScope: CalendarScope?

    @Option(help: "Also write the plan as one self-contained HTML page: a calendar grid per week, with what the events suppressed and the budget dropped.")
    var html: String?

    @Option(help: "The previous plan: unchanged notifications keep their sequence, changed ones count it up.")
    var previous: String?

    @Option(help: "With --previous: also write the JSON diff from the previous plan to this one.")
    var diff: String?

    @OptionGroup var diagnosticOptions: DiagnosticOptions

    var inputFiles: [String?] { [config, events, previous] }
    var outputFiles: [(option: String, path: String?)] { [("-o", output), ("--ics", ics), ("--diff", diff), ("--html", html)] }

    /// One event per notification, when `--ics-style` is not given.
    static let defaultICSStyle = ICalendarStyle.expanded

    func validate() throws {
        if let horizonDays, !(1...3660).contains(horizonDays) {
            throw ValidationError("--horizon-days must be 1–3660, not \(horizonDays)")
        }
        if let pendingLimit, pendingLimit < 0 {
            throw ValidationError("--pending-limit must be 0 (unlimited) or more, not \(pendingLimit)")
        }
        if diff != nil, previous == nil {
            throw ValidationError("--diff needs --previous: a diff compares with the previous plan")
        }
    }

    func run() throws {
        guard let bytes = CommandLineInput.readFile(config) else { throw ExitCode.failure }
        let eventsInput = try CommandLineInput.readEvents(events)
        let options = CompileOptions(
            now: try moment.resolve(), timeZone: moment.timeZone, horizonDays: horizonDays, pendingLimit: pendingLimit
        )
        let previousPlan = try previous.map(CommandLineInput.readPlan)
        // A diff needs the whole plan; otherwise the plan and the calendar are written a few
        // weeks at a time, and the HTML page takes what it shows from a pass of its own.
        if diff == nil {
            try compileInChunks(bytes, events: eventsInput, options: options, previous: previousPlan)
            return
        }
        let result = ReminderCompiler.compile(bytes, path: config, options: options, events: eventsInput)
        DiagnosticPrinter.print(result.diagnostics)
        guard var plan = result.plan, let parsed = result.config, !DiagnosticPrinter.fails(result.diagnostics) else {
            throw ExitCode.failure
        }
        if let previousPlan { ReminderCompiler.carrySequences(into: &plan, from: previousPlan) }
        // Every file is staged first and renamed into place together: on any error none is
        // created or changed.
        var files = AtomicOutput()
        try files.stage(at: output ?? "-", maximumBytes: ReminderCompiler.maximumPlanBytes) { file in
            try PlanJSON.write(plan) { try file.write(contentsOf: $0) }
        }
        // The same compile without a budget, for the outputs that show the whole window:
        // made once, when the first of them asks.
        var unbudgetedPlan: Plan??
        func unbudgeted() -> Plan? {
            if let unbudgetedPlan { return unbudgetedPlan }
            let found = ReminderCompiler.compile(bytes, path: config, options: options.withoutBudget, events: eventsInput).plan
            unbudgetedPlan = .some(found)
            return found
        }
        if let ics {
            if icsStyle == .expanded {
                var calendarPlan = plan
                if (icsScope ?? parsed.calendarScope) == .window, plan.pendingLimit != 0 {
                    // Every notification of the window.
                    calendarPlan = unbudgeted() ?? plan
                    if let previousPlan { ReminderCompiler.carrySequences(into: &calendarPlan, from: previousPlan) }
                }
                try files.stage(at: ics, maximumBytes: ReminderCompiler.maximumCalendarBytes) { file in
                    try ICalendarExport.writeExpanded(calendarPlan, settings: CalendarSettings(parsed)) { try file.write(contentsOf: $0) }
                }
                if let note = ReminderCompiler.calendarCutNote(calendarPlan, at: parsed.location) { DiagnosticPrinter.print([note]) }
            } else {
                // Every snooze of the window, also those the budget cut: the series leave out
                // every snoozed occurrence.
                var outline = plan
                if plan.dropped > 0 { outline.notifications = unbudgeted()?.notifications ?? plan.notifications }
                try files.stage(ICalendarExport.recurring(parsed, plan: outline), at: ics)
            }
        }
        if let diff, let previousPlan {
            try files.stage(DiffOutput.json(PlanDiff(old: previousPlan, new: plan)), at: diff)
        }
        if let html {
            do {
                let inputs = ReminderCompiler.load(bytes, path: config, options: options, events: eventsInput)
                guard let compilation = ChunkedCompilation(inputs: inputs, options: options) else { throw ExitCode.failure }
                try files.stage(try agendaPage(compilation), at: html)
            } catch {
                files.discard()
                throw error
            }
        }
        try files.commit()
    }

    /// The HTML page of the plan's agenda. It holds at most `Agenda.maximumEntries`
    /// entries, so it is made from a listing of the window's first notifications and a
    /// count of the rest (what the budget drops shown too), not from the whole window.
    private func agendaPage(_ compilation: ChunkedCompilation) throws -> [UInt8] {
        let listed = compilation.agendaListing(atLeast: Agenda.maximumEntries)
        guard let plan = listed.plan else {
            // The same inputs planned a moment ago; this is not expected.
            DiagnosticPrinter.print(listed.diagnostics)
            throw ExitCode.failure
        }
        let agenda = Agenda(plan: plan, config: compilation.config, unbudgeted: listed.unbudgeted, notListed: listed.notListed)
        return Array(AgendaHTML.render(agenda).utf8)
    }

    private func compileInChunks(
        _ bytes: [UInt8], events: (bytes: [UInt8], path: String)?, options: CompileOptions, previous: Plan?
    ) throws {
        let inputs = ReminderCompiler.load(bytes, path: config, options: options, events: events)
        guard var compilation = ChunkedCompilation(inputs: inputs, options: options) else {
            DiagnosticPrinter.print(inputs.diagnostics)
            throw ExitCode.failure
        }
        compilation.previous = previous
        compilation.calendarScope = icsScope
        var files = AtomicOutput()
        let planFile = try files.open(output ?? "-", maximumBytes: ReminderCompiler.maximumPlanBytes)
        let calendarFile = try ics.map { try files.open($0) }
        let found: [Diagnostic]
        do {
            found = try compilation.write(
                planTo: { chunk in try planFile.write(contentsOf: chunk) },
                calendarTo: calendarFile.map { file in { chunk in try file.write(contentsOf: chunk) } },
                calendarStyle: icsStyle
            )
        } catch {
            files.discard()
            throw CommandLineError("cannot write the output: \(OutputFile.describe(error))")
        }
        DiagnosticPrinter.print(found)
        guard !DiagnosticPrinter.fails(found) else {
            files.discard()
            throw ExitCode.failure
        }
        if let html {
            do {
                try files.stage(try agendaPage(compilation), at: html)
            } catch {
                files.discard()
                throw error
            }
        }
        try files.commit()
    }
}

/// `--now` and `--time-zone`, shared by the commands that plan: the instant a plan is made
/// at, and the zone that overrides the config's. They are one group because they always go
/// together, and each group costs every run of a command its own reflection.
struct MomentOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The compile instant: RFC 3339 (2026-11-22T08:00:00Z, 2026-11-22T09:00:00+01:00) or a local time (2026-11-22T09:00) in the plan's zone; default: now.",
            valueName: "T"
        )
    )
    var now: String?

    @Option(name: .customLong("time-zone"), help: ArgumentHelp(SharedOptionHelp.timeZone))
    var timeZone: String?

    func validate() throws {
        try CommandLineInput.checkTimeZone(timeZone)
    }

    /// The moment named by `--now`, or the current time.
    func resolve() throws -> CompileOptions.Moment {
        guard let now else { return .instant(CommandLineInput.currentInstant()) }
        if let instant = InstantParsing.rfc3339(now) { return .instant(instant) }
        if let local = InstantParsing.localDateTime(now) { return .local(local) }
        throw ValidationError(
            "--now '\(now)' is neither an RFC 3339 instant (2026-11-22T08:00:00Z) nor a local time (2026-11-22T09:00)"
        )
    }
}

extension ICalendarStyle: NamedChoice {}
extension CalendarScope: NamedChoice {}

/// Writing command results.
enum CommandLineOutput {
    /// Lets `write` fill `path` atomically, or standard output when `path` is nil or `-`.
    static func write(to path: String?, _ write: (OutputFile) throws -> Void) throws {
        var output = AtomicOutput()
        try output.stage(at: path ?? "-", write)
        try output.commit()
    }
}

extension Compile {
    /// The command of a plain command line (see `PlainCommandLine`), read without the
    /// argument parser; every option is set here, as the parser sets it.
    init(plain arguments: ArraySlice<String>) throws(PlainCommandLine.NotPlain) {
        var line = try PlainCommandLine(arguments, knownFlags: DiagnosticOptions.plainFlags)
        guard line.positionals.count == 1 else { throw PlainCommandLine.NotPlain() }
        var command = Self()
        command.config = line.positionals[0]
        command.moment = try MomentOptions(plain: &line)
        command.events = line.take("--events")
        command.horizonDays = try line.takeValue("--horizon-days")
        command.pendingLimit = try line.takeValue("--pending-limit")
        command.output = line.take("-o")
        command.ics = line.take("--ics")
        command.icsStyle = try line.takeValue("--ics-style") ?? Self.defaultICSStyle
        command.icsScope = try line.takeValue("--ics-scope")
        command.html = line.take("--html")
        command.previous = line.take("--previous")
        command.diff = line.take("--diff")
        command.diagnosticOptions = try DiagnosticOptions(plain: &line)
        try line.finish()
        try PlainCommandLine.validated(command.validate)
        self = command
    }
}
