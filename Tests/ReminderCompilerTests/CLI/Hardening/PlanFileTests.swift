import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Plan files read back by `diff`, `ics` and `--previous`: every plan remindc writes is
/// readable, and every reader refuses the same malformed ones.
@Suite("Plan files read back")
struct PlanFileTests {
    static let goldenPlan = "Tests/ReminderCompilerTests/Golden/plans/medication.json"

    static func golden() throws -> String {
        String(decoding: try TestEnvironment.bytes(TestEnvironment.repositoryRoot.appendingPathComponent(goldenPlan)), as: UTF8.self)
    }

    @Test("a plan over 32 MiB whose titles need escapes is read back whole")
    func largePlanWithEscapes() throws {
        // A long body, so that the plan passes 32 MiB with few notifications.
        let body = "Take \"two\" glasses\\of water\t" + String(repeating: "Drink slowly, sip by sip. ", count: 28)
        let times = (0..<24).map { "<string>\(zeroPadded($0, 2)):05</string>" }.joined()
        let xml = configXML(
            reminders: reminderXML(
                "water", schedule: "<key>frequency</key><string>daily</string><key>times</key><array>\(times)</array>",
                extra: "<key>body</key><string>\(body)</string>"
            ),
            rootExtra: "<key>horizonDays</key><integer>1500</integer><key>pendingLimit</key><integer>0</integer>"
        )
        let result = ReminderCompiler.compile(Array(xml.utf8), path: "c.plist", options: CompileOptions(now: .instant(fixedNow)))
        let plan = try #require(result.plan)
        var bytes: [UInt8] = []
        PlanJSON.write(plan) { bytes.append(span: $0) }
        #expect(bytes.count > PlistReader.defaultMaximumInputBytes)
        var diagnostics = DiagnosticCollector()
        let readBack = ReminderCompiler.readPlan(bytes, path: "big.json", diagnostics: &diagnostics)
        #expect(diagnostics.diagnostics.isEmpty)
        #expect(readBack == plan)
        #expect(readBack?.notifications.first?.body == body)
        #expect(PlanDiff(oldFile: bytes, newFile: bytes)?.unchanged == plan.notifications.count)
    }

    /// Malformed plans: each must be refused by `diff` (fast and full paths alike) with
    /// the file, line and column, never answered "unchanged".
    static let malformed: [(name: String, edit: @Sendable (String) -> String, message: String)] = [
        ("no timeZone", { $0.replacingOccurrences(of: "  \"timeZone\": \"Europe/Berlin\",\n", with: "") },
         "error: the plan is missing the required key 'timeZone'"),
        ("junk kind", { $0.replacingOccurrences(of: "\"kind\": \"group\"", with: "\"kind\": \"junk\"") }, "'junk'"),
        ("junk after the plan", { $0 + "junk" }, "unexpected content after the JSON value"),
        ("sequence far too large", { $0.replacingOccurrences(of: "\"sequence\": 0", with: "\"sequence\": 99999999999999999999") },
         "error:"),
        // Just past 32 bits: the message gives the range a sequence has.
        ("sequence one past the largest", { $0.replacingOccurrences(of: "\"sequence\": 0", with: "\"sequence\": 2147483648") },
         "expected 0 to 2147483647"),
        // A plan is JSON: its root is named in JSON's words, not plist's "<dict>".
        ("an array, not a plan", { "[" + $0 + "]" }, "1:1: error: a plan must be a JSON object with the plan's keys, found an array"),
        // Each field the in-place check of an unchanged notification reads, wrong in a way
        // only that check sees when both files hold the notification.
        ("a slot that is no local time", { $0.replacingOccurrences(of: "\"slot\": \"2026-11-22T09:20\"", with: "\"slot\": \"2026-11-22T25:20\"") },
         "error:"),
        ("a level that is none", { $0.replacingOccurrences(of: "\"interruptionLevel\": \"timeSensitive\"", with: "\"interruptionLevel\": \"loud\"") },
         "'loud'"),
        ("a title that is a number", { $0.replacingOccurrences(of: "\"title\": \"Morning medications\"", with: "\"title\": 7") },
         "error:"),
        ("a member that is no ID", { $0.replacingOccurrences(of: "[\"med-a\", \"med-b\"]", with: "[\"med a\", \"med-b\"]") }, "error:"),
        ("userInfo naming a key twice", { $0.replacingOccurrences(of: "\"medicationID\": \"42\"", with: "\"medicationID\": \"42\", \"medicationID\": \"43\"") },
         "medicationID"),
        ("a fireAt that is no instant", { $0.replacingOccurrences(of: "\"fireAt\": \"2026-11-22T09:20:00+01:00\"", with: "\"fireAt\": \"2026-11-22T09:20:00+25:00\"") },
         "error:"),
    ]

