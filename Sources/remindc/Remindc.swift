import ArgumentParser
@_spi(Tooling) import ReminderCompiler

/// The `remindc` command: compiles reminder configs into notification plans.
@main
struct Remindc: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remindc",
        abstract: "Compile reminder schedules into dated one-time notifications.",
        version: "remindc \(ReminderCompiler.version) (plan formatVersion 1, tzdata \(TimeZoneDatabase.system.version ?? "unknown"))",
        subcommands: [Check.self, Compile.self, Diff.self, ICS.self, Next.self, AgendaCommand.self, ExplainCommand.self, Batch.self, Serve.self, Reconcile.self, GenerateSwift.self]
    )

    /// Runs the command with remindc's exit statuses: 0 success, 2 only where a command
    /// gives it on purpose (`diff --exit-code`), 1 for every error, including usage errors,
    /// which ArgumentParser would otherwise report as 64.
    static func main() {
        let command: ParsableCommand
        let reporting: (any ReportsDiagnostics)?
        do {
            try checkArgumentsAreUTF8()
            let arguments = Array(CommandLine.arguments.dropFirst())
            if let plain = plainCommand(arguments) {
                // Known to report diagnostics without asking the runtime, whose first
                // question of a kind scans every conformance record. Its first word names
                // a command, so there is no mistyped command to refuse.
                (command, reporting) = (plain, plain)
            } else {
                try checkSubcommandName(arguments)
                command = try parseAsRoot(arguments)
                reporting = command as? ReportsDiagnostics
            }
        } catch {
            exitReporting(error)
        }
        if let reporting { DiagnosticPrinter.configure(reporting.diagnosticOptions) }
        do {
            try reporting?.checkOutputs()
        } catch {
            // An output, perhaps the diagnostics file itself, cannot be written: nothing ran,
            // and the error goes to standard error (and, for github, standard output) alone.
            if var options = reporting?.diagnosticOptions {
                options.diagnosticsFile = nil
                DiagnosticPrinter.configure(options)
            }
            exitReporting(error)
        }
        do {
            var running = command
            try running.run()
        } catch {
            // The diagnostics document is written however the command ends.
            DiagnosticPrinter.finish()
            exitReporting(error)
        }
        if !DiagnosticPrinter.finish() { exitProcess(1) }
    }

    /// The command of a plain `compile` or `check` line, read without the argument parser's
    /// reflection (see `PlainCommandLine`); nil for any other line, which the parser reads.
    static func plainCommand(_ arguments: [String]) -> (any ParsableCommand & ReportsDiagnostics)? {
        switch arguments.first {
        case "compile": try? Compile(plain: arguments.dropFirst())
        case "check": try? Check(plain: arguments.dropFirst())
        default: nil
        }
    }

    /// Swift reads arguments as UTF-8 and replaces what is not with U+FFFD, so a file name
    /// in another encoding (`caf\xE9.plist`, Latin-1) would name another file: "no such
    /// file" at best, and a mangled name in generated code or output. Such an argument is
    /// refused before anything runs, shown with its bytes escaped.
    private static func checkArgumentsAreUTF8() throws {
        for (index, bytes) in SystemCall.argumentBytes().enumerated().dropFirst() {
            if String(validating: bytes, as: UTF8.self) == nil {
                let shown = bytes.map { $0 < 0x80 ? VisibleText.escaped(String(UnicodeScalar($0))) : "\\x" + String($0, radix: 16, uppercase: true) }.joined()
                throw CommandLineError("argument \(index) is not valid UTF-8: '\(shown)'; remindc reads file names and options as UTF-8 (rename the file, or pass it through standard input with '-')")
            }
        }
    }

    /// A first argument that is no command's name is a mistyped command more often than a
    /// file (`remindc compil x.plist`): it is refused by name, with the closest command.
    /// `remindc help chek` is refused the same way, rather than answered with the
    /// overview.
    private static func checkSubcommandName(_ arguments: [String]) throws {
        guard let first = arguments.first, !first.hasPrefix("-") else { return }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        let asked = first == "help" ? arguments.dropFirst().first.flatMap { $0.hasPrefix("-") ? nil : $0 } : first
        guard let asked, !names.contains(asked) else { return }
        let suggestion = closestMatch(to: asked, in: names).map { "; did you mean '\($0)'?" } ?? ""
        throw CommandLineError("unknown command '\(asked)'\(suggestion) (see 'remindc --help')")
    }

    private static func exitReporting(_ error: any Error) -> Never {
        if let error = error as? CommandLineError {
            DiagnosticPrinter.printToolError(error.description)
            exitProcess(1)
        }
        let code = exitCode(for: error)
        if code == .success || code == ExitCode(2) {
            exit(withError: error)
        }
        let message = fullMessage(for: error)
        if !message.isEmpty {
            StandardStream.error.write(styledParserMessage(message) + "\n")
        }
        exitProcess(1)
    }

    /// One style for every error line: ArgumentParser's "Error: Unknown option '--nwo'.
    /// Did you mean '--now'?" becomes "remindc: error: unknown option '--nwo'; did you
    /// mean '--now'?", as remindc's own errors read. The usage lines after it are kept.
    static func styledParserMessage(_ message: String) -> String {
        let prefix = "Error: "
        guard message.hasPrefix(prefix) else { return message }
        var lines = message.dropFirst(prefix.count).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if var first = lines.first, let initial = first.first {
            // Lower case only a first word that is not a name the user wrote (`'--x'`).
            if initial.isUppercase, first.dropFirst().first?.isLowercase ?? false {
                first = initial.lowercased() + first.dropFirst()
            }
            // Only the parser's own ending, ". Did you mean '<name>'?", never a value the
            // user wrote that happens to hold the words.
            if let ending = first.ranges(of: ". Did you mean '").last {
                let name = first[ending.upperBound...]
                if name.hasSuffix("'?"), !name.dropLast(2).contains("'") {
                    first.replaceSubrange(ending, with: "; did you mean '")
                }
            }
            lines[0] = first
        }
        return "remindc: error: " + lines.joined(separator: "\n")
    }
}
