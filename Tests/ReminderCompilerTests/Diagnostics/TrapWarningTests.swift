import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Configs that are valid but almost certainly not meant: quiet hours that drop every
/// slot of a reminder, and follow-up chains that reach the reminder's next slot. Each
/// warning has an example under `examples/warnings/`, named after its ID.
@Suite("Warnings about configs that are valid but not meant")
struct TrapWarningTests {
    static let quietDrop = "<key>quietHours</key><dict><key>from</key><string>22:00</string><key>until</key><string>07:00</string><key>action</key><string>drop</string></dict>"
    static func daily(_ times: String...) -> String {
        "<key>frequency</key><string>daily</string><key>times</key><array>" + times.map { "<string>\($0)</string>" }.joined() + "</array>"
    }
    static func weekly(_ days: [String], _ times: String...) -> String {
        "<key>frequency</key><string>weekly</string><key>weekdays</key><array>" + days.map { "<string>\($0)</string>" }.joined()
            + "</array><key>times</key><array>" + times.map { "<string>\($0)</string>" }.joined() + "</array>"
    }
    static func followUp(after: Int, repeat count: Int = 1, every: Int? = nil) -> String {
        "<key>followUp</key><dict><key>afterMinutes</key><integer>\(after)</integer><key>repeat</key><integer>\(count)</integer>"
            + (every.map { "<key>everyMinutes</key><integer>\($0)</integer>" } ?? "") + "</dict>"
    }

    static func ids(_ result: CheckResult, _ id: String) -> [Diagnostic] {
        result.diagnostics.filter { $0.message.id == id }
    }

