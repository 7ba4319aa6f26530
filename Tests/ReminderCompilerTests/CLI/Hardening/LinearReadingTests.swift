import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

extension ExternalProgramTests {
    /// Every reader takes work in proportion to its input, whatever the input's shape: the
    /// built binary reads an input and one four times as large under valgrind's callgrind,
    /// and the larger may cost at most 4.5 times the smaller's instructions, the cost of
    /// the smallest input taken off both. A reader that scans what it has read again for
    /// each new block, entry or error costs up to sixteen times. Instructions, not seconds: the
    /// counts repeat on a loaded machine. valgrind comes from Debian (`.ci/run` installs
    /// it and sets `REMINDC_REQUIRE_VALGRIND`); without it the tests are skipped.
    @Suite("Readers work in proportion to their input")
    struct LinearReadingTests {
        /// What the larger input may cost, as a multiple of the smaller's, for four times the
        /// bytes.
        static let allowedGrowth = 4.5

        /// A copy of the built `remindc` in `folder` without its debug information, which
        /// valgrind cannot read (the toolchain writes DWARF 5).
        static func strippedRemindc(in folder: URL) async throws -> String {
            let copy = folder.appendingPathComponent("remindc").path
            let result = try await run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", #"cp "$0" "$1" && strip --strip-debug "$1""#, TestEnvironment.remindcExecutable.path, copy]
            )
            #expect(result.status == 0, "\(result.standardError)")
            return copy
        }

