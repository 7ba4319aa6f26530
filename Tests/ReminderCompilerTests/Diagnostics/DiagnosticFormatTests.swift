import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// `--diagnostics-format`, `--diagnostics-file` and `--warnings-as-errors` of the built
/// binary: golden outputs, GitHub's annotation limit, JSON that lists what gcc lines say,
/// and SARIF checked by Python.
@Suite("Diagnostic formats")
struct DiagnosticFormatTests {
    static let mixed = "Tests/ReminderCompilerTests/Fixtures/diagnostics/mixed.plist"
    static let golden = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Golden/diagnostics")

    static func check(_ arguments: String...) async throws -> ProcessResult {
        try await run(TestEnvironment.remindcExecutable, ["check", "--now", "2026-11-22T08:00:00Z"] + arguments)
    }

    @Test("each format of an error with a note and two warnings has its golden output",
          arguments: ["gcc", "github", "json", "sarif"])
    func goldenOutputs(_ format: String) async throws {
        let result = try await Self.check(Self.mixed, "--diagnostics-format", format)
        #expect(result.status == 1)
        // github goes to standard output, where the runner reads workflow commands; the
        // others to standard error.
        let output = format == "github" ? result.standardOutput : result.standardError
        #expect((format == "github" ? result.standardError : result.standardOutput).isEmpty)
        let version = "\"version\": \"\(ReminderCompiler.version)\""
        expectGolden(output.replacingOccurrences(of: version, with: "\"version\": \"(version)\""),
                     matches: Self.golden.appendingPathComponent("mixed.\(format).txt"))
    }

    @Test("JSON lists exactly what the gcc lines say, notes under their diagnostic")
    func jsonMatchesGcc() async throws {
        let gcc = try await Self.check(Self.mixed).standardError
        let json = try await Self.check(Self.mixed, "--diagnostics-format", "json").standardError
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        var lines: [String] = []
        for entry in entries {
            lines.append("\(entry["file"]!):\(entry["line"]!):\(entry["column"]!): \(entry["severity"]!): \(entry["message"]!)")
            for note in entry["notes"] as? [[String: Any]] ?? [] {
                lines.append("\(note["file"]!):\(note["line"]!):\(note["column"]!): \(note["severity"]!): \(note["message"]!)")
            }
            #expect((entry["id"] as? String)?.contains(".") == true)
        }
        #expect(lines.joined(separator: "\n") + "\n" == gcc)
    }

