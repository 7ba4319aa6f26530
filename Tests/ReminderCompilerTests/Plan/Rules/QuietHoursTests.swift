import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Quiet hours (Planning rules, "Quiet hours"): worked out by hand, and against a reference that applies the
/// rule to a plan compiled without them.
@Suite("Quiet hours")
struct QuietHoursTests {
    static func plan(_ config: String, now: String, horizonDays: Int = 1) throws -> Plan {
        try compilePlan(config, now: now, rootExtra: "", horizonDays: horizonDays)
    }

    static func quiet(_ from: String, _ until: String, _ action: String) -> String {
        "<key>quietHours</key><dict><key>from</key><string>\(from)</string><key>until</key><string>\(until)</string>"
            + "<key>action</key><string>\(action)</string></dict>"
    }

    static func daily(_ times: [String]) -> String {
        "<key>frequency</key><string>daily</string><key>times</key><array>" + times.map { "<string>\($0)</string>" }.joined() + "</array>"
    }

    @Test("the example: 06:00 and 22:00 deferred to 07:00 with deferredFrom; critical and opted-out reminders on time")
    func example() async throws {
        let result = try await remindc("compile", "examples/quiet-hours.plist", "--now", "2026-11-22T08:00:00Z")
        #expect(result.status == 0, "\(result.standardError)")
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let notifications = plan["notifications"] as? [[String: Any]] ?? []
        func line(_ id: String) -> String? {
            notifications.first { $0["id"] as? String == id }.map { "\($0["fireAt"]!) \($0["slot"]!) \($0["deferredFrom"] ?? "-")" }
        }
        #expect(line("posture-20261122-2200") == "2026-11-23T07:00:00+01:00 2026-11-22T22:00 2026-11-22T22:00:00+01:00")
        #expect(line("posture-20261123-0600") == "2026-11-23T07:00:00+01:00 2026-11-23T06:00 2026-11-23T06:00:00+01:00")
        #expect(line("posture-20261122-2000") == "2026-11-22T20:00:00+01:00 2026-11-22T20:00 -")
        #expect(line("insulin-20261122-2300") == "2026-11-22T23:00:00+01:00 2026-11-22T23:00 -")
        #expect(line("journal-20261122-2230") == "2026-11-22T22:30:00+01:00 2026-11-22T22:30 -")
        #expect(line("journal-20261122-2230-followup") == "2026-11-22T22:50:00+01:00 2026-11-22T22:30 -")
        // Sorted by the new fireAt: both 07:00 notifications come before 08:00.
        let ids = notifications.compactMap { $0["id"] as? String }
        let seven = try #require(ids.firstIndex(of: "posture-20261122-2200"))
        #expect(ids[seven + 1] == "posture-20261123-0600" && ids[seven + 2] == "posture-20261123-0800")
    }

