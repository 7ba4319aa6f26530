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

    @Test("the reader takes 1969-12-31 only as a local date of the first day of 1970 in UTC")
    func oneDayMore() {
        #expect(InstantParsing.rfc3339("1969-12-31T19:00:00-05:00") == 0)
        #expect(InstantParsing.rfc3339("1969-12-31T13:00:00-11:00") == 0)
        #expect(InstantParsing.rfc3339("1969-12-30T19:00:00-05:00") == nil)
        #expect(InstantParsing.rfc3339("1969-11-30T19:00:00-05:00") == nil)
        #expect(InstantParsing.rfc3339("1968-12-31T19:00:00-05:00") == nil)
    }
}
