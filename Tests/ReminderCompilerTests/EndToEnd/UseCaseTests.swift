import Foundation
import Testing

/// A compiled plan as a test reads it.
struct PlanView {
    let json: [String: Any]
    let standardError: String

    var notifications: [[String: Any]] { json["notifications"] as? [[String: Any]] ?? [] }
    var ids: [String] { notifications.compactMap { $0["id"] as? String } }
    var suppressed: [[String: Any]] { json["suppressed"] as? [[String: Any]] ?? [] }

    func notification(_ id: String) -> [String: Any]? { notifications.first { $0["id"] as? String == id } }
    func has(_ id: String) -> Bool { notification(id) != nil }
    func suppression(_ id: String) -> [String: Any]? { suppressed.first { $0["id"] as? String == id } }
}

/// Compiles an example with events (JSON text) through the built binary.
func compileExample(
    _ example: String, now: String, events: String? = nil, extra: [String] = [],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) async throws -> PlanView {
    let folder = try TestEnvironment.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var arguments = ["compile", example, "--now", now] + extra
    if let events {
        let url = folder.appendingPathComponent("events.json")
        try Data(events.utf8).write(to: url)
        arguments += ["--events", url.path]
    }
    let result = try await run(TestEnvironment.remindcExecutable, arguments)
    #expect(result.status == 0, "\(result.standardError)", sourceLocation: sourceLocation)
    let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any] ?? [:]
    return PlanView(json: json, standardError: result.standardError)
}

/// USE-CASES.md 1: the medication tracker (Europe/Berlin; Med A and Med B at 09:20 in the
/// `morning` group, follow-ups 30 minutes later, look-back 4 hours). Today is Sunday
/// 22 November 2026.
@Suite("Use case 1: medication tracker")
struct MedicationTrackerTests {
    static let example = "examples/medication.plist"
    static let morning = "2026-11-22T09:00"  // local, before the 09:20 reminder

    @Test("logs both meds at 09:00, reminder at 09:20: today's group and follow-up are gone; tomorrow's stay")
    func logsBothBeforeTheReminder() async throws {
        let plan = try await compileExample(Self.example, now: Self.morning, events: """
        {"events": [{"activity": "med-a", "at": "2026-11-22T09:00:00+01:00"},
                    {"activity": "med-b", "at": "2026-11-22T09:00:00+01:00"}]}
        """)
        #expect(!plan.has("morning-20261122-0920"))
        #expect(!plan.has("morning-20261122-0920-followup"))
        #expect(plan.has("morning-20261123-0920"))
        #expect(plan.has("morning-20261123-0920-followup"))
        #expect(plan.suppression("morning-20261122-0920")?["reason"] as? String == "activity")
        #expect(plan.suppression("morning-20261122-0920")?["reminders"] as? [String] == ["med-a", "med-b"])
    }

    @Test("logs Med A only: today's group keeps its ID and holds only Med B, titled as Med B")
    func logsOneMember() async throws {
        let plan = try await compileExample(Self.example, now: Self.morning, events: """
        {"events": [{"activity": "med-a", "at": "2026-11-22T09:05:00+01:00"}]}
        """)
        let group = try #require(plan.notification("morning-20261122-0920"))
        #expect(group["kind"] as? String == "group")
        #expect(group["reminders"] as? [String] == ["med-b"])
        #expect(group["title"] as? String == "Vitamin D")
        #expect(group["body"] as? String == "1 capsule")
        let followUp = try #require(plan.notification("morning-20261122-0920-followup"))
        #expect(followUp["reminders"] as? [String] == ["med-b"])
        #expect(followUp["title"] as? String == "Vitamin D not logged yet")
        #expect(plan.notification("morning-20261123-0920")?["reminders"] as? [String] == ["med-a", "med-b"])
    }

    @Test("logs all members: the group notification and its follow-up disappear")
    func logsAllMembers() async throws {
        let plan = try await compileExample(Self.example, now: Self.morning, events: """
        {"events": [{"occurrence": "med-a-20261122-0920", "action": "done"},
                    {"occurrence": "med-b-20261122-0920", "action": "done"}]}
        """)
        #expect(!plan.has("morning-20261122-0920"))
        #expect(!plan.has("morning-20261122-0920-followup"))
        #expect(plan.suppression("morning-20261122-0920")?["reason"] as? String == "done")
        #expect(plan.suppression("morning-20261122-0920-followup")?["reason"] as? String == "done")
    }

