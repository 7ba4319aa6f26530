import ArgumentParser
import Foundation
import ReminderCompiler

/// `remindc check CONFIG...`: validate configs and print diagnostics; writes nothing.
struct Check: ParsableCommand, ReportsDiagnostics {
    static let configuration = CommandConfiguration(
        abstract: "Parse and validate reminder configs; print diagnostics, write nothing.",
        discussion: "Exit status: 0 when no file has errors, 1 otherwise."
    )

    @Argument(help: "The config files (plist XML).")
    var configs: [String]

    @Option(help: "The instant that \"in the past\" warnings compare with (RFC 3339); default: now.")
    var now: String?

    @OptionGroup var zone: ZoneOption

    private var timeZone: String? { zone.timeZone }

    @OptionGroup var diagnosticOptions: DiagnosticOptions

    func validate() throws {
        if configs.isEmpty { throw ValidationError("Give at least one config file.") }
    }

    func run() throws {
        let instant = try CommandLineInput.instant(now)
        var failed = false
        for path in configs {
            guard let bytes = CommandLineInput.readFile(path) else {
                failed = true
                continue
            }
            let result = ReminderCompiler.check(
                bytes, path: path, options: ConfigOptions(timeZoneOverride: timeZone, now: instant)
            )
            DiagnosticPrinter.print(result.diagnostics)
            failed = failed || DiagnosticPrinter.fails(result.diagnostics)
        }
        if failed { throw ExitCode.failure }
    }
}
