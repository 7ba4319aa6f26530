import ArgumentParser
@_spi(Tooling) import ReminderCompiler

/// `remindc agenda CONFIG|PLAN.json [--events F] [--now T] [--days N]`: the plan day by day.
struct AgendaCommand: ParsableCommand, ReportsDiagnostics {
    static let configuration = CommandConfiguration(
        commandName: "agenda",
        abstract: "Show a plan day by day in local time: what the phone will show, what was suppressed or dropped, where the clocks change.",
        discussion: "Reads a config, plist or JSON (compiled with --now and --events), or a plan JSON; which one is told by content. Colour on a terminal unless NO_COLOR is set."
    )

    @Argument(help: "A config (plist XML or JSON) or a plan JSON file, told apart by content.")
    var input: String

    @Option(help: ArgumentHelp(SharedOptionHelp.events))
    var events: String?

    @OptionGroup var moment: MomentOptions

    @Option(help: "How many days from now to show (1–3660); default 7.")
    var days: Int = 7

    /// The agenda's forms.
    enum Format: String, NamedChoice {
        case text, html
    }

    @Option(help: "text (for a terminal) or html (one self-contained page: a calendar grid per week).")
    var format: Format = .text

    @OptionGroup var diagnosticOptions: DiagnosticOptions

    var inputFiles: [String?] { [input, events] }

    func validate() throws {
        if !(1...3660).contains(days) { throw ValidationError("--days must be 1–3660, not \(days)") }
    }

    func run() throws {
        guard let bytes = CommandLineInput.readFile(input, limit: ReminderCompiler.maximumPlanBytes) else { throw ExitCode.failure }
        let agenda: Agenda
        // A config may be JSON too: a plan is told apart by its content.
        if ReminderCompiler.holdsPlan(bytes) {
            if events != nil || moment.now != nil || moment.timeZone != nil {
                throw CommandLineError("--events, --now and --time-zone apply to a config; a plan was compiled with them already")
            }
            let plan = try CommandLineInput.readPlan(bytes, path: input)
            agenda = Agenda(plan: plan, days: days)
        } else {
            let compiled = try PlanOfConfig.compile(bytes, path: input, events: events, moment: moment)
            agenda = Agenda(plan: compiled.plan, config: compiled.config, unbudgeted: compiled.unbudgeted, days: days)
        }
        switch format {
        case .text:
            let colour = StandardStream.output.allowsColour
            StandardStream.output.write(AgendaText.render(agenda, colour: colour))
        case .html:
            StandardStream.output.write(AgendaHTML.render(agenda))
        }
    }
}

/// A config compiled for a person to look at: the plan, and the same compile without the
/// budget (what it left out).
enum PlanOfConfig {
    /// The config and events read and checked, with the options they are planned with;
    /// errors are printed and end the command.
    static func load(
        _ bytes: [UInt8], path: String, events: String?, moment: MomentOptions
    ) throws -> (inputs: ReminderCompiler.Inputs, config: ReminderConfig, options: CompileOptions) {
        let eventsInput = try CommandLineInput.readEvents(events)
        let options = CompileOptions(now: try moment.resolve(), timeZone: moment.timeZone)
        let inputs = ReminderCompiler.load(bytes, path: path, options: options, events: eventsInput)
        guard let config = inputs.config else {
            DiagnosticPrinter.print(inputs.diagnostics)
            throw ExitCode.failure
        }
        return (inputs, config, options)
    }

    static func compile(
        _ bytes: [UInt8], path: String, events: String?, moment: MomentOptions
    ) throws -> (plan: Plan, config: ReminderConfig, unbudgeted: Plan, events: ReminderEvents) {
        let (inputs, config, options) = try load(bytes, path: path, events: events, moment: moment)
        let result = ReminderCompiler.plan(config, options: options, events: inputs.events, diagnostics: inputs.diagnostics)
        DiagnosticPrinter.print(result.diagnostics)
        guard let plan = result.plan, !DiagnosticPrinter.fails(result.diagnostics) else { throw ExitCode.failure }
        let unbudgeted = ReminderCompiler.plan(config, options: options.withoutBudget, events: inputs.events).plan ?? plan
        return (plan, config, unbudgeted, inputs.events)
    }
}
