import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Every plan remindc writes reads back, also at the first and last instants it plans
/// from: west of Greenwich, 1970-01-01T00:00:00Z is 1969-12-31 locally.
@Suite("Plans at the ends of the supported years read back")
struct PlanEdgeOfTimeTests {
    @Test("a plan compiled at the first and last supported instants reads back to the same bytes",
          arguments: ["America/New_York", "Pacific/Pago_Pago", "America/Los_Angeles", "Europe/Berlin", "Pacific/Kiritimati"])
    func readsBack(zone: String) throws {
        let config = ReminderConfig(
            timeZone: zone, reminders: [Reminder(id: "a", title: "A", schedule: .daily(times: ["00:30", "09:00", "23:30"]))]
        )
        let lastStart = Int64(CivilDate(year: 9999, month: 12, day: 28)!.dayNumber) * 86_400
        for now in [Int64(0), 1, lastStart] {
            let plan = try #require(ReminderCompiler.plan(config, options: CompileOptions(now: .instant(now), horizonDays: 1)).plan)
            let bytes = PlanJSON.encode(plan)
            var diagnostics = DiagnosticCollector()
            let read = ReminderCompiler.readPlan(bytes, path: "plan.json", diagnostics: &diagnostics)
            #expect(diagnostics.sorted.isEmpty, "\(zone) at \(now): \(diagnostics.sorted.map(\.formatted))")
            let again = try #require(read, "\(zone) at \(now)")
            #expect(PlanJSON.encode(again) == bytes, "\(zone) at \(now)")
            #expect(again.now.seconds == now)
        }
    }

    @Test("the command line reads such a plan back: diff, ics and compile --previous take a plan compiled at 1970-01-01T00:00:00Z in New York")
    func commandLineReadsBack() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("config.json").path
        try Data(#"""
            {"formatVersion": 1, "timeZone": "America/New_York", "horizonDays": 1, "minimumCoverageDays": 1,
             "reminders": [{"id": "a", "title": "A", "schedule": {"frequency": "daily", "times": ["00:30", "09:00", "23:30"]}}]}
            """#.utf8).write(to: URL(fileURLWithPath: config))
        let plan = folder.appendingPathComponent("plan.json").path
        let again = folder.appendingPathComponent("again.json").path
        let compiled = try await remindc("compile", config, "--now", "1970-01-01T00:00:00Z", "-o", plan)
        #expect(compiled.status == 0, "\(compiled.standardError)")
        // The plan is stated in local time, a day before the first supported day in UTC.
        #expect(try String(contentsOfFile: plan, encoding: .utf8).contains(#""now": "1969-12-31T19:00:00-05:00""#))
        let diff = try await remindc("diff", plan, plan)
        #expect(diff.status == 0 && diff.standardOutput.contains("3 unchanged"), "\(diff.standardOutput)\(diff.standardError)")
        let calendar = try await remindc("ics", plan)
        #expect(calendar.status == 0, "\(calendar.standardError)")
        #expect(calendar.standardOutput.components(separatedBy: "BEGIN:VEVENT").count == 4)
        let previous = try await remindc("compile", config, "--now", "1970-01-01T00:00:00Z", "--previous", plan, "-o", again)
        #expect(previous.status == 0, "\(previous.standardError)")
        #expect(FileManager.default.contentsEqual(atPath: plan, andPath: again))
    }

    @Test("the reader takes 1969-12-31 only as a local date of the first day of 1970 in UTC")
    func oneDayMore() {
        #expect(InstantParsing.rfc3339("1969-12-31T19:00:00-05:00") == 0)
        #expect(InstantParsing.rfc3339("1969-12-31T13:00:00-11:00") == 0)
        #expect(InstantParsing.rfc3339("1969-12-30T19:00:00-05:00") == nil)
        #expect(InstantParsing.rfc3339("1969-11-30T19:00:00-05:00") == nil)
        #expect(InstantParsing.rfc3339("1968-12-31T19:00:00-05:00") == nil)
    }
}
