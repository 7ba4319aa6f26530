import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

extension LongComputationTests {
    /// Counted goals and nag chains (Planning rules, "Counted goals", "Follow-ups and nag chains") against a slow reference: the schedules are
    /// expanded by `ReferenceExpander`, and every rule is applied by walking the events one by
    /// one, per member and per notification, without the planner's units, removals or
    /// binary searches.
    @Suite("Counted goals and nag chains against a reference")
    struct CountedGoalsAndChainsPropertyTests {
        /// A random config whose reminders use look-backs of every kind, `countsEntries`, and
        /// follow-up chains (shared by the members of a group, as validation requires).
        static func config(_ generator: inout PlanScenarioGenerator, around center: CivilDate) -> ReminderConfig {
            var config = generator.config(around: center)
            // Quiet hours have a reference of their own (QuietHoursTests).
            config.quietHours = nil
            var chains: [String: FollowUp?] = [:]
            for index in config.reminders.indices {
                let key = config.reminders[index].group ?? config.reminders[index].id
                if chains[key] == nil {
                    chains[key] = generator.random.chance(70)
                        ? FollowUp(
                            afterMinutes: generator.random.int(1...90), repeatCount: generator.random.int(1...4),
                            everyMinutes: generator.random.chance(50) ? generator.random.int(1...60) : nil
                        )
                        : .some(nil)
                }
                config.reminders[index].followUp = chains[key] ?? nil
                switch generator.random.int(0...3) {
                case 0: config.reminders[index].lookback = .seconds(generator.random.int(1...24) * 1800)
                case 1: config.reminders[index].lookback = .sameDay
                case 2: config.reminders[index].lookback = .sameDayCounted
                default: config.reminders[index].lookback = nil
                }
            }
            return config
        }

        /// One part of a notification: a member, and which notification (0 the parent, n the
        /// n-th follow-up).
        struct Part: Hashable {
            let parentID: String
            let member: String
            let link: Int
        }

