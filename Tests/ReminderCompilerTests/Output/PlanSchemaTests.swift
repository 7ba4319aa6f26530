import Foundation
import Testing

/// Validates JSON files against a JSON Schema 2020-12 with Python's `jsonschema`, a
/// validator remindc does not share code with.
func validateWithJSONSchema(schema: URL, documents: [URL]) async throws -> ProcessResult {
    let script = """
    import json, os, sys
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    # Schemas beside it (diff.schema.json refers to plan.schema.json) are registered by $id.
    folder = os.path.dirname(sys.argv[1])
    resources = []
    for name in os.listdir(folder):
        if name.endswith(".schema.json"):
            with open(os.path.join(folder, name)) as f:
                other = json.load(f)
            resources.append((other["$id"], Resource.from_contents(other)))
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema, registry=Registry().with_resources(resources))
    failures = 0
    for path in sys.argv[2:]:
        with open(path) as f:
            document = json.load(f)
        for error in validator.iter_errors(document):
            failures += 1
            print(f"{path}: {list(error.absolute_path)}: {error.message}")
    sys.exit(1 if failures else 0)
    """
    return try await Python.script(["-c", script, schema.path] + documents.map(\.path))
}

@Suite("Plan JSON schema")
struct PlanSchemaTests {
    static let schema = TestEnvironment.repositoryRoot.appendingPathComponent("schema/plan.schema.json")

    static func goldenPlans() throws -> [URL] {
        let folder = CompileCommandTests.golden.appendingPathComponent("plans")
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
    }

    @Test("every golden plan validates against schema/plan.schema.json")
    func goldenPlansValidate() async throws {
        let plans = try Self.goldenPlans()
        #expect(plans.count >= 5)
        let result = try await validateWithJSONSchema(schema: Self.schema, documents: plans)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    }

    @Test("diffs validate against schema/diff.schema.json")
    func diffsValidate() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = folder.appendingPathComponent("old.json").path
        let diff = folder.appendingPathComponent("diff.json")
        #expect(try await remindc("compile", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z", "-o", old).status == 0)
        // Med A taken early on the 24th: that day's group shrinks to Med B (an update).
        let events = folder.appendingPathComponent("events.json")
        try Data(#"{"events": [{"activity": "med-a", "at": "2026-11-24T09:05:00+01:00"}]}"#.utf8).write(to: events)
        let compiled = try await remindc(
            "compile", "examples/medication.plist", "--now", "2026-11-23T08:00:00Z", "--events", events.path,
            "--previous", old, "--diff", diff.path, "-o", folder.appendingPathComponent("new.json").path
        )
        #expect(compiled.status == 0, "\(compiled.standardError)")
        let text = String(decoding: try Data(contentsOf: diff), as: UTF8.self)
        #expect(text.contains("\"changes\": {"))
        #expect(text.contains("\"id\": \"morning-20261124-0920\""))
        let schema = TestEnvironment.repositoryRoot.appendingPathComponent("schema/diff.schema.json")
        let result = try await validateWithJSONSchema(schema: schema, documents: [diff])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    }

    @Test("the schema rejects a plan with a wrong field")
    func schemaRejects() async throws {
        let plan = try #require(try Self.goldenPlans().first)
        var text = String(decoding: try Data(contentsOf: plan), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"kind\": \"single\"", with: "\"kind\": \"repeating\"")
        text = text.replacingOccurrences(of: "\"kind\": \"group\"", with: "\"kind\": \"repeating\"")
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("remindc-broken-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: broken) }
        try Data(text.utf8).write(to: broken)
        let result = try await validateWithJSONSchema(schema: Self.schema, documents: [broken])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("'repeating' is not one of"))
    }
}
