import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Planning rules, "Events and suppression": overlapping snoozes (a member and its group, a notification and its
/// follow-up) resolve part by part to the latest `at`, whatever the IDs are called.
@Suite("Overlapping snoozes")
struct OverlappingSnoozeTests {
    /// Two grouped reminders `m` and `n` at 09:00 with a follow-up at 09:30, in group `group`.
    func groupedReminders(group: String) -> String {
        let extra = "<key>group</key><string>\(group)</string>"
            + "<key>followUp</key><dict><key>afterMinutes</key><integer>30</integer><key>title</key><string>Still due</string></dict>"
        return reminderXML("m", extra: extra) + reminderXML("n", extra: extra)
    }

    /// The snooze notifications of a plan made at 09:40 local, after snoozes (each 60
    /// minutes) on the given IDs at the given local minutes past 09:00.
    func snoozes(group: String, _ snoozed: [(id: String, minute: Int)], extraEvents: [String] = []) throws -> [String] {
        let events = snoozed.map { #"{"occurrence": "\#($0.id)", "action": "snooze", "at": "2026-11-22T09:\#(zeroPadded($0.minute, 2)):00+01:00", "minutes": 60}"# }
            + extraEvents
        let result = try compileWithEvents(
            groupedReminders(group: group), events: "{\"events\": [\(events.joined(separator: ",\n"))]}",
            now: "2026-11-22T08:40:00Z"
        )
        let plan = try #require(result.plan, "\(result.diagnostics.map(\.formatted))")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.formatted))")
        return plan.notifications.filter { $0.kind == .snooze }
            .map { "\($0.id) \($0.reminders.joined(separator: "+")) \($0.fireAt.rfc3339)" }
            .sorted()
    }

    @Test("a member snoozed after its group keeps its own snooze; the group's holds the rest", arguments: ["a", "z"])
    func memberAfterGroup(group: String) throws {
        let found = try snoozes(group: group, [("\(group)-20261122-0900", 2), ("m-20261122-0900", 5)])
        #expect(found == [
            "\(group)-20261122-0900-snooze n 2026-11-22T10:02:00+01:00",
            "m-20261122-0900-snooze m 2026-11-22T10:05:00+01:00",
        ].sorted())
    }

    @Test("a group snoozed after one of its members takes every member; the member's snooze is not added", arguments: ["a", "z"])
    func groupAfterMember(group: String) throws {
        let found = try snoozes(group: group, [("m-20261122-0900", 2), ("\(group)-20261122-0900", 5)])
        #expect(found == ["\(group)-20261122-0900-snooze m+n 2026-11-22T10:05:00+01:00"])
    }

    @Test("a follow-up snoozed after its notification keeps its own snooze; before it, the notification's snooze covers it", arguments: ["a", "z"])
    func notificationAndFollowUp(group: String) throws {
        let later = try snoozes(group: group, [("\(group)-20261122-0900", 2), ("\(group)-20261122-0900-followup", 35)])
        #expect(later == [
            "\(group)-20261122-0900-followup-snooze m+n 2026-11-22T10:35:00+01:00",
            "\(group)-20261122-0900-snooze m+n 2026-11-22T10:02:00+01:00",
        ])
        // The order of the events file does not matter either.
        let earlier = try snoozes(group: group, [("\(group)-20261122-0900", 36), ("\(group)-20261122-0900-followup", 35)])
        let reversed = try snoozes(group: group, [("\(group)-20261122-0900-followup", 35), ("\(group)-20261122-0900", 36)])
        #expect(earlier == ["\(group)-20261122-0900-snooze m+n 2026-11-22T10:36:00+01:00"])
        #expect(reversed == earlier)
    }

    @Test("at equal 'at', the greater snooze ID wins the shared parts")
    func equalInstants() throws {
        // "a-…-snooze" < "m-…-snooze" < "z-…-snooze".
        let first = try snoozes(group: "a", [("a-20261122-0900", 3), ("m-20261122-0900", 3)])
        #expect(first == ["a-20261122-0900-snooze n 2026-11-22T10:03:00+01:00", "m-20261122-0900-snooze m 2026-11-22T10:03:00+01:00"])
        let last = try snoozes(group: "z", [("z-20261122-0900", 3), ("m-20261122-0900", 3)])
        #expect(last == ["z-20261122-0900-snooze m+n 2026-11-22T10:03:00+01:00"])
    }

    @Test("done on a member keeps it out of every snooze that covers it")
    func doneBeatsSnoozes() throws {
        let found = try snoozes(
            group: "g", [("g-20261122-0900", 2), ("m-20261122-0900", 5)],
            extraEvents: [#"{"occurrence": "m-20261122-0900", "action": "done"}"#]
        )
        #expect(found == ["g-20261122-0900-snooze n 2026-11-22T10:02:00+01:00"])
    }

    /// Every snoozable ID of the slot, what it covers and which part its snooze holds:
    /// the obviously-correct reference of rule 3, part by part.
    struct Snoozable {
        let id: String
        let members: [String]
        let isFollowUp: Bool
    }

    @Test("random overlapping snoozes give what the part-by-part reference gives, under both group names")
    func againstReference() throws {
        var generator = SeededGenerator(seed: 0x5A00_2E)
        for _ in 0..<60 {
            // Distinct minutes, so the latest `at` alone decides.
            let minutes = Array(1...29).shuffled(using: &generator)
            let chosen = (0..<5).map { _ in Bool.random(using: &generator) }
            var expectedByName: [String: [String]] = [:]
            for group in ["a", "z"] {
                let snoozables = [
                    Snoozable(id: "\(group)-20261122-0900", members: ["m", "n"], isFollowUp: false),
                    Snoozable(id: "m-20261122-0900", members: ["m"], isFollowUp: false),
                    Snoozable(id: "n-20261122-0900", members: ["n"], isFollowUp: false),
                    Snoozable(id: "\(group)-20261122-0900-followup", members: ["m", "n"], isFollowUp: true),
                    Snoozable(id: "m-20261122-0900-followup", members: ["m"], isFollowUp: true),
                ]
                var snoozed: [(id: String, minute: Int)] = []
                for (index, snoozable) in snoozables.enumerated() where chosen[index] {
                    snoozed.append((snoozable.id, minutes[index]))
                }
                // The winner of each part (member, follow-up or not): the latest covering snooze.
                func winner(member: String, followUpPart: Bool) -> String? {
                    snoozed.filter { entry in
                        let snoozable = snoozables.first { $0.id == entry.id }!
                        return snoozable.members.contains(member) && (followUpPart || !snoozable.isFollowUp)
                    }.max { $0.minute < $1.minute }?.id
                }
                var expected: [String] = []
                for entry in snoozed {
                    let snoozable = snoozables.first { $0.id == entry.id }!
                    let held = snoozable.members.filter { winner(member: $0, followUpPart: snoozable.isFollowUp) == entry.id }
                    guard !held.isEmpty else { continue }
                    expected.append("\(entry.id)-snooze \(held.joined(separator: "+")) 2026-11-22T10:\(zeroPadded(entry.minute, 2)):00+01:00")
                }
                let found = try snoozes(group: group, snoozed)
                #expect(found == expected.sorted(), "\(snoozed)")
                expectedByName[group] = found.map { $0.replacingOccurrences(of: "\(group)-2026", with: "G-2026") }.sorted()
            }
            #expect(expectedByName["a"] == expectedByName["z"])
        }
    }
}
