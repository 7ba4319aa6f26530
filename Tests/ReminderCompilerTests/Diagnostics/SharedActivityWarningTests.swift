import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// `lookbackSameDay` on a reminder whose activity another reminder has: one entry for
/// either silences it for the rest of the day, which `check` warns about.
@Suite("Shared activities with lookbackSameDay")
struct SharedActivityWarningTests {
    static let sameDay = "<key>activity</key><string>pill</string><key>lookbackSameDay</key><true/>"

    @Test("a morning and an evening pill sharing 'pill' with lookbackSameDay: one warning each, with a note at the other")
    func warned() throws {
        let morning = reminderXML("morning-pill", extra: Self.sameDay)
        let evening = reminderXML("evening-pill", schedule: "<key>frequency</key><string>daily</string><key>times</key><array><string>20:00</string></array>", extra: Self.sameDay)
        let result = check(configXML(reminders: morning + "\n" + evening))
        #expect(result.config != nil)
        let warnings = result.diagnostics.filter { $0.message.id == "config.same-day-shared-activity" }
        #expect(warnings.map(\.severity) == [.warning, .warning])
        #expect(warnings.first?.message.text
            == "reminder 'morning-pill' uses lookbackSameDay with the activity 'pill', which reminder 'evening-pill' also has: one entry for either silences 'morning-pill' for the rest of the day; give it an activity of its own, or add countsEntries to need one entry per slot")
        #expect(warnings.map { $0.notes.map(\.message.text) } == [["reminder 'evening-pill' has the same activity"], ["reminder 'morning-pill' has the same activity"]])
        // Each points at its own reminder's line, the note at the other's.
        #expect(warnings[0].location.line != warnings[1].location.line)
        #expect(warnings[0].notes.first?.location.line == warnings[1].location.line)
    }

    @Test("a config built in code gets the same warning, at key paths")
    func inCode() throws {
        let xml = configXML(reminders: reminderXML("morning-pill", extra: Self.sameDay) + "\n" + reminderXML("evening-pill", extra: "<key>activity</key><string>pill</string>"))
        var config = try #require(check(xml).config)
        config = PlistOrCodeTests.inCode(config)
        let warnings = config.validate().filter { $0.message.id == "config.same-day-shared-activity" }
        #expect(warnings.map(\.location.description) == ["reminders[0]"])
        #expect(warnings.first?.notes.map(\.location.description) == ["reminders[1]"])
    }

    @Test("nothing to warn about: an activity of its own, countsEntries, a look-back in hours, or a disabled partner", arguments: [
        ("<key>activity</key><string>pill-a</string><key>lookbackSameDay</key><true/>", "<key>activity</key><string>pill-b</string><key>lookbackSameDay</key><true/>"),
        ("<key>activity</key><string>pill</string><key>lookbackSameDay</key><true/><key>countsEntries</key><true/>",
         "<key>activity</key><string>pill</string><key>lookbackSameDay</key><true/><key>countsEntries</key><true/>"),
        ("<key>activity</key><string>pill</string><key>lookbackHours</key><integer>2</integer>", "<key>activity</key><string>pill</string>"),
        (SharedActivityWarningTests.sameDay, "<key>activity</key><string>pill</string><key>enabled</key><false/>"),
    ])
    func notWarned(first: String, second: String) throws {
        let result = check(configXML(reminders: reminderXML("a", extra: first) + "\n" + reminderXML("b", extra: second)))
        #expect(result.config != nil, "\(result.diagnostics.map(\.formatted))")
        #expect(!result.diagnostics.contains { $0.message.id == "config.same-day-shared-activity" }, "\(result.diagnostics.map(\.formatted))")
    }
}
