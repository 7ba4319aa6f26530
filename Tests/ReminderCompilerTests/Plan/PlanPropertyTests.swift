import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Random configs and events, to check properties every plan must have.
struct PlanScenarioGenerator {
    var random: ScheduleGenerator

    init(seed: UInt64) {
        random = ScheduleGenerator(generator: SeededGenerator(seed: seed))
    }

    /// Zones reminders pin: far from the plan zones above, half an hour off, across the
    /// date line, and one of the plan zones themselves.
    static let pinnableZones = ["Europe/Berlin", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Auckland", "America/St_Johns"]

    mutating func config(around date: CivilDate) -> ReminderConfig {
        var config = ReminderConfig(location: SourceLocation(path: "random", line: 1, column: 1))
        config.timeZone = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"][random.int(0...3)]
        let groups = ["g1", "g2"]
        for index in 0..<random.int(1...8) {
            var reminder = Reminder(
                id: "r\(index)", title: "Reminder \(index)", schedule: random.schedule(around: date), activity: "act\(index % 3)",
                location: config.location
            )
            if random.chance(40) { reminder.group = groups[random.int(0...1)] }
            if random.chance(40) { reminder.lookback = random.chance(50) ? .seconds(random.int(1...48) * 1800) : .sameDay }
            reminder.replacesEarlier = random.chance(20)
            if random.chance(15) { reminder.interruptionLevel = .critical }
            if random.chance(15) { reminder.quietHours = random.chance(50) }
            config.reminders.append(reminder)
        }
        // Quiet hours, often across midnight, deferring or dropping.
        if random.chance(25) {
            let from = random.int(0...1439)
            var until = random.int(0...1439)
            if until == from { until = (from + 1) % 1440 }
            config.quietHours = QuietHours(
                from: LocalTime(minuteOfDay: from)!, until: LocalTime(minuteOfDay: until)!, action: random.chance(70) ? .defer : .drop
            )
        }
        // Members of a group share their follow-up delay and their zone (the decoder
        // enforces both). Some reminders pin a zone of their own, a few the plan's.
        var delays: [String: Int?] = [:]
        var pinnedZones: [String: String?] = [:]
        for index in config.reminders.indices {
            let key = config.reminders[index].group ?? config.reminders[index].id
            if delays[key] == nil { delays[key] = random.chance(50) ? random.int(1...120) : nil }
            if let minutes = delays[key] ?? nil {
                config.reminders[index].followUp = FollowUp(afterMinutes: minutes, location: config.location)
            }
            if pinnedZones[key] == nil { pinnedZones[key] = random.chance(20) ? Self.pinnableZones[random.int(0...4)] : nil }
            config.reminders[index].timeZone = pinnedZones[key] ?? nil
        }
        return config
    }

    /// A random config and a compile instant on a day around which its schedules were made.
    mutating func scenario() -> (config: ReminderConfig, now: Int64) {
        let center = CivilDate(dayNumber: random.int(19_000...21_000))
        let config = config(around: center)
        return (config, Int64(center.dayNumber) * 86_400 + Int64(random.int(0...86_399)))
    }

    /// Activity, done and skip events around `now` (no snoozes: those add notifications).
    mutating func suppressingEvents(for plan: Plan, now: Int64) -> ReminderEvents {
        var events = ReminderEvents()
        for _ in 0..<random.int(0...12) {
            events.activities["act\(random.int(0...2))", default: []].append(now + Int64(random.int(-86_400...10 * 86_400)))
        }
        for activity in events.activities.keys { events.activities[activity]?.sort() }
        let location = SourceLocation(path: "events", line: 1, column: 1)
        for notification in plan.notifications where random.chance(15) {
            let occurrence = random.chance(50) || notification.reminders.count < 2
                ? notification.id
                : NotificationID.occurrence(notification.reminders[0], slot: notification.slot)
            events.actions.append(OccurrenceAction(occurrence: occurrence, kind: random.chance(50) ? .done : .skip, location: location))
        }
        return events
    }
}

@Suite("Plan properties")
struct PlanPropertyTests {
    @Test("suppression never adds a notification or a member; limits cut a prefix; IDs unique; groups list members once",
          .timeLimit(.minutes(3)))
    func properties() throws {
        var generator = PlanScenarioGenerator(seed: 2026)
        var checkedPlans = 0
        for round in 0..<300 {
            let (config, now) = generator.scenario()
            let horizon = generator.random.int(1...20)
            let unlimited = ReminderCompiler.plan(config, options: CompileOptions(now: .instant(now), horizonDays: horizon, pendingLimit: 0))
            let plan = try #require(unlimited.plan, "round \(round): \(unlimited.diagnostics.map(\.formatted))")

            // IDs are unique; no reminder appears twice in one notification.
            #expect(Set(plan.notifications.map(\.id)).count == plan.notifications.count)
            for notification in plan.notifications {
                #expect(Set(notification.reminders).count == notification.reminders.count)
                #expect(notification.reminders == notification.reminders.sorted())
            }
            // Sorted by (fireAt, id), all inside the window.
            let keys = plan.notifications.map { ($0.fireAt.seconds, $0.id) }
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
            #expect(plan.notifications.allSatisfy { $0.fireAt.seconds > now && $0.fireAt.seconds <= now + Int64(horizon) * 86_400 })

            // A plan with a limit is exactly a prefix of the plan without one.
            let limit = generator.random.int(1...40)
            let limited = try #require(ReminderCompiler.plan(
                config, options: CompileOptions(now: .instant(now), horizonDays: horizon, pendingLimit: limit)
            ).plan)
            #expect(limited.notifications == Array(plan.notifications.prefix(limit)))
            #expect(limited.dropped == max(0, plan.notifications.count - limit))
            if limited.dropped > 0 {
                #expect(limited.coveredUntil == plan.notifications[limit].fireAt)
            } else {
                #expect(limited.coveredUntil == plan.windowEnd)
            }

