import Foundation
import Testing
@_spi(Tooling) import ReminderCompiler

/// Apps build configs and events in code, validate them and plan, all without plist text.
/// This file imports the library without `@testable`, as an app does.
/// A change made in code to a valid config, and the first error it must give.
struct KeyPathCase: Sendable, CustomTestStringConvertible {
    let change: @Sendable (inout ReminderConfig) -> Void
    let expected: String

    init(_ change: @escaping @Sendable (inout ReminderConfig) -> Void, _ expected: String) {
        self.change = change
        self.expected = expected
    }

    var testDescription: String { expected }
}

@Suite("Configs built in code")
struct ConfigInCodeTests {
    /// Monday 2026-11-23, 09:10 in Berlin (08:10Z).
    static let monday = Date(timeIntervalSince1970: 1_795_421_400)

    @Test("the documented example builds, validates and plans")
    func documentedExample() throws {
        var config = ReminderConfig(timeZone: "Europe/Berlin", reminders: [
            Reminder(id: "med-a", title: "Aspirin", schedule: .daily(times: ["09:20"]), group: "morning",
                     lookback: .hours(4), followUp: FollowUp(afterMinutes: 30, interruptionLevel: .critical)),
            Reminder(id: "med-b", title: "Vitamin D", schedule: .weekly([.monday, .thursday], times: ["09:20"]), group: "morning",
                     followUp: FollowUp(afterMinutes: 30)),
        ])
        config.groups["morning"] = GroupDefinition(title: "Morning medications")
        config.categories["medication"] = [NotificationAction(id: "snooze", title: "Snooze", snoozeMinutes: 10)]
        let problems: [Diagnostic] = config.validate()
        #expect(problems.isEmpty, "\(problems.map(\.formatted))")
        var events = ReminderEvents()
        events.logActivity("med-a", at: Self.monday.addingTimeInterval(-600))  // 09:00
        events.record(.done, occurrence: "med-b-20261123-0920")
        // Yesterday's notification, delivered with Aspirin only, snoozed at 09:05.
        events.record(.snooze(at: Self.monday.addingTimeInterval(-300), minutes: 10), occurrence: "morning-20261122-0920")
        let result = ReminderCompiler.plan(
            config, options: CompileOptions(now: Self.monday, timeZone: TimeZone(identifier: "Europe/Berlin")!), events: events
        )
        let plan = try #require(result.plan, "\(result.diagnostics.map(\.formatted))")
        for n in result.plan?.notifications ?? [] { _ = (n.id, n.fireDate, n.title, n.fingerprint) }
        // Today 09:20: med-a logged at 09:00 and med-b done, so the group and its follow-up
        // are gone; yesterday's snooze, resolved from the config, fires at 09:15, and the
        // follow-up it keeps (09:45) is silenced by the same 09:00 dose.
        #expect(plan.suppressed.map { "\($0.id) \($0.reminders) \($0.reason)" } == [
            "morning-20261123-0920 [\"med-a\"] activity", "morning-20261123-0920 [\"med-b\"] done",
            "morning-20261122-0920-snooze-followup [\"med-a\"] activity",
            "morning-20261123-0920-followup [\"med-a\"] activity", "morning-20261123-0920-followup [\"med-b\"] done",
        ])
        let first = try #require(plan.notifications.first)
        #expect(first.id == "morning-20261122-0920-snooze")
        #expect(first.fireDate == Self.monday.addingTimeInterval(300))
        #expect(first.title == "Aspirin")
        // Thursday both are due: one group notification with the group's title.
        let thursday = try #require(plan.notifications.first { $0.id == "morning-20261126-0920" })
        #expect(thursday.reminders == ["med-a", "med-b"])
        #expect(thursday.title == "Morning medications")
        #expect(plan.zone == TimeZone(identifier: "Europe/Berlin"))
    }

    @Test("every builder gives what the same schedule written as a plist gives")
    func buildersMatchThePlistDecoder() throws {
        let cases: [(Schedule, String)] = [
            (.daily(times: ["08:00", "20:00"]), "<key>frequency</key><string>daily</string><key>times</key><array><string>08:00</string><string>20:00</string></array>"),
            (.daily(times: .spread(count: 3, window: "08:00"..."16:00"), interval: 2, start: "2026-11-01"),
             "<key>frequency</key><string>daily</string><key>timesPerDay</key><integer>3</integer><key>window</key><dict><key>from</key><string>08:00</string><key>until</key><string>16:00</string></dict><key>interval</key><integer>2</integer><key>start</key><string>2026-11-01</string>"),
            (.daily(times: .every(minutes: 90, window: "09:00"..."17:00"), end: "2026-12-31", except: ["2026-11-25"]),
             "<key>frequency</key><string>daily</string><key>everyMinutes</key><integer>90</integer><key>window</key><dict><key>from</key><string>09:00</string><key>until</key><string>17:00</string></dict><key>end</key><string>2026-12-31</string><key>except</key><array><string>2026-11-25</string></array>"),
            (.weekly([.tuesday, .saturday], times: ["09:00"]), "<key>frequency</key><string>weekly</string><key>weekdays</key><array><string>tuesday</string><string>saturday</string></array><key>times</key><array><string>09:00</string></array>"),
            (.monthly(days: [31, -1], times: ["10:00"], missingDays: .lastDay), "<key>frequency</key><string>monthly</string><key>days</key><array><integer>31</integer><integer>-1</integer></array><key>missingDays</key><string>lastDay</string><key>times</key><array><string>10:00</string></array>"),
            (.monthly(weekdayOrdinals: [.init(2, .tuesday), .init(-1, .friday)], times: ["08:15"]), "<key>frequency</key><string>monthly</string><key>weekdayOrdinals</key><array><string>2TU</string><string>-1FR</string></array><key>times</key><array><string>08:15</string></array>"),
            (.once(["2026-12-03T14:30", "2026-11-30T08:00"]), "<key>frequency</key><string>once</string><key>at</key><array><string>2026-12-03T14:30</string><string>2026-11-30T08:00</string></array>"),
        ]
        for (built, plist) in cases {
            let xml = configXML(reminders: reminderXML("r", schedule: plist))
            let decoded = try #require(ReminderCompiler.check(Array(xml.utf8), path: "c.plist").config, "\(plist)")
            #expect(decoded.reminders[0].schedule == built, "\(plist)")
            let inCode = ReminderConfig(timeZone: "Europe/Berlin", reminders: [Reminder(id: "r", title: "Title r", schedule: built)])
            #expect(inCode.validate().isEmpty, "\(inCode.validate().map(\.formatted))")
            let options = CompileOptions(now: Self.monday, horizonDays: 60)
            let fromCode = try #require(ReminderCompiler.plan(inCode, options: options).plan)
            var fromFile = try #require(ReminderCompiler.plan(decoded, options: options).plan)
            // The digest names the file the config came from; a config in code has none.
            #expect(fromFile.configDigest != nil && fromCode.configDigest == nil)
            fromFile.configDigest = nil
            #expect(fromCode == fromFile, "\(plist)")
        }
    }

    @Test("values set in code are named by key path, with the decoder's messages", arguments: [
        KeyPathCase({ (config: inout ReminderConfig) in config.reminders[1].schedule.interval = 0 },
         "reminders[1].schedule.interval: error: 'interval' is 0; expected 1–1000"),
        KeyPathCase({ (config: inout ReminderConfig) in config.reminders[0].schedule.timesOfDay = .every(minutes: 0, window: "08:00"..."09:00") },
         "reminders[0].schedule.everyMinutes: error: 'everyMinutes' is 0; expected 5–720"),
        KeyPathCase({ (config: inout ReminderConfig) in config.reminders[1].id = "a" },
         "reminders[1].id: error: duplicate reminder id 'a'\nreminders[0].id: note: 'a' first appears here"),
        KeyPathCase({ (config: inout ReminderConfig) in config.horizonDays = -4 }, "horizonDays: error: 'horizonDays' is -4; expected 1–3660"),
        KeyPathCase({ (config: inout ReminderConfig) in config.timeZone = "Europe/Berln" },
         "timeZone: error: unknown time zone 'Europe/Berln'; did you mean 'Europe/Berlin'?"),
        KeyPathCase({ (config: inout ReminderConfig) in config.reminders[0].schedule.timesOfDay = ["25:00"] },
         "reminders[0].schedule.times[0]: error: 'times[0]' is not a time of day; expected HH:MM from 00:00 to 23:59"),
        KeyPathCase({ (config: inout ReminderConfig) in config.reminders[0].category = "medicaton" },
         "reminders[0].category: error: unknown category 'medicaton'; it must name an entry of 'categories'"),
        KeyPathCase({ (config: inout ReminderConfig) in config.reminders[0].followUp = FollowUp(afterMinutes: 30) },
         "reminders[1].followUp: error: reminder 'b' in group 'g' has no followUp; members of a group must share followUp.afterMinutes, repeat and everyMinutes\nreminders[0].followUp: note: reminder 'a' has a followUp after 30 minutes"),
    ])
    func keyPaths(_ testCase: KeyPathCase) throws {
        let expected = testCase.expected
        var config = ReminderConfig(timeZone: "Europe/Berlin", reminders: [
            Reminder(id: "a", title: "A", schedule: .daily(times: ["09:00"]), group: "g"),
            Reminder(id: "b", title: "B", schedule: .daily(times: ["09:00"], interval: 2, start: "2026-11-01"), group: "g"),
        ])
        #expect(config.validate().isEmpty)
        testCase.change(&config)
        let found = config.validate().filter { $0.severity == .error }.map(\.formatted)
        #expect(found.first?.hasPrefix(expected) == true, "\(found)")
        // Planning refuses the config with the same errors instead of trapping.
        let result = ReminderCompiler.plan(config, options: CompileOptions(now: Self.monday))
        #expect(result.plan == nil)
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.formatted) == found)
    }
}
