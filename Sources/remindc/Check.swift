import ArgumentParser
@_spi(Tooling) import ReminderCompiler

/// `remindc check CONFIG...`: validate configs and print diagnostics; writes nothing.
struct Check: ParsableCommand, ReportsDiagnostics {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Parse and validate reminder configs; print diagnostics, write nothing.",
        discussion: "Exit status: 0 when no file has errors, 1 otherwise."
    )

    @Argument(help: "The config files (plist XML or JSON).")
    var configs: [String]

    /// The same `--now` (instant or local time) and `--time-zone` as `compile`'s. Given
    /// `--now`, the config is also planned from it, and the plan's warnings (coverage,
    /// shared numericIds) are reported as `compile` reports them.
    @OptionGroup var moment: MomentOptions

    @OptionGroup var diagnosticOptions: DiagnosticOptions

    var inputFiles: [String?] { configs }

    func validate() throws {
        if configs.isEmpty { throw ValidationError("Give at least one config file.") }
    }

    func run() throws {
        let resolved = try moment.resolve()
        var failed = false
        for path in configs {
            guard let bytes = CommandLineInput.readFile(path) else {
                failed = true
                continue
            }
            // With --now, check sees what compile sees: the plan's warnings too.
            let diagnostics: [Diagnostic]
            if moment.now == nil, case .instant(let instant) = resolved {
                diagnostics = ReminderCompiler.check(bytes, path: path, options: ConfigOptions(timeZoneOverride: moment.timeZone, now: instant)).diagnostics
            } else {
                diagnostics = ReminderCompiler.compile(bytes, path: path, options: CompileOptions(now: resolved, timeZone: moment.timeZone)).diagnostics
            }
            DiagnosticPrinter.print(diagnostics)
            failed = failed || DiagnosticPrinter.fails(diagnostics)
        }
        if failed { throw ExitCode.failure }
    }
}

extension Check {
    /// The command of a plain command line (see `PlainCommandLine`), read without the
    /// argument parser; every option is set here, as the parser sets it.
    init(plain arguments: ArraySlice<String>) throws(PlainCommandLine.NotPlain) {
        var line = try PlainCommandLine(arguments, knownFlags: DiagnosticOptions.plainFlags)
        var command = Self()
        command.configs = line.positionals
        command.moment = try MomentOptions(plain: &line)
        command.diagnosticOptions = try DiagnosticOptions(plain: &line)
        try line.finish()
        try PlainCommandLine.validated(command.validate)
        self = command
    }
}
