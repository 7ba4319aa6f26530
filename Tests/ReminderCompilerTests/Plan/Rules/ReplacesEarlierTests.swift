import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// `replacesEarlier` in groups (Planning rules, "Replacing earlier notifications"): a
/// group's notification withdraws only the group's earlier notifications that hold an
/// earlier slot of one of its own members that asks.
@Suite("Replacing earlier notifications in groups")
struct ReplacesEarlierTests {
    /// The article's example: `evening-pill` (08:00, 20:00) and `noon-pill` (12:00) ask,
    /// `vitamin` (14:00) does not, all in group `pills`; and the case of a group
    /// notification holding only `a` beside one holding only `c`.
    @Test("the 20:00 notification withdraws the 08:00 one and its follow-ups, the 12:00 and 14:00 ones nothing")
    func articleExample() throws {
        let followUp = FollowUp(afterMinutes: 30, repeatCount: 2)
        let config = ReminderConfig(
            timeZone: "Europe/Berlin",
            reminders: [
                Reminder(id: "evening-pill", title: "Evening", schedule: .daily(times: ["08:00", "20:00"]), group: "pills", followUp: followUp, replacesEarlier: true),
                Reminder(id: "noon-pill", title: "Noon", schedule: .daily(times: ["12:00"]), group: "pills", followUp: followUp, replacesEarlier: true),
                Reminder(id: "vitamin", title: "Vitamin", schedule: .daily(times: ["14:00"]), group: "pills", followUp: followUp),
            ],
            groups: ["pills": GroupDefinition()]
        )
        let result = ReminderCompiler.plan(config, options: CompileOptions(now: .instant(1_795_334_400 - 7 * 3600), horizonDays: 1))
        let plan = try #require(result.plan, "\(result.diagnostics.map(\.formatted))")
        let replaces = Dictionary(uniqueKeysWithValues: plan.notifications.filter { $0.kind == .group || $0.kind == .single }.map { ($0.id, $0.replaces) })
        #expect(replaces["pills-20261122-2000"] == ["pills-20261122-0800", "pills-20261122-0800-followup", "pills-20261122-0800-followup-2"])
        #expect(replaces["pills-20261122-1200"] == [])
        #expect(replaces["pills-20261122-1400"] == [])
        #expect(replaces["pills-20261122-0800"] == [])
    }
}