    @Test("diff refuses a malformed plan with its place, both sides the same file or not", arguments: PlanFileTests.malformed.indices)
    func malformedPlans(index: Int) async throws {
        let (name, edit, message) = Self.malformed[index]
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("bad.json")
        try Data(edit(try Self.golden()).utf8).write(to: bad)
        for arguments in [[bad.path, bad.path], [Self.goldenPlan, bad.path], [bad.path, Self.goldenPlan]] {
            let result = try await run(TestEnvironment.remindcExecutable, ["diff"] + arguments + ["--exit-code"])
            #expect(result.status == 1, "\(name): \(arguments)")
            #expect(result.standardError.hasPrefix(bad.path + ":"), "\(name): \(result.standardError)")
            #expect(result.standardError.contains(message), "\(name): \(result.standardError)")
            #expect(result.standardOutput.isEmpty)
        }
        var diagnostics = DiagnosticCollector()
        let badBytes = Array(edit(try Self.golden()).utf8)
        #expect(ReminderCompiler.readPlan(badBytes, path: "bad.json", diagnostics: &diagnostics) == nil)
        // The fast comparison reads a notification both files hold unchanged once: it must
        // still refuse a bad one that both hold.
        #expect(PlanDiff(oldFile: badBytes, newFile: badBytes) == nil, "\(name)")
    }

