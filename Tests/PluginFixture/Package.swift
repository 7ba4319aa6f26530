// swift-tools-version: 6.0
// A package that uses remindc's plugins as an app's package would: FixtureApp's code uses
// the constants generated from its config; BrokenConfig's config has an error, so building
// that target fails with the error's file, line and column. The tests build it.
import Foundation
import PackageDescription

// remindc's own package, two folders up; its identity is its folder's name.
let remindcRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL
let remindcIdentity = remindcRoot.lastPathComponent.lowercased()

let package = Package(
    name: "PluginFixture",
    dependencies: [
        .package(path: remindcRoot.path),
    ],
    targets: [
        .executableTarget(
            name: "FixtureApp",
            resources: [.copy("medication.reminders.plist")],
            plugins: [.plugin(name: "RemindcPlugin", package: remindcIdentity)]
        ),
        .target(
            name: "BrokenConfig",
            resources: [.copy("broken.reminders.plist")],
            plugins: [.plugin(name: "RemindcPlugin", package: remindcIdentity)]
        ),
    ]
)
