// swift-tools-version: 6.2
// An app-side package that embeds remindc's library: it depends on the ReminderCompiler
// product alone, so it resolves remindc and swift-argument-parser and nothing of the
// service (whose packages sit behind remindc's `Service` trait, off by default).
import PackageDescription

let package = Package(
    name: "MedicationPlanner",
    dependencies: [
        // In an app: .package(url: "<where you got remindc>", from: "0.1.0")
        .package(name: "remindc", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "MedicationPlanner",
            dependencies: [.product(name: "ReminderCompiler", package: "remindc")]
        ),
    ]
)
