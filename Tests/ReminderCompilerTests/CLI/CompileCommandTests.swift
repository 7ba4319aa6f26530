import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// End-to-end: the built `remindc compile` and `remindc next` on `examples/`.
@Suite("remindc compile")
struct CompileCommandTests {
    static let fixedNow = "2026-11-22T08:00:00Z"
    static let golden = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Golden")

    @Test("each example compiles to its golden plan", arguments: try TestEnvironment.exampleConfigs())
    func goldenPlan(_ config: URL) async throws {
        let name = config.deletingPathExtension().lastPathComponent
        let result = try await remindc("compile", "examples/\(config.lastPathComponent)", "--now", Self.fixedNow)
        #expect(result.status == 0, "\(result.standardError)")
        expectGolden(result.standardOutput, matches: Self.golden.appendingPathComponent("plans/\(name).json"))
    }

    /// When the app compiles each example's events: after the last of them, as an app
    /// does (an event after `now` is a warning).
    static let nowOfEvents = ["activity-lookback": "2026-11-23T16:30:00Z"]

    @Test("each example with an events file compiles to its golden plan", arguments: try TestEnvironment.exampleEvents())
    func goldenPlanWithEvents(_ events: URL) async throws {
        let name = String(events.lastPathComponent.prefix { $0 != "." })
        let result = try await remindc(
            "compile", "examples/\(name).plist", "--now", Self.nowOfEvents[name] ?? Self.fixedNow,
            "--events", "examples/\(events.lastPathComponent)"
        )
        #expect(result.status == 0, "\(result.standardError)")
        expectGolden(result.standardOutput, matches: Self.golden.appendingPathComponent("plans/\(name).with-events.json"))
        expectGolden(result.standardError, matches: Self.golden.appendingPathComponent("plans/\(name).with-events.stderr"))
    }

