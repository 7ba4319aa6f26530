/// How serious a diagnostic is.
public enum DiagnosticSeverity: String, Sendable, Hashable {
    /// The input is rejected; nothing is written.
    case error
    /// The input is accepted, but something is probably not what the author meant.
    case warning
    /// More detail on the diagnostic before it.
    case note
}

/// One message about an input, at a place in it.
public struct Diagnostic: Sendable, Hashable {
    /// How serious it is.
    public var severity: DiagnosticSeverity
    /// Where it applies.
    public var location: SourceLocation
    /// What it says, with a stable identifier.
    public var message: DiagnosticMessage
    /// Further notes at other places (for example the first of two duplicates).
    public var notes: [Diagnostic]

    /// Creates a diagnostic.
    public init(
        _ severity: DiagnosticSeverity,
        at location: SourceLocation,
        _ message: DiagnosticMessage,
        notes: [Diagnostic] = []
    ) {
        self.severity = severity
        self.location = location
        self.message = message
        self.notes = notes
    }

    /// The diagnostic and its notes in the `path:line:column: severity: message` form that
    /// compilers print and editors and CI systems annotate, one line each.
    public var formatted: String {
        var lines = ["\(location): \(severity.rawValue): \(message.text)"]
        lines += notes.map(\.formatted)
        return lines.joined(separator: "\n")
    }
}

/// Gathers diagnostics while a stage runs; stages report here instead of printing.
///
/// A file with thousands of mistakes (a generated config gone wrong) would bury the first
/// ones and cost memory and time to print: past `maximumErrors` errors, further errors are
/// only counted, and `sorted` ends with one note saying how many were left out.
public struct DiagnosticCollector: Sendable {
    /// Everything reported so far and kept, in the order reported.
    public private(set) var diagnostics: [Diagnostic] = []
    /// How many errors were reported, kept or not.
    public private(set) var errorCount = 0
    /// The most errors kept; later ones are counted only.
    public var maximumErrors: Int
    /// Where the first error that was not kept stands.
    private var firstOmittedError: SourceLocation?
    /// How many warnings were reported, kept or not.
    public private(set) var warningCount = 0
    /// The most warnings kept; later ones are counted only, as errors are. An events file
    /// of 600 000 entries that name no reminder gave as many warnings, 590 MB and as many
    /// lines on standard error.
    public var maximumWarnings = defaultMaximumErrors
    /// Where the first warning that was not kept stands.
    private var firstOmittedWarning: SourceLocation?

    /// The default cap on kept errors: far more than anyone reads, few enough to print at once.
    public static let defaultMaximumErrors = 1000

    /// Creates an empty collector.
    public init(maximumErrors: Int = defaultMaximumErrors) {
        self.maximumErrors = maximumErrors
    }

    /// Whether any error was reported.
    public var hasErrors: Bool { errorCount > 0 }

    /// How many errors were reported but not kept.
    public var omittedErrorCount: Int { max(0, errorCount - maximumErrors) }

    /// Reports an error. Past `maximumErrors`, the message is not even made: a file of
    /// millions of mistakes costs a count each, not a sentence each.
    public mutating func error(
        _ message: @autoclosure () -> DiagnosticMessage, at location: SourceLocation, notes: @autoclosure () -> [Diagnostic] = []
    ) {
        guard counts(.error, at: location) else { return }
        diagnostics.append(Diagnostic(.error, at: location, message(), notes: notes()))
    }

    /// Reports a warning; past `maximumWarnings`, only counted.
    public mutating func warning(
        _ message: @autoclosure () -> DiagnosticMessage, at location: SourceLocation, notes: @autoclosure () -> [Diagnostic] = []
    ) {
        guard counts(.warning, at: location) else { return }
        diagnostics.append(Diagnostic(.warning, at: location, message(), notes: notes()))
    }

    /// Appends diagnostics reported elsewhere.
    public mutating func append(contentsOf other: [Diagnostic]) {
        for diagnostic in other where counts(diagnostic.severity, at: diagnostic.location) {
            diagnostics.append(diagnostic)
        }
    }

    /// Takes over what another collector gathered: the diagnostics it kept, as if reported
    /// here, and those it only counted.
    mutating func absorb(_ other: DiagnosticCollector) {
        append(contentsOf: other.diagnostics)
        let omittedErrors = other.omittedErrorCount
        if omittedErrors > 0 {
            errorCount += omittedErrors
            if firstOmittedError == nil { firstOmittedError = other.firstOmittedError }
        }
        let omittedWarnings = max(0, other.warningCount - other.maximumWarnings)
        if omittedWarnings > 0 {
            warningCount += omittedWarnings
            if firstOmittedWarning == nil { firstOmittedWarning = other.firstOmittedWarning }
        }
    }

    /// Counts a diagnostic of `severity`; false when it is past its cap and only counted.
    private mutating func counts(_ severity: DiagnosticSeverity, at location: SourceLocation) -> Bool {
        switch severity {
        case .error:
            errorCount += 1
            guard errorCount > maximumErrors else { return true }
            if firstOmittedError == nil { firstOmittedError = location }
            return false
        case .warning:
            warningCount += 1
            guard warningCount > maximumWarnings else { return true }
            if firstOmittedWarning == nil { firstOmittedWarning = location }
            return false
        case .note:
            return true
        }
    }

    /// The diagnostics ordered by place, so that output does not depend on the order in
    /// which checks ran; a note on how many errors were left out comes last.
    public var sorted: [Diagnostic] {
        var result = diagnostics.enumerated().sorted { lhs, rhs in
            if lhs.element.location != rhs.element.location { return lhs.element.location < rhs.element.location }
            return lhs.offset < rhs.offset
        }.map(\.element)
        if let firstOmittedError {
            result.append(Diagnostic(.note, at: firstOmittedError, .moreErrorsOmitted(omittedErrorCount, shown: maximumErrors)))
        }
        if let firstOmittedWarning {
            result.append(Diagnostic(
                .note, at: firstOmittedWarning, .moreWarningsOmitted(warningCount - maximumWarnings, shown: maximumWarnings)
            ))
        }
        return result
    }
}
