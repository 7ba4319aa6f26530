import Foundation
import PackagePlugin

/// `swift package remindc check [options]`: runs `remindc check` over every reminder
/// config (`*.reminders.plist`) of the package's targets; options (`--now`,
/// `--diagnostics-format`, `--warnings-as-errors`, …) are passed on. It writes nothing.
@main
struct RemindcCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        guard arguments.first == "check" else {
            Diagnostics.error("usage: swift package remindc check [remindc check options]")
            throw CommandFailure.usage
        }
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
        guard process.terminationStatus == 0 else {
            Diagnostics.error("remindc check found errors in the package's reminder configs")
            throw CommandFailure.checkFailed
        }
    }

    enum CommandFailure: Error {
        case usage, checkFailed
    }
}
