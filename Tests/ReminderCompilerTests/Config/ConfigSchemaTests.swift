import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// `schema/config.schema.json`, the JSON Schema editors use to complete and check JSON
/// configs, held to what remindc accepts: never stricter (every config remindc accepts
/// validates) and refusing the mistakes of structure remindc refuses.
@Suite("Config JSON schema")
struct ConfigSchemaTests {
    static let schema = TestEnvironment.repositoryRoot.appendingPathComponent("schema/config.schema.json")

    /// Each plist written as JSON by Python's plistlib, beside it in `folder`.
    static func asJSON(_ plists: [URL], in folder: URL) async throws -> [URL] {
        let script = """
        import json, os, plistlib, sys
        for path in sys.argv[2:]:
            with open(path, 'rb') as f:
                data = plistlib.load(f)
            name = os.path.basename(path).rsplit('.', 1)[0] + '.json'
            with open(os.path.join(sys.argv[1], name), 'w') as f:
                json.dump(data, f, indent=2, ensure_ascii=False)
        """
        let result = try await Python.script(["-c", script, folder.path] + plists.map(\.path))
        #expect(result.status == 0, "\(result.standardError)")
        return plists.map { folder.appendingPathComponent($0.deletingPathExtension().lastPathComponent + ".json") }
    }

    @Test("every example config (the warnings' and the Expo app's too), and 40 random ones remindc accepts, validate; remindc reads the JSON as it reads the plist")
    func acceptedConfigsValidate() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var plists = try TestEnvironment.exampleConfigs()
        var generator = PlanScenarioGenerator(seed: 2020_12)
        for round in 0..<40 {
            let config = generator.config(around: CivilDate(dayNumber: generator.random.int(20_300...20_600)))
            let path = folder.appendingPathComponent("random-\(round).plist")
            let text = ConfigPlistWriter.write(config)
            try text.write(to: path, atomically: true, encoding: .utf8)
            // Only what remindc accepts: the schema must never be stricter.
            if ReminderCompiler.check(Array(text.utf8), path: path.path).config != nil { plists.append(path) }
        }
        // The configs of the warnings' examples, and the Expo example's, which is JSON already.
        let warnings = TestEnvironment.examples.appendingPathComponent("warnings")
        plists += try FileManager.default.contentsOfDirectory(at: warnings, includingPropertiesForKeys: nil).filter { $0.pathExtension == "plist" }
        #expect(plists.count >= 43)
        let documents = try await Self.asJSON(plists, in: folder)
            + [TestEnvironment.examples.appendingPathComponent("expo/reminders.config.json")]
        let validated = try await validateWithJSONSchema(schema: Self.schema, documents: documents)
        #expect(validated.status == 0, "\(validated.standardOutput)\(validated.standardError)")
        for document in documents {
            let result = ReminderCompiler.check(try TestEnvironment.bytes(document), path: document.lastPathComponent)
            #expect(result.config != nil, "\(document.lastPathComponent): \(result.diagnostics.map(\.formatted))")
        }
    }

    @Test("mistakes of structure fail both the schema and remindc", arguments: [
        ("unknown root key", #""horizon": 14,"#, ""),
        ("unknown reminder key", "", #""titel": "x","#),
        ("frequency not in the list", "", "FREQUENCY:hourly"),
        ("a time past 23:59", "", "TIME:25:00"),
        ("a reminder without a title", "", "NO-TITLE"),
        ("lookbackHours with lookbackSameDay", "", #""lookbackHours": 2, "lookbackSameDay": true,"#),
        ("formatVersion 2", "VERSION:2", ""),
    ])
    func mistakesFail(_ name: String, root: String, reminder: String) async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var reminderText = #"{ "id": "pill", "title": "Pill", "schedule": { "frequency": "daily", "times": ["09:00"] } }"#
        if reminder.hasPrefix("FREQUENCY:") { reminderText = reminderText.replacingOccurrences(of: "\"daily\"", with: "\"\(reminder.dropFirst(10))\"") }
        else if reminder.hasPrefix("TIME:") { reminderText = reminderText.replacingOccurrences(of: "09:00", with: String(reminder.dropFirst(5))) }
        else if reminder == "NO-TITLE" { reminderText = reminderText.replacingOccurrences(of: #""title": "Pill", "#, with: "") }
        else if !reminder.isEmpty { reminderText = reminderText.replacingOccurrences(of: "{ \"id\"", with: "{ \(reminder) \"id\"") }
        let version = root.hasPrefix("VERSION:") ? String(root.dropFirst(8)) : "1"
        let rootExtra = root.hasPrefix("VERSION:") ? "" : root
        let text = #"{ "formatVersion": \#(version), "timeZone": "Europe/Berlin", \#(rootExtra) "reminders": [ \#(reminderText) ] }"#
        let document = folder.appendingPathComponent("broken.json")
        try text.write(to: document, atomically: true, encoding: .utf8)
        let validated = try await validateWithJSONSchema(schema: Self.schema, documents: [document])
        #expect(validated.status == 1, "\(name): the schema accepts \(text)")
        #expect(!validated.standardOutput.isEmpty)
        let checked = ReminderCompiler.check(Array(text.utf8), path: "broken.json")
        #expect(checked.config == nil, "\(name): remindc accepts \(text)")
    }
}
