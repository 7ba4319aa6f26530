import Foundation
import PackagePlugin

/// `swift package remindc check [options]`: runs `remindc check` over every reminder
/// config (`*.reminders.plist`) of the package's targets; options (`--now`,
/// `--diagnostics-format`, `--warnings-as-errors`, …) are passed on. It writes nothing.
@main
struct RemindcCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        guard arguments.first == "check" else { throw CommandFailure.usage }
        let configs = context.package.targets.compactMap { $0 as? SourceModuleTarget }
            .flatMap { $0.sourceFiles.map(\.url) }
            .filter { $0.lastPathComponent.hasSuffix(".reminders.plist") }
            .map(\.path).sorted()
        guard !configs.isEmpty else {
            Diagnostics.remark("no *.reminders.plist in the package's targets")
            return
        }
        let process = Process()
        process.executableURL = try context.tool(named: "remindc").url
        process.arguments = ["check"] + arguments.dropFirst() + configs
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CommandFailure.checkFailed }
    }

    /// Why the command failed. SwiftPM prints a thrown error as `error: ` and its
    /// description, so the description is the one line the user reads.
    enum CommandFailure: Error, CustomStringConvertible {
        case usage, checkFailed

        var description: String {
            switch self {
            case .usage: "usage: swift package remindc check [remindc check options]"
            case .checkFailed: "remindc check found errors in the package's reminder configs"
            }
        }
    }
}
