import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Valid inputs that silently do not do what they seem to get a warning (never an error).
@Suite("Warnings for silent surprises")
struct SurpriseWarningTests {
    let daily0900 = "<key>frequency</key><string>daily</string><key>times</key><array><string>09:00</string></array>"

    func warnings(_ result: CompileResult) -> [String] {
        #expect(result.plan != nil, "\(result.diagnostics.map(\.formatted))")
        return result.diagnostics.filter { $0.severity == .warning }.map(\.formatted)
    }

    @Test("an activity no reminder has is named at its first event, with a suggestion; past ten they are counted")
    func unusedActivity() throws {
        let events = """
        {"events": [
          {"activity": "walk", "at": "2026-11-22T06:00:00Z"},
          {"activity": "wlak", "at": "2026-11-22T06:10:00Z"},
          {"activity": "wlak", "at": "2026-11-22T06:20:00Z"}
        ]}
        """
        let found = warnings(try compileWithEvents(reminderXML("walk", schedule: daily0900), events: events, now: "2026-11-22T07:00:00Z"))
        #expect(found == ["e.json:3:3: warning: no reminder has the activity 'wlak', so its events suppress nothing; did you mean 'walk'?"])

        let many = (0..<12).map { #"{"activity": "other-\#($0)", "at": "2026-11-22T06:00:00Z"}"# }.joined(separator: ",\n")
        let counted = warnings(try compileWithEvents(reminderXML("walk", schedule: daily0900), events: "{\"events\": [\n\(many)]}", now: "2026-11-22T07:00:00Z"))
        #expect(counted.count == 11)
        #expect(counted.first == "e.json:2:1: warning: no reminder has the activity 'other-0', so its events suppress nothing")
        #expect(counted.last == "e.json:12:1: warning: and 2 more activities that no reminder has")
    }

    @Test("events dated after now: one warning at the first, with how many there are")
    func eventsAfterNow() throws {
        let events = """
        {"events": [
          {"activity": "walk", "at": "2026-11-22T06:00:00Z"},
          {"activity": "walk", "at": "2026-11-22T07:00:01Z"},
          {"occurrence": "walk-20261121-0900", "action": "snooze", "at": "2026-11-22T09:00:00Z"}
        ]}
        """
        let found = warnings(try compileWithEvents(reminderXML("walk", schedule: daily0900), events: events, now: "2026-11-22T07:00:00Z"))
        #expect(found == [
            "e.json:3:3: warning: this event is dated after now (2026-11-22T08:00:00+01:00) (2 events are, this is the first); planning counts it as already happened",
        ])
        let atNow = warnings(try compileWithEvents(
            reminderXML("walk", schedule: daily0900), events: #"{"events": [{"activity": "walk", "at": "2026-11-22T07:00:00Z"}]}"#,
            now: "2026-11-22T07:00:00Z"
        ))
        #expect(atNow.isEmpty)
    }

    @Test("timesPerDay slots that share minutes are a warning at the count", arguments: [(20, 11), (11, 11), (3, 3)])
    func collapsingTimesPerDay(count: Int, distinct: Int) throws {
        let schedule = "<key>frequency</key><string>daily</string><key>timesPerDay</key><integer>\(count)</integer>"
            + "<key>window</key><dict><key>from</key><string>09:00</string><key>until</key><string>09:10</string></dict>"
        let xml = configXML(reminders: reminderXML("water", schedule: schedule))
        let result = check(xml)
        // The warning points at the count's element.
        let lines = xml.components(separatedBy: "\n")
        let line = try #require(lines.firstIndex { $0.contains("<integer>\(count)</integer>") })
        let column = try #require(lines[line].range(of: "<integer>\(count)</integer>")).lowerBound.utf16Offset(in: lines[line]) + 1
        let found = result.diagnostics.map(\.formatted)
        #expect(result.config != nil)
        if distinct < count {
            #expect(found.count == 1)
            #expect(found.first?.hasSuffix("warning: timesPerDay \(count) between 09:00 and 09:10 gives only \(distinct) distinct times: slots fall on whole minutes") == true, "\(found)")
            #expect(found.first?.hasPrefix("c.plist:\(line + 1):\(column): ") == true, "\(found)")
        } else {
            #expect(found.isEmpty, "\(found)")
        }
        // What the warning claims is what the schedule expands to.
        #expect(result.config?.reminders.first?.schedule.timesOfDay.resolved.count == distinct)
    }

    @Test("two slots that a gap puts on one instant are named, with the instant")
    func slotsInAGap() throws {
        // Berlin skips from 02:00 to 03:00 on 28 March 2027.
        let twoSlots = "<key>frequency</key><string>daily</string><key>times</key><array><string>02:30</string><string>03:30</string></array>"
        let oneSlot = "<key>frequency</key><string>daily</string><key>times</key><array><string>02:30</string><string>04:00</string></array>"
        let result = try compileWithEvents(
            reminderXML("both", schedule: twoSlots) + reminderXML("alone", schedule: oneSlot), events: #"{"events": []}"#,
            now: "2027-03-26T12:00:00Z", horizonDays: 7
        )
        let found = warnings(result)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasSuffix("warning: reminder 'both': its slots 02:30 and 03:30 on 2027-03-28 all fire at 2027-03-28T03:30:00+02:00, as clocks skip that hour; the plan holds one notification for each") == true, "\(found)")
        // The plan does hold both, at one instant (beside the other reminder's moved 02:30).
        let atGap = result.plan?.notifications.filter { $0.fireAt.rfc3339 == "2027-03-28T03:30:00+02:00" }.map(\.id)
        #expect(atGap == ["alone-20270328-0230", "both-20270328-0230", "both-20270328-0330"])
        // Many coinciding slots are one warning per reminder, with how many more there are.
        let four = "<key>frequency</key><string>daily</string><key>times</key><array><string>02:30</string><string>02:45</string><string>03:30</string><string>03:45</string></array>"
        let counted = warnings(try compileWithEvents(
            reminderXML("four", schedule: four), events: #"{"events": []}"#, now: "2027-03-26T12:00:00Z", horizonDays: 400
        ))
        #expect(counted.count == 1, "\(counted)")
        #expect(counted.first?.contains("its slots 02:30 and 03:30 on 2027-03-28 all fire at 2027-03-28T03:30:00+02:00, as clocks skip that hour (and 3 more instants in this window where its slots coincide)") == true, "\(counted)")
        // Outside the window, no warning.
        let before = warnings(try compileWithEvents(
            reminderXML("both", schedule: twoSlots), events: #"{"events": []}"#, now: "2027-03-20T12:00:00Z", horizonDays: 7
        ))
        #expect(before.isEmpty, "\(before)")
    }

    @Test("a reminder with no slot in the window, but later ones, says when its next slot is")
    func noSlotInWindow() throws {
        let later = "<key>frequency</key><string>once</string><key>at</key><array><string>2027-06-01T09:00</string></array>"
        let startsLater = daily0900 + "<key>start</key><string>2027-01-10</string>"
        let ended = daily0900 + "<key>end</key><string>2026-01-01</string>"
        let todayOnlyPast = "<key>frequency</key><string>once</string><key>at</key><array><string>2026-11-22T07:00</string><string>2026-11-25T09:00</string></array>"
        let result = try compileWithEvents(
            reminderXML("later", schedule: later) + reminderXML("starts-later", schedule: startsLater)
                + reminderXML("ended", schedule: ended) + reminderXML("soon", schedule: todayOnlyPast)
                + reminderXML("daily", schedule: daily0900),
            events: #"{"events": []}"#, now: "2026-11-22T07:00:00Z", horizonDays: 30
        )
        let found = warnings(result).map { $0.components(separatedBy: "warning: ").last ?? $0 }
        #expect(found.sorted() == [
            "reminder 'ended' can never fire: its 'end' 2026-01-01 is before today (2026-11-22)",
            "reminder 'later' has no slot in this plan's window (until 2026-12-22T08:00:00+01:00); its next slot is on 2027-06-01",
            "reminder 'starts-later' has no slot in this plan's window (until 2026-12-22T08:00:00+01:00); its next slot is on 2027-01-10",
        ], "\(found)")
    }

    @Test("the CLI's chunked compile gives the same warnings as the library's whole plan")
    func chunkedPathWarnsToo() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("c.plist")
        let events = folder.appendingPathComponent("e.json")
        try configXML(reminders: reminderXML("walk", schedule: daily0900)).write(to: config, atomically: true, encoding: .utf8)
        try #"{"events": [{"activity": "wakl", "at": "2026-11-22T09:00:00Z"}]}"#.write(to: events, atomically: true, encoding: .utf8)
        let result = try await remindc("compile", config.path, "--events", events.path, "--now", "2026-11-22T08:00:00Z", "-o", folder.appendingPathComponent("p.json").path)
        #expect(result.status == 0)
        #expect(result.standardError.contains("e.json:1:13: warning: this event is dated after now"), "\(result.standardError)")
        #expect(result.standardError.contains("e.json:1:13: warning: no reminder has the activity 'wakl'"), "\(result.standardError)")
    }
}