        /// Instructions of `binary arguments` under callgrind; the exit status must be one of
        /// `expectedStatuses`.
        static func instructions(of binary: String, _ arguments: [String], expectedStatuses: [Int32], in folder: URL) async throws -> Double {
            let countFile = folder.appendingPathComponent("callgrind.out").path
            let result = try await run(
                URL(fileURLWithPath: "/bin/sh"),
                ["-c", #"exec valgrind --tool=callgrind --callgrind-out-file="$0" "$@""#, countFile, binary] + arguments
            )
            #expect(expectedStatuses.contains(result.status), "remindc \(arguments.joined(separator: " ")): \(result.standardError.suffix(400))")
            // callgrind ends its report with "==PID== I   refs:      9,503,093".
            let line = try #require(result.standardError.split(separator: "\n").last { $0.contains("I   refs:") })
            let digits = line.split(separator: ":").last?.filter(\.isNumber) ?? ""
            return try #require(Double(String(digits)))
        }

        /// Whether valgrind can run here; records an issue when CI requires it and it cannot.
        static func valgrindIsUsable() async -> Bool {
            let found = try? await run(URL(fileURLWithPath: "/bin/sh"), ["-c", "command -v valgrind"])
            if found?.status == 0 { return true }
            if ProcessInfo.processInfo.environment["REMINDC_REQUIRE_VALGRIND"] == "1" { Issue.record("valgrind is not on the PATH") }
            return false
        }

        /// Runs `arguments(path)` on `makeInput(0)`, on `makeInput(size)` and on
        /// `makeInput(4 × size)`, and expects the growth the suite allows; `check` then
        /// looks at each run's outcome, given the input's path. The sizes are
        /// small, since the binary is a debug build and callgrind runs it about fifty times
        /// slower: each test takes 7–13 s alone, its three runs at once.
        static func expectLinear(
            _ name: String, size: Int, expectedStatus: Int32,
            makeInput: (Int) -> [UInt8], arguments: (String) -> [String], check: (String) throws -> Void = { _ in }
        ) async throws {
            guard await valgrindIsUsable() else { return }
            let folder = try TestEnvironment.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let binary = try await strippedRemindc(in: folder)
            let scales = [0, 1, 4]
            var paths: [String] = [], commands: [[String]] = []
            for scale in scales {
                let path = folder.appendingPathComponent("\(scale)-\(name)").path
                try Data(makeInput(scale * size)).write(to: URL(fileURLWithPath: path))
                paths.append(path)
                commands.append(arguments(path))
            }
            // The three runs at once: counts do not depend on what else runs, and the suite's
            // tail, where these tests usually run, has a second core to spare.
            let counts = try await withThrowingTaskGroup(of: (Int, Double).self) { group in
                for (index, scale) in scales.enumerated() {
                    // The smallest input may well be a correct one; none may crash.
                    let statuses: [Int32] = scale == 0 ? [0, 1] : [expectedStatus]
                    let runFolder = folder.appendingPathComponent("run-\(scale)")
                    try FileManager.default.createDirectory(at: runFolder, withIntermediateDirectories: true)
                    let command = commands[index]
                    group.addTask {
                        (index, try await instructions(of: binary, command, expectedStatuses: statuses, in: runFolder))
                    }
                }
                var counts = [Double](repeating: 0, count: scales.count)
                for try await (index, count) in group { counts[index] = count }
                return counts
            }
            for path in paths { try check(path) }
            let small = counts[1] - counts[0], large = counts[2] - counts[0]
            // The work must be there to be measured: a reader that stops early is no test. A
            // fifth of the whole run, not a quarter: the batch line's padding added just over
            // 25 % in earlier runs and 24.96 % in one (counts move by up to 1.5 % with the
            // hashing seed), which failed a run for no change in the readers.
            #expect(small > counts[0] / 5, "\(name): \(counts) instructions; the input adds too little to measure")
            #expect(large <= small * allowedGrowth, "\(name): \(counts.map { Int($0) }) instructions for 0, 1 and 4 × \(size) units: ×\(large / small)")
        }

        /// Wrong entries in every input of the lists' tests, so that all three are past the
        /// 1 000 errors shown in full: what grows is then the cost of an error counted.
        static let pastTheErrorCap = 2 * DiagnosticCollector.defaultMaximumErrors

        /// A batch job line padded with `padding` spaces before and after its config, which
        /// makes a line read in many 1 MiB blocks (a 150 MiB line was once read in time
        /// quadratic in its blocks), or whose config string holds `escapes` escaped
        /// characters, which the job's JSON string decodes.
        static func jobLine(padding: Int, escapes: Int) -> [UInt8] {
            let config = try! String(contentsOf: TestEnvironment.examples.appendingPathComponent("medication.plist"), encoding: .utf8)
            var configJSON = String(decoding: try! JSONEncoder().encode(config), as: UTF8.self)
            // `\u0020` is a space: the escapes go into the XML between its declaration and root.
            let marker = "<plist"
            if escapes > 0, let range = configJSON.range(of: marker) {
                configJSON.replaceSubrange(range, with: String(repeating: #"\u0020"#, count: escapes) + marker)
            }
            let spaces = String(repeating: " ", count: padding)
            return Array(#"{"id": "long",\#(spaces)"config": \#(configJSON),\#(spaces)"now": "2026-11-22T08:00:00Z"}"#.utf8) + [0x0A]
        }

        @Test("a batch job line padded with whitespace: 2 and 8 MiB, three and nine blocks", .timeLimit(.minutes(3)))
        func batchLinePadding() async throws {
            try await Self.expectLinear("padded.ndjson", size: 1 << 20, expectedStatus: 0,
                makeInput: { Self.jobLine(padding: $0, escapes: 0) },
                arguments: { ["batch", $0, "-o", $0 + ".results"] }, check: Self.expectPlanned)
        }

        /// `batch` exits 0 whatever its jobs give: the job must have planned.
        static func expectPlanned(_ input: String) throws {
            let results = try String(contentsOfFile: input + ".results", encoding: .utf8)
            #expect(results.hasPrefix(#"{"id":"long","ok":true,"plan":"#), "\(results.prefix(300))")
        }

        @Test("a batch job line whose config holds escaped characters: 16 384 and 65 536 escapes", .timeLimit(.minutes(3)))
        func batchLineEscapes() async throws {
            try await Self.expectLinear("escaped.ndjson", size: 16 << 10, expectedStatus: 0,
                makeInput: { Self.jobLine(padding: 0, escapes: $0) },
                arguments: { ["batch", $0, "-o", $0 + ".results"] }, check: Self.expectPlanned)
        }

        @Test("an events file of wrong entries: errors past the cap are counted, not kept", .timeLimit(.minutes(3)))
        func eventsFileErrors() async throws {
            let config = TestEnvironment.examples.appendingPathComponent("medication.plist").path
            try await Self.expectLinear("events.json", size: 10_000, expectedStatus: 1,
                makeInput: { MemoryBoundTests.ones(Self.pastTheErrorCap + $0, between: #"{"formatVersion":1,"events":["#, and: "]}") },
                arguments: { ["compile", config, "--events", $0, "--now", "2026-11-22T08:00:00Z"] })
        }

        @Test("a pending list of wrong entries", .timeLimit(.minutes(3)))
        func pendingListErrors() async throws {
            let plan = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Golden/plans/medication.json").path
            try await Self.expectLinear("pending.json", size: 10_000, expectedStatus: 1,
                makeInput: { MemoryBoundTests.ones(Self.pastTheErrorCap + $0, between: "[", and: "]") },
                arguments: { ["reconcile", plan, "--pending", $0] })
        }

        @Test("a plan whose notifications are wrong tokens", .timeLimit(.minutes(3)))
        func planTokens() async throws {
            try await Self.expectLinear("plan.json", size: 10_000, expectedStatus: 1,
                makeInput: { MemoryBoundTests.ones(Self.pastTheErrorCap + $0, between: #"{"formatVersion":1,"notifications":["#, and: "]}") },
                arguments: { ["ics", $0] })
        }

        @Test("a plist config whose root is a long list", .timeLimit(.minutes(3)))
        func configList() async throws {
            try await Self.expectLinear("list.plist", size: 2_000, expectedStatus: 1,
                makeInput: { count in
                    Array("<plist version=\"1.0\">\n<array>\n".utf8) + Array(repeating: Array("<true/>\n".utf8), count: count).flatMap { $0 }
                        + Array("</array>\n</plist>\n".utf8)
                },
                arguments: { ["check", $0] })
        }
    }
}
