import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

extension LongComputationTests {
    /// The warnings about shared numericIds against the obvious reference: walk the plan in
    /// order, remember the first ID of each number, and name every later one. The planner
    /// finds them without keeping every ID: it notes numbers with their day and reminder,
    /// and drafts again only those reminders on those days.
    @Suite("Shared numericIds against a reference")
    struct NumericIDCollisionReferenceTests {
        @Test("a plan of 100 000 notifications: every shared number, and only those, with its first ID", .timeLimit(.minutes(3)))
        func againstReference() throws {
            // 300 reminders, every tenth in a group with the next, every seventh with a
            // follow-up, eleven times a day over 30 days: enough IDs for several 31-bit
            // numbers to repeat.
            var reminders = ""
            for index in 0..<300 {
                let times = (0..<11).map { "<string>\(String(format: "%02d", 7 + $0)):\(index % 2 == 0 ? "05" : "35")</string>" }.joined()
                var extra = index % 10 == 0 || index % 10 == 1 ? "<key>group</key><string>pair-\(index / 10)</string>" : ""
                if index % 7 == 0, extra.isEmpty { extra += "<key>followUp</key><dict><key>afterMinutes</key><integer>20</integer></dict>" }
                reminders += reminderXML("reminder-\(index)", schedule: "<key>frequency</key><string>daily</string><key>times</key><array>\(times)</array>", extra: extra)
            }
            let xml = configXML(reminders: reminders, rootExtra: "<key>horizonDays</key><integer>30</integer><key>pendingLimit</key><integer>0</integer>\n")
            let config = try #require(check(xml).config)
            let result = ReminderCompiler.plan(config, options: CompileOptions(now: .instant(fixedNow)))
            let plan = try #require(result.plan)
            #expect(plan.notifications.count > 90_000)

            var first: [UInt32: String] = [:]
            var expected: [String] = []
            for notification in plan.notifications {
                if let earlier = first[notification.numericId] {
                    expected.append("numericId \(notification.numericId) is shared by '\(earlier)' and '\(notification.id)'")
                } else {
                    first[notification.numericId] = notification.id
                }
            }
            let found = plan.warnings.filter { $0.hasPrefix("numericId ") }
            // A test that finds nothing to compare proves nothing: this config repeats numbers.
            #expect(expected.count >= 1)
            #expect(found.sorted() == expected.sorted())
        }
    }
}