    @Test("logs both at 22:00 for tomorrow: done on tomorrow's member IDs removes tomorrow's occurrence")
    func doseTakenEarly() async throws {
        let plan = try await compileExample(Self.example, now: "2026-11-22T22:00", events: """
        {"events": [{"activity": "med-a", "at": "2026-11-22T22:00:00+01:00"},
                    {"activity": "med-b", "at": "2026-11-22T22:00:00+01:00"},
                    {"occurrence": "med-a-20261123-0920", "action": "done"},
                    {"occurrence": "med-b-20261123-0920", "action": "done"}]}
        """)
        #expect(!plan.has("morning-20261123-0920"))
        #expect(!plan.has("morning-20261123-0920-followup"))
        #expect(plan.has("morning-20261124-0920"))
        #expect(plan.has("med-c-20261123-1300"))
    }

    @Test("taps Skip on the delivered 09:20: the 09:50 follow-up is cancelled, nothing logged, tomorrow unchanged")
    func skipDelivered() async throws {
        // Without a limit, so that the freed slot does not admit a later notification.
        let without = try await compileExample(Self.example, now: "2026-11-22T09:25", extra: ["--pending-limit", "0"])
        let plan = try await compileExample(Self.example, now: "2026-11-22T09:25", events: """
        {"events": [{"occurrence": "morning-20261122-0920", "action": "skip"}]}
        """, extra: ["--pending-limit", "0"])
        #expect(without.has("morning-20261122-0920-followup"))
        #expect(!plan.has("morning-20261122-0920-followup"))
        #expect(plan.suppression("morning-20261122-0920-followup")?["reason"] as? String == "skip")
        // The delivered 09:20 itself fired before now: it was never in the plan.
        #expect(!plan.has("morning-20261122-0920"))
        #expect(plan.ids.filter { !$0.hasPrefix("morning-20261122") } == without.ids.filter { !$0.hasPrefix("morning-20261122") })
    }

    @Test("taps Snooze 10 min at 09:22: a one-time snooze notification at 09:32")
    func snoozeDelivered() async throws {
        let plan = try await compileExample(Self.example, now: "2026-11-22T09:23", events: """
        {"events": [{"occurrence": "morning-20261122-0920", "action": "snooze", "at": "2026-11-22T09:22:00+01:00"}]}
        """)
        let snooze = try #require(plan.notification("morning-20261122-0920-snooze"))
        #expect(snooze["kind"] as? String == "snooze")
        #expect(snooze["parent"] as? String == "morning-20261122-0920")
        #expect(snooze["fireAt"] as? String == "2026-11-22T09:32:00+01:00")
        #expect(snooze["reminders"] as? [String] == ["med-a", "med-b"])
        #expect(snooze["title"] as? String == "Morning medications")
        #expect(!plan.has("morning-20261122-0920-followup"))
        #expect(plan.suppression("morning-20261122-0920-followup")?["reason"] as? String == "snoozed")
    }

    @Test("adds a 4th medication: the budget keeps the earliest, coveredUntil moves earlier, a warning under 3 days")
    func fourthMedication() async throws {
        let config = try String(contentsOf: TestEnvironment.examples.appendingPathComponent("medication.plist"), encoding: .utf8)
        let fourth = """
            <dict>
              <key>id</key><string>med-e</string>
              <key>title</key><string>Eye drops</string>
              <key>followUp</key><dict><key>afterMinutes</key><integer>30</integer></dict>
              <key>schedule</key><dict><key>frequency</key><string>daily</string>
                <key>timesPerDay</key><integer>8</integer>
                <key>window</key><dict><key>from</key><string>07:00</string><key>until</key><string>21:00</string></dict>
              </dict>
            </dict>
          </array>
        </dict>
        </plist>
        """
        let extended = config.replacingOccurrences(of: "  </array>\n</dict>\n</plist>", with: fourth)
        #expect(extended != config)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("remindc-four-\(UUID().uuidString).plist")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(extended.utf8).write(to: url)
        let before = try await compileExample(Self.example, now: Self.morning)
        let after = try await compileExample(url.path, now: Self.morning)
        #expect(before.notifications.count == 64)
        #expect(after.notifications.count == 64)
        let beforeCovered = try #require(before.json["coveredUntil"] as? String)
        let afterCovered = try #require(after.json["coveredUntil"] as? String)
        #expect(afterCovered < beforeCovered)
        // 7 + 16 notifications a day: 64 cover less than 3 days.
        #expect((after.json["warnings"] as? [String])?.contains { $0.contains("less than minimumCoverageDays 3") } == true)
        #expect(after.standardError.contains("warning: the plan covers only 2."))
        // The budget keeps the earliest: every kept notification fires before coveredUntil.
        #expect(after.notifications.allSatisfy { ($0["fireAt"] as? String ?? "") < afterCovered })
    }

