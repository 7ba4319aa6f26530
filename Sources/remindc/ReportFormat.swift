import ArgumentParser

/// `--format` of the commands that report changes (`diff`, `reconcile`): text for people,
/// JSON for programs.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