    @Test("GitHub: past 10 of a type, nine annotations, a tenth with the count, the rest as log lines; values escaped")
    func githubLimit() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 25 unknown keys (errors) and 12 titles with trailing spaces (warnings), in a file
        // whose name holds the characters that end a property.
        var reminders = ""
        for index in 0..<12 {
            reminders += reminderXML("r\(index)").replacingOccurrences(of: "Title r\(index)", with: "Title r\(index) ")
        }
        var extra = ""
        for index in 0..<25 { extra += "<key>x\(index)</key><string>%</string>" }
        let config = folder.appendingPathComponent("a,b:c.plist")
        try configXML(reminders: reminders, rootExtra: extra).replacingOccurrences(of: "<key>x", with: "<key>unknown")
            .write(to: config, atomically: true, encoding: .utf8)
        let result = try await Self.check(config.path, "--diagnostics-format", "github")
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let errors = lines.filter { $0.hasPrefix("::error ") }
        let warnings = lines.filter { $0.hasPrefix("::warning ") }
        #expect(errors.count == 10)
        #expect(warnings.count == 10)
        #expect(errors.last == "::error title=remindc::16 more errors, listed in the log below")
        #expect(warnings.last == "::warning title=remindc::3 more warnings, listed in the log below")
        let logLines = lines.filter { !$0.hasPrefix("::") }
        #expect(logLines.count == 16 + 3)
        #expect(logLines.allSatisfy { $0.hasPrefix(config.path + ":") })
        let escapedPath = config.path.replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
        #expect(errors.first?.hasPrefix("::error file=\(escapedPath),line=") == true, "\(errors.first ?? "")")
        // The log lines sit between stop-commands and its end, under one token.
        let stop = try #require(lines.firstIndex { $0.hasPrefix("::stop-commands::remindc-") })
        let token = String(lines[stop].dropFirst("::stop-commands::".count))
        #expect(lines.last == "::\(token)::")
        #expect(lines[(stop + 1)..<(lines.count - 1)].allSatisfy { !$0.hasPrefix("::") })
    }

    @Test("a file name that holds a line break and a workflow command stays in the log: one line each, never a command")
    func githubInjection() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var extra = ""
        for index in 0..<12 { extra += "<key>unknown\(index)</key><string>x</string>" }
        let config = folder.appendingPathComponent("c\n::error file=x,line=1::pwned\n.plist")
        try configXML(reminders: reminderXML("r"), rootExtra: extra).write(to: config, atomically: true, encoding: .utf8)
        let result = try await Self.check(config.path, "--diagnostics-format", "github")
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Every workflow command remindc means: nine annotations, the count of the rest,
        // stop-commands and its end; no line starts with the file name's command.
        #expect(!lines.contains { $0.hasPrefix("::error file=x") }, "\(result.standardOutput)")
        let stop = try #require(lines.firstIndex { $0.hasPrefix("::stop-commands::remindc-") })
        let token = String(lines[stop].dropFirst("::stop-commands::".count))
        let end = try #require(lines.firstIndex(of: "::\(token)::"))
        #expect(end - stop - 1 == 3, "three errors in the log, one line each: \(lines[stop..<end])")
        // A missing file with that name is a tool error: one line on standard error too.
        let missing = try await Self.check(config.path + ".absent", "--diagnostics-format", "github")
        #expect(missing.status == 1)
        #expect(missing.standardError.split(separator: "\n").count == 1, "\(missing.standardError)")
        #expect(!missing.standardOutput.split(separator: "\n").contains { $0.hasPrefix("::error file=x") }, "\(missing.standardOutput)")
    }

    @Test("SARIF validates against the SARIF 2.1.0 schema, and its rules, levels and regions agree with the diagnostics")
    func sarifValidates() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("remindc.sarif")
        let result = try await Self.check(
            Self.mixed, "examples/invalid/duplicate-key.plist", "examples/invalid/date-february-30.plist",
            "--diagnostics-format", "sarif", "--diagnostics-file", log.path
        )
        #expect(result.status == 1)
        #expect(result.standardError.isEmpty, "the diagnostics went to the file: \(result.standardError)")
        let gccLines = try await Self.check(Self.mixed, "examples/invalid/duplicate-key.plist", "examples/invalid/date-february-30.plist")
            .standardError.split(separator: "\n").filter { !$0.contains(": note: ") }.count
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Interop/check_sarif.py")
        let checked = try await Python.script([script.path, log.path, String(gccLines)])
        #expect(checked.status == 0, "\(checked.standardOutput)\(checked.standardError)")
        #expect(checked.standardOutput.contains("valid against Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"), "\(checked.standardOutput)")

        // The schema can fail a log: a level SARIF does not have.
        let broken = folder.appendingPathComponent("broken.sarif")
        try Data(String(decoding: try Data(contentsOf: log), as: UTF8.self)
            .replacingOccurrences(of: "\"level\": \"error\"", with: "\"level\": \"fatal\"").utf8).write(to: broken)
        let refused = try await Python.script([script.path, broken.path, String(gccLines)])
        #expect(refused.status == 1)
        #expect(refused.standardOutput.contains("schema: 'fatal' is not one of"), "\(refused.standardOutput)")
    }

    @Test("--warnings-as-errors: warnings are reported as errors, check exits 1, compile writes nothing")
    func warningsAsErrors() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("c.plist")
        try configXML(reminders: reminderXML("water").replacingOccurrences(of: "Title water", with: "Water "))
            .write(to: config, atomically: true, encoding: .utf8)
        #expect(try await Self.check(config.path).status == 0)
        let strict = try await Self.check(config.path, "--warnings-as-errors")
        #expect(strict.status == 1)
        #expect(strict.standardError.contains(": error: 'title' starts or ends with white space"), "\(strict.standardError)")
        let plan = folder.appendingPathComponent("plan.json")
        let compiled = try await remindc("compile", config.path, "--now", "2026-11-22T08:00:00Z", "-o", plan.path, "--warnings-as-errors")
        #expect(compiled.status == 1)
        #expect(!FileManager.default.fileExists(atPath: plan.path))
        #expect(try await remindc("compile", config.path, "--now", "2026-11-22T08:00:00Z", "-o", plan.path).status == 0)
        #expect(FileManager.default.fileExists(atPath: plan.path))
    }

    @Test("every command takes the options; an empty run writes an empty document")
    func everyCommand() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = folder.appendingPathComponent("plan.json")
        #expect(try await remindc("compile", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z", "-o", plan.path,
                            "--diagnostics-format", "json").standardError == "[]\n")
        // A calendar of a plan the budget cut has a note (CalendarScopeTests): this one is whole.
        let whole = folder.appendingPathComponent("whole.json")
        #expect(try await remindc("compile", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z", "--pending-limit", "0", "-o", whole.path).status == 0)
        for arguments in [["diff", plan.path, plan.path], ["ics", whole.path, "-o", folder.appendingPathComponent("p.ics").path],
                          ["next", "examples/medication.plist", "--reminder", "med-a", "--now", "2026-11-22T08:00:00Z"]] {
            let result = try await run(TestEnvironment.remindcExecutable, arguments + ["--diagnostics-format", "json"])
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            #expect(result.standardError == "[]\n", "\(arguments)")
        }
        let pending = folder.appendingPathComponent("pending.json")
        try "[]".write(to: pending, atomically: true, encoding: .utf8)
        let reconciled = try await remindc("reconcile", plan.path, "--pending", pending.path, "--diagnostics-format", "sarif")
        #expect(reconciled.status == 0)
        #expect(reconciled.standardError.contains("\"results\": []"))
    }
}

