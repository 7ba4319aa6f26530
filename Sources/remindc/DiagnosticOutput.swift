import ArgumentParser
@_spi(Tooling) import ReminderCompiler

extension DiagnosticFormat: NamedChoice {}

/// `--diagnostics-format`, `--diagnostics-file` and `--warnings-as-errors`, on every command.
struct DiagnosticOptions: ParsableArguments {
    @Option(help: "How diagnostics are written: gcc (path:line:column lines on standard error), github (workflow-command annotations on standard output), json or sarif (one document on standard error).")
    var diagnosticsFormat: DiagnosticFormat = Self.defaultFormat

    @Option(help: "Write the diagnostics to this file instead (for a SARIF upload, say).")
    var diagnosticsFile: String?

    @Flag(help: "Report warnings as errors: the command fails and writes nothing.")
    var warningsAsErrors = false

    /// gcc lines, when `--diagnostics-format` is not given.
    static let defaultFormat = DiagnosticFormat.gcc
}

/// A command whose diagnostics follow `DiagnosticOptions`, and the files it reads and
/// writes: before it runs, every output — the diagnostics file among them — is checked
/// together (`AtomicOutput.checkTargets`): writable, never an input, never another output.
protocol ReportsDiagnostics {
    var diagnosticOptions: DiagnosticOptions { get }
    /// The files the command reads (nil where an optional one is not given).
    var inputFiles: [String?] { get }
    /// The files the command writes besides the diagnostics file, by option.
    var outputFiles: [(option: String, path: String?)] { get }
}

extension ReportsDiagnostics {
    var outputFiles: [(option: String, path: String?)] { [] }

    /// Checks every output of the command together, the diagnostics file included.
    func checkOutputs() throws {
        let outputs = outputFiles + [("--diagnostics-file", diagnosticOptions.diagnosticsFile)]
        // Most runs write to standard streams only: no input needs a stat then.
        guard outputs.contains(where: { $0.path != nil }) else { return }
        try AtomicOutput.checkTargets(outputs, inputs: inputFiles)
    }
}

/// Where every command's diagnostics go. gcc lines are written as they come; the other
/// formats hold them and write one document when the command ends (`finish`), whatever
/// way it ends.
enum DiagnosticPrinter {
    /// Set once from the parsed command line, before the command runs, by the commands
    /// that report diagnostics (`ReportsDiagnostics`); nil until then.
    private static let chosenOptions = Locked<DiagnosticOptions?>(nil)
    /// The options of a run that set none (`batch`, `serve`, an error before a command
    /// was parsed), made the first time they are asked for: parsing them costs a second
    /// pass of the argument parser's reflection, 1.5 M instructions, which the commands
    /// that set their own no longer pay.
    private static let fallbackOptions = DiagnosticOptions.defaults
    /// What the held formats gathered so far.
    private static let held = Locked<[Diagnostic]>([])
    /// Where the diagnostics file stands: it goes out with the command's other files (see
    /// `takeDocument`), so that a file that cannot be written changes none of them.
    private static let document = Locked(DocumentState.pending)

    private enum DocumentState {
        /// Not written yet.
        case pending
        /// Staged with the command's outputs, holding this many diagnostics.
        case staged(count: Int)
        /// Could not be written, and that was reported: it is not tried again.
        case failed
    }

    private static var options: DiagnosticOptions { chosenOptions.withLock { $0 } ?? fallbackOptions }

    static func configure(_ chosen: DiagnosticOptions) {
        chosenOptions.withLock { $0 = chosen }
    }

    /// Writes (or holds) diagnostics, with warnings made errors under `--warnings-as-errors`.
    static func print(_ diagnostics: [Diagnostic]) {
        guard !diagnostics.isEmpty else { return }
        let shown = options.warningsAsErrors ? diagnostics.map(promoted) : diagnostics
        if options.diagnosticsFormat == .gcc, options.diagnosticsFile == nil {
            StandardStream.error.write(DiagnosticRendering.render(shown, as: .gcc, toolVersion: ReminderCompiler.version))
        } else {
            held.withLock { $0 += shown }
        }
    }

    /// Whether these diagnostics fail the command: an error, or a warning under
    /// `--warnings-as-errors`.
    static func fails(_ diagnostics: [Diagnostic]) -> Bool {
        diagnostics.contains { $0.severity == .error || (options.warningsAsErrors && $0.severity == .warning) }
    }

    /// A problem with the command line or a file as a whole, which has no place in a file.
    ///
    /// The message may quote a path or option the user gave: its line breaks are written as
    /// `\n` and `\r`, so that it stays one line, and a CI log never reads a line of it as
    /// a command.
    static func printToolError(_ message: String) {
        StandardStream.error.write("remindc: error: \(DiagnosticRendering.oneLine(message))\n")
        if options.diagnosticsFormat == .github, options.diagnosticsFile == nil {
            StandardStream.output.write("::error title=remindc::\(DiagnosticRendering.escapeData(message))\n")
        }
    }

    /// The diagnostics file and its document so far, for a command about to replace its
    /// outputs to stage beside them (`AtomicOutput.commit`); nil without a diagnostics file
    /// or once it was taken. The document is written again at the end only when more
    /// diagnostics come after.
    static func takeDocument() -> (path: String, bytes: [UInt8])? {
        guard let path = options.diagnosticsFile, case .pending = document.withLock({ $0 }) else { return nil }
        let gathered = held.withLock { $0 }
        document.withLock { $0 = .staged(count: gathered.count) }
        return (path, Array(DiagnosticRendering.render(gathered, as: options.diagnosticsFormat, toolVersion: ReminderCompiler.version).utf8))
    }

    /// The taken document could not be written (nor were the command's other outputs): the
    /// error that says why is the command's, and the file is not tried again.
    static func documentFailed() {
        document.withLock { $0 = .failed }
    }

    /// The command's outputs failed for another reason than the document: it is written
    /// at the end, as when no output was staged.
    static func documentNotTaken() {
        document.withLock { $0 = .pending }
    }

    /// Writes what the held formats gathered (an empty document when nothing was found).
    /// - Returns: false when the diagnostics file cannot be written.
    @discardableResult
    static func finish() -> Bool {
        let format = options.diagnosticsFormat
        guard format != .gcc || options.diagnosticsFile != nil else { return true }
        let gathered = held.withLock { held in
            defer { held = [] }
            return held
        }
        switch document.withLock({ $0 }) {
        case .failed: return false
        case .staged(let count) where count == gathered.count: return true
        default: break
        }
        let text = DiagnosticRendering.render(gathered, as: format, toolVersion: ReminderCompiler.version)
        if let path = options.diagnosticsFile {
            do {
                var output = AtomicOutput()
                try output.stage(at: path) { file in try file.write(contentsOf: Array(text.utf8)) }
                try output.commit(carryingDiagnostics: false)
            } catch {
                StandardStream.error.write("remindc: error: \(OutputFile.describe(error))\n")
                return false
            }
        } else if format == .github {
            StandardStream.output.write(text)
        } else {
            StandardStream.error.write(text)
        }
        return true
    }

    private static func promoted(_ diagnostic: Diagnostic) -> Diagnostic {
        var copy = diagnostic
        if copy.severity == .warning { copy.severity = .error }
        return copy
    }
}

extension DiagnosticOptions {
    /// gcc lines on standard error, warnings as warnings.
    static var defaults: DiagnosticOptions {
        // Parsing no arguments gives every option its default.
        (try? DiagnosticOptions.parse([])) ?? DiagnosticOptions()
    }
}
