import Foundation
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif

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

    /// The first `swift` on the PATH, for the tests that build a package of their own.
    static let swiftExecutable: URL? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")
        .split(separator: ":")
        .map { URL(fileURLWithPath: "\($0)/swift") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

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

/// Runs `executable` with `arguments` in `directory`, optionally with standard input, and
/// awaits it without holding a thread of Swift's cooperative pool: on a 2-core machine the
/// pool has two threads, and a test that blocked one while a child ran would hold up every
/// other test. Standard output and error are read concurrently, so a large output never
/// blocks the child. A child ended by a signal gives `128 + signal`, as a shell reports it.
func run(_ executable: URL, _ arguments: [String], in directory: URL = TestEnvironment.repositoryRoot,
         input: Data? = nil, environment: [String: String] = [:]) async throws -> ProcessResult {
    var variables: [Environment.Key: String?] = [:]
    for (name, value) in environment { variables[Environment.Key(rawValue: name)!] = value }
    let result = try await Subprocess.run(
        .path(FilePath(executable.path)),
        arguments: Arguments(arguments),
        environment: variables.isEmpty ? .inherit : .inherit.updating(variables),
        workingDirectory: FilePath(directory.path),
        input: .array([UInt8](input ?? Data())),
        output: .bytes(limit: .max),
        error: .bytes(limit: .max)
    )
    let status: Int32
    switch result.terminationStatus {
    case .exited(let code): status = Int32(code)
    case .signaled(let signal): status = 128 + Int32(signal)
    }
    return ProcessResult(
        status: status,
        standardOutput: String(decoding: result.standardOutput, as: UTF8.self),
        standardError: String(decoding: result.standardError, as: UTF8.self)
    )
}

/// Runs the built `remindc` from the repository root.
func remindc(_ arguments: String...) async throws -> ProcessResult {
    try await run(TestEnvironment.remindcExecutable, arguments)
}

/// Runs the built `remindc` from the repository root, with the arguments in an array.
func remindc(_ arguments: [String]) async throws -> ProcessResult {
    try await run(TestEnvironment.remindcExecutable, arguments)
}

extension Result where Failure == any Error {
    /// The value `body` returns, or the error it throws: `Result(catching:)` for async code.
    init(awaiting body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

/// Runs `body` on a thread of its own and awaits its result, for work that must not wait
/// for a thread of the cooperative pool (a loop that polls a child every few
/// milliseconds) or must not hold one (a blocking call).
func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
