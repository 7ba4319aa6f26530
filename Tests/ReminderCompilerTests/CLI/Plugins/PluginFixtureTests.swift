import Foundation
import Testing

extension ExternalProgramTests {
    /// `Tests/PluginFixture`, a package that depends on remindc by path and uses its plugins,
    /// built with SwiftPM as an app's package would be (scratch folder `.build/plugin-fixture`).
    @Suite("SwiftPM plugins in a package that uses them")
    struct PluginFixtureTests {
        static let fixture = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/PluginFixture")
        static let scratch = TestEnvironment.repositoryRoot.appendingPathComponent(".build/plugin-fixture")

        static func swift(_ arguments: [String], freshPlan: Bool = false) async throws -> ProcessResult {
            let swift = try #require(TestEnvironment.swiftExecutable, "swift is not on the PATH")
            // The fixture builds remindc's working tree: the first build plans afresh, so that a
            // source file added since the last run is seen.
            let planning = freshPlan ? ["--disable-build-manifest-caching"] : []
            return try await run(
                swift, [arguments[0], "--package-path", fixture.path, "--scratch-path", scratch.path] + planning + arguments.dropFirst()
            )
        }

        @Test("a good config generates constants the app's code compiles against; a broken one fails the build at its line and column; swift package remindc check",
              .timeLimit(.minutes(3)))
        func fixturePackage() async throws {
            let built = try await Self.swift(["build", "--product", "FixtureApp"], freshPlan: true)
            #expect(built.status == 0, "\(built.standardOutput)\(built.standardError)")
            let app = try await run(Self.scratch.appendingPathComponent("debug/FixtureApp"), [])
            #expect(app.standardOutput == """
            morning-pills evening-walk
            group morning activity pills
            category medication actions take,snooze snooze snooze

            """)

            // Nothing changed: the declared inputs and output keep the command from running again.
            // (The build after a fresh plan caches the plan first, and may redo some steps.)
            #expect(try await Self.swift(["build", "--product", "FixtureApp"]).status == 0)
            let again = try await Self.swift(["build", "--product", "FixtureApp"])
            #expect(again.status == 0)
            #expect(!again.standardOutput.contains("remindc: checking"), "\(again.standardOutput)")

            let broken = try await Self.swift(["build", "--target", "BrokenConfig"])
            #expect(broken.status != 0)
            let location = Self.fixture.appendingPathComponent("Sources/BrokenConfig/broken.reminders.plist").path
            #expect(
                (broken.standardOutput + broken.standardError).contains(
                    "\(location):12:78: error: '25:00' is not a time of day; expected HH:MM from 00:00 to 23:59"
                ), "\(broken.standardOutput)\(broken.standardError)"
            )

            let checked = try await Self.swift(["package", "remindc", "check", "--now", "2026-11-22T08:00:00Z"])
            #expect(checked.status != 0)
            let output = checked.standardOutput + checked.standardError
            #expect(output.contains("\(location):12:78: error:"), "\(output)")
            #expect(!output.contains("medication.reminders.plist:"), "the good config has nothing to report: \(output)")
            // One closing line, not also the error's case name.
            #expect(output.components(separatedBy: "error: remindc check found errors in the package's reminder configs").count == 2, "\(output)")
            #expect(!output.contains("checkFailed"), "\(output)")
        }
    }
}

/// `PluginFixtureTests` under its short name, for the tests of other suites.
typealias PluginFixtureTests = ExternalProgramTests.PluginFixtureTests

/// The generated Swift for names no identifier can hold as they are, compiled by swiftc.
@Suite("Generated Swift constants")
struct SwiftConstantsTests {
    @Test("keywords, leading digits, names that collapse together and quotes all give Swift that compiles and keeps each value")
    func awkwardNames() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let reminders = ["class", "2nd-dose", "med-a", "med_a", "med.a", "self", "id"].map { reminderXML($0) }.joined()
        // A file name with a line break that would end the generated comment, and
        // categories named after the type and module the generated code uses.
        let config = folder.appendingPathComponent("awkward names\nlet injected = 1\n.reminders.plist")
        let categories = "<key>categories</key><dict><key>String</key><array><dict><key>id</key><string>take</string><key>title</key><string>Take</string></dict></array>"
            + "<key>Swift</key><array/></dict>"
        try configXML(
            reminders: reminders.replacingOccurrences(of: "<key>title</key>", with: "<key>activity</key><string>say \"hi\"\\</string><key>title</key>"),
            rootExtra: categories
        ).write(to: config, atomically: true, encoding: .utf8)
        let source = folder.appendingPathComponent("Generated.swift")
        let generated = try await remindc("generate-swift", config.path, "-o", source.path)
        #expect(generated.status == 0, "\(generated.standardError)")
        let text = try String(contentsOf: source, encoding: .utf8)
        #expect(text.contains("enum AwkwardNamesLetInjected1Reminders {"), "\(text)")
        #expect(!text.contains("\nlet injected"), "\(text)")
        #expect(text.contains("enum String2 {") && text.contains("enum Swift2 {"), "\(text)")
        for line in ["static let class2 = \"class\"", "static let _2ndDose = \"2nd-dose\"", "static let medA = \"med-a\"",
                     "static let medA2 = \"med_a\"", "static let medA3 = \"med.a\"", "static let self2 = \"self\"",
                     "static let id2 = \"id\"", "static let sayHi = \"say \\\"hi\\\"\\\\\""] {
            #expect(text.contains(line), "\(line)\n\(text)")
        }
        // swiftc type-checks it, with a use of every constant printed.
        let main = folder.appendingPathComponent("main.swift")
        try """
        let all = [AwkwardNamesLetInjected1Reminders.Reminder.class2, AwkwardNamesLetInjected1Reminders.Reminder._2ndDose,
                   AwkwardNamesLetInjected1Reminders.Reminder.medA3, AwkwardNamesLetInjected1Reminders.Activity.sayHi,
                   AwkwardNamesLetInjected1Reminders.Category.String2.id] + AwkwardNamesLetInjected1Reminders.Category.all
        print(all.joined(separator: "|"))
        """.write(to: main, atomically: true, encoding: .utf8)
        let swiftc = URL(fileURLWithPath: "/bin/sh")
        let compiled = try await run(swiftc, ["-c", "swiftc -typecheck \"\(source.path)\" \"\(main.path)\""])
        #expect(compiled.status == 0, "\(compiled.standardError)")
    }

    @Test("a config with an error writes no Swift file and says where")
    func brokenConfig() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("c.reminders.plist")
        try configXML(reminders: reminderXML("a") + reminderXML("a")).write(to: config, atomically: true, encoding: .utf8)
        let source = folder.appendingPathComponent("Generated.swift")
        let result = try await remindc("generate-swift", config.path, "-o", source.path)
        #expect(result.status == 1)
        #expect(result.standardError.contains("error: duplicate reminder id 'a'"))
        #expect(!FileManager.default.fileExists(atPath: source.path))
    }
}
