import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Counted goals, nag chains, snoozes that keep their follow-ups, and `replacesEarlier`
/// with chains (Planning rules, "Counted goals", "Follow-ups and nag chains", "Replacing earlier notifications"), worked out by hand on `examples/nagging-and-goals.plist`.
@Suite("Counted goals and nag chains")
struct CountedGoalsAndChainsTests {
    static func examplePlan(events: String? = "examples/nagging-and-goals.events.json") async throws -> [String: Any] {
        var arguments = ["compile", "examples/nagging-and-goals.plist", "--now", "2026-11-22T08:00:00Z"]
        if let events { arguments += ["--events", events] }
        let result = try await run(TestEnvironment.remindcExecutable, arguments)
        #expect(result.status == 0, "\(result.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    static func notifications(_ plan: [String: Any]) -> [[String: Any]] { plan["notifications"] as? [[String: Any]] ?? [] }

    @Test("two glasses by 07:30 silence the first two water reminders of the day, not the third")
    func countedGoal() async throws {
        let plan = try await Self.examplePlan()
        let ids = Self.notifications(plan).compactMap { $0["id"] as? String }
        #expect(!ids.contains("water-20261122-1000") && !ids.contains("water-20261122-1400"))
        #expect(ids.contains("water-20261122-1800"))
        // The next day starts from zero.
        #expect(ids.contains("water-20261123-1000"))
        let suppressed = (plan["suppressed"] as? [[String: Any]] ?? []).map { "\($0["id"]!) \($0["reason"]!)" }
        #expect(suppressed.contains("water-20261122-1000 activity") && suppressed.contains("water-20261122-1400 activity"))
        // Without countsEntries, one glass silences the whole day (the old lookbackSameDay).
        let xml = configXML(reminders: reminderXML(
            "water", schedule: "<key>frequency</key><string>daily</string><key>times</key><array><string>10:00</string><string>14:00</string><string>18:00</string></array>",
            extra: "<key>lookbackSameDay</key><true/>"
        ))
        var events = ReminderEvents()
        events.logActivity("water", at: try #require(InstantParsing.rfc3339("2026-11-22T06:50:00+01:00")))
        events.logActivity("water", at: try #require(InstantParsing.rfc3339("2026-11-22T07:30:00+01:00")))
        let config = try #require(await check(xml).config)
        let plain = try #require(ReminderCompiler.plan(config, options: CompileOptions(now: .instant(fixedNow - 3_600), horizonDays: 1), events: events).plan)
        #expect(!plain.notifications.contains { $0.id.hasPrefix("water-20261122-") })
    }

    @Test("a chain fires at afterMinutes, then every everyMinutes; its members name the notification as parent")
    func chain() async throws {
        let plan = try await Self.examplePlan(events: nil)
        let evening = Self.notifications(plan).filter { ($0["id"] as? String)?.hasPrefix("bp-pill-20261122-2000") == true }
        #expect(evening.map { "\($0["id"]!) \($0["fireAt"]!) \($0["kind"]!) \($0["parent"] ?? "-") \($0["title"]!)" } == [
            "bp-pill-20261122-2000 2026-11-22T20:00:00+01:00 single - Blood-pressure pill",
            "bp-pill-20261122-2000-followup 2026-11-22T20:15:00+01:00 followUp bp-pill-20261122-2000 Pill not logged yet",
            "bp-pill-20261122-2000-followup-2 2026-11-22T20:25:00+01:00 followUp bp-pill-20261122-2000 Pill not logged yet",
            "bp-pill-20261122-2000-followup-3 2026-11-22T20:35:00+01:00 followUp bp-pill-20261122-2000 Pill not logged yet",
        ])
        // The evening pill withdraws the morning one and its whole chain.
        #expect(evening.first?["replaces"] as? [String] == [
            "bp-pill-20261122-0800", "bp-pill-20261122-0800-followup", "bp-pill-20261122-0800-followup-2",
            "bp-pill-20261122-0800-followup-3",
        ])
    }

    @Test("skipping a chain member removes it and the later ones; a snooze keeps the chain after it")
    func eventsOnChains() async throws {
        let plan = try await Self.examplePlan()
        let ids = Self.notifications(plan).compactMap { $0["id"] as? String }
        #expect(ids.contains("bp-pill-20261124-2000-followup"))
        #expect(!ids.contains("bp-pill-20261124-2000-followup-2") && !ids.contains("bp-pill-20261124-2000-followup-3"))
        // Snoozed at 08:50 for the category's 20 minutes: 09:10, then the chain 15, 25 and
        // 35 minutes after it; the morning chain itself is gone.
        let snoozed = Self.notifications(plan).filter { ($0["id"] as? String)?.hasPrefix("bp-pill-20261122-0800") == true }
        #expect(snoozed.map { "\($0["id"]!) \($0["fireAt"]!) \($0["parent"]!)" } == [
            "bp-pill-20261122-0800-snooze 2026-11-22T09:10:00+01:00 bp-pill-20261122-0800",
            "bp-pill-20261122-0800-snooze-followup 2026-11-22T09:25:00+01:00 bp-pill-20261122-0800-snooze",
            "bp-pill-20261122-0800-snooze-followup-2 2026-11-22T09:35:00+01:00 bp-pill-20261122-0800-snooze",
            "bp-pill-20261122-0800-snooze-followup-3 2026-11-22T09:45:00+01:00 bp-pill-20261122-0800-snooze",
        ])
        #expect(snoozed.first?["kind"] as? String == "snooze")
        #expect(snoozed.dropFirst().allSatisfy { $0["kind"] as? String == "followUp" && $0["title"] as? String == "Pill not logged yet" })
    }

    @Test("a dose logged after the snooze silences the snooze's later follow-ups; done on one of them ends the snooze")
    func snoozeChainAfterEvents() async throws {
        let config = try #require(await check(String(decoding: try Data(contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent("examples/nagging-and-goals.plist")), as: UTF8.self)).config)
        func plan(_ extra: (inout ReminderEvents) throws -> Void) throws -> [String] {
            var events = ReminderEvents()
            events.record(.snooze(at: try #require(InstantParsing.rfc3339("2026-11-22T08:05:00+01:00")), minutes: nil), occurrence: "bp-pill-20261122-0800")
            try extra(&events)
            let now = try #require(InstantParsing.rfc3339("2026-11-22T08:20:00+01:00"))
            let result = ReminderCompiler.plan(config, options: CompileOptions(now: .instant(now), horizonDays: 1), events: events)
            return try #require(result.plan).notifications.map(\.id).filter { $0.hasPrefix("bp-pill-20261122-0800") }
        }
        // Logged at 08:45: the nags at 08:50 and 09:00 go (look-back of two hours from 08:00).
        #expect(try plan { $0.logActivity("bp-pill", at: try #require(InstantParsing.rfc3339("2026-11-22T08:45:00+01:00"))) } == [
            "bp-pill-20261122-0800-snooze", "bp-pill-20261122-0800-snooze-followup",
        ])
        // Done on a snooze follow-up is done on the notification: the snooze and its chain go.
        #expect(try plan { $0.record(.done, occurrence: "bp-pill-20261122-0800-snooze-followup-2") } == [])
    }

    @Test("countsEntries needs lookbackSameDay; repeat and everyMinutes are checked; group members share one chain")
    func validation() throws {
        let counts = check(configXML(reminders: reminderXML("water", extra: "<key>countsEntries</key><true/>")))
        #expect(counts.diagnostics.map(\.formatted) == [
            "c.plist:8:86: error: 'countsEntries' counts the entries of the slot's date and needs 'lookbackSameDay' set to true; add <key>lookbackSameDay</key><true/>",
        ])
        let ranges = check(configXML(reminders: reminderXML(
            "pill", extra: "<key>followUp</key><dict><key>afterMinutes</key><integer>10</integer><key>repeat</key><integer>13</integer><key>everyMinutes</key><integer>0</integer></dict>"
        ))).diagnostics.map(\.formatted)
        #expect(ranges.count == 2, "\(ranges)")
        #expect(ranges.contains { $0.contains("error: 'repeat' is 13; expected 1–12") }, "\(ranges)")
        #expect(ranges.contains { $0.contains("error: 'everyMinutes' is 0; expected 1–1440") }, "\(ranges)")
        let chain = "<key>group</key><string>g</string><key>followUp</key><dict><key>afterMinutes</key><integer>10</integer>"
        let group = check(configXML(reminders: reminderXML("a", extra: chain + "<key>repeat</key><integer>3</integer></dict>")
            + reminderXML("b", extra: chain + "</dict>"))).diagnostics.map(\.formatted)
        #expect(group.first?.contains("error: reminder 'b' in group 'g' has a followUp after 10 minutes; members of a group must share followUp.afterMinutes, repeat and everyMinutes") == true, "\(group)")
        #expect(group.last?.contains("note: reminder 'a' has a followUp after 10 minutes, repeated 3 times every 10 minutes") == true, "\(group)")
        // The same rules for a config built in code, by key path.
        let inCode = ReminderConfig(timeZone: "UTC", reminders: [
            Reminder(id: "a", title: "A", schedule: .daily(times: ["09:00"]), followUp: FollowUp(afterMinutes: 5, repeatCount: 0, everyMinutes: 2000)),
        ])
        #expect(inCode.validate().map(\.formatted) == [
            "reminders[0].followUp.repeatCount: error: 'repeat' is 0; expected 1–12",
            "reminders[0].followUp.everyMinutes: error: 'everyMinutes' is 2000; expected 1–1440",
        ])
    }
}
