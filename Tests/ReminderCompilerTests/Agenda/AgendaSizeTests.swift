import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// An agenda holds at most `Agenda.maximumEntries` entries, so that its page and text stay
/// bounded whatever the plan holds.
@Suite("Agenda size")
struct AgendaSizeTests {
    @Test("past the cap the agenda ends at its last entry, counts the rest and says so in text and HTML")
    func capped() throws {
        // Every 5 minutes for 60 days: 17 280 notifications.
        let config = ReminderConfig(timeZone: "Europe/Berlin", reminders: [
            Reminder(id: "tick", title: "Tick", schedule: .daily(times: .every(minutes: 5, window: LocalTime(minuteOfDay: 0)!...LocalTime(minuteOfDay: 1439)!))),
        ])
        let plan = try #require(ReminderCompiler.plan(
            config, options: CompileOptions(now: .instant(1_795_334_400), horizonDays: 60, pendingLimit: 0)
        ).plan)
        #expect(plan.notifications.count == 17_280)
        let agenda = Agenda(plan: plan, config: config)
        let shown = agenda.days.flatMap(\.entries)
        #expect(shown.count == Agenda.maximumEntries)
        #expect(agenda.entriesNotShown == plan.notifications.count - Agenda.maximumEntries)
        #expect(shown.last?.fireAt == agenda.end)
        #expect(shown.map(\.id) == plan.notifications.prefix(Agenda.maximumEntries).map(\.id))
        let notice = "shows at most 10000 entries, and 7280 later ones are left out"
        #expect(AgendaText.render(agenda).contains(notice))
        let page = AgendaHTML.render(agenda)
        #expect(page.contains(notice))

        // A plan within the cap shows everything and says nothing of it.
        let short = Agenda(plan: plan, config: config, days: 10)
        #expect(short.entriesNotShown == 0)
        #expect(short.days.flatMap(\.entries).count == 2_880)
        #expect(!AgendaText.render(short).contains("left out"))
    }
}