    @Test("each example under examples/warnings checks with exit 0 and exactly the warning it is named after, located in it")
    func examples() async throws {
        let folder = TestEnvironment.examples.appendingPathComponent("warnings")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".plist") }.sorted()
        #expect(files == ["follow-up-past-next-slot.plist", "quiet-hours-drop-every-slot.plist", "same-day-shared-activity.plist"])
        for file in files {
            let path = folder.appendingPathComponent(file).path
            let result = try await remindc("check", path, "--diagnostics-format", "json")
            #expect(result.status == 0, "\(file): \(result.standardError)")
            // The diagnostics go to standard error, as a JSON array.
            let diagnostics = try #require(try JSONSerialization.jsonObject(with: Data(result.standardError.utf8)) as? [[String: Any]], "\(file)")
            let id = "config." + file.replacingOccurrences(of: ".plist", with: "")
            #expect(!diagnostics.isEmpty && diagnostics.allSatisfy { $0["id"] as? String == id && $0["severity"] as? String == "warning" }, "\(file): \(diagnostics)")
            #expect(diagnostics.allSatisfy { ($0["line"] as? Int ?? 0) > 1 }, "\(file)")
        }
    }

    @Test("quiet hours that drop: a reminder whose every time lies inside them is warned about, with a note at the quiet hours")
    func quietHoursDropEverySlot() throws {
        let result = check(configXML(reminders: reminderXML("night", schedule: Self.daily("22:30", "06:45")), rootExtra: Self.quietDrop))
        let warnings = Self.ids(result, "config.quiet-hours-drop-every-slot")
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.text
            == "every time of reminder 'night' (06:45, 22:30) lies in the quiet hours 22:00–07:00, which drop what they hold: it is never delivered; give quietHours the action 'defer', move its times, or give the reminder quietHours false")
        #expect(warnings.first?.notes.map(\.message.text) == ["the quiet hours are here"])
        // The planner agrees: the window holds no notification of it, only suppressed ones.
        let config = try #require(result.config)
        let plan = try #require(ReminderCompiler.plan(config, options: CompileOptions(now: .instant(Self.now))).plan)
        #expect(plan.notifications.isEmpty)
        #expect(!plan.suppressed.isEmpty && plan.suppressed.allSatisfy { $0.reason == .quietHours })
    }

    static let now = InstantParsing.rfc3339("2026-11-22T08:00:00Z")!

    @Test("a follow-up the quiet hours hold as well leaves the reminder warned about")
    func quietFollowUp() throws {
        let result = check(configXML(reminders: reminderXML("night", schedule: Self.daily("23:00"), extra: Self.followUp(after: 30, repeat: 3, every: 30)), rootExtra: Self.quietDrop))
        #expect(Self.ids(result, "config.quiet-hours-drop-every-slot").count == 1, "\(result.diagnostics.map(\.formatted))")
    }

    @Test("nothing to warn about: quiet hours that defer, one time outside them, quietHours false, a critical reminder, a zone of its own, an exempt group member",
          arguments: [
            (TrapWarningTests.quietDrop.replacingOccurrences(of: ">drop<", with: ">defer<"), reminderXML("a", schedule: TrapWarningTests.daily("23:00"))),
            (TrapWarningTests.quietDrop, reminderXML("a", schedule: TrapWarningTests.daily("23:00", "08:00"))),
            // Its follow-up fires at 07:15, past the quiet hours.
            (TrapWarningTests.quietDrop, reminderXML("a", schedule: TrapWarningTests.daily("06:30"), extra: TrapWarningTests.followUp(after: 45))),
            // A critical follow-up is not held.
            (TrapWarningTests.quietDrop, reminderXML("a", schedule: TrapWarningTests.daily("23:00"),
                extra: "<key>followUp</key><dict><key>afterMinutes</key><integer>30</integer><key>interruptionLevel</key><string>critical</string></dict>")),
            (TrapWarningTests.quietDrop, reminderXML("a", schedule: TrapWarningTests.daily("23:00"), extra: "<key>quietHours</key><false/>")),
            (TrapWarningTests.quietDrop, reminderXML("a", schedule: TrapWarningTests.daily("23:00"), extra: "<key>interruptionLevel</key><string>critical</string>")),
            (TrapWarningTests.quietDrop, reminderXML("a", schedule: TrapWarningTests.daily("23:00"), extra: "<key>timeZone</key><string>America/New_York</string>")),
            (TrapWarningTests.quietDrop + "<key>groups</key><dict><key>night</key><dict></dict></dict>",
             reminderXML("a", schedule: TrapWarningTests.daily("23:00"), extra: "<key>group</key><string>night</string>") + "\n"
                + reminderXML("b", schedule: TrapWarningTests.daily("23:00"), extra: "<key>group</key><string>night</string><key>quietHours</key><false/>")),
          ])
    func quietHoursNotWarned(root: String, reminders: String) throws {
        let result = check(configXML(reminders: reminders, rootExtra: root))
        #expect(result.config != nil, "\(result.diagnostics.map(\.formatted))")
        #expect(Self.ids(result, "config.quiet-hours-drop-every-slot").isEmpty, "\(result.diagnostics.map(\.formatted))")
    }

    @Test("a follow-up chain that reaches the next slot is warned about, naming the slots and the minutes", arguments: [
        (TrapWarningTests.daily("08:00", "09:00", "20:00"), TrapWarningTests.followUp(after: 30, repeat: 3, every: 15), "run until 60 minutes after each slot, but its slot at 08:00 is followed by the next at 09:00, 60 minutes later"),
        (TrapWarningTests.daily("08:00", "20:00"), TrapWarningTests.followUp(after: 720), "run until 720 minutes after each slot, but its slot at 08:00 is followed by the next at 20:00, 720 minutes later"),
        // Every day: the last time's next slot is the first time of the next day.
        (TrapWarningTests.daily("06:00", "23:00"), TrapWarningTests.followUp(after: 420), "run until 420 minutes after each slot, but its slot at 23:00 is followed by the next at 06:00, 420 minutes later"),
        // A week of days: Monday night's next slot is Tuesday morning.
        (TrapWarningTests.weekly(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"], "08:00", "22:00"), TrapWarningTests.followUp(after: 660),
         "run until 660 minutes after each slot, but its slot at monday 22:00 is followed by the next at tuesday 08:00, 600 minutes later"),
        // One day a week: a chain of twelve days reaches the next Monday.
        (TrapWarningTests.weekly(["monday"], "08:00"), TrapWarningTests.followUp(after: 1440, repeat: 12, every: 1440),
         "run until 17280 minutes after each slot, but its slot at monday 08:00 is followed by the next at monday 08:00, 10080 minutes later"),
    ])
    func followUpPastNextSlot(schedule: String, followUp: String, text: String) throws {
        let result = check(configXML(reminders: reminderXML("drops", schedule: schedule, extra: followUp)))
        let warnings = Self.ids(result, "config.follow-up-past-next-slot")
        #expect(warnings.count == 1, "\(result.diagnostics.map(\.formatted))")
        #expect(warnings.first?.message.text.contains(text) == true, "\(warnings.map(\.message.text))")
    }

    @Test("nothing to warn about: a chain that ends before the next slot, or days between the slots", arguments: [
        (TrapWarningTests.daily("08:00", "09:00"), TrapWarningTests.followUp(after: 20, repeat: 2, every: 20)),
        (TrapWarningTests.daily("08:00"), TrapWarningTests.followUp(after: 1439)),
        (TrapWarningTests.weekly(["monday"], "08:00"), TrapWarningTests.followUp(after: 1440, repeat: 6, every: 1440)),
        // Every other day: the last time's next slot is two days later.
        ("<key>frequency</key><string>daily</string><key>interval</key><integer>2</integer><key>start</key><string>2026-11-01</string><key>times</key><array><string>20:00</string><string>08:00</string></array>",
         TrapWarningTests.followUp(after: 700)),
    ])
    func followUpNotWarned(schedule: String, followUp: String) throws {
        let result = check(configXML(reminders: reminderXML("drops", schedule: schedule, extra: followUp)))
        #expect(result.config != nil, "\(result.diagnostics.map(\.formatted))")
        #expect(Self.ids(result, "config.follow-up-past-next-slot").isEmpty, "\(result.diagnostics.map(\.formatted))")
    }
}
