import ArgumentParser
import Foundation
import ReminderCompiler

/// `remindc ics PLAN.json [-o FILE]`: an iCalendar file from an existing plan.
struct ICS: ParsableCommand, ReportsDiagnostics {
    static let configuration = CommandConfiguration(
        commandName: "ics",
        abstract: "Write an iCalendar (.ics) file from an existing plan.",
        discussion: """
        The expanded style needs only the plan; --config supplies the calendar name and UID domain \
        (default: Reminders, remindc.local). The recurring style expresses the schedules, so it needs --config.
        """
    )

    @Argument(help: "The plan JSON file.")
    var plan: String

    @Option(name: .short, help: "The .ics file; default: standard output.")
    var output: String?

    @Option(name: .customLong("ics-style"), help: "expanded (one event per notification) or recurring (needs --config).")
    var icsStyle: ICalendarStyle = .expanded

    @Option(help: "The config the plan was compiled from.")
    var config: String?

    @OptionGroup var diagnosticOptions: DiagnosticOptions

    func run() throws {
        if icsStyle == .recurring, config == nil {
            throw CommandLineError("--ics-style recurring expresses the schedules, which a plan does not hold: give the config with --config CONFIG")
        }
        try AtomicOutput.checkTargets([("-o", output)], inputs: [plan, config])
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
            parsedConfig = value
        }
        let calendar: [UInt8]
        if icsStyle == .recurring, let parsedConfig {
            calendar = ICalendarExport.recurring(parsedConfig, plan: parsedPlan)
        } else {
            calendar = ICalendarExport.expanded(parsedPlan, settings: parsedConfig.map(CalendarSettings.init) ?? CalendarSettings())
        }
        try CommandLineOutput.write(to: output) { file in try file.write(contentsOf: calendar) }
    }
}
