import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

extension ExternalProgramTests {
    /// `remindc batch` as the map stage of Apache Spark (pyspark, local[2]): the recipe of the
    /// Service and batch article, read from the article and run as it stands. Java and pyspark come from `.ci/run`, which sets
    /// REMINDC_REQUIRE_SPARK; elsewhere the test is skipped when either is missing.
    @Suite("Batch on Spark", .enabled("Spark needs java and pyspark (pip install pyspark)") { await SparkSetup.usable() })
    struct SparkBatchTests {
        // The limit guards against a hang, not a speed: alone the test takes about 12 s, and no
        // other suite of ExternalProgramTests runs beside it. Its own file, named to come
        // last: the group's suites have run in the order of their files' names, and Java
        // started while the rest of the suite held both cores took 199 s.
        @Test("RDD.pipe through remindc batch gives the direct run's results, line for line", .timeLimit(.minutes(3)))
        func sparkPipe() async throws {
            let folder = try TestEnvironment.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            var lines: [String] = []
            for index in 0..<40 {
                let name = ["medication", "daily-facts", "quiet-hours", "home-time-zone", "nagging-and-goals"][index % 5]
                lines.append(try BatchTests.line(["id": "user-\(index)", "config": try BatchTests.text("\(name).plist"), "now": "2026-11-22T08:00:00Z"]))
            }
            lines.insert("this line is not a job", at: 7)
            let jobs = folder.appendingPathComponent("jobs.ndjson")
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: jobs)
            let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Service/spark_batch.py")
            let python = try #require(Python.executable)
            let result = try await run(python, [script.path, TestEnvironment.remindcExecutable.path, jobs.path])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError.suffix(2000))")
            #expect(result.standardOutput.contains("spark: 41 results through local[2] in ") && result.standardOutput.contains(" partitions, 0 problems"), "\(result.standardOutput)")
        }
    }
}

/// `SparkBatchTests` under its short name, for the tests of other suites.
typealias SparkBatchTests = ExternalProgramTests.SparkBatchTests

enum SparkSetup {
    static let required = ProcessInfo.processInfo.environment["REMINDC_REQUIRE_SPARK"] != nil
    /// Whether the Spark test runs: always where CI requires it (so that a missing Java
    /// fails it), elsewhere when Java is on the PATH and python3 imports pyspark.
    static func usable() async -> Bool {
        if required { return true }
        guard let python = Python.executable,
              (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains(where: {
                  FileManager.default.isExecutableFile(atPath: "\($0)/java")
              })
        else { return false }
        return (try? await run(python, ["-c", "import pyspark"]))?.status == 0
    }
}
