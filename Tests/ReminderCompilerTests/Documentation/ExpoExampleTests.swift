import Foundation
import Testing

#if Service
extension ServiceTests {
    /// The Expo example's logic (`examples/expo/remindc.js`) run by Node against the
    /// service, with a simulated notification centre: each pass must leave the centre
    /// holding exactly the plan, a diff must need no repair, a snooze, a logged dose and
    /// "Taken" must change the plan as the planning rules say, and an emptied centre must
    /// be filled again. Node comes from Debian (`.ci/run` installs it and sets
    /// `REMINDC_REQUIRE_NODE`); without it the test is skipped.
    @Test("the Expo example schedules each plan, applies each diff and handles responses against the service")
    func expoExample() async throws {
        let node = try? await run(URL(fileURLWithPath: "/bin/sh"), ["-c", "command -v node"])
        guard node?.status == 0 else {
            if ProcessInfo.processInfo.environment["REMINDC_REQUIRE_NODE"] == "1" { Issue.record("node is not on the PATH") }
            return
        }
        let folder = TestEnvironment.examples.appendingPathComponent("expo").path
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Documentation/expo_example_check.mjs").path
        try await Self.withServer { server in
            let result = try await run(URL(fileURLWithPath: "/bin/sh"), ["-c", "node \"$0\" \"$1\" \"$2\"", script, String(server.port), folder])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.hasSuffix("ok\n"), "\(result.standardOutput)")
            #expect(result.standardOutput.contains("after \"Taken\": "))
        }
    }
}
#endif

/// `schema/remindc.d.ts` against the JSON Schemas and the OpenAPI document: each
/// interface declares exactly the members its schema has, optional exactly when the
/// schema does not require them.
@Suite("TypeScript declarations")
struct TypeScriptDeclarationTests {
    /// Each member of `interface` in the declarations, and whether it is optional.
    static func members(of interface: String, in declarations: String) throws -> [String: Bool] {
        let start = try #require(declarations.range(of: "export interface \(interface) {\n"), "no interface \(interface)")
        let end = try #require(declarations.range(of: "\n}\n", range: start.upperBound..<declarations.endIndex))
        var members: [String: Bool] = [:]
        for line in declarations[start.upperBound..<end.lowerBound].split(separator: "\n") {
            // A member is a line of two spaces, a name, an optional "?" and a colon.
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let colon = line.firstIndex(of: ":") else { continue }
            var name = line[line.index(line.startIndex, offsetBy: 2)..<colon]
            let optional = name.hasSuffix("?")
            if optional { name = name.dropLast() }
            guard name.allSatisfy({ $0.isLetter || $0.isNumber }) else { continue }
            members[String(name)] = optional
        }
        return members
    }

    /// The members a schema object declares, optional unless required.
    static func members(of schema: [String: Any]) throws -> [String: Bool] {
        let properties = try #require(schema["properties"] as? [String: Any])
        let required = Set(schema["required"] as? [String] ?? [])
        return Dictionary(uniqueKeysWithValues: properties.keys.map { ($0, !required.contains($0)) })
    }

    @Test("every interface of remindc.d.ts has its schema's members, optional as the schema says")
    func declarationsMatchSchemas() throws {
        let root = TestEnvironment.repositoryRoot.appendingPathComponent("schema")
        let declarations = String(decoding: try Data(contentsOf: root.appendingPathComponent("remindc.d.ts")), as: UTF8.self)
        func json(_ name: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent(name))) as? [String: Any])
        }
        let plan = try json("plan.schema.json"), diff = try json("diff.schema.json"), service = try json("remindc-service.openapi.json")
        let planDefinitions = try #require(plan["$defs"] as? [String: [String: Any]])
        let diffProperties = try #require(diff["properties"] as? [String: [String: Any]])
        let reminderSummary = try #require(diffProperties["reminders"]?["items"] as? [String: Any])
        let serviceSchemas = try #require((service["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        let pairs: [(String, [String: Any]?)] = [
            ("Plan", plan), ("PlannedNotification", planDefinitions["notification"]), ("NotificationAction", planDefinitions["action"]),
            ("SuppressedNotification", planDefinitions["suppressed"]), ("PlanDiff", diff), ("ReminderSummary", reminderSummary),
            ("Job", serviceSchemas["Job"]), ("PlanResult", serviceSchemas["PlanResult"]), ("Diagnostic", serviceSchemas["Diagnostic"]),
        ]
        for (interface, schema) in pairs {
            let declared = try Self.members(of: interface, in: declarations)
            let expected = try Self.members(of: try #require(schema, "no schema for \(interface)"))
            #expect(declared == expected, "\(interface): declared \(declared.sorted { $0.key < $1.key }), schema \(expected.sorted { $0.key < $1.key })")
        }
    }
}
