import ArgumentParser
@_spi(Tooling) import ReminderCompiler

/// `remindc reconcile PLAN.json --pending PENDING.json [--format text|json] [--exit-code]`.
struct Reconcile: ParsableCommand, ReportsDiagnostics {
    static let configuration = CommandConfiguration(
        commandName: "reconcile",
        abstract: "Compare a plan with the notifications the OS holds: what to remove, then what to add.",
        discussion: """
        PENDING is a JSON array of {"id", "fingerprint"} objects, or expo's getAllScheduledNotificationsAsync() \
        result as it is (the fingerprint in content.data). Pending IDs that are not remindc's are left alone. \
        Exit status: 0 on success; with --exit-code, 0 when the OS already holds the plan and 2 when it does not; 1 on any error.
        """
    )

    @Argument(help: "The plan JSON file.")
    var plan: String

    @Option(help: "The pending notifications read back from the OS (JSON).")
    var pending: String

    @Option(help: "text (for people) or json (for programs).")
    var format: ReportFormat = .text

    @Flag(name: .customLong("exit-code"), help: "Exit with 2 when something must be removed or added, 0 when nothing.")
    var exitCode = false

    @OptionGroup var diagnosticOptions: DiagnosticOptions

    var inputFiles: [String?] { [plan, pending] }

    func run() throws {
        let parsedPlan = try CommandLineInput.readPlan(plan)
        guard let bytes = CommandLineInput.readFile(pending, limit: ReminderCompiler.maximumPlanBytes, opening: UInt8(ascii: "["))
        else { throw ExitCode.failure }
        let read = ReminderCompiler.readPending(bytes, path: pending)
        DiagnosticPrinter.print(read.diagnostics)
        guard let list = read.pending, !DiagnosticPrinter.fails(read.diagnostics) else { throw ExitCode.failure }
        let reconciliation = parsedPlan.reconcile(pending: list)
        switch format {
        case .text: StandardStream.output.write(ReconciliationOutput.text(reconciliation))
        case .json: StandardStream.output.write(ReconciliationOutput.json(reconciliation))
        }
        if exitCode, reconciliation.hasChanges { throw ExitCode(2) }
    }
}
