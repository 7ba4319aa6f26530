import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Diffs that miss nothing: plan-level changes are listed and count for `--exit-code`, and
/// the Markdown form for pull requests.
@Suite("Plan-level diff and Markdown")
struct PlanFieldDiffTests {
    /// The medication example compiled at `now`, with its Snooze action renamed when asked.
    static func plan(now: String, renamedSnooze: Bool = false, in folder: URL) async throws -> URL {
        var config = try String(contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent("examples/medication.plist"), encoding: .utf8)
        if renamedSnooze {
            let renamed = config.replacingOccurrences(of: "<string>snooze</string>", with: "<string>later</string>")
            #expect(renamed != config)
            config = renamed
        }
        let source = folder.appendingPathComponent("medication-\(renamedSnooze).plist")
        try config.write(to: source, atomically: true, encoding: .utf8)
        let plan = folder.appendingPathComponent("plan-\(now)-\(renamedSnooze).json")
        let result = try await remindc("compile", source.path, "--now", now, "-o", plan.path)
        #expect(result.status == 0, "\(result.standardError)")
        return plan
    }

    @Test("a renamed action changes nothing but categories: diff --exit-code exits 2 and says so in every form")
    func renamedAction() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try await Self.plan(now: "2026-11-22T08:00:00Z", in: folder)
        let after = try await Self.plan(now: "2026-11-22T08:00:00Z", renamedSnooze: true, in: folder)
        let text = try await remindc("diff", before.path, after.path, "--exit-code")
        #expect(text.status == 2)
        #expect(text.standardOutput.hasPrefix("~ plan categories: {medication: [take \"Take now\", snooze \"Snooze 10 min\" (snooze 10 min)"))
        #expect(text.standardOutput.hasSuffix("0 to add, 0 to cancel, 0 to update, 64 unchanged, 0 expired; 1 plan field changed.\n"))
        let json = try await remindc("diff", before.path, after.path, "--format", "json")
        let document = try JSONDecoder().decode(PlanDiffDocument.self, from: Data(json.standardOutput.utf8))
        #expect(Array(document.plan.keys) == ["categories"])
        guard case .categories(let renamed)? = document.plan["categories"]?.after else {
            Issue.record("categories after: \(String(describing: document.plan["categories"]))")
            return
        }
        #expect(renamed["medication"]?.map(\.id) == ["take", "later", "skip"])
        // The whole-plan path (compile --diff) says the same as the file comparison.
        var diagnostics = DiagnosticCollector()
        let old = try #require(PlanReader.read(TestEnvironment.bytes(before), path: "a", diagnostics: &diagnostics))
        let new = try #require(PlanReader.read(TestEnvironment.bytes(after), path: "b", diagnostics: &diagnostics))
        #expect(DiffOutput.json(PlanDiff(old: old, new: new)) == Array(json.standardOutput.utf8))
    }

    @Test("a changed coveredUntil alone makes diff --exit-code exit 2; identical plans exit 0 with an empty plan object")
    func coveredUntil() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await Self.plan(now: "2026-11-22T08:00:00Z", in: folder)
        let same = try await remindc("diff", first.path, first.path, "--exit-code", "--format", "json")
        #expect(same.status == 0)
        #expect(same.standardOutput.hasSuffix("\"unchanged\": 64,\n  \"plan\": {},\n  \"reminders\": []\n}\n"))
        // An hour later the coverage edge moves: a notification passed, one entered.
        let later = try await Self.plan(now: "2026-11-22T09:00:00Z", in: folder)
        let moved = try await remindc("diff", first.path, later.path, "--exit-code")
        #expect(moved.status == 2)
        #expect(moved.standardOutput.hasPrefix("~ plan coveredUntil: 2026-12-01 09:50 +01:00 → 2026-12-01 13:30 +01:00\n"))
    }

    @Test("Markdown for a pull request: golden, cells escaped, rows capped with a count of the rest")
    func markdown() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try await Self.plan(now: "2026-11-22T08:00:00Z", in: folder)
        let after = try await Self.plan(now: "2026-11-23T08:00:00Z", renamedSnooze: true, in: folder)
        let result = try await remindc("diff", before.path, after.path, "--format", "markdown")
        #expect(result.status == 0)
        expectGolden(result.standardOutput, matches: TestEnvironment.repositoryRoot.appendingPathComponent(
            "Tests/ReminderCompilerTests/Golden/diff/medication.md"
        ))
        var diagnostics = DiagnosticCollector()
        let old = try #require(PlanReader.read(TestEnvironment.bytes(before), path: "a", diagnostics: &diagnostics))
        let new = try #require(PlanReader.read(TestEnvironment.bytes(after), path: "b", diagnostics: &diagnostics))
        let diff = PlanDiff(old: old, new: new)
        let rows = diff.add.count + diff.cancel.count + diff.update.count
        let capped = DiffOutput.markdown(diff, rowLimit: 3).split(separator: "\n")
        #expect(capped.filter { $0.hasPrefix("| + |") || $0.hasPrefix("| − |") || $0.hasPrefix("| ~ |") }.count == 3)
        #expect(capped.last == "| | | | | and \(rows - 3) more |")
        #expect(DiffOutput.cell("a|b\nc *d*") == "a\\|b c \\*d\\*")
        // Any limit a caller passes is taken, a negative one as none.
        #expect(DiffOutput.markdown(diff, rowLimit: -5).hasSuffix("| | | | | and \(rows) more |\n"))
        #expect(DiffOutput.markdown(PlanDiff(old: old, new: old)).hasPrefix("**remindc plan diff:** no changes (0 to add"))
    }
}
