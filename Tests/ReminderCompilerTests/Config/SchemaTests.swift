import CRelaxNGValidator
import Foundation
import Testing

/// `schema/reminders.rng`, checked with libxml2's RELAX NG validator (the code behind
/// `xmllint --relaxng`), which shares nothing with remindc's own reader.
@Suite("RELAX NG schema")
struct SchemaTests {
    static let schema = TestEnvironment.repositoryRoot.appendingPathComponent("schema/reminders.rng")

    /// Structural mistakes the schema can express; the other invalid examples need
    /// remindc's semantic checks (duplicate keys, calendar dates, cross references).
    static let structurallyInvalid = [
        "unknown-key", "wrong-type", "root-not-dict", "missing-required-keys", "value-without-key",
        "key-without-value", "integer-overflow", "real-nan", "time-24-00", "unknown-weekday", "schedule-shape",
        "invalid-values",
    ]

    func validate(_ document: [UInt8]) throws -> (result: Int32, message: String) {
        let schema = try TestEnvironment.bytes(Self.schema)
        var message = [CChar](repeating: 0, count: 512)
        let result = schema.withUnsafeBufferPointer { schemaBytes in
            document.withUnsafeBufferPointer { documentBytes in
                schemaBytes.withMemoryRebound(to: CChar.self) { schemaChars in
                    documentBytes.withMemoryRebound(to: CChar.self) { documentChars in
                        rng_validate(schemaChars.baseAddress, schemaChars.count, documentChars.baseAddress,
                                     documentChars.count, &message, message.count)
                    }
                }
            }
        }
        return (result, String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    @Test("every example validates", arguments: try TestEnvironment.exampleConfigs())
    func examplesValidate(_ config: URL) throws {
        let outcome = try validate(try TestEnvironment.bytes(config))
        #expect(outcome.result == 1, "\(outcome.message)")
    }

    @Test("structural bad inputs fail it", arguments: structurallyInvalid)
    func badInputsFail(_ name: String) throws {
        let url = TestEnvironment.invalidExamples.appendingPathComponent("\(name).plist")
        let outcome = try validate(try TestEnvironment.bytes(url))
        #expect(outcome.result == 0, "expected a validation failure: \(outcome.message)")
    }

    @Test("xmllint --relaxng agrees, where xmllint is installed")
    func xmllintAgrees() async throws {
        let xmllint = URL(fileURLWithPath: "/usr/bin/xmllint")
        guard FileManager.default.isExecutableFile(atPath: xmllint.path) else { return }
        for config in try TestEnvironment.exampleConfigs() {
            // The README's command: quiet for a valid file (no "Attempt to load network entity").
            let result = try await run(xmllint, ["--noout", "--nonet", "--stream", "--relaxng", Self.schema.path, config.path])
            #expect(result.status == 0, "\(config.lastPathComponent): \(result.standardError)")
            #expect(result.standardError == "\(config.path) validates\n")
        }
        let bad = TestEnvironment.invalidExamples.appendingPathComponent("unknown-key.plist")
        #expect(try await run(xmllint, ["--noout", "--nonet", "--stream", "--relaxng", Self.schema.path, bad.path]).status != 0)
    }
}
