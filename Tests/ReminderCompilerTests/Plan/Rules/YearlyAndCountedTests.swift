import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Yearly schedules and `count` (Planning rules, "Yearly schedules and count"), on the example and on small configs whose
/// answers were worked out by hand.
@Suite("Yearly and counted schedules")
struct YearlyAndCountedTests {
    static func yearly(_ keys: String, times: String = "<key>times</key><array><string>09:00</string></array>") -> String {
        "<key>frequency</key><string>yearly</string>\(keys)\(times)"
    }

    @Test("the example's plan: a course of 14 doses whose except date uses up two, ten sessions, a birthday, 28 February, last Saturdays, every second December")
    func examplePlan() async throws {
        let result = try await remindc("compile", "examples/yearly-and-counted.plist", "--now", "2026-11-22T08:00:00Z")
        #expect(result.status == 0, "\(result.standardError)")
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let ids = (plan["notifications"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        // 20, 21, 22 (6 doses), 23 (8), 24 in except (10), 25 (12), 26 (14): from now on,
        // the 22nd's evening dose through the 26th's, without the 24th.
        #expect(ids.filter { $0.hasPrefix("antibiotics-") } == [
            "antibiotics-20261122-2000", "antibiotics-20261123-0800", "antibiotics-20261123-2000", "antibiotics-20261125-0800",
            "antibiotics-20261125-2000", "antibiotics-20261126-0800", "antibiotics-20261126-2000",
        ])
        // Mondays and Thursdays from Monday 16 November: the 16th and 19th are past.
        #expect(ids.filter { $0.hasPrefix("physio-") }.map { String($0.dropFirst(7).prefix(8)) } == [
            "20261123", "20261126", "20261130", "20261203", "20261207", "20261210", "20261214", "20261217",
        ])
        #expect(ids.filter { $0.hasPrefix("birthday-mum-") } == ["birthday-mum-20261129-0900", "birthday-mum-20271129-0900"])
        #expect(ids.filter { $0.hasPrefix("leap-day-") } == ["leap-day-20270228-1000"])
        // 2027: the clocks change on Sunday 28 March and Sunday 31 October.
        #expect(ids.filter { $0.hasPrefix("clock-change-") } == ["clock-change-20270327-2000", "clock-change-20271030-2000"])
        // 2024 + 2; 2028 is beyond the window.
        #expect(ids.filter { $0.hasPrefix("smoke-alarm-") } == ["smoke-alarm-20261201-1100"])
        #expect(ids.count == 21)
    }

    @Test("the recurring calendar writes COUNT per time of day from its first instance, BYMONTH for yearly rules, and -1 for 29 February with lastDay")
    func recurringRules() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ics = folder.appendingPathComponent("r.ics").path
        let result = try await remindc(
            "compile", "examples/yearly-and-counted.plist", "--now", "2026-11-22T08:00:00Z", "-o", "/dev/null", "--ics", ics,
            "--ics-style", "recurring"
        )
        #expect(result.status == 0, "\(result.standardError)")
        let lines = String(decoding: try Data(contentsOf: URL(fileURLWithPath: ics)), as: UTF8.self)
            .components(separatedBy: "\r\n").filter { $0.hasPrefix("UID:") || $0.hasPrefix("RRULE:") || $0.hasPrefix("EXDATE") }
            .filter { !$0.contains("BYDAY=-1SU") }  // the VTIMEZONE's own rules
        #expect(lines == [
            // 08:00 on the 23rd, 24th (EXDATE, still counted), 25th, 26th; 20:00 from the 22nd.
            "UID:antibiotics-0800@remindc.local", "RRULE:FREQ=DAILY;COUNT=4", "EXDATE;TZID=Europe/Berlin:20261124T080000",
            "UID:antibiotics-2000@remindc.local", "RRULE:FREQ=DAILY;COUNT=5", "EXDATE;TZID=Europe/Berlin:20261124T200000",
            "UID:birthday-mum-0900@remindc.local", "RRULE:FREQ=YEARLY;BYMONTH=11;BYMONTHDAY=29",
            "UID:clock-change-2000@remindc.local", "RRULE:FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SA",
            "UID:leap-day-1000@remindc.local", "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1",
            // Eight of the ten sessions are left.
            "UID:physio-1830@remindc.local", "RRULE:FREQ=WEEKLY;BYDAY=MO,TH;WKST=MO;COUNT=8",
            "UID:smoke-alarm-1100@remindc.local", "RRULE:FREQ=YEARLY;INTERVAL=2;BYMONTH=12;BYMONTHDAY=1",
        ])
    }

    @Test("29 February: skip fires in leap years only; lastDay on 28 February in the others")
    func leapDay() throws {
        for (missing, expected) in [("skip", ["2028-02-29"]), ("lastDay", ["2027-02-28", "2028-02-29", "2029-02-28"])] {
            let reminder = reminderXML("leap", schedule: Self.yearly(
                "<key>months</key><array><integer>2</integer></array><key>days</key><array><integer>29</integer></array><key>missingDays</key><string>\(missing)</string>"
            ))
            // Through 2030-02-24.
            let plan = try compilePlan(reminder, now: "2026-11-22T08:00:00Z", horizonDays: 1190)
            #expect(plan.notifications.map { String($0.fireAt.rfc3339.prefix(10)) } == expected, "\(missing)")
        }
    }

    @Test("interval counts years from start; count ends a yearly schedule after its slots")
    func yearlyIntervalAndCount() throws {
        let every3 = reminderXML("r", schedule: Self.yearly(
            "<key>months</key><array><integer>6</integer></array><key>weekdayOrdinals</key><array><string>1MO</string></array><key>interval</key><integer>3</integer><key>start</key><string>2025-01-01</string>"
        ))
        // First Mondays of June 2025, 2028, 2031, 2034 (through 2035-02-08): 2 June 2025 is
        // past; 5 June 2028, 2 June 2031, 5 June 2034.
        let plan = try compilePlan(every3, now: "2026-11-22T08:00:00Z", horizonDays: 3000)
        #expect(plan.notifications.map(\.id) == ["r-20280605-0900", "r-20310602-0900", "r-20340605-0900"])
        let counted = reminderXML("r", schedule: Self.yearly(
            "<key>months</key><array><integer>1</integer><integer>7</integer></array><key>days</key><array><integer>1</integer></array><key>start</key><string>2026-01-01</string><key>count</key><integer>5</integer>"
        ))
        // 2026-01-01, 2026-07-01 (past), 2027-01-01, 2027-07-01, 2028-01-01: the fifth.
        let countedPlan = try compilePlan(counted, now: "2026-11-22T08:00:00Z", horizonDays: 3660)
        #expect(countedPlan.notifications.map(\.id) == ["r-20270101-0900", "r-20270701-0900", "r-20280101-0900"])
    }

    @Test("count counts slots, not dates: the third of three times a day can end a course")
    func countCountsSlots() async throws {
        let reminder = reminderXML("r", schedule: """
            <key>frequency</key><string>daily</string><key>times</key><array><string>08:00</string><string>14:00</string><string>20:00</string></array>\
            <key>start</key><string>2026-11-22</string><key>count</key><integer>7</integer>
            """)
        let plan = try compilePlan(reminder, now: "2026-11-22T06:00:00Z", horizonDays: 10)
        #expect(plan.notifications.map(\.id) == [
            "r-20261122-0800", "r-20261122-1400", "r-20261122-2000", "r-20261123-0800", "r-20261123-1400", "r-20261123-2000",
            "r-20261124-0800",
        ])
        // `next` lists what is left after noon on the 23rd and stops there.
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("course.plist")
        try Data(configXML(reminders: reminder).utf8).write(to: config)
        let next = try await remindc("next", config.path, "--reminder", "r", "--count", "20", "--now", "2026-11-23T12:00:00Z")
        #expect(next.status == 0, "\(next.standardError)")
        #expect(next.standardOutput.components(separatedBy: "\n").filter { $0.contains("r-2026") }.count == 3, "\(next.standardOutput)")
    }
}

