import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// `remindc batch`: NDJSON jobs in, NDJSON results out, in input order.
@Suite("Batch")
struct BatchTests {
    static func text(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: TestEnvironment.examples.appendingPathComponent(name)), as: UTF8.self)
    }

    static func line(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("each result is the plan `compile` writes for the same inputs, in input order; bad jobs are results too")
    func resultsInOrder() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let medication = try Self.text("medication.plist")
        let events = try Self.object(try Self.text("medication.events.json"))
        // The same config as a JSON object, as Python's plistlib and json write it.
        let asJSON = try await Python.script(["-c", "import json, plistlib, sys; print(json.dumps(plistlib.load(open('examples/medication.plist', 'rb'))))"])
        let configObject = try Self.object(asJSON.standardOutput)
        var jobs: [String] = []
        for name in ["daily-facts", "quiet-hours", "home-time-zone"] {
            jobs.append(try Self.line(["id": name, "config": try Self.text("\(name).plist"), "now": "2026-11-22T08:00:00Z"]))
        }
        jobs.append(try Self.line(["id": "with-events", "config": configObject, "events": events, "now": "2026-11-22T08:00:00Z"]))
        jobs.append(try Self.line(["id": "broken", "config": "<plist version=\"1.0\"><dict>", "now": "2026-11-22T08:00:00Z"]))
        jobs.append("{\"id\": \"half")
        jobs.append(try Self.line(["id": "typo", "config": medication, "nwo": "2026-11-22T08:00:00Z"]))
        jobs.append(try Self.line(["id": "tokyo", "config": medication, "now": "2026-11-22T09:00", "timeZone": "Asia/Tokyo"]))
        let input = folder.appendingPathComponent("jobs.ndjson")
        try Data((jobs.joined(separator: "\n") + "\n\n").utf8).write(to: input)
        let result = try await remindc("batch", input.path, "--jobs", "2")
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.components(separatedBy: "\n").filter { !$0.isEmpty }
        let results = try lines.map(Self.object)
        #expect(results.map { $0["id"] as? String } == ["daily-facts", "quiet-hours", "home-time-zone", "with-events", "broken", nil, "typo", "tokyo"])
        #expect(results.map { $0["ok"] as? Bool } == [true, true, true, true, false, false, false, true])
        // Each plan equals what compile writes.
        for (index, arguments) in [
            ["examples/daily-facts.plist"], ["examples/quiet-hours.plist"], ["examples/home-time-zone.plist"],
            ["examples/medication.plist", "--events", "examples/medication.events.json"],
        ].enumerated() {
            let compiled = try Self.object(try await run(TestEnvironment.remindcExecutable, ["compile"] + arguments + ["--now", "2026-11-22T08:00:00Z"]).standardOutput)
            var expected = compiled
            var found = try #require(results[index]["plan"] as? [String: Any])
            // The digest is of the config's bytes: the JSON form has other bytes.
            expected["configDigest"] = nil
            found["configDigest"] = nil
            #expect(NSDictionary(dictionary: found).isEqual(to: expected), "job \(index)")
        }
        let tokyo = try #require(results[7]["plan"] as? [String: Any])
        #expect(tokyo["now"] as? String == "2026-11-22T09:00:00+09:00")
        // The bad ones say why, the events warning of the good one stays with it.
        func messages(_ index: Int) -> [String] { (results[index]["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String } }
        #expect(messages(3).contains { $0.contains("med-x-20261124-1900") })
        #expect(messages(4).first?.hasPrefix("malformed XML") == true)
        // `{"id": "half` ends inside its string: the 13th byte would have closed it.
        #expect(messages(5) == ["line 6: not a JSON object: unterminated string at byte 13"])
        #expect(messages(6) == ["line 7: unknown key 'nwo' in the job; did you mean 'now'?"])
        #expect((results[4]["diagnostics"] as? [[String: Any]])?.first?["file"] as? String == "broken/config")
    }

    @Test("with a previous plan, the result carries the diff that `diff` gives and the plan carries the sequences on")
    func withPrevious() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let previousPath = folder.appendingPathComponent("previous.json").path
        #expect(try await remindc("compile", "examples/medication.plist", "--now", "2026-11-21T08:00:00Z", "-o", previousPath).status == 0)
        let previous = try Self.object(String(decoding: try Data(contentsOf: URL(fileURLWithPath: previousPath)), as: UTF8.self))
        let job = try Self.line([
            "id": "next-day", "config": try Self.text("medication.plist"), "events": try Self.object(try Self.text("medication.events.json")),
            "now": "2026-11-22T08:00:00Z", "previous": previous,
        ])
        let result = try await run(TestEnvironment.remindcExecutable, ["batch"], input: Data((job + "\n").utf8))
        let line = try Self.object(result.standardOutput)
        let newPath = folder.appendingPathComponent("new.json").path
        #expect(try await remindc(
            "compile", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z", "--events", "examples/medication.events.json",
            "--previous", previousPath, "-o", newPath
        ).status == 0)
        let diff = try Self.object(try await remindc("diff", previousPath, newPath, "--format", "json").standardOutput)
        #expect(NSDictionary(dictionary: try #require(line["diff"] as? [String: Any])).isEqual(to: diff))
        let plan = try #require(line["plan"] as? [String: Any])
        let expected = try Self.object(String(decoding: try Data(contentsOf: URL(fileURLWithPath: newPath)), as: UTF8.self))
        #expect(NSDictionary(dictionary: plan).isEqual(to: expected))
    }

    @Test("memory stays flat: twenty times the jobs take about the same peak memory")
    func boundedMemory() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let job = try Self.line(["config": try Self.text("daily-facts.plist"), "now": "2026-11-22T08:00:00Z"]) + "\n"
        var peaks: [Int] = []
        for count in [40, 800] {
            let input = folder.appendingPathComponent("jobs-\(count).ndjson")
            try Data(String(repeating: job, count: count).utf8).write(to: input)
            // GNU time reports the peak resident set in kilobytes.
            let measured = try await run(URL(fileURLWithPath: "/usr/bin/time"), [
                "-f", "%M", TestEnvironment.remindcExecutable.path, "batch", input.path, "-o", folder.appendingPathComponent("out-\(count)").path,
            ])
            #expect(measured.status == 0, "\(measured.standardError)")
            peaks.append(Int(measured.standardError.split(separator: "\n").last ?? "") ?? 0)
        }
        let lines = try String(contentsOf: folder.appendingPathComponent("out-800"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 800)
        #expect(peaks[0] > 0 && peaks[1] < peaks[0] * 3 / 2, "peaks \(peaks) KB")
    }
}

