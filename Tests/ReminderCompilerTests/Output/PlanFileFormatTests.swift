import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// The plan file's fields are listed once, in `PlanReader` (the keys of a plan, of a
/// notification and of a suppressed entry, and which plan keys may be absent), and both
/// readers take them from there. The writer, the `Codable` form and `schema/plan.schema.json`
/// are held to that one list here.
@Suite("The plan file's one list of fields")
struct PlanFileFormatTests {
    static let schema = TestEnvironment.repositoryRoot.appendingPathComponent("schema/plan.schema.json")
    static let goldenPlans = CompileCommandTests.golden.appendingPathComponent("plans")

    static func schemaObject() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: schema)) as? [String: Any])
    }

    @Test("the JSON Schema names exactly the listed keys, and requires exactly those a plan may not leave out")
    func schemaMatchesTheList() throws {
        let schema = try Self.schemaObject()
        let properties = try #require(schema["properties"] as? [String: Any])
        #expect(Set(properties.keys) == Set(PlanReader.planKeys))
        #expect(Set(try #require(schema["required"] as? [String])) == Set(PlanReader.planKeys).subtracting(PlanReader.optionalPlanKeys))
        let definitions = try #require(schema["$defs"] as? [String: [String: Any]])
        let notification = try #require(definitions["notification"]?["properties"] as? [String: Any])
        #expect(Set(notification.keys) == Set(PlanReader.notificationKeys))
        let suppressed = try #require(definitions["suppressed"]?["properties"] as? [String: Any])
        #expect(Set(suppressed.keys) == Set(PlanReader.suppressedKeys))
    }

    /// The keys of a JSON object in the order the file holds them.
    static func keysInOrder(_ object: Substring) -> [String] {
        // Plans are written with one key per line at a fixed indentation; the top level's
        // keys are those indented by two spaces.
        object.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  \""), !line.hasPrefix("   ") else { return nil }
            return line.dropFirst(3).split(separator: "\"", maxSplits: 1).first.map(String.init)
        }
    }

    @Test("every golden plan's keys are listed ones: in the listed order at the top level, and in each notification and suppressed entry")
    func writerFollowsTheList() throws {
        let files = try FileManager.default.contentsOfDirectory(at: Self.goldenPlans, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
        #expect(files.count >= 9)
        var notificationsSeen = 0
        for file in files {
            let text = String(decoding: try TestEnvironment.bytes(file), as: UTF8.self)
            let root = Self.keysInOrder(Substring(text))
            #expect(root == PlanReader.planKeys.filter(root.contains), "\(file.lastPathComponent): \(root)")
            #expect(Set(PlanReader.planKeys).subtracting(PlanReader.optionalPlanKeys).isSubset(of: root), "\(file.lastPathComponent)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            for notification in (object["notifications"] as? [[String: Any]]) ?? [] {
                #expect(Set(notification.keys).isSubset(of: PlanReader.notificationKeys), "\(file.lastPathComponent): \(notification.keys)")
                notificationsSeen += 1
            }
            for entry in (object["suppressed"] as? [[String: Any]]) ?? [] {
                #expect(Set(entry.keys) == Set(PlanReader.suppressedKeys), "\(file.lastPathComponent)")
            }
        }
        #expect(notificationsSeen > 100)
    }

    @Test("the Codable form of a plan uses the listed keys")
    func codableFollowsTheList() throws {
        let bytes = try TestEnvironment.bytes(Self.goldenPlans.appendingPathComponent("medication.with-events.json"))
        var collector = DiagnosticCollector()
        let plan = try #require(ReminderCompiler.readPlan(bytes, path: "plan", diagnostics: &collector))
        let encoded = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(plan)) as? [String: Any])
        #expect(Set(encoded.keys).isSubset(of: PlanReader.planKeys), "\(encoded.keys.sorted())")
        for notification in try #require(encoded["notifications"] as? [[String: Any]]) {
            #expect(Set(notification.keys).isSubset(of: PlanReader.notificationKeys), "\(notification.keys.sorted())")
        }
    }
}