extension YearlyAndCountedTests {
    @Test("invalid yearly and counted schedules are located errors with suggestions", arguments: [
        (yearly("<key>days</key><array><integer>1</integer></array>"), ["c.plist:8:97: error: a yearly schedule needs 'months', an array of month numbers 1–12 (3 for March)"]),
        (yearly("<key>months</key><array><integer>13</integer></array><key>days</key><array><integer>1</integer></array>"), ["c.plist:8:170: error: month 13 is not a month number; expected an <integer> 1–12"]),
        (yearly("<key>months</key><array><string>March</string></array><key>days</key><array><integer>1</integer></array>"), ["c.plist:8:170: error: month 'March' is not a month number; expected an <integer> 1–12; did you mean 3?"]),
        (yearly("<key>months</key><array><integer>3</integer></array>"), ["c.plist:8:97: error: a yearly schedule needs 'days' or 'weekdayOrdinals'"]),
        (yearly("<key>months</key><array><integer>3</integer></array><key>weekdays</key><array><string>monday</string></array><key>days</key><array><integer>1</integer></array>"), ["c.plist:8:198: error: 'weekdays' does not apply to a yearly schedule"]),
        ("<key>frequency</key><string>monthly</string><key>months</key><array><integer>3</integer></array><key>days</key><array><integer>1</integer></array><key>times</key><array><string>09:00</string></array>", ["c.plist:8:147: error: 'months' does not apply to a monthly schedule"]),
        ("<key>frequency</key><string>daily</string><key>count</key><integer>3</integer><key>times</key><array><string>09:00</string></array>", ["c.plist:8:161: error: 'count' 3 needs a 'start' date to count its slots from"]),
        ("<key>frequency</key><string>daily</string><key>count</key><integer>3</integer><key>start</key><string>2026-11-01</string><key>end</key><string>2026-12-01</string><key>times</key><array><string>09:00</string></array>", ["c.plist:8:224: error: 'count' and 'end' exclude each other, as COUNT and UNTIL do in RFC 5545; keep one of them"]),
        ("<key>frequency</key><string>daily</string><key>count</key><integer>0</integer><key>start</key><string>2026-11-01</string><key>times</key><array><string>09:00</string></array>", ["c.plist:8:161: error: 'count' is 0; expected 1–100000"]),
        ("<key>frequency</key><string>once</string><key>count</key><integer>2</integer><key>at</key><array><string>2026-12-01T09:00</string></array>", ["c.plist:8:144: error: 'count' does not apply to a once schedule"]),
        ("<key>frequency</key><string>yearli</string><key>times</key><array><string>09:00</string></array>", ["c.plist:8:123: error: unknown frequency 'yearli'; expected one of 'daily', 'weekly', 'monthly', 'yearly', 'once'; did you mean 'yearly'?"]),
    ])
    func invalid(_ schedule: String, _ expected: [String]) {
        // Columns counted by hand on line 8, `<dict><key>id</key>…<key>schedule</key><dict>`.
        let result = check(configXML(reminders: reminderXML("r", schedule: schedule)))
        #expect(result.diagnostics.map(\.formatted) == expected)
    }
}

