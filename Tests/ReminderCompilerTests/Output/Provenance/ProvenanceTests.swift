import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// The plan's `configDigest` is SHA-256 of the config file, checked against Python's
/// `hashlib`.
@Suite("Plan provenance")
struct ProvenanceTests {
    @Test("SHA-256 equals hashlib's for every length around the block and padding edges, and for each example")
    func digestsMatchHashlib() async throws {
        var generator = SeededGenerator(seed: 256)
        var inputs: [[UInt8]] = (0...130).map { length in (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        inputs.append((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let examples = try TestEnvironment.exampleConfigs()
        inputs += try examples.map(TestEnvironment.bytes)
        let hexInputs = inputs.map { $0.map { String(format: "%02x", $0) }.joined() }.joined(separator: "\n")
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("inputs.txt")
        try hexInputs.write(to: file, atomically: true, encoding: .utf8)
        let python = try await Python.script([
            "-c",
            "import hashlib, sys\nfor line in open(sys.argv[1]).read().split('\\n'): print(hashlib.sha256(bytes.fromhex(line)).hexdigest())",
            file.path,
        ])
        #expect(python.status == 0, "\(python.standardError)")
        let expected = python.standardOutput.split(separator: "\n").map(String.init)
        #expect(expected.count == inputs.count)
        for (input, digest) in zip(inputs, expected) {
            #expect(ConfigDigest.sha256Hex(input) == digest, "length \(input.count)")
        }
        // Compiled plans carry the file's digest.
        for (example, digest) in zip(examples, expected.suffix(examples.count)) {
            let plan = try await remindc("compile", example.path, "--now", "2026-11-22T08:00:00Z")
            #expect(plan.standardOutput.contains("\"configDigest\": \"\(digest)\""), "\(example.lastPathComponent)")
        }
    }
}

@Suite("Format-version policy")
struct FormatVersionPolicyTests {
    @Test("keys of a later version are skipped at every level, by both plan readers; another formatVersion is refused")
    func unknownKeysIgnored() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let planFile = folder.appendingPathComponent("plan.json")
        #expect(try await remindc("compile", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z", "-o", planFile.path).status == 0)
        let text = String(decoding: try Data(contentsOf: planFile), as: UTF8.self)
        let later = text
            .replacingOccurrences(of: "\"dropped\":", with: "\"laterPlanKey\": {\"nested\": [1, \"two\", 3.5, false]},\n  \"dropped\":")
            .replacingOccurrences(of: "\"kind\": \"group\",", with: "\"kind\": \"group\", \"laterNotificationKey\": [true],")
            .replacingOccurrences(of: "\"title\": \"Take now\"", with: "\"title\": \"Take now\", \"laterActionKey\": 1")
        #expect(later.contains("laterPlanKey") && later.contains("laterNotificationKey") && later.contains("laterActionKey"))
        let laterFile = folder.appendingPathComponent("later.json")
        try later.write(to: laterFile, atomically: true, encoding: .utf8)
        var diagnostics = DiagnosticCollector()
        let original = try #require(PlanReader.read(Array(text.utf8), path: "a", diagnostics: &diagnostics))
        let skipped = PlanReader.read(Array(later.utf8), path: "b", diagnostics: &diagnostics)
        #expect(skipped == original)
        #expect(diagnostics.sorted.isEmpty)
        let diff = try await remindc("diff", planFile.path, laterFile.path, "--exit-code")
        #expect(diff.status == 0, "\(diff.standardOutput)\(diff.standardError)")
        #expect(try await remindc("ics", laterFile.path).standardOutput == (try await remindc("ics", planFile.path)).standardOutput)
        let version2 = folder.appendingPathComponent("v2.json")
        try text.replacingOccurrences(of: "\"formatVersion\": 1", with: "\"formatVersion\": 2").write(to: version2, atomically: true, encoding: .utf8)
        let refused = try await remindc("ics", version2.path)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("\(version2.path):2:20: error:"), "\(refused.standardError)")
    }
}