    @Test("a snooze due inside quiet hours is deferred like any notification: fireAt at their end, the plan in order, nothing before now")
    func snoozeDeferred() throws {
        // A pill at 20:55 snoozed at 20:55 for 90 minutes: due 22:25, inside 22:00–07:00.
        var config = ReminderConfig(timeZone: "Europe/Berlin", reminders: [Reminder(id: "pill", title: "Pill", schedule: .daily(times: ["20:55"]))])
        config.quietHours = QuietHours(from: LocalTime(minuteOfDay: 22 * 60)!, until: LocalTime(minuteOfDay: 7 * 60)!)
        let snoozedAt = Int64(CivilDate(year: 2026, month: 11, day: 23)!.dayNumber) * 86_400 + (20 * 60 + 55) * 60 - 3600
        var events = ReminderEvents()
        events.record(.snooze(at: snoozedAt, minutes: 90), occurrence: "pill-20261123-2055")
        let plan = try #require(ReminderCompiler.plan(
            config, options: CompileOptions(now: .instant(snoozedAt + 60), horizonDays: 2), events: events
        ).plan)
        let snooze = try #require(plan.notifications.first { $0.id == "pill-20261123-2055-snooze" })
        #expect(snooze.fireAt.rfc3339 == "2026-11-24T07:00:00+01:00")
        #expect(snooze.deferredFrom?.rfc3339 == "2026-11-23T22:25:00+01:00")
        #expect(plan.notifications.map(\.id) == ["pill-20261123-2055-snooze", "pill-20261124-2055", "pill-20261125-2055"])
        #expect(zip(plan.notifications, plan.notifications.dropFirst()).allSatisfy { $0.fireAt.seconds <= $1.fireAt.seconds })
        #expect(plan.notifications.allSatisfy { $0.fireAt.seconds > plan.now.seconds })
    }

    @Test("drop lists the notification under suppressed with reason quietHours; a follow-up is judged at its own time")
    func drop() throws {
        let reminder = reminderXML(
            "r", schedule: Self.daily(["21:00", "23:00"]),
            extra: "<key>followUp</key><dict><key>afterMinutes</key><integer>45</integer></dict>"
        )
        let plan = try compilePlan(reminder, now: "2026-11-22T12:00:00Z", rootExtra: Self.quiet("21:30", "23:30", "drop"), horizonDays: 1)
        #expect(plan.notifications.map(\.id) == ["r-20261122-2100", "r-20261122-2300-followup"])
        #expect(plan.suppressed.map { "\($0.id) \($0.reason.rawValue)" } == ["r-20261122-2100-followup quietHours", "r-20261122-2300 quietHours"])
    }

    @Test("deferred into a gap: until 02:30 on the night clocks spring forward in Berlin fires at 03:30")
    func deferIntoGap() throws {
        let plan = try compilePlan(
            reminderXML("r", schedule: Self.daily(["23:00"])), now: "2026-03-28T12:00:00Z", rootExtra: Self.quiet("22:00", "02:30", "defer"),
            horizonDays: 1
        )
        #expect(plan.notifications.map { "\($0.id) \($0.fireAt.rfc3339) \($0.deferredFrom?.rfc3339 ?? "-")" } == [
            "r-20260328-2300 2026-03-29T03:30:00+02:00 2026-03-28T23:00:00+01:00",
        ])
    }

    @Test("a notification due before now but deferred after it is still planned")
    func deferredAcrossNow() throws {
        let plan = try compilePlan(
            reminderXML("r", schedule: Self.daily(["23:00"])), now: "2026-11-22T02:00:00Z", rootExtra: Self.quiet("22:00", "07:00", "defer"),
            horizonDays: 2
        )
        // 2026-11-21 23:00 was due before now (03:00) and fires at 07:00; the window ends on
        // 2026-11-24 at 03:00, before 2026-11-23 23:00's deferred 07:00.
        #expect(plan.notifications.map { "\($0.id) \($0.fireAt.rfc3339)" } == [
            "r-20261121-2300 2026-11-22T07:00:00+01:00", "r-20261122-2300 2026-11-23T07:00:00+01:00",
        ])
    }

    @Test("from equal to until is an error, in a file and in code; the action is checked")
    func validation() throws {
        let same = check(configXML(reminders: reminderXML("r"), rootExtra: Self.quiet("22:00", "22:00", "defer")))
        #expect(same.diagnostics.map(\.formatted) == [
            "c.plist:6:81: error: quietHours.from and quietHours.until are both 22:00: the hours would be empty; for quiet hours across midnight give until before from, like 22:00 to 07:00",
        ])
        let action = check(configXML(reminders: reminderXML("r"), rootExtra: Self.quiet("22:00", "07:00", "defr")))
        #expect(action.diagnostics.map(\.formatted).first?.contains("error: unknown quietHours action 'defr'; expected one of 'defer', 'drop'; did you mean 'defer'?") == true,
                "\(action.diagnostics.map(\.formatted))")
        var config = ReminderConfig(timeZone: "UTC", reminders: [Reminder(id: "r", title: "R", schedule: .daily(times: ["09:00"]))])
        config.quietHours = QuietHours(from: LocalTime(minuteOfDay: 60)!, until: LocalTime(minuteOfDay: 60)!)
        #expect(config.validate().map(\.formatted) == [
            "quietHours.until: error: quietHours.from and quietHours.until are both 01:00: the hours would be empty; for quiet hours across midnight give until before from, like 22:00 to 07:00",
        ])
    }

    @Test("on 110 nights around clock changes in 11 zones, every deferral ends where the clocks first read until, never before its due time")
    func deferralAroundClockChanges() throws {
        let zones = [
            "Europe/Berlin", "Europe/London", "America/New_York", "America/Santiago", "America/Havana", "Australia/Sydney",
            "Australia/Lord_Howe", "Pacific/Chatham", "Asia/Tehran", "America/St_Johns", "Africa/Cairo",
        ]
        var deferrals = 0
        var repeated = 0
        for name in zones {
            let rules = try #require(TimeZoneDatabase.system.zone(name))
            let reference = ReferenceExpander(zone: name)
            let span = Int64(CivilDate(year: 2025, month: 1, day: 1)!.dayNumber) * 86_400...Int64(CivilDate(year: 2030, month: 1, day: 1)!.dayNumber) * 86_400
            let timeline = ZoneTimeline(rules: rules, span: span)
            // The first ten changes from 2025 on: five years give them in every zone here.
            for change in timeline.transitionInstants.prefix(10) {
                let before = Int(timeline.offset(at: change - 1))
                let localChange = change + Int64(before)
                let changeMinute = Int(localChange.floorDivided(by: 60) % 1440)
                // Quiet hours that start two hours before the change (in the local time before
                // it) and end inside the hour a fall-back repeats, or after it.
                for untilShift in [-50, -20, 15, 75] {
                    let quiet = QuietHours(
                        from: LocalTime(minuteOfDay: (changeMinute - 120 + 1440) % 1440)!,
                        until: LocalTime(minuteOfDay: (changeMinute + untilShift + 1440) % 1440)!
                    )
                    for due in stride(from: change - 2 * 3600, through: change + 3 * 3600, by: 300) {
                        let local = due + Int64(timeline.offset(at: due))
                        let day = local.floorDivided(by: 86_400)
                        let minute = Int(local - day * 86_400) / 60
                        guard quiet.contains(LocalTime(minuteOfDay: minute)!) else {
                            #expect(quiet.outcome(of: due, timeline: timeline) == due)
                            continue
                        }
                        let endDay = CivilDate(dayNumber: Int(minute < quiet.until.minuteOfDay ? day : day + 1)).components
                        let expected = reference.instant(
                            year: endDay.year, month: endDay.month, day: endDay.day, minuteOfDay: quiet.until.minuteOfDay, notBefore: due
                        ).instant
                        let found = quiet.outcome(of: due, timeline: timeline)
                        #expect(found == expected, "\(name): due \(due), until \(quiet.until)")
                        #expect((found ?? .min) >= due)
                        deferrals += 1
                        if timeline.offset(at: change) < before, due >= change, due < change + Int64(before - timeline.offset(at: change)) { repeated += 1 }
                    }
                }
            }
        }
        #expect(deferrals > 5_000 && repeated > 300, "\(deferrals) deferrals, \(repeated) in a repeated hour")
    }

    @Test("random configs: every notification fires where the reference puts it, or is dropped", .timeLimit(.minutes(3)))
    func againstReference() throws {
        var generator = PlanScenarioGenerator(seed: 2207)
        var counts = (deferred: 0, dropped: 0, exempt: 0, plans: 0)
        while counts.plans < 150 {
            let center = CivilDate(dayNumber: generator.random.int(19_500...21_000))
            var config = generator.config(around: center)
            guard let quiet = config.quietHours else { continue }
            config.pendingLimit = 0
            let now = Int64(center.dayNumber) * 86_400 + Int64(generator.random.int(0...86_399))
            let horizon = generator.random.int(1...5)
            let reference = ReferenceExpander(zone: config.timeZone!)
            // Without quiet hours, from a day earlier: every notification that could be
            // deferred into the window.
            var loud = config
            loud.quietHours = nil
            let baseline = try #require(ReminderCompiler.plan(
                loud, options: CompileOptions(now: .instant(now - 86_400), horizonDays: horizon + 1, pendingLimit: 0)
            ).plan)
            let reminders = Dictionary(uniqueKeysWithValues: config.reminders.map { ($0.id, $0) })
            var expected: [String] = []
            var expectedDropped: [String] = []
            let zone = TimeZone(identifier: config.timeZone!)!
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            for notification in baseline.notifications {
                let due = notification.fireAt.seconds
                let exempt = notification.reminders.contains { id in
                    let reminder = reminders[id]!
                    let level = notification.kind == .followUp ? reminder.followUp?.interruptionLevel ?? reminder.interruptionLevel : reminder.interruptionLevel
                    return !(reminder.quietHours ?? (level != .critical))
                }
                let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: Date(timeIntervalSince1970: TimeInterval(due)))
                let minute = parts.hour! * 60 + parts.minute!
                let (from, until) = (quiet.from.minuteOfDay, quiet.until.minuteOfDay)
                let isQuiet = from < until ? (minute >= from && minute < until) : (minute >= from || minute < until)
                var fireAt = due
                if isQuiet && !exempt {
                    if quiet.action == .drop {
                        if due > now && due <= now + Int64(horizon) * 86_400 { expectedDropped.append(notification.id) }
                        counts.dropped += 1
                        continue
                    }
                    let day = calendar.date(from: DateComponents(year: parts.year, month: parts.month, day: parts.day))!
                    let endDay = calendar.dateComponents([.year, .month, .day], from: minute < until ? day : calendar.date(byAdding: .day, value: 1, to: day)!)
                    fireAt = reference.instant(year: endDay.year!, month: endDay.month!, day: endDay.day!, minuteOfDay: until, notBefore: due).instant
                    counts.deferred += 1
                } else if isQuiet {
                    counts.exempt += 1
                }
                guard fireAt > now && fireAt <= now + Int64(horizon) * 86_400 else { continue }
                expected.append("\(notification.id) \(fireAt) \(fireAt == due ? "-" : String(due))")
            }
            let options = CompileOptions(now: .instant(now), horizonDays: horizon, pendingLimit: 0)
            let plan = try #require(ReminderCompiler.plan(config, options: options).plan)
            let found = plan.notifications.map { "\($0.id) \($0.fireAt.seconds) \($0.deferredFrom.map { String($0.seconds) } ?? "-")" }
            #expect(found.sorted() == expected.sorted(), "round \(counts.plans)")
            #expect(plan.suppressed.filter { $0.reason == .quietHours }.map(\.id).sorted() == expectedDropped.sorted(), "round \(counts.plans)")
            counts.plans += 1
        }
        #expect(counts.deferred > 300 && counts.dropped > 100 && counts.exempt > 20, "\(counts)")
    }
}
