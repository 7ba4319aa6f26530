import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

extension ExternalProgramTests {
    /// Random configs in zones with DST changes, each compiled into both calendar styles and
    /// then updated (a day later, with `--previous`, a changed config and events), read back by
    /// every independent reader: icalendar, ical, recurring-ical-events, vobject and libical
    /// (`check_ics.py`, with the zone's name and renamed so that only the file's VTIMEZONE
    /// counts) and a Radicale server (`check_caldav.py`, where the update must replace).
    @Suite("Random calendars read by independent readers")
    struct RandomCalendarInteropTests {
        static let zones = [
            "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Havana", "Europe/Dublin", "America/Santiago",
            "Pacific/Chatham", "Europe/London", "Africa/Casablanca", "Asia/Tehran",
        ]
        /// 40 configs take under a minute alone (48 did, until the suite's share of the
        /// test run had to shrink); REMINDC_RANDOM_CALENDARS asks for more in a deeper run
        /// (200 took a little over four minutes).
        static let configCount = Int(ProcessInfo.processInfo.environment["REMINDC_RANDOM_CALENDARS"] ?? "") ?? 40
        /// Radicale stores each event as a resource of its own, uploaded twice (about 0.8 s a
        /// recurring calendar and its update here, 2.5 s an expanded one): every config's
        /// recurring calendars go to it, and every fourth's expanded ones. Its parser, vobject,
        /// reads all of them in `check_ics.py` too.
        static let recurringOnServerEvery = 1
        static let expandedOnServerEvery = 4

        struct Calendars {
            var readerManifest: [String] = []
            var serverManifest: [String] = []
        }

        /// Compiles `config` (a group-free copy for the recurring style: a series is one
        /// reminder's) at `now`, with events and a previous plan when given.
        static func compile(
            _ config: ReminderConfig, now: String, events: ReminderEvents?, previous: (expanded: URL, recurring: URL)?,
            name: String, in folder: URL
        ) async throws -> (expanded: (plan: URL, ics: URL), recurring: (plan: URL, ics: URL)) {
            var ungrouped = config
            for index in ungrouped.reminders.indices { ungrouped.reminders[index].group = nil }
            var eventArguments: [String] = []
            if let events {
                let file = folder.appendingPathComponent("\(name).events.json")
                try JSONEncoder().encode(events).write(to: file)
                eventArguments = ["--events", file.path]
            }
            var outputs: [(plan: URL, ics: URL)] = []
            for (style, styled) in [("expanded", config), ("recurring", ungrouped)] {
                let configFile = folder.appendingPathComponent("\(name)-\(style).plist")
                try ConfigPlistWriter.write(styled).write(to: configFile, atomically: true, encoding: .utf8)
                let plan = folder.appendingPathComponent("\(name)-\(style).json")
                let ics = folder.appendingPathComponent("\(name)-\(style).ics")
                var arguments = ["compile", configFile.path, "--now", now, "-o", plan.path, "--ics", ics.path, "--ics-style", style]
                if let previous { arguments += ["--previous", (style == "expanded" ? previous.expanded : previous.recurring).path] }
                let result = try await run(TestEnvironment.remindcExecutable, arguments + eventArguments)
                #expect(result.status == 0, "\(name) \(style): \(result.standardError)")
                outputs.append((plan, ics))
            }
            return (outputs[0], outputs[1])
        }

        /// The config an app ships next: a title changed, a reminder gone, a schedule redrawn.
        static func update(_ config: ReminderConfig, around date: CivilDate, generator: inout PlanScenarioGenerator) -> ReminderConfig {
            var updated = config
            let count = updated.reminders.count
            updated.reminders[generator.random.int(0...count - 1)].title += " (new)"
            if count > 1, generator.random.chance(40) { updated.reminders.remove(at: generator.random.int(0...count - 1)) }
            if generator.random.chance(50) {
                let index = generator.random.int(0...updated.reminders.count - 1)
                updated.reminders[index].schedule = generator.random.schedule(around: date)
            }
            return updated
        }

