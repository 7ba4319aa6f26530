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
        var lines = ["\(location.path):\(location.line):\(location.column): \(severity.rawValue): \(message.text)"]
        lines += notes.map(\.formatted)
        return lines.joined(separator: "\n")
    }
}

/// Gathers diagnostics while a stage runs; stages report here instead of printing.
public struct DiagnosticCollector: Sendable {
    /// Everything reported so far, in the order reported.
    public private(set) var diagnostics: [Diagnostic] = []

    /// Creates an empty collector.
    public init() {}

    /// Whether any error was reported.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Reports an error.
    public mutating func error(_ message: DiagnosticMessage, at location: SourceLocation, notes: [Diagnostic] = []) {
        diagnostics.append(Diagnostic(.error, at: location, message, notes: notes))
    }

    /// Reports a warning.
    public mutating func warning(_ message: DiagnosticMessage, at location: SourceLocation, notes: [Diagnostic] = []) {
        diagnostics.append(Diagnostic(.warning, at: location, message, notes: notes))
    }

    /// Appends diagnostics reported elsewhere.
    public mutating func append(contentsOf other: [Diagnostic]) {
        diagnostics.append(contentsOf: other)
    }

    /// The diagnostics ordered by place, so that output does not depend on the order in
    /// which checks ran.
    public var sorted: [Diagnostic] {
        diagnostics.enumerated().sorted { lhs, rhs in
            if lhs.element.location != rhs.element.location { return lhs.element.location < rhs.element.location }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
