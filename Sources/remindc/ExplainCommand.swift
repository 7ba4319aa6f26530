import ArgumentParser
@_spi(Tooling) import ReminderCompiler

/// `remindc explain CONFIG --occurrence ID [--events F] [--now T]`: why an ID is or is not
/// in the plan.
struct ExplainCommand: ParsableCommand, ReportsDiagnostics {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain why an occurrence, notification or follow-up ID is in the plan or not.",
        discussion: "Answers with the cause: not a slot of its schedule (and the next slots), outside the window, suppressed by which event (file:line:column), dropped by the budget (and what pendingLimit would keep it), deferred or dropped by quiet hours, merged into a group. The first line of output is the verdict."
    )

    @Argument(help: "The config file (plist XML or JSON).")
    var config: String

    @Option(help: "The ID: {reminder or group}-{yyyyMMdd}-{HHmm}, with -followup, -followup-N or -snooze.")
    var occurrence: String

    @Option(help: ArgumentHelp(SharedOptionHelp.events))
    var events: String?

    @OptionGroup var moment: MomentOptions

    @OptionGroup var diagnosticOptions: DiagnosticOptions

    var inputFiles: [String?] { [config, events] }

    func run() throws {
        guard let bytes = CommandLineInput.readFile(config) else { throw ExitCode.failure }
        // The plan is compiled once, here, for its diagnostics, and handed to the
        // explanation (which compiles the plan without its budget only for a dropped ID).
        let (inputs, parsed, options) = try PlanOfConfig.load(bytes, path: config, events: events, moment: moment)
        let checked = ReminderCompiler.plan(parsed, options: options, events: inputs.events, diagnostics: inputs.diagnostics)
        DiagnosticPrinter.print(checked.diagnostics)
        guard let plan = checked.plan, !DiagnosticPrinter.fails(checked.diagnostics) else { throw ExitCode.failure }
        let explanation = ReminderCompiler.explain(occurrence, config: parsed, events: inputs.events, options: options, planned: plan)
        let text = (["\(occurrence): \(explanation.verdict.rawValue)"] + explanation.lines.map { "  " + $0 }).joined(separator: "\n")
        StandardStream.output.write(text + "\n")
    }
}