        @Test("random configs, both styles, and their updates: every reader expands to the plans' instants",
              .timeLimit(.minutes(3)))
        func randomConfigs() async throws {
            let folder = try TestEnvironment.scratchFolder()
            defer { if ProcessInfo.processInfo.environment["REMINDC_KEEP"] == nil { try? FileManager.default.removeItem(at: folder) } }
            var generator = PlanScenarioGenerator(seed: 0x1CA1)
            var calendars = Calendars()
            for round in 0..<Self.configCount {
                let zone = Self.zones[round % Self.zones.count]
                let transitions = ExpansionPropertyTests.transitionDates(in: zone)
                let center = transitions.isEmpty || round % 3 == 0
                    ? CivilDate(dayNumber: generator.random.int(20_300...20_700)) : transitions[generator.random.int(0...transitions.count - 1)]
                var config = generator.config(around: center.adding(days: 5))
                config.timeZone = zone
                config.horizonDays = 20
                config.pendingLimit = 0
                let now = "\(center)T06:00:00Z"
                let base = try await Self.compile(config, now: now, events: nil, previous: nil, name: "c\(round)", in: folder)

                var diagnostics = DiagnosticCollector()
                let basePlan = try #require(PlanReader.read(TestEnvironment.bytes(base.recurring.plan), path: "base", diagnostics: &diagnostics))
                let later = basePlan.now.seconds + 86_400
                // The group-free plan's IDs are member occurrences: they mean the same in both configs.
                let events = generator.suppressingEvents(for: basePlan, now: later)
                let updated = try await Self.compile(
                    Self.update(config, around: center.adding(days: 5), generator: &generator), now: "\(center.adding(days: 1))T06:00:00Z",
                    events: events, previous: (base.expanded.plan, base.recurring.plan), name: "u\(round)", in: folder
                )
                for (style, files) in [("expanded", base.expanded), ("recurring", base.recurring),
                                       ("expanded", updated.expanded), ("recurring", updated.recurring)] {
                    for rename in ["0", "1"] {
                        calendars.readerManifest.append([style, files.ics.path, files.plan.path, rename].joined(separator: "\t"))
                    }
                }
                if round % Self.recurringOnServerEvery == 0 {
                    calendars.serverManifest.append(
                        ["recurring", base.recurring.ics.path, base.recurring.plan.path, updated.recurring.ics.path, updated.recurring.plan.path]
                            .joined(separator: "\t")
                    )
                }
                if round % Self.expandedOnServerEvery == 0 {
                    calendars.serverManifest.append(
                        ["expanded", base.expanded.ics.path, base.expanded.plan.path, updated.expanded.ics.path, updated.expanded.plan.path]
                            .joined(separator: "\t")
                    )
                }
            }
            let interop = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Interop")
            let readerManifest = folder.appendingPathComponent("readers.txt")
            try calendars.readerManifest.joined(separator: "\n").write(to: readerManifest, atomically: true, encoding: .utf8)
            let readerArguments = [interop.appendingPathComponent("check_ics.py").path, "--manifest", readerManifest.path]
            let readers = try await Python.script(readerArguments + (await optionalReaderArguments()))
            #expect(readers.status == 0, "\(readers.standardOutput)\(readers.standardError)")
            #expect(readers.standardOutput.contains("\(Self.configCount * 8) files"), "\(readers.standardOutput)")

            let serverManifest = folder.appendingPathComponent("server.txt")
            try calendars.serverManifest.joined(separator: "\n").write(to: serverManifest, atomically: true, encoding: .utf8)
            let server = try await Python.script([interop.appendingPathComponent("check_caldav.py").path, "--manifest", serverManifest.path])
            #expect(server.status == 0, "\(server.standardOutput)\(server.standardError)")
            #expect(server.standardOutput.contains("\(calendars.serverManifest.count) calendars"), "\(server.standardOutput)")
        }
    }
}

/// `RandomCalendarInteropTests` under its short name, for the tests of other suites.
typealias RandomCalendarInteropTests = ExternalProgramTests.RandomCalendarInteropTests

extension ExternalProgramTests {
    @Suite("Recurring calendars on a CalDAV server")
    struct CalDAVInteropTests {
        @Test("Radicale, started on 127.0.0.1, expands each uploaded series to the plan's instants; updates by UID replace",
              arguments: [
                  ("examples/intake-goals.plist", ["--events", "examples/intake-goals.events.json"]),
                  ("examples/nagging-and-goals.plist", ["--events", "examples/nagging-and-goals.events.json"]),
                  ("examples/activity-lookback.plist", []), ("examples/travel-medication.plist", []),
                  ("Tests/ReminderCompilerTests/Fixtures/recurring-edge-cases.plist", []),
              ])
        func radicale(config: String, extra: [String]) async throws {
            let files = try await compileToFiles(config, style: "recurring", options: ["--now", "2026-11-22T08:00:00Z", "--pending-limit", "0"] + extra)
            defer { try? FileManager.default.removeItem(at: files.folder) }
            let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Interop/check_caldav.py")
            let result = try await Python.script([script.path, files.ics.path, files.plan.path])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains(" 0 problems"))
        }

        /// The Calendars article's CalDAV recipe, its shell commands as written: the split and
        /// upload of a window-scope calendar, then of its update a day later and the removal
        /// of what the update lacks, must leave exactly the update's events, by UID and
        /// SEQUENCE.
        @Test("the Calendars article's CalDAV recipe, run as written against Radicale, leaves exactly the updated calendar's events")
        func articleRecipe() async throws {
            let folder = try TestEnvironment.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let first = folder.appendingPathComponent("first.json").path, second = folder.appendingPathComponent("second.json").path
            let firstICS = folder.appendingPathComponent("first.ics").path, secondICS = folder.appendingPathComponent("second.ics").path
            #expect(try await remindc(
                "compile", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z", "-o", first, "--ics", firstICS, "--ics-scope", "window"
            ).status == 0)
            #expect(try await remindc(
                "compile", "examples/medication.plist", "--now", "2026-11-23T08:00:00Z", "--previous", first, "-o", second,
                "--ics", secondICS, "--ics-scope", "window"
            ).status == 0)
            let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Interop/check_caldav_recipe.py")
            let article = TestEnvironment.repositoryRoot.appendingPathComponent("Sources/ReminderCompiler/Documentation.docc/Calendars.md")
            let result = try await Python.script([script.path, article.path, firstICS, secondICS])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.hasSuffix("ok\n"), "\(result.standardOutput)")
            #expect(result.standardOutput.contains("first upload: 98 resources"), "\(result.standardOutput)")
        }
    }
}

/// `CalDAVInteropTests` under its short name, for the tests of other suites.
typealias CalDAVInteropTests = ExternalProgramTests.CalDAVInteropTests
