import Foundation
import Testing

/// End-to-end: the built `remindc check` on `examples/`.
@Suite("remindc check")
struct CheckCommandTests {
    static let fixedNow = "2026-11-22T08:00:00Z"

    @Test("accepts every example config without diagnostics", arguments: try TestEnvironment.exampleConfigs())
    func acceptsExample(_ config: URL) async throws {
        let result = try await remindc("check", "--now", Self.fixedNow, "examples/\(config.lastPathComponent)")
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(result.standardOutput == "")
    }

    @Test("rejects every invalid config with exactly the recorded diagnostics",
          arguments: try TestEnvironment.invalidConfigs())
    func rejectsInvalidExample(_ config: URL) async throws {
        let relativePath = "examples/invalid/\(config.lastPathComponent)"
        let result = try await remindc("check", "--now", Self.fixedNow, relativePath)
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        // Every line is a located diagnostic that editors and CI can parse.
        for line in result.standardError.split(separator: "\n") {
            #expect(line.hasPrefix("\(relativePath):"), "\(line)")
            #expect(line.contains(": error: ") || line.contains(": note: ") || line.contains(": warning: "))
        }
        #expect(result.standardError.contains(": error: "))
        expectGolden(result.standardError, matches: config.deletingPathExtension().appendingPathExtension("expected"))
    }

    @Test("checks several files in one run and fails when any has errors")
    func severalFiles() async throws {
        let result = try await remindc(
            "check", "--now", Self.fixedNow, "examples/medication.plist", "examples/invalid/unknown-key.plist",
            "examples/daily-facts.plist"
        )
        #expect(result.status == 1)
        #expect(result.standardError.contains("examples/invalid/unknown-key.plist:10:3: error: unknown key 'horizon'"))
        #expect(!result.standardError.contains("examples/medication.plist"))
    }

    @Test("a missing file is an error that names it")
    func missingFile() async throws {
        let result = try await remindc("check", "examples/no-such-file.plist")
        #expect(result.status == 1)
        #expect(result.standardError == "remindc: error: cannot read 'examples/no-such-file.plist': no such file\n")
    }

    @Test("an invalid --now or --time-zone is an error with exit status 1")
    func invalidOptions() async throws {
        let badNow = try await remindc("check", "--now", "tomorrow", "examples/medication.plist")
        #expect(badNow.status == 1)
        #expect(badNow.standardError.contains("--now 'tomorrow' is neither an RFC 3339 instant (2026-11-22T08:00:00Z) nor a local time"))
        let badZone = try await remindc("check", "--time-zone", "Europe/Pariss", "examples/medication.plist")
        #expect(badZone.status == 1)
        #expect(badZone.standardError.contains("did you mean 'Europe/Paris'?"))
    }

    @Test("check takes --now as compile does: a local time in the plan's zone reports what the same instant does")
    func localNow() async throws {
        // medication.plist plans in Europe/Berlin, an hour ahead of UTC in November.
        let config = "examples/invalid/unknown-key.plist"
        let local = try await remindc("check", "--now", "2026-11-22T09:00", "examples/medication.plist", config)
        let instant = try await remindc("check", "--now", "2026-11-22T08:00:00Z", "examples/medication.plist", config)
        #expect(local.status == 1 && instant.status == 1)
        #expect(!local.standardError.isEmpty)
        #expect(local.standardError == instant.standardError)
        let compiled = try await remindc("compile", "--now", "2026-11-22T09:00", "examples/medication.plist")
        let checked = try await remindc("check", "--now", "2026-11-22T09:00", "examples/medication.plist")
        #expect(compiled.status == 0 && checked.status == 0, "\(checked.standardError)")
        #expect(checked.standardError == compiled.standardError)
    }

    @Test("writes nothing: the examples folder is unchanged by check")
    func writesNothing() async throws {
        let before = try FileManager.default.contentsOfDirectory(atPath: TestEnvironment.examples.path).sorted()
        _ = try await remindc("check", "examples/medication.plist", "examples/invalid/two-roots.plist")
        let after = try FileManager.default.contentsOfDirectory(atPath: TestEnvironment.examples.path).sorted()
        #expect(before == after)
    }

    @Test("a file beyond the 32 MiB cap is a located error, not a crash")
    func oversizedFile() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("remindc-big-\(UUID().uuidString).plist")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(repeating: UInt8(ascii: " "), count: 33 * 1024 * 1024).write(to: url)
        let result = try await remindc("check", url.path)
        #expect(result.status == 1)
        #expect(result.standardError == "\(url.path):1:1: error: the input is larger than the limit of 33554432 bytes\n")
    }
}