            // Suppression (activities, done, skip) never adds a notification or a member.
            let events = generator.suppressingEvents(for: plan, now: now)
            let suppressed = try #require(ReminderCompiler.plan(
                config, options: CompileOptions(now: .instant(now), horizonDays: horizon, pendingLimit: 0), events: events
            ).plan)
            let before = Dictionary(uniqueKeysWithValues: plan.notifications.map { ($0.id, $0) })
            for notification in suppressed.notifications {
                let original = try #require(before[notification.id], "round \(round): \(notification.id) appeared")
                #expect(Set(notification.reminders).isSubset(of: Set(original.reminders)))
                #expect(notification.fireAt == original.fireAt)
            }
            // Every notification that disappeared or lost members is listed as suppressed.
            let listed = Set(suppressed.suppressed.map(\.id))
            for original in plan.notifications {
                let now = suppressed.notifications.first { $0.id == original.id }
                if now?.reminders != original.reminders { #expect(listed.contains(original.id), "round \(round): \(original.id)") }
            }
            checkedPlans += 1
        }
        #expect(checkedPlans == 300)
    }

    @Test("two notifications sharing a numericId give a warning")
    func numericIDCollision() throws {
        // Search reminder ids whose 09:00 occurrence IDs collide in 31 bits (an independent
        // FNV-1a in Python finds the same first pair: r198824 and r568140).
        var seen: [UInt32: Int] = [:]
        var pair: (Int, Int)?
        for index in 0..<1_000_000 {
            let id = NotificationID.numericID(of: "r\(index)-20261123-0900")
            if let first = seen[id] {
                pair = (first, index)
                break
            }
            seen[id] = index
        }
        let (first, second) = try #require(pair)
        #expect(first == 198_824 && second == 568_140)
        let schedule = "<key>frequency</key><string>daily</string><key>times</key><array><string>09:00</string></array>"
        let plan = try compilePlan(
            reminderXML("r\(first)", schedule: schedule) + reminderXML("r\(second)", schedule: schedule),
            now: "2026-11-22T12:00:00Z", horizonDays: 1
        )
        #expect(plan.notifications.count == 2)
        #expect(plan.notifications[0].numericId == plan.notifications[1].numericId)
        #expect(plan.warnings.contains { $0.hasPrefix("numericId \(plan.notifications[0].numericId) is shared by") })
    }
}