extension BatchTests {
    @Test("a JSON config is checked like a plist one, with lines and columns into the JSON")
    func jsonConfig() {
        let json = """
            {"formatVersion": 1, "timeZone": "Europe/Berlin",
             "reminders": [{"id": "a", "titel": "A", "schedule": {"frequency": "daily", "times": ["09:00"]}}]}
            """
        let result = ReminderCompiler.check(Array(json.utf8), path: "c.json")
        // Line 2: the reminder's object opens at column 16, "titel" starts at 28.
        #expect(result.diagnostics.map(\.formatted) == [
            "c.json:2:16: error: reminder 'a' is missing the required key 'title'",
            "c.json:2:28: error: unknown key 'titel' in reminder 'a'; did you mean 'title'?",
        ])
    }
}

extension BatchTests {
    /// A producer that sends one job and waits for its result before sending the next, as
    /// a service in front of batch might. Results that waited for a full window of jobs, or
    /// for the end of input, would never come.
    @Test("each result is written as soon as its job and those before it are done, while the input stays open; with one worker too, the Spark recipe's form", .timeLimit(.minutes(3)), arguments: [1, 2])
    func resultsStream(workers: Int) async throws {
        var jobs: [String] = []
        for (index, name) in ["medication", "daily-facts", "quiet-hours"].enumerated() {
            jobs.append(try Self.line(["id": "job-\(index)", "config": try Self.text("\(name).plist"), "now": "2026-11-22T08:00:00Z"]))
        }
        jobs.insert("not a job", at: 1)
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Service/batch_streaming.py")
        let result = try await Python.script([script.path, TestEnvironment.remindcExecutable.path, String(workers)] + jobs)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.hasSuffix("streamed 4 of 4\n"), "\(result.standardOutput)")
        let ids = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("result:") }
        #expect(ids.count == 4)
        #expect(ids.enumerated().allSatisfy { index, line in index == 1 ? !line.contains("job-") : line.contains("job-\(index > 1 ? index - 1 : index)") })
    }
}

