import ArgumentParser
@_spi(Tooling) import ReminderCompiler

/// `remindc ics PLAN.json [-o FILE]`: an iCalendar file from an existing plan.
struct ICS: ParsableCommand, ReportsDiagnostics {
    static let configuration = CommandConfiguration(
        commandName: "ics",
        abstract: "Write an iCalendar (.ics) file from an existing plan.",
        discussion: """
        The expanded style needs only the plan: it names the calendar and the UID domain. The recurring style \
        expresses the schedules, so it needs --config, which must be the config the plan was compiled from.
        """
    )

    @Argument(help: "The plan JSON file.")
    var plan: String

    @Option(name: .short, help: "The .ics file; default: standard output.")
    var output: String?

    @Option(name: .customLong("ics-style"), help: "expanded (one event per notification) or recurring (needs --config).")
    var icsStyle: ICalendarStyle = .expanded

    @Option(help: "The config the plan was compiled from (refused when the plan's configDigest says otherwise).")
    var config: String?

    @OptionGroup var diagnosticOptions: DiagnosticOptions

    var inputFiles: [String?] { [plan, config] }
    var outputFiles: [(option: String, path: String?)] { [("-o", output)] }

    func run() throws {
        if icsStyle == .recurring, config == nil {
            throw CommandLineError("--ics-style recurring expresses the schedules, which a plan does not hold: give the config with --config CONFIG")
        }
        let parsedPlan = try CommandLineInput.readPlan(plan)
        guard TimeZoneDatabase.system.contains(parsedPlan.timeZone) else {
            throw CommandLineError("the plan's timeZone '\(parsedPlan.timeZone)' is not a zone of the tz database")
        }
        var parsedConfig: ReminderConfig?
        if let config {
            guard let configBytes = CommandLineInput.readFile(config) else { throw ExitCode.failure }
            let checked = ReminderCompiler.check(configBytes, path: config, options: ConfigOptions(timeZoneOverride: parsedPlan.timeZone))
            DiagnosticPrinter.print(checked.diagnostics.filter { $0.severity == .error })
            guard let value = checked.config else { throw ExitCode.failure }
            if let recorded = parsedPlan.configDigest, let digest = value.sourceDigest, recorded != digest {
                throw CommandLineError(
                    "'\(config)' is not the config '\(plan)' was compiled from (its configDigest is \(recorded), this config's \(digest)): "
                        + "compile again, or give the config it was compiled from"
                )
            }
            parsedConfig = value
        }
        let calendar: [UInt8]
        if icsStyle == .recurring, let parsedConfig {
            calendar = ICalendarExport.recurring(parsedConfig, plan: parsedPlan)
        } else {
            calendar = ICalendarExport.expanded(parsedPlan, settings: parsedConfig.map(CalendarSettings.init) ?? CalendarSettings(parsedPlan))
        }
        try CommandLineOutput.write(to: output) { file in try file.write(contentsOf: calendar) }
        if icsStyle != .recurring, let note = ReminderCompiler.calendarCutNote(parsedPlan, at: SourceLocation(path: plan, line: 1, column: 1), fromPlanFile: true) {
            DiagnosticPrinter.print([note])
        }
    }
}
