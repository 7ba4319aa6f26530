import Foundation
import Testing
@testable import ReminderCompiler

/// Random schedules in zones with DST changes, their recurring calendars expanded by
/// recurring-ical-events and vobject: every instance inside the window equals the plan,
/// with the zone's name and with only the file's VTIMEZONE (zone renamed).
@Suite("Recurring calendars read by independent expanders")
struct RecurringInteropTests {
    static let zones = [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Havana", "Europe/Dublin", "America/Santiago",
        "Pacific/Chatham", "Europe/London", "Africa/Casablanca", "Asia/Tehran",
    ]

    @Test("random schedules over DST-heavy zones expand to the plan's instants", .timeLimit(.minutes(15)))
    func randomSchedules() throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = PlanScenarioGenerator(seed: 0x1CA1)
        var checked = 0
        for round in 0..<24 {
            let zone = Self.zones[round % Self.zones.count]
            let transitions = ExpansionPropertyTests.transitionDates(in: zone)
            let center = transitions.isEmpty || round % 3 == 0
                ? CivilDate(dayNumber: generator.random.int(20_300...20_700)) : transitions[generator.random.int(0...transitions.count - 1)]
            var config = generator.config(around: center.adding(days: 5))
            config.timeZone = zone
            config.horizonDays = 20
            config.pendingLimit = 0
            // Members of a group merge into one notification; a series is per reminder.
            for index in config.reminders.indices { config.reminders[index].group = nil }
            let path = folder.appendingPathComponent("config-\(round).plist")
            try ConfigPlistWriter.write(config).write(to: path, atomically: true, encoding: .utf8)
            let plan = folder.appendingPathComponent("plan-\(round).json")
            let ics = folder.appendingPathComponent("cal-\(round).ics")
            let compiled = try remindc(
                "compile", path.path, "--now", "\(center)T06:00:00Z", "-o", plan.path, "--ics", ics.path, "--ics-style", "recurring"
            )
            #expect(compiled.status == 0, "round \(round): \(compiled.standardError)")
            for rename in [false, true] {
                let result = try checkICS("recurring", ics: ics, plan: plan, rename: rename)
                #expect(result.status == 0, "round \(round) in \(zone), renamed \(rename): \(result.standardOutput)\(result.standardError)")
            }
            checked += 1
        }
        #expect(checked == 24)
    }
}

@Suite("Recurring calendars on a CalDAV server")
struct CalDAVInteropTests {
    @Test("Radicale, started on 127.0.0.1, expands each uploaded series to the plan's instants; updates by UID replace",
          arguments: [
              ("examples/intake-goals.plist", ["--events", "examples/intake-goals.events.json"]),
              ("examples/activity-lookback.plist", []), ("examples/travel-medication.plist", []),
              ("Tests/ReminderCompilerTests/Fixtures/recurring-edge-cases.plist", []),
          ])
    func radicale(config: String, extra: [String]) throws {
        let files = try compileToFiles(config, style: "recurring", options: ["--now", "2026-11-22T08:00:00Z", "--pending-limit", "0"] + extra)
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Interop/check_caldav.py")
        let result = try Python.script([script.path, files.ics.path, files.plan.path])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains(" 0 problems"))
    }
}
