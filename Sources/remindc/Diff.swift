import ArgumentParser
@_spi(Tooling) import ReminderCompiler

/// `remindc diff OLD.json NEW.json [--format text|json|markdown|html] [--exit-code]`.
struct Diff: ParsableCommand, ReportsDiagnostics {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two plans: what to add, cancel and update.",
        discussion: """
        Exit status: 0 on success; with --exit-code, 0 when nothing changed and 2 when a notification or a plan-level field (categories, timeZone, pendingLimit, reservedSlots, dropped, coveredUntil, warnings) did; 1 on any error.
        """
    )

    @Argument(help: "The previous plan.")
    var old: String

    @Argument(help: "The new plan.")
    var new: String

    /// The diff's forms.
    enum Format: String, NamedChoice {
        case text, json, markdown, html
    }

    @Option(help: "text (for people and code review), json (for programs), markdown (for a pull-request comment) or html (one self-contained page).")
    var format: Format = .text

    @Flag(name: .customLong("exit-code"), help: "Exit with 2 when there are changes to apply, 0 when there are none.")
    var exitCode = false

    @OptionGroup var diagnosticOptions: DiagnosticOptions

    var inputFiles: [String?] { [old, new] }

    func run() throws {
        // Well-formed plans are compared as they are read, without holding either whole;
        // otherwise they are read in full, which reports what is wrong with them.
        let diff: PlanDiff
        // Standard input is read whole, since a plan that must be read again for its
        // errors could not be.
        if old != "-", new != "-", let streamed = PlanDiff(oldPath: old, newPath: new) {
            diff = streamed
        } else {
            guard let oldBytes = CommandLineInput.readFile(old, limit: ReminderCompiler.maximumPlanBytes, opening: UInt8(ascii: "{")),
                  let newBytes = CommandLineInput.readFile(new, limit: ReminderCompiler.maximumPlanBytes, opening: UInt8(ascii: "{"))
            else { throw ExitCode.failure }
            if let fast = PlanDiff(oldFile: oldBytes, newFile: newBytes) {
                diff = fast
            } else {
                diff = PlanDiff(
                    old: try CommandLineInput.readPlan(oldBytes, path: old), new: try CommandLineInput.readPlan(newBytes, path: new)
                )
            }
        }
        switch format {
        case .text:
            // Colour only for a person at a terminal, and never when NO_COLOR is set.
            let colour = StandardStream.output.allowsColour
            StandardStream.output.write(DiffOutput.text(diff, colour: colour))
        case .json:
            StandardStream.output.write(DiffOutput.json(diff))
        case .markdown:
            StandardStream.output.write(DiffOutput.markdown(diff))
        case .html:
            StandardStream.output.write(DiffHTML.render(diff))
        }
        if exitCode, diff.hasChanges { throw ExitCode(2) }
    }
}

extension CommandLineInput {
    /// A plan file, or an error that names it.
    static func readPlan(_ path: String) throws -> Plan {
        // Plans of long horizons are far larger than configs.
        guard let bytes = readFile(path, limit: ReminderCompiler.maximumPlanBytes, opening: UInt8(ascii: "{")) else { throw ExitCode.failure }
        return try readPlan(bytes, path: path)
    }

    /// A plan read from `bytes`, or an error that names `path`.
    static func readPlan(_ bytes: [UInt8], path: String) throws -> Plan {
        var diagnostics = DiagnosticCollector()
        let plan = ReminderCompiler.readPlan(bytes, path: path, diagnostics: &diagnostics)
        DiagnosticPrinter.print(diagnostics.sorted)
        guard let plan, !DiagnosticPrinter.fails(diagnostics.sorted) else { throw ExitCode.failure }
        return plan
    }
}