        @Test("every notification, follow-up and suppression equals the reference's", .timeLimit(.minutes(3)))
        func againstReference() async throws {
            var generator = PlanScenarioGenerator(seed: 1513)
            var checked = (notifications: 0, counted: 0, chained: 0, suppressedByCount: 0)
            for round in 0..<200 {
                await Task.yield()  // let tests that await a child process have a thread
                let center = CivilDate(dayNumber: generator.random.int(19_500...21_000))
                var config = Self.config(&generator, around: center)
                config.pendingLimit = 0
                let now = Int64(center.dayNumber) * 86_400 + Int64(generator.random.int(0...86_399))
                let horizon = generator.random.int(1...6)
                let windowEnd = now + Int64(horizon) * 86_400
                // Each reminder's slots are read in its own zone when it pins one.
                var references: [String: ReferenceExpander] = [:]
                func reference(for reminder: Reminder) -> ReferenceExpander {
                    let zone = reminder.timeZone ?? config.timeZone!
                    if let known = references[zone] { return known }
                    let made = ReferenceExpander(zone: zone)
                    references[zone] = made
                    return made
                }
                let options = CompileOptions(now: .instant(now), horizonDays: horizon, pendingLimit: 0)

                // The reference's parts: every slot of every reminder from two days before `now`
                // (chains reach back at most 4 × 90 minutes) to the day after the window.
                struct Expected {
                    var fireAt: Int64
                    var slot: LocalDateTime
                    var members: [String: Slot] = [:]
                }
                var expected: [String: Expected] = [:]
                let firstDate = CivilDate(dayNumber: Int(now.floorDivided(by: 86_400)) - 2)
                let lastDate = CivilDate(dayNumber: Int(windowEnd.floorDivided(by: 86_400)) + 1)
                var slotsByReminderAndDate: [String: [CivilDate: [Slot]]] = [:]
                for reminder in config.reminders where reminder.enabled {
                    for slot in reference(for: reminder).slots(reminder.schedule, from: firstDate.adding(days: -1), through: lastDate.adding(days: 1)) {
                        slotsByReminderAndDate[reminder.id, default: [:]][slot.local.date, default: []].append(slot)
                        guard slot.local.date >= firstDate else { continue }
                        let parentID = NotificationID.occurrence(reminder.group ?? reminder.id, slot: slot.local)
                        var instants = [(parentID, slot.instant)]
                        if let followUp = reminder.followUp {
                            var delay = followUp.afterMinutes
                            for link in 1...followUp.repeatCount {
                                instants.append((link == 1 ? parentID + "-followup" : parentID + "-followup-\(link)", slot.instant + Int64(delay) * 60))
                                delay += followUp.everyMinutes ?? followUp.afterMinutes
                            }
                        }
                        for (id, instant) in instants where instant > now && instant <= windowEnd {
                            expected[id, default: Expected(fireAt: instant, slot: slot.local)].members[reminder.id] = slot
                        }
                    }
                }
                let baseline = try #require(ReminderCompiler.plan(config, options: options).plan, "round \(round)")
                #expect(Set(baseline.notifications.map(\.id)) == Set(expected.keys), "round \(round)")
                for notification in baseline.notifications {
                    #expect(notification.fireAt.seconds == expected[notification.id]?.fireAt, "round \(round): \(notification.id)")
                    #expect(notification.reminders == expected[notification.id]?.members.keys.sorted(), "round \(round): \(notification.id)")
                    if notification.id.contains("-followup-") { checked.chained += 1 }
                }

                // Events: activities around the window, and done/skip on parents, members and
                // chain members.
                var events = ReminderEvents()
                for _ in 0..<generator.random.int(0...30) {
                    events.activities["act\(generator.random.int(0...2))", default: []].append(now + Int64(generator.random.int(-86_400...(horizon * 86_400))))
                }
                for activity in events.activities.keys { events.activities[activity]?.sort() }
                var named: [(id: String, action: OccurrenceAction.Kind)] = []
                for notification in baseline.notifications where generator.random.chance(8) {
                    var id = notification.id
                    if generator.random.chance(50), notification.reminders.count > 1 || notification.kind == .group,
                       let reference = OccurrenceReference(notification.parent ?? notification.id)
                    {
                        // A member of the group, at the notification's own link.
                        let member = NotificationID.occurrence(notification.reminders[0], slot: reference.slot)
                        let suffix = notification.parent.map { String(notification.id.dropFirst($0.count)) } ?? ""
                        id = member + suffix
                    }
                    let action: OccurrenceAction.Kind = generator.random.chance(50) ? .done : .skip
                    named.append((id, action))
                    events.record(action, occurrence: id)
                }
                let withEvents = try #require(ReminderCompiler.plan(config, options: options, events: events).plan, "round \(round)")

                // The reference's verdict for each part.
                let reminders = Dictionary(uniqueKeysWithValues: config.reminders.map { ($0.id, $0) })
                func midnight(_ date: CivilDate, of reminder: Reminder) -> Int64 {
                    let (year, month, day) = date.components
                    return reference(for: reminder).instant(year: year, month: month, day: day, minuteOfDay: 0).instant
                }
                func removedByEvent(parentID: String, member: String, link: Int) -> Bool {
                    named.contains { event in
                        guard let target = OccurrenceReference(event.id) else { return false }
                        let eventParent = NotificationID.occurrence(target.key, slot: target.slot)
                        let memberParent = reminders[member].map { NotificationID.occurrence($0.group ?? $0.id, slot: target.slot) }
                        let namesParent = eventParent == parentID || (target.key == member && memberParent == parentID)
                        return namesParent && (target.followUpMember == 0 || (link > 0 && link >= target.followUpMember))
                    }
                }
                func removedByActivity(member: String, slot: Slot, at instant: Int64) -> (Bool, counted: Bool) {
                    guard let reminder = reminders[member], let lookback = reminder.lookback else { return (false, false) }
                    let entries = events.activities[reminder.activity] ?? []
                    switch lookback {
                    case .seconds(let seconds):
                        return (entries.contains { $0 >= slot.instant - Int64(seconds) && $0 <= instant }, false)
                    case .sameDay:
                        let start = midnight(slot.local.date, of: reminder)
                        return (entries.contains { $0 >= start && $0 <= instant }, false)
                    case .sameDayCounted:
                        let start = midnight(slot.local.date, of: reminder)
                        let day = slotsByReminderAndDate[member]?[slot.local.date] ?? []
                        let place = 1 + day.filter { ($0.instant, $0.local) < (slot.instant, slot.local) }.count
                        return (entries.filter { $0 >= start && $0 <= instant }.count >= place, true)
                    }
                }
                var expectedLive: [String: [String]] = [:]
                for notification in baseline.notifications {
                    let parentID = notification.parent ?? notification.id
                    let link = notification.parent == nil ? 0 : OccurrenceReference(notification.id)?.followUpMember ?? -1
                    let live = notification.reminders.filter { member in
                        guard let slot = expected[notification.id]?.members[member] else { return false }
                        if removedByEvent(parentID: parentID, member: member, link: link) { return false }
                        let (removed, counted) = removedByActivity(member: member, slot: slot, at: notification.fireAt.seconds)
                        if counted { checked.counted += 1 }
                        if counted && removed { checked.suppressedByCount += 1 }
                        return !removed
                    }
                    if !live.isEmpty { expectedLive[notification.id] = live }
                }
                let found = Dictionary(uniqueKeysWithValues: withEvents.notifications.map { ($0.id, $0.reminders) })
                #expect(found == expectedLive, "round \(round)")
                checked.notifications += baseline.notifications.count
            }
            // The generator reaches every rule often (yearly and counted schedules, which fire
            // rarely in a short window, take a part of its draws).
            #expect(checked.notifications > 2_500, "\(checked)")
            #expect(checked.chained > 800, "\(checked)")
            #expect(checked.counted > 400 && checked.suppressedByCount > 25, "\(checked)")
        }
    }
}

/// `CountedGoalsAndChainsPropertyTests` under its short name, for the tests of other suites.
typealias CountedGoalsAndChainsPropertyTests = LongComputationTests.CountedGoalsAndChainsPropertyTests
