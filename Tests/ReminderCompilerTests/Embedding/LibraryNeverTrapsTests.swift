import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Values an app can pass in code, at the ends of their types: the library answers with a
/// result or a diagnostic and never traps. Each case runs in a child process of its own
/// (an exit test), so that a trap fails the case instead of the suite.
@Suite("The library never traps on a value a caller passes")
struct LibraryNeverTrapsTests {
    /// The medication example, checked, and a compile option at a fixed instant.
    static func medication() -> (config: ReminderConfig, options: CompileOptions) {
        let url = TestEnvironment.examples.appendingPathComponent("medication.plist")
        let bytes = [UInt8]((try? Data(contentsOf: url)) ?? Data())
        let config = ReminderCompiler.check(bytes, path: "medication.plist").config!
        return (config, CompileOptions(now: .instant(1_795_334_400), horizonDays: 14))
    }

    /// Every output of a plan and of its diff with itself, made and thrown away.
    static func writeEverything(_ plan: Plan, config: ReminderConfig?) {
        _ = PlanJSON.encode(plan)
        _ = ICalendarExport.expanded(plan, settings: CalendarSettings(plan))
        var other = plan
        other.notifications = Array(plan.notifications.dropFirst())
        for diff in [PlanDiff(old: plan, new: other), PlanDiff(old: other, new: plan)] {
            _ = DiffOutput.json(diff)
            _ = DiffOutput.text(diff, colour: true)
            _ = DiffHTML.render(diff)
        }
        let agenda = Agenda(plan: plan, config: config, unbudgeted: plan)
        _ = AgendaText.render(agenda)
        _ = AgendaHTML.render(agenda)
        _ = plan.reconcile(pending: plan.notifications.map { PendingNotification(id: $0.id) })
    }

