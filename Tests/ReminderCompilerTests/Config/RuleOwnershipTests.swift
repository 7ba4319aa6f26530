import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// The decoder reads a file's shape and the validator owns every rule about values: value
/// errors of a part with shape errors are still reported in the same run, each at its
/// value, and a value the decoder refused gets no second message.
@Suite("Config rules: one owner each")
struct RuleOwnershipTests {
    /// `path:line:column: error: text` for each diagnostic, in file order.
    private func lines(_ xml: String) -> [String] {
        check(xml).diagnostics.map(\.formatted)
    }

    /// The 1-based line and column of the first `needle` in `text`.
    private func position(of needle: String, in text: String) throws -> String {
        let range = try #require(text.range(of: needle))
        let before = text[..<range.lowerBound]
        let line = before.count(where: { $0 == "\n" }) + 1
        let column = before.distance(from: before.lastIndex(of: "\n").map(before.index(after:)) ?? before.startIndex, to: before.endIndex) + 1
        return "c.plist:\(line):\(column)"
    }

    @Test("a reminder with a shape error still has its value errors reported, each at its value")
    func valueErrorsBesideShapeErrors() throws {
        let schedule = "<key>frequency</key><string>daily</string><key>times</key><array><string>09:00</string></array>"
            + "<key>interval</key><integer>0</integer>"
        let reminder = "<dict><key>id</key><string>a</string><key>title</key><integer>7</integer>"
            + "<key>durationMinutes</key><integer>-1</integer><key>schedule</key><dict>\(schedule)</dict></dict>"
        let xml = configXML(reminders: reminder)
        let found = lines(xml)
        #expect(found == [
            "\(try position(of: "<integer>7", in: xml)): error: 'title' must be a <string>, found <integer>",
            "\(try position(of: "<integer>-1", in: xml)): error: 'durationMinutes' is -1; expected 0–1440",
            "\(try position(of: "<integer>0", in: xml)): error: 'interval' is 0; expected 1–1000",
        ])
    }

    @Test("group members are compared even when another member has errors of its own")
    func groupRulesBesideOtherErrors() throws {
        let first = reminderXML(
            "a", extra: "<key>group</key><string>g</string><key>followUp</key><dict><key>afterMinutes</key><integer>10</integer></dict>"
                + "<key>durationMinutes</key><integer>5000</integer>"
        )
        let second = reminderXML("b", extra: "<key>group</key><string>g</string>")
        let ids = check(configXML(reminders: first + second)).diagnostics.map(\.message.id)
        #expect(ids.sorted() == ["config.group-follow-up", "config.range"])
    }

    @Test("a value the decoder refused gets no second message from a rule that reads it", arguments: [
        // No times at all: one message, not also "'times' must hold at least one entry".
        "<key>frequency</key><string>daily</string>",
        // An unknown frequency: no "does not apply" for the keys of another frequency.
        "<key>frequency</key><string>weeklyy</string><key>times</key><array><string>09:00</string></array><key>days</key><array><integer>3</integer></array>",
        // An unreadable start: no "interval needs start".
        "<key>frequency</key><string>daily</string><key>times</key><array><string>09:00</string></array><key>interval</key><integer>2</integer><key>start</key><string>soon</string>",
        // Unreadable days: no "needs days".
        "<key>frequency</key><string>monthly</string><key>times</key><array><string>09:00</string></array><key>days</key><string>1</string>",
        // A window that cannot be a range: its count is checked, nothing more is said of it.
        "<key>frequency</key><string>daily</string><key>timesPerDay</key><integer>3</integer><key>window</key><dict><key>from</key><string>10:00</string><key>until</key><string>09:00</string></dict>",
    ])
    func refusedValuesAreNotReportedAgain(_ schedule: String) {
        let diagnostics = check(configXML(reminders: reminderXML("a", schedule: schedule))).diagnostics
        #expect(diagnostics.count == 1, "\(diagnostics.map(\.formatted))")
    }

    @Test("a category whose value has the wrong type does not make its references unknown")
    func wrongTypedCategoryIsStillNamed() {
        let categories = "<key>categories</key><dict><key>dose</key><string>x</string></dict>"
        let reminder = reminderXML("a", extra: "<key>category</key><string>dose</string>")
        let ids = check(configXML(reminders: reminder, rootExtra: categories)).diagnostics.map(\.message.id)
        #expect(ids == ["config.type"])
    }

    @Test("a config built in code gets the same rules, named by key path")
    func sameRulesInCode() {
        var config = ReminderConfig(location: .inCode)
        config.timeZone = "Europe/Berlin"
        var schedule = Schedule(frequency: .daily)
        schedule.timesOfDay = .list([LocalTime(minuteOfDay: 540)].compactMap(\.self))
        schedule.interval = 0
        var reminder = Reminder(id: "a", title: "A", schedule: schedule)
        reminder.durationMinutes = -1
        config.reminders = [reminder]
        #expect(config.validate().map(\.formatted) == [
            "reminders[0].durationMinutes: error: 'durationMinutes' is -1; expected 0–1440",
            "reminders[0].schedule.interval: error: 'interval' is 0; expected 1–1000",
        ])
    }

    /// Messages of rules about values, which only the validator may give: a decoder that
    /// gave one again would be a second owner of its rule.
    static let validatorOwnedMessages = [
        ".emptyString(", ".invalidIdentifier(", ".invalidDomain(", ".unknownTimeZone(", ".unknownCategory(",
        ".duplicateReminderID(", ".duplicateActionID(", ".reminderIDIsGroupKey(", ".groupFollowUpDisagrees(",
        ".groupZonesDisagree(", ".unusedGroup(", ".reservedSlotsTooMany(", ".quietHoursEmpty(", ".intervalNeedsStart(",
        ".countNeedsStart(", ".countWithEnd", ".endBeforeStart(", ".needsDays(", ".yearlyNeedsMonths", ".invalidMonthDay(",
        ".timesCollapse(", ".surroundingSpaces(", ".noReminders", ".sameDayActivityShared(",
    ]

    @Test("no decoder source gives a message of a rule about values")
    func decodersGiveNoValueRuleMessages() throws {
        let folder = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../../Sources/ReminderCompiler/Config")
        let decoders = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix("Decoder.swift") }
        #expect(decoders.count == 4)
        for file in decoders {
            let text = try String(contentsOf: folder.appending(path: file), encoding: .utf8)
            for message in Self.validatorOwnedMessages {
                #expect(!text.contains(message), "\(file) gives \(message)")
            }
            // `FieldReader` checks a string's emptiness for the events reader; the config's
            // strings are the validator's to check.
            for line in text.split(separator: "\n") where line.contains("reader.string(") {
                #expect(!line.contains("nonEmpty"), "\(file): \(line)")
            }
            // The one range a decoder reports is a lookback no count of seconds can hold.
            #expect(text.components(separatedBy: ".outOfRange(").count - 1 == (file == "ReminderDecoder.swift" ? 1 : 0), "\(file)")
        }
    }
}
