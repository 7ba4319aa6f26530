import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// One config, two ways in: written as a plist and compiled by the command line, or built
/// in code and planned by the library. The plans must be the same bytes.
@Suite("The same plan from a plist file or from code")
struct PlistOrCodeTests {
    /// The config as an app would hold it: no part knows a file.
    static func inCode(_ config: ReminderConfig) -> ReminderConfig {
        var copy = config
        copy.location = .inCode
        for index in copy.reminders.indices {
            copy.reminders[index].location = .inCode
            copy.reminders[index].followUp?.location = .inCode
        }
        for key in copy.groups.keys { copy.groups[key]?.location = .inCode }
        return copy
    }

    /// The library's plan JSON of a config built in code.
    static func libraryPlan(_ config: ReminderConfig, now: String) throws -> String {
        let instant = try #require(InstantParsing.rfc3339(now))
        let result = ReminderCompiler.plan(inCode(config), options: CompileOptions(now: .instant(instant)))
        let plan = try #require(result.plan, "\(result.diagnostics.map(\.formatted))")
        return String(decoding: PlanJSON.encode(plan), as: UTF8.self)
    }

    @Test("the examples, decoded and then held in code, plan as remindc compiles their files")
    func examples() async throws {
        for file in try TestEnvironment.exampleConfigs() {
            let config = try #require(ReminderCompiler.check(try TestEnvironment.bytes(file), path: file.path).config)
            let compiled = try await remindc("compile", "examples/\(file.lastPathComponent)", "--now", CompileCommandTests.fixedNow)
            #expect(compiled.status == 0)
            #expect(try Self.libraryPlan(config, now: CompileCommandTests.fixedNow) == compiled.standardOutput, "\(file.lastPathComponent)")
        }
    }

    @Test("random configs built in code plan as remindc compiles them written as plists")
    func randomConfigs() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = PlanScenarioGenerator(seed: 5150)
        for round in 0..<40 {
            let center = CivilDate(dayNumber: generator.random.int(20_300...20_600))
            var config = generator.config(around: center)
            config.horizonDays = generator.random.int(1...60)
            config.pendingLimit = generator.random.chance(50) ? 0 : generator.random.int(1...40)
            if generator.random.chance(50) {
                config.categories["c"] = [NotificationAction(id: "snooze", title: "Snooze & wait", snoozeMinutes: 15)]
                config.groups["g1"] = GroupDefinition(title: "{count} <due>", body: "{titles}", category: "c")
                config.reminders[0].category = "c"
                config.reminders[0].userInfo = ["screen": "dose", "kind": "a\"b"]
                config.reminders[0].body = "Body with ünïcode"
            }
            let now = "\(center)T07:30:00Z"
            let path = folder.appendingPathComponent("config-\(round).plist")
            try ConfigPlistWriter.write(config).write(to: path, atomically: true, encoding: .utf8)
            // The plan names the file's digest; an app that builds the config in code may
            // record the digest of the file it stands for.
            config.sourceDigest = ConfigDigest.sha256Hex(try TestEnvironment.bytes(path))
            let compiled = try await remindc("compile", path.path, "--now", now)
            #expect(compiled.status == 0, "round \(round): \(compiled.standardError)")
            #expect(try Self.libraryPlan(config, now: now) == compiled.standardOutput, "round \(round)")
        }
    }
}
