import Foundation
import Testing

/// `.github/workflows/ci.yml`: valid for GitHub Actions (the workflow schema that
/// check-jsonschema ships), and its remindc step passes on this tree as written.
@Suite("GitHub Actions workflow")
struct WorkflowTests {
    static let workflow = TestEnvironment.repositoryRoot.appendingPathComponent(".github/workflows/ci.yml")

    @Test("the workflow validates against the GitHub workflow schema")
    func validates() async throws {
        let result = try await Python.script(["-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", Self.workflow.path])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("ok -- validation done"))
    }

    @Test("the annotated check of the examples, run as the workflow writes it, passes without an annotation")
    func checkStepPasses() async throws {
        let lines = try String(contentsOf: Self.workflow, encoding: .utf8).split(separator: "\n").map(String.init)
        let marker = try #require(lines.firstIndex { $0.contains("# remindc-ci-check:") })
        let step = lines[marker + 1].trimmingCharacters(in: .whitespaces)
        #expect(step.hasPrefix("run: .build/debug/remindc check "))
        let command = String(step.dropFirst("run: ".count))
            .replacingOccurrences(of: ".build/debug/remindc", with: TestEnvironment.remindcExecutable.path)
        let result = try await run(URL(fileURLWithPath: "/bin/bash"), ["-c", command])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(!result.standardOutput.contains("::"), "\(result.standardOutput)")
        // The same step on a broken config annotates it and fails.
        let broken = try await run(URL(fileURLWithPath: "/bin/bash"), ["-c", command.replacingOccurrences(of: "$(find examples", with: "examples/invalid/duplicate-key.plist $(find examples")])
        #expect(broken.status == 1)
        #expect(broken.standardOutput.contains("::error file=examples/invalid/duplicate-key.plist,line="), "\(broken.standardOutput)")
    }
}
