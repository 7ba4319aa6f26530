import Foundation
import Testing

/// Validates JSON files against a JSON Schema 2020-12 with Python's `jsonschema`, a
/// validator remindc does not share code with.
func validateWithJSONSchema(schema: URL, documents: [URL]) throws -> ProcessResult {
    let script = """
    import json, sys
    from jsonschema import Draft202012Validator
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    failures = 0
    for path in sys.argv[2:]:
        with open(path) as f:
            document = json.load(f)
        for error in validator.iter_errors(document):
            failures += 1
            print(f"{path}: {list(error.absolute_path)}: {error.message}")
    sys.exit(1 if failures else 0)
    """
    return try Python.script(["-c", script, schema.path] + documents.map(\.path))
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
    func goldenPlansValidate() throws {
        let plans = try Self.goldenPlans()
        #expect(plans.count >= 5)
        let result = try validateWithJSONSchema(schema: Self.schema, documents: plans)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    }

    @Test("the schema rejects a plan with a wrong field")
    func schemaRejects() throws {
        let plan = try #require(try Self.goldenPlans().first)
        var text = String(decoding: try Data(contentsOf: plan), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"kind\": \"single\"", with: "\"kind\": \"repeating\"")
        text = text.replacingOccurrences(of: "\"kind\": \"group\"", with: "\"kind\": \"repeating\"")
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("remindc-broken-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: broken) }
        try Data(text.utf8).write(to: broken)
        let result = try validateWithJSONSchema(schema: Self.schema, documents: [broken])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("'repeating' is not one of"))
    }
}
