import ArgumentParser
@_spi(Tooling) import ReminderCompiler

/// `remindc generate-swift CONFIG... -o FILE`: checks the configs and writes Swift
/// constants for their names (what the SwiftPM build-tool plugin runs).
struct GenerateSwift: ParsableCommand, ReportsDiagnostics {
    static let configuration = CommandConfiguration(
        commandName: "generate-swift",
        abstract: "Check configs and write Swift constants for their reminder IDs, groups, activities and categories.",
        discussion: "Exit status: 0 when no config has errors (the file is written), 1 otherwise (nothing is written)."
    )

    @Argument(help: "The config files (plist XML).")
    var configs: [String]

    @Option(name: .short, help: "The Swift file; default: standard output.")
    var output: String?

    @Option(name: .customLong("time-zone"), help: ArgumentHelp(SharedOptionHelp.timeZone))
    var timeZone: String?

    @OptionGroup var diagnosticOptions: DiagnosticOptions

    var inputFiles: [String?] { configs }
    var outputFiles: [(option: String, path: String?)] { [("-o", output)] }

    func validate() throws {
        try CommandLineInput.checkTimeZone(timeZone)
        if configs.isEmpty { throw ValidationError("Give at least one config file.") }
    }

    func run() throws {
        var parsed: [(path: String, config: ReminderConfig)] = []
        var failed = false
        for path in configs {
            guard let bytes = CommandLineInput.readFile(path) else {
                failed = true
                continue
            }
            let result = ReminderCompiler.check(bytes, path: path, options: ConfigOptions(timeZoneOverride: timeZone))
            DiagnosticPrinter.print(result.diagnostics)
            if DiagnosticPrinter.fails(result.diagnostics) { failed = true }
            if let config = result.config { parsed.append((path, config)) }
        }
        guard !failed else { throw ExitCode.failure }
        let source = SwiftConstants.source(for: parsed)
        try CommandLineOutput.write(to: output) { file in try file.write(contentsOf: Array(source.utf8)) }
    }
}
