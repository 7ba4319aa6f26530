/// The result of checking one config.
public struct CheckResult: Sendable {
    /// The validated config, or nil when it has errors.
    public var config: ReminderConfig?
    /// Errors, warnings and notes, ordered by position.
    public var diagnostics: [Diagnostic]

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// The compiler's entry points. Pure functions of their inputs: no printing, no clock,
/// no exiting; the caller supplies bytes, the instant and the zone database.
public enum ReminderCompiler {
    /// Parses and validates a config (SPEC §3, §4).
    ///
    /// - Parameters:
    ///   - bytes: the file's content (UTF-8 XML property list).
    ///   - path: how diagnostics name the file.
    ///   - options: the zone override and the compile instant, when known.
    ///   - zones: the time-zone database to check names against.
    public static func check(
        _ bytes: [UInt8], path: String, options: ConfigOptions = ConfigOptions(),
        zones: TimeZoneDatabase = .system
    ) -> CheckResult {
        var collector = DiagnosticCollector()
        guard let root = PlistReader().read(bytes, path: path, diagnostics: &collector) else {
            return CheckResult(config: nil, diagnostics: collector.sorted)
        }
        var decoder = ConfigDecoder(zones: zones)
        decoder.reader.diagnostics = collector
        let config = decoder.decode(root, options: options)
        return CheckResult(config: config, diagnostics: decoder.reader.diagnostics.sorted)
    }
}
