import Foundation
import Testing
@testable import ReminderCompiler

/// The plan's `configDigest` is SHA-256 of the config file, checked against Python's
/// `hashlib`.
@Suite("Plan provenance")
struct ProvenanceTests {
    @Test("SHA-256 equals hashlib's for every length around the block and padding edges, and for each example")
    func digestsMatchHashlib() throws {
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
        let python = try Python.script([
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
            let plan = try remindc("compile", example.path, "--now", "2026-11-22T08:00:00Z")
            #expect(plan.standardOutput.contains("\"configDigest\": \"\(digest)\""), "\(example.lastPathComponent)")
        }
    }
}