    @Test("snoozes and activities at the ends of Int and Int64 are planned around")
    func extremeEvents() async {
        await #expect(processExitsWith: .success) {
            let (config, options) = LibraryNeverTrapsTests.medication()
            let plan = ReminderCompiler.plan(config, options: options).plan!
            let first = plan.notifications[0].id
            for (at, minutes) in [(Int64.max, Int.max), (Int64.min, Int.min), (Int64(1_795_334_400), Int.max), (Int64(1_795_334_400), Int.min),
                                  (ZonedInstant.writableRange.upperBound, 1440), (ZonedInstant.writableRange.lowerBound, 1)] {
                var events = ReminderEvents()
                events.actions = [OccurrenceAction(occurrence: first, kind: .snooze(at: at, minutes: minutes))]
                events.activities = ["pill": minutes == Int.max || minutes == Int.min ? [Int64.min, 0, Int64.max] : [ZonedInstant.writableRange.lowerBound, 0, ZonedInstant.writableRange.upperBound]]
                let result = ReminderCompiler.plan(config, options: options, events: events)
                if let planned = result.plan { LibraryNeverTrapsTests.writeEverything(planned, config: config) }
            }
        }
    }

    @Test("a plan built in code with instants and offsets at the ends of their types is written in every format")
    func extremeInstants() async {
        await #expect(processExitsWith: .success) {
            let (config, options) = LibraryNeverTrapsTests.medication()
            var plan = ReminderCompiler.plan(config, options: options).plan!
            let extremes: [(Int64, Int)] = [(.max, .max), (.min, .min), (.max, 0), (.min, 0), (0, .min), (0, .max)]
            for (index, extreme) in extremes.enumerated() where index < plan.notifications.count {
                plan.notifications[index].fireAt = ZonedInstant(seconds: extreme.0, offsetSeconds: extreme.1)
                plan.notifications[index].deferredFrom = ZonedInstant(seconds: extreme.0, offsetSeconds: extreme.1)
            }
            LibraryNeverTrapsTests.writeEverything(plan, config: config)
            plan.now = ZonedInstant(seconds: .min, offsetSeconds: .min)
            plan.windowEnd = ZonedInstant(seconds: .max, offsetSeconds: .max)
            plan.coveredUntil = ZonedInstant(seconds: .max, offsetSeconds: .min)
            LibraryNeverTrapsTests.writeEverything(plan, config: config)
        }
    }

    @Test("the warnings about quiet hours and follow-up chains take intervals and delays at the ends of Int")
    func trapWarningsAtTheEnds() async {
        await #expect(processExitsWith: .success) {
            var config = LibraryNeverTrapsTests.medication().config
            config.quietHours = QuietHours(from: LocalTime(minuteOfDay: 0)!, until: LocalTime(minuteOfDay: 1439)!, action: .drop)
            for value in [Int.max, Int.min, 0] {
                for index in config.reminders.indices {
                    config.reminders[index].schedule.interval = value
                    config.reminders[index].followUp = FollowUp(afterMinutes: value, repeatCount: value, everyMinutes: value)
                }
                _ = config.validate()
                for frequency in [Schedule.Frequency.daily, .weekly] {
                    for index in config.reminders.indices {
                        config.reminders[index].schedule.frequency = frequency
                        config.reminders[index].schedule.weekdays = [.monday, .friday]
                    }
                    _ = config.validate()
                }
            }
        }
    }

    @Test("offsets, follow-up delays and slot counts at the ends of Int")
    func extremeNumbers() async {
        await #expect(processExitsWith: .success) {
            for offset in [Int.min, Int.max, -1, 0] { _ = ZonedInstant.offsetText(offset) }
            for (after, every) in [(Int.max, Int.max), (Int.min, Int.min), (1, Int.max)] {
                let followUp = FollowUp(afterMinutes: after, everyMinutes: every)
                for member in [Int.min, Int.min + 1, -1, 0, 1, Int.max] { _ = followUp.delayMinutes(ofMember: member) }
            }
        }
    }

    @Test("upcomingSlots stops at its documented cap however many are asked for")
    func upcomingSlotsAreBounded() throws {
        let (config, _) = Self.medication()
        var reminder = try #require(config.reminders.first)
        reminder.schedule.frequency = .daily
        reminder.schedule.timesOfDay = .every(minutes: 5, window: LocalTime(minuteOfDay: 0)!...LocalTime(minuteOfDay: 1439)!)
        let rules = try #require(TimeZoneDatabase.system.zone("Europe/Berlin"))
        let slots = ReminderCompiler.upcomingSlots(of: reminder, count: .max, after: 1_795_334_400, zone: rules)
        #expect(slots.count == ReminderCompiler.maximumUpcomingSlots)
        #expect(zip(slots, slots.dropFirst()).allSatisfy { $0.fireAt.seconds + 300 == $1.fireAt.seconds })
    }
}

extension LibraryNeverTrapsTests {
    @Test("events built in code are checked like an events file's, and named by their key path")
    func eventsInCodeAreChecked() throws {
        let (config, options) = Self.medication()
        var events = ReminderEvents()
        events.actions = [
            OccurrenceAction(occurrence: "med-a-20261123-0800", kind: .snooze(at: 1_795_334_400, minutes: 1441)),
            OccurrenceAction(occurrence: "med-a-20261124-0800", kind: .snooze(at: .max, minutes: nil)),
        ]
        events.activities = ["med-a": [.min]]
        let result = ReminderCompiler.plan(config, options: options, events: events)
        #expect(result.plan == nil)
        #expect(result.diagnostics.map(\.formatted) == [
            "events.actions[0]: error: 'minutes' is 1441; expected 1–1440",
            "events.actions[1]: error: 'at' is 9223372036854775807; expected an instant in the years 1–9999",
            "events.activities['med-a'][0]: error: 'at' is -9223372036854775808; expected an instant in the years 1–9999",
        ])
        events.actions[0].kind = .snooze(at: 1_795_334_400, minutes: 1440)
        events.actions[1].kind = .snooze(at: ZonedInstant.writableRange.upperBound, minutes: nil)
        events.activities = ["med-a": [ZonedInstant.writableRange.lowerBound]]
        #expect(ReminderCompiler.plan(config, options: options, events: events).plan != nil)
    }
}