    @Test("app not opened for 30 days: the plan simply ends at coveredUntil; the next launch re-plans")
    func notOpenedForThirtyDays() async throws {
        let plan = try await compileExample(Self.example, now: Self.morning)
        #expect(plan.json["coveredUntil"] as? String == "2026-12-01T09:50:00+01:00")
        #expect(plan.notifications.last?["fireAt"] as? String == "2026-12-01T09:20:00+01:00")
        let later = try await compileExample(Self.example, now: "2026-12-22T09:00")
        #expect(later.notifications.count == 64)
        #expect(later.notifications.first?["id"] as? String == "morning-20261222-0920")
    }
}

/// USE-CASES.md 2: activity reminders with look-back (America/New_York). Meditation at
/// 18:00 Monday/Wednesday/Friday, look-back 12 h; workout at 12:00 (look-back 1 h) and
/// 18:00 (12 h) on Monday, Tuesday and Thursday. Monday is 23 November 2026.
@Suite("Use case 2: activity reminders with look-back")
struct LookBackTests {
    static let example = "examples/activity-lookback.plist"
    static let sunday = "2026-11-22T08:00:00Z"

    func plan(_ events: String) async throws -> PlanView {
        try await compileExample(Self.example, now: Self.sunday, events: "{\"events\": [\(events)]}")
    }

    @Test("meditates Monday 10:00: Monday 18:00 meditation suppressed (10:00 is inside 06:00–18:00)")
    func meditatesInTheMorning() async throws {
        let plan = try await plan(#"{"activity": "meditation", "at": "2026-11-23T10:00:00-05:00"}"#)
        #expect(!plan.has("meditation-20261123-1800"))
        #expect(plan.suppression("meditation-20261123-1800")?["reason"] as? String == "activity")
    }

    @Test("no meditation Monday: Monday 18:00 fires")
    func noMeditation() async throws {
        let plan = try await plan("")
        #expect(plan.notification("meditation-20261123-1800")?["fireAt"] as? String == "2026-11-23T18:00:00-05:00")
    }

    @Test("workout Monday 10:00: 12:00 stays (window 11:00–12:00), 18:00 suppressed")
    func workoutInTheMorning() async throws {
        let plan = try await plan(#"{"activity": "workout", "at": "2026-11-23T10:00:00-05:00"}"#)
        #expect(plan.has("workout-noon-20261123-1200"))
        #expect(!plan.has("workout-evening-20261123-1800"))
    }

    @Test("Monday+Wednesday reminder, activity Monday: only Monday's is suppressed")
    func onlyThatDay() async throws {
        let plan = try await plan(#"{"activity": "meditation", "at": "2026-11-23T10:00:00-05:00"}"#)
        #expect(!plan.has("meditation-20261123-1800"))
        #expect(plan.has("meditation-20261125-1800"))
    }

    @Test("next day: Tuesday's 18:00 is planned normally (nothing carries over)")
    func nextDay() async throws {
        let plan = try await plan(#"{"activity": "workout", "at": "2026-11-23T10:00:00-05:00"}"#)
        #expect(plan.has("workout-evening-20261124-1800"))
        #expect(plan.has("workout-noon-20261124-1200"))
    }

    @Test("activity after the reminder time does not suppress that reminder")
    func activityAfterwards() async throws {
        let plan = try await plan(#"{"activity": "meditation", "at": "2026-11-23T18:00:01-05:00"}"#)
        #expect(plan.has("meditation-20261123-1800"))
    }

    @Test("activity exactly at the reminder time suppresses it (the window ends inclusive)")
    func activityAtTheReminderTime() async throws {
        let plan = try await plan(#"{"activity": "meditation", "at": "2026-11-23T18:00:00-05:00"}"#)
        #expect(!plan.has("meditation-20261123-1800"))
        // And exactly 12 hours before is the window's inclusive start.
        let early = try await self.plan(#"{"activity": "meditation", "at": "2026-11-23T06:00:00-05:00"}"#)
        #expect(!early.has("meditation-20261123-1800"))
        let tooEarly = try await self.plan(#"{"activity": "meditation", "at": "2026-11-23T05:59:59-05:00"}"#)
        #expect(tooEarly.has("meditation-20261123-1800"))
    }
}
