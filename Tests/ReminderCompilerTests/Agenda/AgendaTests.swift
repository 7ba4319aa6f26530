import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// `remindc agenda`: the plan day by day.
@Suite("Agenda")
struct AgendaTests {
    static let golden = CompileCommandTests.golden.appendingPathComponent("agenda")

    @Test("each example's agenda (with its events, where it has some) has its golden text", arguments: try TestEnvironment.exampleConfigs())
    func goldenAgenda(_ config: URL) async throws {
        let name = config.deletingPathExtension().lastPathComponent
        var arguments = ["agenda", "examples/\(config.lastPathComponent)", "--now", CompileCommandTests.nowOfEvents[name] ?? CompileCommandTests.fixedNow]
        if let events = try TestEnvironment.exampleEvents().first(where: { $0.lastPathComponent.hasPrefix(name + ".events.") }) {
            arguments += ["--events", "examples/\(events.lastPathComponent)"]
        }
        let result = try await run(TestEnvironment.remindcExecutable, arguments)
        #expect(result.status == 0, "\(result.standardError)")
        // Standard output is not a terminal here: no colour.
        #expect(!result.standardOutput.contains("\u{1B}["))
        expectGolden(result.standardOutput, matches: Self.golden.appendingPathComponent("\(name).txt"))
    }

    @Test("the medication agenda, checked by hand: a partly suppressed group, follow-ups under their parent, a snooze, the coverage edge, dropped ones")
    func medication() async throws {
        let result = try await remindc(
            "agenda", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z", "--events", "examples/medication.events.json", "--days", "10"
        )
        #expect(result.status == 0)
        let lines = result.standardOutput.components(separatedBy: "\n")
        // Med A logged at 08:50 with a 4-hour look-back: the 09:20 group comes for Med B alone.
        #expect(lines.contains("  09:20  group      Vitamin D [med-b] (without med-a: activity)  morning-20261122-0920"))
        #expect(lines.contains("    09:50  follow-up  Vitamin D not logged yet (without med-a: activity)  morning-20261122-0920-followup"))
        // Yesterday's 19:00 Metformin was snoozed; its follow-up is under the snooze.
        #expect(lines.contains("  09:15  snooze     Metformin  med-c-20261121-1900-snooze"))
        #expect(lines.contains("    09:45  follow-up  Metformin  med-c-20261121-1900-snooze-followup"))
        // Both members done on the 23rd.
        #expect(lines.contains("  09:20  group      Aspirin, Vitamin D [med-a, med-b]  morning-20261123-0920  — suppressed (done)"))
        // Its follow-up goes with it, under the follow-up's own titles (the config's
        // "… not logged yet"), as the planned follow-up of the 22nd shows them.
        #expect(lines.contains(
            "    09:50  follow-up  Aspirin not logged yet, Vitamin D not logged yet [med-a, med-b]  morning-20261123-0920-followup  — suppressed (done)"
        ))
        // Metformin's follow-up has no title of its own: it shows the reminder's.
        #expect(lines.contains("    19:30  follow-up  Metformin  med-c-20261124-1900-followup  — suppressed (skip)"))
        #expect(lines.contains("  ── coverage ends here (2026-12-01 13:00 +01:00): later notifications are not scheduled yet"))
        #expect(lines.contains("  13:00  reminder   Metformin  med-c-20261201-1300  — dropped by the budget"))
        // 22 November to 1 December: 2 December's first slot, 09:20, is after the end (09:00).
        let headings = lines.filter { line in ["Sun ", "Mon ", "Tue ", "Wed ", "Thu ", "Fri ", "Sat "].contains { line.hasPrefix($0) } }
        #expect(headings.first == "Sun 2026-11-22" && headings.last == "Tue 2026-12-01" && headings.count == 10)
    }

    @Test("a day on which the clocks change says so")
    func clockChanges() async throws {
        let forward = try await remindc("agenda", "examples/medication.plist", "--now", "2027-03-26T08:00:00Z", "--days", "3")
        #expect(forward.standardOutput.contains(
            "Sun 2027-03-28\n  clocks go forward at 02:00 to 03:00 (+01:00 → +02:00): times from 02:00 to 03:00 do not exist and fire after the change\n"
        ))
        let back = try await remindc("agenda", "examples/medication.plist", "--now", "2027-10-29T08:00:00Z", "--days", "3")
        #expect(back.standardOutput.contains(
            "Sun 2027-10-31\n  clocks go back at 03:00 to 02:00 (+02:00 → +01:00): times from 02:00 to 03:00 occur twice and fire the first time\n"
        ))
    }

    @Test("a plan file gives the same days and planned notifications as its config")
    func fromPlan() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = folder.appendingPathComponent("plan.json").path
        #expect(try await remindc("compile", "examples/daily-facts.plist", "--now", "2026-11-22T08:00:00Z", "-o", plan).status == 0)
        let fromPlan = try await remindc("agenda", plan, "--days", "5")
        let fromConfig = try await remindc("agenda", "examples/daily-facts.plist", "--now", "2026-11-22T08:00:00Z", "--days", "5")
        #expect(fromPlan.status == 0, "\(fromPlan.standardError)")
        #expect(fromPlan.standardOutput == fromConfig.standardOutput)
        let refused = try await remindc("agenda", plan, "--now", "2026-11-22T08:00:00Z")
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("apply to a config"))
    }

    @Test("colour on a terminal, none with NO_COLOR, and the same text either way")
    func colour() async throws {
        let command = "\(TestEnvironment.remindcExecutable.path) agenda examples/medication.plist --now 2026-11-22T08:00:00Z --days 2"
        func onTerminal(_ environment: String) async throws -> String {
            // `script` gives the command a pseudo-terminal as its standard output.
            let result = try await run(URL(fileURLWithPath: "/usr/bin/script"), ["-qec", "\(environment) \(command)", "/dev/null"])
            return result.standardOutput.replacingOccurrences(of: "\r\n", with: "\n")
        }
        // The test runner's own environment may hold NO_COLOR.
        let coloured = try await onTerminal("env -u NO_COLOR")
        #expect(coloured.contains("\u{1B}[36m"))
        let plain = try await onTerminal("env NO_COLOR=1")
        #expect(!plain.contains("\u{1B}["))
        let stripped = coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(stripped == plain)
        #expect(plain == (try await remindc("agenda", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z", "--days", "2")).standardOutput)
    }
}

