import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// `JSONDecoder` reads what the command line writes, into the values the library's own
/// readers give; `JSONEncoder` writes the same keys back.
@Suite("Codable in the command line's shapes")
struct CodableTests {
    static let golden = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Golden/plans")

    static func goldenPlans() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: golden, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
    }

    @Test("every golden plan decodes to what the plan reader reads, and survives encoding")
    func plans() throws {
        let files = try Self.goldenPlans()
        #expect(files.count >= 8)
        for file in files {
            let bytes = try TestEnvironment.bytes(file)
            var diagnostics = DiagnosticCollector()
            let expected = try #require(ReminderCompiler.readPlan(bytes, path: file.path, diagnostics: &diagnostics))
            let decoded = try JSONDecoder().decode(Plan.self, from: Data(bytes))
            #expect(decoded == expected, "\(file.lastPathComponent)")
            let again = try JSONDecoder().decode(Plan.self, from: JSONEncoder().encode(decoded))
            #expect(again == expected, "\(file.lastPathComponent)")
            // The encoder writes the same keys, fingerprints included.
            let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(decoded)) as? [String: Any])
            let reference = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            #expect(NSDictionary(dictionary: object).isEqual(to: reference), "\(file.lastPathComponent)")
        }
    }

    @Test("an events file decodes to what the events reader reads")
    func events() throws {
        for file in try TestEnvironment.exampleEvents() where file.pathExtension == "json" {
            let bytes = try TestEnvironment.bytes(file)
            var diagnostics = DiagnosticCollector()
            let expected = try #require(ReminderCompiler.readEvents(bytes, path: file.path, diagnostics: &diagnostics))
            let decoded = try JSONDecoder().decode(ReminderEvents.self, from: Data(bytes))
            #expect(decoded.activities == expected.activities)
            #expect(decoded.actions.map(\.occurrence) == expected.actions.map(\.occurrence))
            #expect(decoded.actions.map(\.kind) == expected.actions.map(\.kind))
            let again = try JSONDecoder().decode(ReminderEvents.self, from: JSONEncoder().encode(decoded))
            #expect(again.activities == expected.activities)
            #expect(again.actions.map(\.kind) == expected.actions.map(\.kind))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ReminderEvents.self, from: Data(#"{"events": [{"occurrence": "a", "action": "dnoe"}]}"#.utf8))
        }
    }

    @Test("remindc diff --format json decodes to the document of the library's diff")
    func diff() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = folder.appendingPathComponent("old.json").path
        let new = folder.appendingPathComponent("new.json").path
        #expect(try await remindc("compile", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z", "-o", old).status == 0)
        #expect(try await remindc("compile", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z", "--events",
                            "examples/medication.events.json", "-o", new).status == 0)
        let output = try await remindc("diff", old, new, "--format", "json")
        #expect(output.status == 0)
        let decoded = try JSONDecoder().decode(PlanDiffDocument.self, from: Data(output.standardOutput.utf8))
        var diagnostics = DiagnosticCollector()
        let oldPlan = try #require(ReminderCompiler.readPlan(try TestEnvironment.bytes(URL(fileURLWithPath: old)), path: old, diagnostics: &diagnostics))
        let newPlan = try #require(ReminderCompiler.readPlan(try TestEnvironment.bytes(URL(fileURLWithPath: new)), path: new, diagnostics: &diagnostics))
        let expected = PlanDiffDocument(PlanDiff(old: oldPlan, new: newPlan))
        #expect(decoded == expected)
        #expect(!decoded.add.isEmpty && !decoded.cancel.isEmpty && !decoded.update.isEmpty)
        #expect(try JSONDecoder().decode(PlanDiffDocument.self, from: JSONEncoder().encode(decoded)) == expected)
    }
}