    @Test("-o writes the same bytes as standard output, and compiling twice gives identical bytes")
    func outputFile() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let planPath = folder.appendingPathComponent("plan.json").path
        let toFile = try await remindc("compile", "examples/medication.plist", "--now", Self.fixedNow, "-o", planPath)
        #expect(toFile.status == 0)
        #expect(toFile.standardOutput == "")
        let toStandardOutput = try await remindc("compile", "examples/medication.plist", "--now", Self.fixedNow)
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: planPath)), as: UTF8.self) == toStandardOutput.standardOutput)
        let again = try await remindc("compile", "examples/medication.plist", "--now", Self.fixedNow)
        #expect(again.standardOutput == toStandardOutput.standardOutput)
        // Only the plan is in the folder: no temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["plan.json"])
    }

    @Test("large output files, written with disk space reserved ahead, hold exactly the bytes of standard output")
    func largeOutputFiles() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 12 reminders twice a day for 300 days: about 2.6 MB of plan, past the first
        // reservation steps (1 MiB, then 2 MiB).
        let schedule = "<key>frequency</key><string>daily</string><key>times</key><array><string>08:00</string><string>20:00</string></array>"
        let config = folder.appendingPathComponent("large.plist")
        try Data(configXML(reminders: (0..<12).map { reminderXML("r\($0)", schedule: schedule) }.joined()).utf8).write(to: config)
        let plan = folder.appendingPathComponent("plan.json")
        let calendar = folder.appendingPathComponent("plan.ics")
        // An earlier, longer output is replaced, not overwritten in place.
        try Data(repeating: 0x41, count: 8 << 20).write(to: plan)
        let options = ["--now", Self.fixedNow, "--horizon-days", "300", "--pending-limit", "0"]
        let toFiles = try await run(
            TestEnvironment.remindcExecutable, ["compile", config.path] + options + ["-o", plan.path, "--ics", calendar.path]
        )
        #expect(toFiles.status == 0, "\(toFiles.standardError)")
        let toStandardOutput = try await run(TestEnvironment.remindcExecutable, ["compile", config.path] + options)
        let written = try Data(contentsOf: plan)
        #expect(written.count > 2_000_000)
        #expect(String(decoding: written, as: UTF8.self) == toStandardOutput.standardOutput)
        let ics = try await run(TestEnvironment.remindcExecutable, ["ics", plan.path, "--config", config.path])
        #expect(String(decoding: try Data(contentsOf: calendar), as: UTF8.self) == ics.standardOutput)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["large.plist", "plan.ics", "plan.json"])
    }

    @Test("an output that is a named pipe is written through and stays a pipe")
    func namedPipeOutput() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipe = folder.appendingPathComponent("plan.pipe").path
        #expect(mkfifo(pipe, 0o600) == 0)
        // The reader opens the pipe before remindc writes and reads until remindc closes it.
        let received = LockedData()
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: pipe) { received.set(handle.readDataToEndOfFile()) }
        }
        reader.start()
        let result = try await remindc("compile", "examples/medication.plist", "--now", Self.fixedNow, "-o", pipe)
        #expect(result.status == 0, "\(result.standardError)")
        let expected = try await remindc("compile", "examples/medication.plist", "--now", Self.fixedNow).standardOutput
        var waited = 0
        while received.get() == nil && waited < 500 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        #expect(String(decoding: received.get() ?? Data(), as: UTF8.self) == expected)
        var status = stat()
        #expect(stat(pipe, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        // Nothing was staged beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["plan.pipe"])
    }

    @Test("on an error no output file is created or changed")
    func atomicOnError() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let planPath = folder.appendingPathComponent("plan.json")
        try Data("previous plan\n".utf8).write(to: planPath)
        let invalid = try await remindc("compile", "examples/invalid/unknown-key.plist", "--now", Self.fixedNow, "-o", planPath.path)
        #expect(invalid.status == 1)
        #expect(invalid.standardError.contains("examples/invalid/unknown-key.plist:10:3: error: unknown key 'horizon'"))
        #expect(String(decoding: try Data(contentsOf: planPath), as: UTF8.self) == "previous plan\n")
        let newPath = folder.appendingPathComponent("new.json").path
        let badZone = try await remindc("compile", "examples/medication.plist", "--time-zone", "Mars/Olympus", "-o", newPath)
        #expect(badZone.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["plan.json"])
        let missingFolder = try await remindc("compile", "examples/medication.plist", "--now", Self.fixedNow, "-o", folder.path + "/no/such/plan.json")
        #expect(missingFolder.status == 1)
        #expect(missingFolder.standardError.hasPrefix("remindc: error: cannot write"))
    }

    @Test("options override the config: time zone, horizon and pending limit")
    func overrides() async throws {
        let result = try await remindc(
            "compile", "examples/medication.plist", "--now", "2026-11-22T09:00", "--time-zone", "Asia/Tokyo",
            "--horizon-days", "2", "--pending-limit", "0"
        )
        #expect(result.status == 0, "\(result.standardError)")
        let plan = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as! [String: Any]
        #expect(plan["timeZone"] as? String == "Asia/Tokyo")
        #expect(plan["now"] as? String == "2026-11-22T09:00:00+09:00")
        #expect(plan["windowEnd"] as? String == "2026-11-24T09:00:00+09:00")
        #expect(plan["pendingLimit"] as? Int == 0)
        #expect(plan["dropped"] as? Int == 0)
        let notifications = plan["notifications"] as! [[String: Any]]
        // Per day: 09:20 group + follow-up, 13:00 and 19:00 with follow-ups, 21:30 → 7.
        #expect(notifications.count == 14)
    }

    @Test("invalid option values exit 1 with a message", arguments: [
        ["--horizon-days", "0"], ["--horizon-days", "3661"], ["--pending-limit", "-1"], ["--now", "soon"],
    ])
    func invalidOptions(_ options: [String]) async throws {
        let result = try await run(TestEnvironment.remindcExecutable, ["compile", "examples/medication.plist"] + options)
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(result.standardError.contains("Error:") || result.standardError.contains("error:"))
    }

    @Test("remindc next lists slots with weekday, offset and the DST gap marked")
    func nextCommand() async throws {
        let result = try await remindc("next", "examples/intake-goals.plist", "--reminder", "blood-test", "--count", "3", "--now", Self.fixedNow)
        #expect(result.status == 0, "\(result.standardError)")
        // Every other month from November 2026 on the second Tuesday at 08:15 in Sydney
        // (AEDT, +11:00, until 5 April 2027).
        #expect(result.standardOutput == """
        blood-test in Australia/Sydney: next 3 slots
        Tue 2027-01-12 08:15 +11:00  blood-test-20270112-0815
        Tue 2027-03-09 08:15 +11:00  blood-test-20270309-0815
        Tue 2027-05-11 08:15 +10:00  blood-test-20270511-0815

        """)
        let unknown = try await remindc("next", "examples/intake-goals.plist", "--reminder", "bloodtest")
        #expect(unknown.status == 1)
        #expect(unknown.standardError == "remindc: error: no reminder has the id 'bloodtest'; did you mean 'blood-test'?\n")
    }
}

@Suite("Plan determinism")
struct DeterminismTests {
    @Test("reversing the order of reminders in the file gives identical bytes", arguments: try TestEnvironment.exampleConfigs())
    func reminderOrder(_ example: URL) throws {
        let checked = ReminderCompiler.check(try TestEnvironment.bytes(example), path: "x")
        var config = try #require(checked.config)
        let options = CompileOptions(now: .instant(fixedNow))
        let forward = try #require(ReminderCompiler.plan(config, options: options).plan)
        config.reminders.reverse()
        let backward = try #require(ReminderCompiler.plan(config, options: options).plan)
        #expect(PlanJSON.encode(forward) == PlanJSON.encode(backward))
        #expect(forward.notifications.count > 0)
    }
}

/// Data handed from a reader thread to the test.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?

    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data? { lock.withLock { data } }
}
