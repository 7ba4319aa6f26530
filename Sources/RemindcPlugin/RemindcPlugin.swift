import Foundation
import PackagePlugin

/// The build-tool plugin: for a target that holds reminder configs (`*.reminders.plist`),
/// `remindc generate-swift` checks them during the build — errors and warnings at
/// file:line:column in the build log, an error fails the build — and writes one Swift file
/// of typed constants for the target. Declared inputs and output: the command reruns only
/// when a config changes.
@main
struct RemindcPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let sources = target as? SourceModuleTarget else { return [] }
        let configs = sources.sourceFiles.map(\.url).filter { $0.lastPathComponent.hasSuffix(".reminders.plist") }
            .sorted { $0.path < $1.path }
        guard !configs.isEmpty else { return [] }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("\(target.name)Reminders.swift")
        return [
            .buildCommand(
                displayName: "remindc: checking \(configs.count) reminder config\(configs.count == 1 ? "" : "s") of \(target.name)",
                executable: try context.tool(named: "remindc").url,
                arguments: ["generate-swift"] + configs.map(\.path) + ["-o", output.path],
                inputFiles: configs,
                outputFiles: [output]
            ),
        ]
    }
}
