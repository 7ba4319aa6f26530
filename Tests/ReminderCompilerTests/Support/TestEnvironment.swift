import Foundation

/// Paths the tests need: the repository, its examples, and the built `remindc`.
enum TestEnvironment {
    /// The repository root, found from this file's path.
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // ReminderCompilerTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static let examples = repositoryRoot.appendingPathComponent("examples")
    static let invalidExamples = examples.appendingPathComponent("invalid")
    static let fixtures = repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Fixtures")

    /// The `remindc` executable built beside the test bundle (the test target depends on it).
    static let remindcExecutable: URL = {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // On Linux the test runner sits in the build folder itself; elsewhere inside a bundle.
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("remindc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: "remindc")
    }()

    /// The example configs (`examples/*.plist`, not the `*.events.*` files), sorted.
    static func exampleConfigs() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: examples, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "plist" && !$0.lastPathComponent.contains(".events.") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The events files beside the examples (`examples/NAME.events.json` or `.plist`).
    static func exampleEvents() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: examples, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.contains(".events.") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The invalid configs (`examples/invalid/*.plist`), sorted.
    static func invalidConfigs() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: invalidExamples, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "plist" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// A new empty folder under the temporary directory; the caller removes it.
    static func scratchFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("remindc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }
}

/// The result of running a program.
struct ProcessResult {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

/// Runs `executable` with `arguments` in `directory`, optionally with standard input.
///
/// Output goes to temporary files rather than pipes, so that a large output can never
/// block the child while the test waits for it.
func run(_ executable: URL, _ arguments: [String], in directory: URL = TestEnvironment.repositoryRoot,
         input: Data? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
    let scratch = try TestEnvironment.scratchFolder()
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outputURL = scratch.appendingPathComponent("stdout")
    let errorURL = scratch.appendingPathComponent("stderr")
    let inputURL = scratch.appendingPathComponent("stdin")
    try (input ?? Data()).write(to: inputURL)
    guard FileManager.default.createFile(atPath: outputURL.path, contents: nil),
          FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    else { throw CocoaError(.fileWriteUnknown) }
    let output = try FileHandle(forWritingTo: outputURL)
    let error = try FileHandle(forWritingTo: errorURL)
    let inputHandle = try FileHandle(forReadingFrom: inputURL)
    defer {
        try? output.close()
        try? error.close()
        try? inputHandle.close()
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    }
    process.standardOutput = output
    process.standardError = error
    process.standardInput = inputHandle
    try process.run()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus,
        standardOutput: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
        standardError: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self)
    )
}

/// Runs the built `remindc` from the repository root.
func remindc(_ arguments: String...) throws -> ProcessResult {
    try run(TestEnvironment.remindcExecutable, arguments)
}