extension YearlyAndCountedTests {
    @Test("a config built in code names the key path of each yearly or count error")
    func inCode() {
        let config = ReminderConfig(timeZone: "Europe/Berlin", reminders: [
            Reminder(id: "a", title: "A", schedule: .yearly(months: [2, 13], days: [29], times: ["09:00"], count: 3)),
            Reminder(id: "b", title: "B", schedule: .daily(times: ["09:00"], start: "2026-11-01", end: "2026-12-01", count: 2)),
            Reminder(id: "c", title: "C", schedule: .yearly(months: [], times: ["09:00"])),
        ])
        #expect(config.validate().map(\.formatted) == [
            "reminders[0].schedule.count: error: 'count' 3 needs a 'start' date to count its slots from",
            "reminders[0].schedule.months[1]: error: month 13 is not a month number; expected an <integer> 1–12",
            "reminders[1].schedule.end: error: 'count' and 'end' exclude each other, as COUNT and UNTIL do in RFC 5545; keep one of them",
            "reminders[2].schedule.months: error: a yearly schedule needs 'months', an array of month numbers 1–12 (3 for March)",
            "reminders[2].schedule.days: error: a yearly schedule needs 'days' or 'weekdayOrdinals'",
        ])
    }

    @Test("a count that ran out before today is named in the never-fires warning")
    func countRanOut() {
        let reminder = reminderXML("course", schedule: """
            <key>frequency</key><string>daily</string><key>times</key><array><string>08:00</string><string>20:00</string></array>\
            <key>start</key><string>2026-11-01</string><key>count</key><integer>6</integer>
            """)
        let result = check(configXML(reminders: reminder), options: ConfigOptions(now: fixedNow))
        #expect(result.diagnostics.map(\.formatted) == [
            // 1, 2 and 3 November at 08:00 and 20:00.
            "c.plist:8:1: warning: reminder 'course' can never fire: its 'count' of 6 slots from 2026-11-01 ran out on 2026-11-03, before today (2026-11-22)",
        ])
    }
}

extension YearlyAndCountedTests {
    @Test("counts validation refuses give no slots and no trap", arguments: [0, -1, Int.min, Int.max])
    func extremeCounts(_ count: Int) {
        var schedule = Schedule.daily(times: ["09:00"], start: "2026-11-01", count: count)
        schedule.count = count
        let timeline = ZoneTimeline(rules: TimeZoneDatabase.system.zone("UTC")!, span: 1_790_000_000...1_800_000_000)
        var slots = 0
        schedule.forEachSlot(onDates: CivilDate(year: 2026, month: 11, day: 1)!...CivilDate(year: 2026, month: 11, day: 30)!, timeline: timeline) { _ in slots += 1 }
        #expect(slots == (count > 0 ? 30 : 0))
        #expect(schedule.lastCountedDate == nil)
        #expect(schedule.firesOn(CivilDate(year: 2026, month: 11, day: 2)!) == (count > 0))
    }
}