extension BatchTests {
    @Test("with the pending notifications, the result carries the reconciliation that `reconcile` gives")
    func withPending() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = folder.appendingPathComponent("plan.json").path
        #expect(try await remindc("compile", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z", "-o", plan).status == 0)
        // One stale fingerprint, one current notification, one that is no longer planned.
        let planned = try #require(try Self.object(String(decoding: try Data(contentsOf: URL(fileURLWithPath: plan)), as: UTF8.self))["notifications"] as? [[String: Any]])
        let pending: [[String: Any]] = [
            ["id": try #require(planned[0]["id"] as? String), "fingerprint": "0000000000000000"],
            ["id": try #require(planned[1]["id"] as? String), "fingerprint": try #require(planned[1]["fingerprint"] as? String)],
            ["id": "med-c-20261101-1300", "fingerprint": "0123456789abcdef"],
        ]
        let pendingFile = folder.appendingPathComponent("pending.json")
        try JSONSerialization.data(withJSONObject: pending).write(to: pendingFile)
        let job = try Self.line(["config": try Self.text("medication.plist"), "now": "2026-11-22T08:00:00Z", "pending": pending])
        let result = try Self.object(try await run(TestEnvironment.remindcExecutable, ["batch"], input: Data((job + "\n").utf8)).standardOutput)
        let expected = try Self.object(try await remindc("reconcile", plan, "--pending", pendingFile.path, "--format", "json").standardOutput)
        #expect(NSDictionary(dictionary: try #require(result["reconciliation"] as? [String: Any])).isEqual(to: expected))
        #expect((expected["remove"] as? [Any])?.count == 2)
    }
}

extension BatchTests {
    @Test("errors name a job by its line in the file, blank lines counted; a line read in many blocks is read whole")
    func physicalLineNumbers() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("jobs.ndjson")
        // A job longer than the reader's 1 MiB block, so that its line spans several reads.
        let long = #"{"id": "long", "config": ""# + String(repeating: "a", count: 3 << 20) + #"", "now": "2026-11-22T08:00:00Z"}"#
        try ("\n" + #"{"config": "x"}"# + "\n\r\n   \n" + "not json\n" + long + "\n\n" + #"{"now": "2026-11-22T08:00:00Z"}"#)
            .write(to: input, atomically: true, encoding: .utf8)
        let result = try await remindc("batch", input.path)
        #expect(result.status == 0, "\(result.standardError)")
        let results = try result.standardOutput.split(separator: "\n").map { try Self.object(String($0)) }
        let messages = results.map { ($0["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }.first ?? "" }
        #expect(results.count == 4)
        #expect(messages[0].hasPrefix("line 2: "), "\(messages[0])")
        #expect(messages[1].hasPrefix("line 5: "), "\(messages[1])")
        // The long job is read whole: its config is checked (and is no plist), not cut.
        #expect(results[2]["id"] as? String == "long")
        #expect(messages[2].hasPrefix("malformed XML"), "\(messages[2].prefix(120))")
        #expect((results[2]["diagnostics"] as? [[String: Any]])?.first?["file"] as? String == "long/config")
        #expect(messages[3].hasPrefix("line 8: "), "\(messages[3])")
    }
}

extension BatchTests {
    @Test("a batch whose results cannot all be written (a file-size limit, as on a full disk) exits 1, leaves no temporary file and keeps the previous results")
    func failedWrite() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs = folder.appendingPathComponent("jobs.ndjson")
        var lines = ""
        for index in 0..<50 { lines += try Self.line(["id": "\(index)", "config": try Self.text("medication.plist"), "now": "2026-11-22T08:00:00Z"]) + "\n" }
        try lines.write(to: jobs, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("results.ndjson")
        try "previous results\n".write(to: output, atomically: true, encoding: .utf8)
        // The limit makes a write past 8 blocks fail with EFBIG, as a full disk fails one
        // with ENOSPC; SIGXFSZ is ignored so that the write reports it.
        let result = try await run(URL(fileURLWithPath: "/bin/sh"), [
            "-c", "trap '' XFSZ; ulimit -f 8; exec \"$0\" batch \"$1\" -o \"$2\"", TestEnvironment.remindcExecutable.path, jobs.path, output.path,
        ])
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot write '\(output.path)'"), "\(result.standardError)")
        #expect(try String(contentsOf: output, encoding: .utf8) == "previous results\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") || $0.hasSuffix(".bak") }
        #expect(left.isEmpty, "\(left)")
    }
}

extension ExternalProgramTests {
    /// The progress line of a long batch: on a terminal (a pseudo-terminal from util-linux's
    /// `script`), and never off one.
    @Suite("Batch progress")
    struct BatchProgressTests {
        static let jobCount = 16

        @Test("on a terminal, standard error counts the jobs done on one line; off a terminal it stays empty; the results are the same")
        func progressLine() async throws {
            let folder = try TestEnvironment.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = String(decoding: try TestEnvironment.bytes(TestEnvironment.examples.appendingPathComponent("medication.plist")), as: UTF8.self)
            var lines: [String] = []
            // Enough jobs for the line to be rewritten many times; more only lengthened the
            // serialized external suites, which set the test run's length.
            for index in 0..<Self.jobCount {
                let job: [String: String] = ["id": "job-\(index)", "config": config, "now": "2026-11-22T08:00:00Z"]
                lines.append(String(decoding: try JSONSerialization.data(withJSONObject: job, options: [.sortedKeys]), as: UTF8.self))
            }
            let jobs = folder.appendingPathComponent("jobs.ndjson")
            try (lines.joined(separator: "\n") + "\n").write(to: jobs, atomically: true, encoding: .utf8)
            let onTerminal = folder.appendingPathComponent("terminal.ndjson")
            let offTerminal = folder.appendingPathComponent("pipe.ndjson")

            let script = URL(fileURLWithPath: "/usr/bin/script")
            try #require(FileManager.default.isExecutableFile(atPath: script.path), "util-linux's script is missing")
            let command = "'\(TestEnvironment.remindcExecutable.path)' batch '\(jobs.path)' -o '\(onTerminal.path)'"
            let terminal = try await run(script, ["-qfec", command, "/dev/null"])
            #expect(terminal.status == 0, "\(terminal.standardOutput)")
            // The terminal's output: the line rewritten in place, ending with the whole count.
            #expect(terminal.standardOutput.contains("\rremindc batch: "), "\(terminal.standardOutput.debugDescription)")
            #expect(terminal.standardOutput.hasSuffix("remindc batch: \(Self.jobCount) jobs done\u{1B}[K\r\n"), "\(terminal.standardOutput.debugDescription)")

            // Results on the same terminal: no line to run into them.
            // (script ends its session when its own input ends; two seconds of open input
            // let a large output through whole.)
            let toTerminal = try await run(URL(fileURLWithPath: "/bin/sh"), [
                "-c", "(sleep 2; cat) | \(script.path) -qfec \"'\(TestEnvironment.remindcExecutable.path)' batch '\(jobs.path)'\" /dev/null",
            ])
            #expect(toTerminal.status == 0)
            #expect(!toTerminal.standardOutput.contains("jobs done"), "\(toTerminal.standardOutput.prefix(300))")
            // A terminal ends lines with CR LF, one Character in Swift: split the bytes.
            let terminalLines = toTerminal.standardOutput.utf8.split(separator: UInt8(ascii: "\n"))
            #expect(terminalLines.filter { $0.first == UInt8(ascii: "{") }.count == Self.jobCount, "\(toTerminal.standardOutput.utf8.count) bytes")

            let piped = try await remindc("batch", jobs.path, "-o", offTerminal.path)
            #expect(piped.status == 0)
            #expect(piped.standardError.isEmpty, "\(piped.standardError)")
            let results = try Data(contentsOf: offTerminal)
            #expect(results == (try Data(contentsOf: onTerminal)))
            #expect(String(decoding: results, as: UTF8.self).split(separator: "\n").count == Self.jobCount)
        }
    }
}
