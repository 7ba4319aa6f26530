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

/// `compile --html` makes its agenda from a listing of the window's first notifications and
/// a count of the rest, in memory that does not grow with the window: the agenda must be
/// the one the whole plans give.
@Suite("Agenda from a listing")
struct AgendaListingTests {
    @Test("an agenda from the driver's listing equals the agenda of the whole plan and the whole window", .timeLimit(.minutes(3)))
    func listingAgreesWithWholePlans() throws {
        var generator = PlanScenarioGenerator(seed: 1125)
        var cutShort = 0
        for round in 0..<200 {
            let (config, now) = generator.scenario()
            let options = CompileOptions(
                now: .instant(now), horizonDays: generator.random.int(1...30),
                pendingLimit: generator.random.chance(30) ? 0 : generator.random.int(1...80)
            )
            let whole = try #require(ReminderCompiler.plan(config, options: options).plan, "round \(round)")
            let events = generator.suppressingEvents(for: whole, now: now)
            var compilation = ChunkedCompilation(config: config, options: options)
            compilation.events = events
            compilation.chunkDays = generator.random.int(1...7)
            let plan = try #require(ReminderCompiler.plan(config, options: options, events: events).plan)
            var unbudgetedOptions = options
            unbudgetedOptions.pendingLimit = 0
            let window = try #require(ReminderCompiler.plan(config, options: unbudgetedOptions, events: events).plan)
            let entryLimit = generator.random.int(1...60)
            let reference = Agenda(
                plan: plan, config: config, unbudgeted: window, days: nil, notListed: 0, zones: .system, entryLimit: entryLimit
            )
            let listed = compilation.agendaListing(atLeast: entryLimit)
            let listedPlan = try #require(listed.plan, "round \(round): \(listed.diagnostics.map(\.formatted))")
            let agenda = Agenda(
                plan: listedPlan, config: config, unbudgeted: listed.unbudgeted, days: nil, notListed: listed.notListed,
                zones: .system, entryLimit: entryLimit
            )
            #expect(agenda.days == reference.days, "round \(round)")
            #expect(agenda.entriesNotShown == reference.entriesNotShown, "round \(round)")
            #expect(agenda.end == reference.end, "round \(round)")
            #expect(agenda.coveredUntil == reference.coveredUntil && agenda.dropped == reference.dropped, "round \(round)")
            if listed.notListed > 0 { cutShort += 1 }
        }
        // The listing stopped before the window's end in enough rounds to matter.
        #expect(cutShort > 40, "\(cutShort)")
    }

    /// Two reminders of one group at 08:00 and 20:00 for ten days, the budget at 4, and
    /// one member done on day 8 (its group notification still comes, for the other) and
    /// the whole group on day 9: past a listing of the first days, the first is one entry
    /// with its notification, the second one of its own.
    @Test("suppressed entries past the listing count once, whether they stand apart or share a notification's ID")
    func suppressedPastTheListing() throws {
        let times = Schedule.TimesOfDay.list([LocalTime(minuteOfDay: 480)!, LocalTime(minuteOfDay: 1200)!])
        var config = ReminderConfig(timeZone: "UTC", reminders: [
            Reminder(id: "a", title: "A", schedule: .daily(times: times)), Reminder(id: "b", title: "B", schedule: .daily(times: times)),
        ])
        for index in config.reminders.indices { config.reminders[index].group = "pair" }
        for pendingLimit in [0, 4] {
            let options = CompileOptions(now: .instant(1_795_334_400), horizonDays: 10, pendingLimit: pendingLimit)
            let whole = try #require(ReminderCompiler.plan(config, options: CompileOptions(now: .instant(1_795_334_400), horizonDays: 10, pendingLimit: 0)).plan)
            let day8 = try #require(whole.notifications.first { $0.id.contains("20261130-0800") })
            let day9 = try #require(whole.notifications.first { $0.id.contains("20261201-0800") })
            var events = ReminderEvents()
            let location = SourceLocation(path: "events", line: 1, column: 1)
            events.actions = [
                OccurrenceAction(occurrence: NotificationID.occurrence("a", slot: day8.slot), kind: .done, location: location),
                OccurrenceAction(occurrence: day9.id, kind: .skip, location: location),
            ]
            var unbudgeted = options
            unbudgeted.pendingLimit = 0
            let plan = try #require(ReminderCompiler.plan(config, options: options, events: events).plan)
            let window = try #require(ReminderCompiler.plan(config, options: unbudgeted, events: events).plan)
            #expect(plan.suppressed.count == 2)
            var compilation = ChunkedCompilation(config: config, options: options)
            compilation.events = events
            compilation.chunkDays = 1
            for entryLimit in [1, 3, 6, 15, 40] {
                let reference = Agenda(plan: plan, config: config, unbudgeted: window, days: nil, notListed: 0, zones: .system, entryLimit: entryLimit)
                let listed = compilation.agendaListing(atLeast: entryLimit)
                let agenda = Agenda(
                    plan: try #require(listed.plan), config: config, unbudgeted: listed.unbudgeted, days: nil, notListed: listed.notListed,
                    zones: .system, entryLimit: entryLimit
                )
                #expect(agenda.entriesNotShown == reference.entriesNotShown, "limit \(pendingLimit), \(entryLimit) entries")
                #expect(agenda.days == reference.days, "limit \(pendingLimit), \(entryLimit) entries")
            }
        }
    }

    @Test("a listing of any count, the extremes included, neither traps nor lists nothing")
    func extremeCounts() throws {
        let config = ReminderConfig(timeZone: "UTC", reminders: [
            Reminder(id: "a", title: "A", schedule: .daily(times: .list([LocalTime(minuteOfDay: 480)!]))),
        ])
        let compilation = ChunkedCompilation(config: config, options: CompileOptions(now: .instant(1_795_334_400), horizonDays: 30, pendingLimit: 4))
        for count in [Int.min, -1, 0, 1, Int.max] {
            let listed = compilation.agendaListing(atLeast: count)
            let shown = (listed.unbudgeted ?? listed.plan)?.notifications.count ?? 0
            #expect(shown >= 1 && shown + listed.notListed == 30, "\(count)")
        }
    }
}