    @Test("a plan listing one notification twice is an error in every reader, with a note at the first")
    func duplicateIDs() throws {
        let golden = try Self.golden()
        // The first notification, written again right after itself.
        let start = try #require(golden.range(of: "    {\n      \"id\""))
        let end = try #require(golden.range(of: "\n    }", range: start.upperBound..<golden.endIndex))
        let first = String(golden[start.lowerBound..<end.upperBound])
        let duplicated = golden.replacingCharacters(in: start.lowerBound..<end.upperBound, with: first + ",\n" + first)
        let bytes = Array(duplicated.utf8)
        #expect(PlanDiff(oldFile: bytes, newFile: try TestEnvironment.bytes(TestEnvironment.repositoryRoot.appendingPathComponent(Self.goldenPlan))) == nil)
        var diagnostics = DiagnosticCollector()
        #expect(ReminderCompiler.readPlan(bytes, path: "dup.json", diagnostics: &diagnostics) == nil)
        let firstLine = golden[..<start.lowerBound].filter { $0 == "\n" }.count + 1
        let secondLine = firstLine + first.filter { $0 == "\n" }.count + 1
        let error = try #require(diagnostics.diagnostics.first)
        #expect(error.formatted == """
        dup.json:\(secondLine):5: error: duplicate notification id 'morning-20261122-0920'; each notification of a plan needs its own
        dup.json:\(firstLine):5: note: 'morning-20261122-0920' first appears here
        """)
    }

    @Test("diff reads no more of an input than it needs to refuse it")
    func endlessAndHugeInputs() async throws {
        // Not a plan from its first byte: refused after the first chunk, at its place.
        let zero = try await remindc("diff", "/dev/zero", Self.goldenPlan)
        #expect(zero.status == 1)
        #expect(zero.standardError == "/dev/zero:1:1: error: malformed JSON: unexpected character; expected a value\n")
        // A file over the limit (sparse: it takes no disk) is refused from its size alone.
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let huge = folder.appendingPathComponent("huge.json")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: Data("{".utf8)))
        #expect(truncate(huge.path, off_t(ReminderCompiler.maximumPlanBytes + 1)) == 0)
        let result = try await remindc("diff", Self.goldenPlan, huge.path)
        #expect(result.status == 1)
        #expect(result.standardError == "\(huge.path):1:1: error: the input is larger than the limit of \(ReminderCompiler.maximumPlanBytes) bytes\n")
    }
}

extension PlanFileTests {
    /// Crafted plans whose IDs or UID domain carry what would change another format: a
    /// line break and an iCalendar property, a Markdown table row, HTML.
    static let injections: [(name: String, edit: @Sendable (String) -> String, place: String)] = [
        ("CR LF and ATTENDEE in an id",
         { $0.replacingOccurrences(of: "\"id\": \"morning-20261122-0920\",", with: "\"id\": \"morning-20261122-0920\\r\\nATTENDEE:mailto:x@example.com\",") },
         "34:13: error: id 'morning-20261122-0920\\r\\nATTENDEE:mailto:x@example.com' is not an ID remindc writes"),
        ("CR LF in the uidDomain",
         { $0.replacingOccurrences(of: "\"uidDomain\": \"meds.example.com\"", with: "\"uidDomain\": \"meds.example.com\\r\\nATTENDEE:mailto:x@example.com\"") },
         "6:16: error: uidDomain 'meds.example.com\\r\\nATTENDEE:mailto:x@example.com' is not a valid uidDomain"),
        ("a table row and HTML in a member",
         { $0.replacingOccurrences(of: "\"reminders\": [\"med-a\", \"med-b\"],", with: "\"reminders\": [\"med-a\", \"med-b\\n| x | <script>alert(1)</script> |\"],") },
         "38:30: error: reminders 'med-b\\n| x | <script>alert(1)</script> |' is not an ID remindc writes"),
    ]

    @Test("a plan whose IDs or UID domain would break into another format is refused by every reader, on one located line",
          arguments: 0..<3)
    func injectedIDs(index: Int) async throws {
        let (name, edit, place) = Self.injections[index]
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let crafted = edit(try Self.golden())
        #expect(crafted != (try Self.golden()), "\(name): the edit applies")
        let bad = folder.appendingPathComponent("bad.json")
        try Data(crafted.utf8).write(to: bad)
        let commands: [[String]] = [
            ["ics", bad.path], ["ics", bad.path, "--ics-style", "recurring", "--config", "examples/medication.plist"],
            ["diff", Self.goldenPlan, bad.path, "--format", "markdown"], ["diff", bad.path, Self.goldenPlan, "--format", "html"],
            ["diff", bad.path, bad.path], ["agenda", bad.path, "--format", "html"],
        ]
        for arguments in commands {
            let result = try await remindc(arguments)
            #expect(result.status == 1, "\(name): \(arguments)")
            #expect(!result.standardOutput.contains("ATTENDEE") && !result.standardOutput.contains("<script>"), "\(name): \(arguments)")
            let lines = result.standardError.split(separator: "\n")
            #expect(lines.contains { $0.hasPrefix(bad.path + ":" + place) }, "\(name): \(arguments): \(result.standardError)")
        }
        // The library refuses it too, with the same message.
        var diagnostics = DiagnosticCollector()
        #expect(ReminderCompiler.readPlan(Array(crafted.utf8), path: "bad.json", diagnostics: &diagnostics) == nil)
        #expect(diagnostics.sorted.contains { $0.formatted.hasPrefix("bad.json:" + place) }, "\(diagnostics.sorted.map(\.formatted))")
    }
}
