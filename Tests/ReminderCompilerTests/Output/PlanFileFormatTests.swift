import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// The plan file's fields are listed once, in `PlanFileFormat` (the keys of a plan, of a
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

/// The one table of the format (`PlanFileFormat`) against the JSON Schema's types and
/// required members, and against the Plan format article's tables.
@Suite("The plan format's table")
struct PlanFileFormatTableTests {
    /// A schema property with `$ref` followed: its JSON type, from `type`, `const` or `enum`.
    static func jsonType(of property: [String: Any], definitions: [String: [String: Any]]) -> String? {
        if let reference = property["$ref"] as? String {
            guard let definition = definitions[String(reference.split(separator: "/").last ?? "")] else { return nil }
            return jsonType(of: definition, definitions: definitions)
        }
        if let type = property["type"] as? String { return type }
        let constant = property["const"] ?? (property["enum"] as? [Any])?.first
        // The schema's constants and enumerations are strings, and formatVersion's 1.
        if constant is String { return "string" }
        return (constant as? Int) != nil ? "integer" : nil
    }

    @Test("each member has the schema's JSON type, and the schema requires exactly the required members", arguments: [
        ("plan", PlanFileFormat.plan), ("notification", PlanFileFormat.notification), ("suppressed", PlanFileFormat.suppressed),
    ])
    func schemaTypes(object: String, members: [PlanFileFormat.Member]) throws {
        let schema = try PlanFileFormatTests.schemaObject()
        let definitions = try #require(schema["$defs"] as? [String: [String: Any]])
        let described = object == "plan" ? schema : try #require(definitions[object])
        let properties = try #require(described["properties"] as? [String: [String: Any]])
        #expect(Set(properties.keys) == Set(members.map(\.name)))
        for member in members {
            let property = try #require(properties[member.name], "\(member.name)")
            #expect(Self.jsonType(of: property, definitions: definitions) == member.type.jsonType, "\(object).\(member.name)")
        }
        #expect(Set(try #require(described["required"] as? [String])) == Set(PlanFileFormat.requiredNames(members)))
    }

    /// The rows `| `key` | type | … | required | …` of the first table after `heading`.
    static func articleRows(after heading: String) throws -> [(name: String, type: String, required: String)] {
        let article = TestEnvironment.repositoryRoot.appendingPathComponent("Sources/ReminderCompiler/Documentation.docc/PlanFormat.md")
        let text = String(decoding: try TestEnvironment.bytes(article), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix(heading) }, "\(heading)")
        let header = try #require(lines[start...].firstIndex { $0.hasPrefix("| key | type |") })
        let columns = lines[header].split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        let requiredColumn = try #require(columns.firstIndex(of: "required"))
        return lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map { row in
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
            return (String(cells[0].dropFirst().dropLast()), cells[1], cells[requiredColumn])
        }
    }

    @Test("the article's tables list the members in order, with their types and whether they are required", arguments: [
        ("## Plan fields", PlanFileFormat.plan), ("## Notification fields", PlanFileFormat.notification),
        ("## Suppressed entries", PlanFileFormat.suppressed),
    ])
    func articleMatches(heading: String, members: [PlanFileFormat.Member]) throws {
        let rows = try Self.articleRows(after: heading)
        #expect(rows.map(\.name) == members.map(\.name))
        #expect(rows.map(\.type) == members.map(\.type.rawValue))
        #expect(rows.map(\.required) == members.map { $0.required ? "yes" : "no" })
    }
}
