// swift-tools-version: 6.2
// Coverage-guided fuzzing of remindc's readers with libFuzzer and AddressSanitizer; not part
// of `swift test`. `Tests/Fuzz/fuzz.sh READER SECONDS` builds and runs one reader (see the
// Internals article, "Fuzzing").
import Foundation
import PackageDescription

// remindc's own package, two folders up; its identity is its folder's name.
let remindcRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL
let remindcIdentity = remindcRoot.lastPathComponent.lowercased()

let package = Package(
    name: "ReaderFuzz",
    dependencies: [.package(path: remindcRoot.path)],
    targets: [
        .executableTarget(
            name: "ReaderFuzz",
            dependencies: [.product(name: "ReminderCompiler", package: remindcIdentity)]
        )
    ]
)