/// `check --now` plans the config and reports what compile would.
@Suite("check sees what compile sees")
struct CheckPlansTests {
    @Test("with --now, a coverage shorter than minimumCoverageDays is a warning (an error with --warnings-as-errors)")
    func coverageWarning() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("c.plist")
        let every30Minutes = "<key>frequency</key><string>daily</string><key>times</key><array>"
            + (0..<48).map { "<string>\(zeroPadded($0 / 2, 2)):\($0 % 2 == 0 ? "00" : "30")</string>" }.joined() + "</array>"
        try configXML(
            reminders: reminderXML("often", schedule: every30Minutes),
            rootExtra: "<key>pendingLimit</key><integer>64</integer><key>minimumCoverageDays</key><integer>3</integer>"
        ).write(to: config, atomically: true, encoding: .utf8)
        let unplanned = try await remindc("check", config.path)
        #expect(unplanned.status == 0)
        #expect(!unplanned.standardError.contains("minimumCoverageDays"))
        let planned = try await remindc("check", config.path, "--now", "2026-11-22T08:00:00Z")
        #expect(planned.status == 0)
        #expect(planned.standardError.contains("warning: the plan covers only 1.3 days"), "\(planned.standardError)")
        let compiled = try await remindc("compile", config.path, "--now", "2026-11-22T08:00:00Z", "-o", folder.appendingPathComponent("p.json").path)
        #expect(compiled.standardError == planned.standardError)
        let strict = try await remindc("check", config.path, "--now", "2026-11-22T08:00:00Z", "--warnings-as-errors", "--diagnostics-format", "json")
        #expect(strict.status == 1)
        #expect(strict.standardError.contains("\"id\": \"plan.coverage\""))
    }
}
