import Foundation
import Testing
@_spi(Tooling) import ReminderCompiler

/// Sixty days of a user with three medications, in Berlin across the spring DST change and
/// then in New York. The app launches at random times and whenever the user acts; at each
/// launch it plans from everything logged so far and reconciles with a simulated iOS
/// notification centre. What the centre delivers must be what a straightforward reading of
/// the Planning rules say, exactly.
@Suite("A simulated device over sixty days")
struct DeviceSimulationTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let newYork = TimeZone(identifier: "America/New_York")!
    /// 2027-03-10T00:00:00Z.
    static let start: Int64 = 1_804_636_800
    static let end = start + 60 * 86_400
    /// The user lands in New York: 2027-04-20T13:00:00Z.
    static let move = start + 41 * 86_400 + 13 * 3600
    static let titles = ["med-a": "Aspirin", "med-b": "Vitamin D", "med-c": "Metformin"]

    static var config: ReminderConfig {
        let followUp = FollowUp(afterMinutes: 30)
        var config = ReminderConfig(timeZone: "Europe/Berlin", reminders: [
            Reminder(id: "med-a", title: "Aspirin", schedule: .daily(times: ["09:20"]), group: "morning",
                     lookback: .hours(4), followUp: followUp, category: "dose"),
            Reminder(id: "med-b", title: "Vitamin D", schedule: .weekly([.monday, .thursday], times: ["09:20"]), group: "morning",
                     lookback: .hours(4), followUp: followUp, category: "dose"),
            Reminder(id: "med-c", title: "Metformin", schedule: .daily(times: ["13:00", "19:00"]), lookback: .hours(4),
                     followUp: followUp, category: "dose"),
        ])
        config.groups["morning"] = GroupDefinition(title: "Morning medications", category: "dose")
        config.categories["dose"] = [NotificationAction(id: "snooze", title: "Snooze", snoozeMinutes: 10)]
        return config
    }

    /// One notification of the reference: due at a slot of the zone the user is in.
    struct Unit {
        let id: String
        let instant: Int64
        let members: [String]
    }

    enum Dose: CaseIterable { case early, onTime, late, never }
    enum Reaction { case none, snooze, skip }

    /// What the reference says is delivered: when, which ID, which members.
    struct Expected: Equatable, CustomStringConvertible {
        let at: Int64
        let id: String
        let members: [String]
        var description: String { "\(id) at \(at) \(members)" }
    }

    /// The slots of each day in a zone, with their instants (none of these times falls in
    /// a DST gap or repeated hour).
    static func units(in zone: TimeZone, from first: Int64, to last: Int64) -> [Unit] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var units: [Unit] = []
        var day = calendar.startOfDay(for: Date(timeIntervalSince1970: TimeInterval(first - 86_400)))
        while Int64(day.timeIntervalSince1970) <= last + 86_400 {
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: day)
            let stamp = String(format: "%04d%02d%02d", parts.year!, parts.month!, parts.day!)
            let mondayOrThursday = parts.weekday == 2 || parts.weekday == 5
            for (key, time, members) in [
                ("morning", "0920", mondayOrThursday ? ["med-a", "med-b"] : ["med-a"]),
                ("med-c", "1300", ["med-c"]), ("med-c", "1900", ["med-c"]),
            ] {
                var components = parts
                components.hour = Int(time.prefix(2))
                components.minute = Int(time.suffix(2))
                components.weekday = nil
                let instant = Int64(calendar.date(from: components)!.timeIntervalSince1970)
                if instant > first, instant <= last { units.append(Unit(id: "\(key)-\(stamp)-\(time)", instant: instant, members: members)) }
            }
            day = calendar.date(byAdding: .day, value: 1, to: day)!
        }
        return units
    }

    @Test("every due reminder is delivered once at its instant with current text; nothing suppressed is; pending stays within 64")
    func sixtyDays() throws {
        var random = SeededGenerator(seed: 0x60DA75)
        let units = Self.units(in: Self.berlin, from: Self.start, to: Self.move - 1)
            + Self.units(in: Self.newYork, from: Self.move - 1, to: Self.end)

        // The user's behaviour, drawn up front, and what the reference says follows from it.
        var userEvents: [(at: Int64, apply: (inout ReminderEvents) -> Void)] = []
        var expected: [Expected] = []
        for unit in units {
            var doses = unit.members.map { _ in Dose.allCases.randomElement(using: &random)! }
            let live = zip(unit.members, doses).filter { $0.1 != .early }.map(\.0)
            // Actions name IDs, which the move day has in both zones: none are taken that day.
            let canReact = !live.isEmpty && !doses.contains(.early) && !unit.id.contains("-20270420-")
            let roll = Int.random(in: 0..<10, using: &random)
            let reaction: Reaction = canReact && roll == 0 ? .snooze : canReact && roll == 1 ? .skip : .none
            if reaction == .snooze { doses = doses.map { $0 == .onTime ? .late : $0 } }
            for (member, dose) in zip(unit.members, doses) {
                let offset: Int64? = switch dose {
                case .early: -30 * 60
                case .onTime: 5 * 60
                case .late: 45 * 60
                case .never: nil
                }
                if let offset { userEvents.append((unit.instant + offset, { $0.logActivity(member, at: unit.instant + offset) })) }
            }
            if !live.isEmpty { expected.append(Expected(at: unit.instant, id: unit.id, members: live)) }
            switch reaction {
            case .snooze:
                let at = unit.instant + 120
                userEvents.append((at, { $0.record(.snooze(at: at, minutes: 10), occurrence: unit.id) }))
                expected.append(Expected(at: at + 600, id: unit.id + "-snooze", members: live))
                // The snooze keeps the follow-up, 30 minutes after it: every live dose is
                // late (45 minutes after the slot) or never taken, so none is logged by then.
                expected.append(Expected(at: at + 600 + 1800, id: unit.id + "-snooze-followup", members: live))
            case .skip:
                userEvents.append((unit.instant + 180, { $0.record(.skip, occurrence: unit.id) }))
            case .none:
                let followed = zip(unit.members, doses).filter { $0.1 == .late || $0.1 == .never }.map(\.0)
                if !followed.isEmpty { expected.append(Expected(at: unit.instant + 1800, id: unit.id + "-followup", members: followed)) }
            }
        }
        expected = expected.filter { $0.at > Self.start && $0.at <= Self.end }.sorted { ($0.at, $0.id) < ($1.at, $1.id) }

        // The app launches at the start, when the user lands, whenever the user acts, and
        // once or twice a day at random.
        var launches = Set([Self.start, Self.move] + userEvents.map(\.at))
        for day in 0..<60 {
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                launches.insert(Self.start + Int64(day) * 86_400 + Int64.random(in: 0..<86_400, using: &random))
            }
        }
        var center = NotificationCenterSimulator(capacity: 64, now: Self.start)
        var events = ReminderEvents()
        var coveredUntil: Int64?
        var launchCount = 0
        var mostPending = 0
        let config = Self.config
        for launch in launches.sorted() where launch <= Self.end {
            center.advance(to: launch)
            for event in userEvents where event.at == launch { event.apply(&events) }
            if let coveredUntil { #expect(launch <= coveredUntil, "coverage lapsed before the launch at \(launch)") }
            let zone = launch >= Self.move ? Self.newYork : Self.berlin
            let result = ReminderCompiler.plan(
                config, options: CompileOptions(now: Date(timeIntervalSince1970: TimeInterval(launch)), timeZone: zone), events: events
            )
            let plan = try #require(result.plan, "\(result.diagnostics.map(\.formatted))")
            let changes = plan.reconcile(pending: center.pendingNotifications)
            center.remove(changes.remove)
            for notification in changes.add { center.add(notification) }
            #expect(center.pending.count <= 64)
            // After reconciling, the centre holds exactly the plan.
            #expect(center.pendingNotifications.map(\.id).sorted() == plan.notifications.map(\.id).sorted())
            mostPending = max(mostPending, center.pending.count)
            coveredUntil = plan.coveredUntil.seconds
            launchCount += 1
        }
        center.advance(to: Self.end)

        let delivered = center.delivered.filter { $0.at > Self.start }.map {
            Expected(at: $0.at, id: $0.notification.id, members: $0.notification.reminders)
        }
        #expect(center.dropped.isEmpty)
        #expect(delivered.count == expected.count)
        for (found, wanted) in zip(delivered, expected) where found != wanted {
            Issue.record("delivered \(found), expected \(wanted)")
            break
        }
        let deliveredAsExpected = delivered == expected
        #expect(deliveredAsExpected)
        // No delivered notification shows stale text: one member shows its own title, two
        // the group's.
        for delivery in center.delivered {
            let members = delivery.notification.reminders
            let title = members.count > 1 ? "Morning medications" : Self.titles[members[0]]
            #expect(delivery.notification.title == title, "\(delivery.notification.id)")
        }
        // The run exercised what it claims to: both zones, every outcome, a full centre.
        #expect(expected.contains { $0.id.hasSuffix("-snooze") } && expected.contains { $0.id.hasSuffix("-followup") })
        #expect(delivered.contains { $0.at > Self.move } && delivered.contains { $0.at < Self.move })
        #expect(mostPending == 64)
        #expect(launchCount > 200)
    }
}