extension AgendaTests {
    @Test("any number of days, and a plan whose window reaches the year 9999, give an agenda of at most 3 661 days, without a trap")
    func extremeDays() throws {
        let config = ReminderConfig(timeZone: "UTC", horizonDays: 3, reminders: [Reminder(id: "r", title: "R", schedule: .daily(times: ["09:00"]))])
        var plan = try #require(ReminderCompiler.plan(config, options: CompileOptions(now: .instant(fixedNow))).plan)
        for days in [Int.min, -1, 0, Int.max] {
            let agenda = Agenda(plan: plan, days: days)
            #expect(agenda.days.count == (days > 0 ? 3 : 0), "\(days)")
        }
        plan.windowEnd = ZonedInstant(seconds: 253_402_214_400, offsetSeconds: 0)  // 9999-12-31
        let agenda = Agenda(plan: plan, days: Int.max)
        #expect(agenda.end.seconds == fixedNow + 3661 * 86_400)
    }
}

extension AgendaTests {
    @Test("a JSON config is read as a config, told from a plan by content: the same agenda as its plist, whatever the file's name",
          arguments: ["medication", "quiet-hours", "home-time-zone"])
    func jsonConfig(_ name: String) async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Foundation's reading of the plist, written as JSON: an independent conversion.
        let plist = try PropertyListSerialization.propertyList(
            from: Data(contentsOf: TestEnvironment.examples.appendingPathComponent("\(name).plist")), format: nil
        )
        let json = try JSONSerialization.data(withJSONObject: plist, options: [.prettyPrinted])
        let asConfig = folder.appendingPathComponent("\(name).json")
        let misnamed = folder.appendingPathComponent("\(name).plan.json")
        try json.write(to: asConfig)
        try json.write(to: misnamed)
        let now = ["--now", CompileCommandTests.fixedNow, "--days", "3"]
        let expected = try await remindc(["agenda", "examples/\(name).plist"] + now)
        #expect(expected.status == 0, "\(expected.standardError)")
        for file in [asConfig, misnamed] {
            let agenda = try await remindc(["agenda", file.path] + now)
            #expect(agenda.status == 0, "\(file.lastPathComponent): \(agenda.standardError)")
            #expect(agenda.standardOutput == expected.standardOutput, "\(file.lastPathComponent)")
        }
        // A plan is still read as a plan, and --now is refused for it.
        let plan = folder.appendingPathComponent("plan.json")
        #expect(try await remindc(["compile", asConfig.path, "--now", CompileCommandTests.fixedNow, "-o", plan.path]).status == 0)
        let fromPlan = try await remindc(["agenda", plan.path] + now)
        #expect(fromPlan.status == 1)
        #expect(fromPlan.standardError.contains("a plan was compiled with them already"), "\(fromPlan.standardError)")
        #expect(try await remindc(["agenda", plan.path, "--days", "3"]).status == 0)
    }
}
