import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Compiles `reminders` with `events` (JSON or plist text) at `now`; returns the result.
func compileWithEvents(
    _ reminders: String, events: String, zone: String = "Europe/Berlin", now: String, rootExtra: String = "",
    horizonDays: Int = 3
) throws -> CompileResult {
    let xml = configXML(reminders: reminders, rootExtra: rootExtra, timeZone: zone)
    let instant = try #require(InstantParsing.rfc3339(now))
    return ReminderCompiler.compile(
        Array(xml.utf8), path: "c.plist", options: CompileOptions(now: .instant(instant), horizonDays: horizonDays, pendingLimit: 0),
        events: (Array(events.utf8), "e.json")
    )
}

private let daily0900 = "<key>frequency</key><string>daily</string><key>times</key><array><string>09:00</string></array>"
private let followUp30 = "<key>followUp</key><dict><key>afterMinutes</key><integer>30</integer><key>title</key><string>Still due</string></dict>"

@Suite("Events files")
struct EventsFileTests {
    func diagnostics(_ text: String) -> [String] {
        var collector = DiagnosticCollector()
        _ = ReminderCompiler.readEvents(Array(text.utf8), path: "e.json", diagnostics: &collector)
        return collector.sorted.map(\.formatted)
    }

    /// Found by the events fuzzer: the reader's own errors inside streamed entries did not
    /// keep the events from being returned.
    @Test("an entry the JSON reader itself refuses (a number past 64 bits) gives no events, only errors")
    func readerErrorInsideEntry() {
        let (events, diagnostics) = ReminderCompiler.readEvents(
            Array("{\n\n  \"events\":[\n 11006845944333921411526,111111111111111111111]\n}\n".utf8), path: "e.json"
        )
        #expect(events == nil)
        #expect(diagnostics.map(\.formatted) == [
            "e.json:4:2: error: integer '11006845944333921411526' does not fit in 64 bits",
            "e.json:4:26: error: integer '111111111111111111111' does not fit in 64 bits",
        ])
    }

    @Test("JSON and plist events are read alike, instants as RFC 3339 or plist dates")
    func bothFormats() throws {
        var collector = DiagnosticCollector()
        let json = try #require(ReminderCompiler.readEvents(Array("""
        {"events": [{"activity": "walk", "at": "2026-11-22T09:00:00+01:00"},
                    {"occurrence": "a-20261122-0900", "action": "snooze", "at": "2026-11-22T08:05:00Z", "minutes": 5}]}
        """.utf8), path: "e.json", diagnostics: &collector))
        let plist = try #require(ReminderCompiler.readEvents(Array("""
        <plist><dict><key>events</key><array>
        <dict><key>activity</key><string>walk</string><key>at</key><date>2026-11-22T08:00:00Z</date></dict>
        <dict><key>occurrence</key><string>a-20261122-0900</string><key>action</key><string>snooze</string>
        <key>at</key><string>2026-11-22T09:05:00+01:00</string><key>minutes</key><integer>5</integer></dict>
        </array></dict></plist>
        """.utf8), path: "e.plist", diagnostics: &collector))
        #expect(collector.diagnostics.isEmpty)
        #expect(json.activities == plist.activities)
        #expect(json.activities["walk"] == [1_795_334_400])
        #expect(json.actions.map(\.kind) == plist.actions.map(\.kind))
        #expect(json.actions.first?.kind == .snooze(at: 1_795_334_700, minutes: 5))
    }

    @Test("malformed events are located errors", arguments: [
        ("{\"events\": [\n  {\"activity\": \"walk\", \"at\": \"yesterday\"}\n]}", "e.json:2:30: error: 'yesterday' is not an instant"),
        ("{\"events\": [\n  {\"activity\": \"walk\"}\n]}", "e.json:2:3: error: this event is missing the required key 'at'"),
        ("{\"events\": [\n  {\"occurrence\": \"a-20261122-0900\", \"action\": \"dnoe\"}\n]}", "e.json:2:47: error: unknown action 'dnoe'; expected one of 'done', 'skip', 'snooze'; did you mean 'done'?"),
        ("{\"events\": [\n  {\"activty\": \"walk\", \"at\": \"2026-11-22T09:00:00Z\"}\n]}", "e.json:2:4: error: unknown key 'activty' in this event; did you mean 'activity'?"),
        ("{\"events\": [\n  {\"occurrence\": \"a-20261122-0900\", \"action\": \"done\", \"minutes\": 5}\n]}", "e.json:2:55: error: 'minutes' does not apply to a 'done' event"),
        ("{\"events\": [\n  {\"activity\": \"walk\", \"at\": \"2026-11-22T09:00:00Z\",}\n]}", "e.json:2:53: error: malformed JSON: expected a member name in quotes"),
        ("{\"events\": [\n  {\"activity\": \"walk\", \"activity\": \"run\", \"at\": \"2026-11-22T09:00:00Z\"}\n]}", "e.json:2:24: error: duplicate key 'activity'"),
        ("{\"formatVersion\": 2, \"events\": []}", "e.json:1:19: error: events formatVersion 2 is not supported; expected 1"),
        ("[]", "e.json:1:1: error: an events file must be a dict (plist) or an object (JSON) with the key 'events'"),
        ("{\"events\": [{\"activity\": null}]}", "e.json:1:26: error: null is not allowed here"),
        ("{\"events\": \"none\"}", "e.json:1:12: error: 'events' must be an <array>, found <string>"),
        ("", "e.json:1:1: error: malformed JSON: unexpected end of input; expected a value"),
    ])
    func malformed(_ text: String, _ expected: String) {
        let found = diagnostics(text)
        #expect(found.contains { $0.hasPrefix(expected) }, "\(found)")
    }

    @Test("JSON strings: escapes and surrogate pairs; numbers: integers and reals")
    func jsonValues() throws {
        var collector = DiagnosticCollector()
        let node = try #require(JSONReader().read(
            Array(#"{"a": "caf\u00e9 \ud83d\udca1 \"q\" \\ \n", "b": -12, "c": 2.5e1, "d": [true, false]}"#.utf8),
            path: "x.json", diagnostics: &collector
        ))
        #expect(collector.diagnostics.isEmpty)
        guard case .dictionary(let object) = node.value,
              case .string(let text)? = object["a"]?.value.value,
              case .integer(-12)? = object["b"]?.value.value,
              case .real(25)? = object["c"]?.value.value
        else { Issue.record("unexpected JSON tree"); return }
        #expect(text == "café 💡 \"q\" \\ \n")
    }

    @Test("compile reports errors in the events file with its path, and writes no plan")
    func compileWithBrokenEvents() throws {
        let result = try compileWithEvents(reminderXML("a", schedule: daily0900), events: "{\"events\": [1]}", now: "2026-11-22T07:00:00Z")
        #expect(result.plan == nil)
        #expect(result.diagnostics.map(\.formatted) == ["e.json:1:13: error: 'event' must be a <dict>, found <integer>"])
    }
}

@Suite("Suppression and snoozes")
struct SuppressionTests {
    func plan(_ reminders: String, _ events: String, now: String = "2026-11-22T07:00:00Z", zone: String = "Europe/Berlin",
              rootExtra: String = "") throws -> Plan {
        let result = try compileWithEvents(reminders, events: "{\"events\": [\(events)]}", zone: zone, now: now, rootExtra: rootExtra)
        return try #require(result.plan, "\(result.diagnostics.map(\.formatted))")
    }

    @Test("done on a follow-up ID removes only the follow-up")
    func doneOnFollowUp() throws {
        let plan = try plan(reminderXML("a", schedule: daily0900, extra: followUp30), #"{"occurrence": "a-20261122-0900-followup", "action": "done"}"#)
        #expect(plan.notifications.map(\.id).prefix(2) == ["a-20261122-0900", "a-20261123-0900"])
        #expect(plan.suppressed.map(\.id) == ["a-20261122-0900-followup"])
    }

    @Test("snoozing a follow-up gives a snooze with the follow-up's texts, and removes the follow-up")
    func snoozeFollowUp() throws {
        let plan = try plan(
            reminderXML("a", schedule: daily0900, extra: followUp30),
            #"{"occurrence": "a-20261122-0900-followup", "action": "snooze", "at": "2026-11-22T09:31:00+01:00", "minutes": 20}"#,
            now: "2026-11-22T08:31:30Z"
        )
        let snooze = try #require(plan.notifications.first)
        #expect(snooze.id == "a-20261122-0900-followup-snooze")
        #expect(snooze.parent == "a-20261122-0900-followup")
        #expect(snooze.title == "Still due")
        #expect(snooze.fireAt.rfc3339 == "2026-11-22T09:51:00+01:00")
    }

    @Test("snoozing twice: the latest 'at' wins; an event on the snooze is an event on its parent")
    func snoozeTwiceAndDoneOnSnooze() throws {
        let twice = try plan(reminderXML("a", schedule: daily0900), """
        {"occurrence": "a-20261122-0900", "action": "snooze", "at": "2026-11-22T09:20:00+01:00"},
        {"occurrence": "a-20261122-0900-snooze", "action": "snooze", "at": "2026-11-22T09:31:00+01:00"},
        {"occurrence": "a-20261122-0900", "action": "snooze", "at": "2026-11-22T09:01:00+01:00"}
        """, now: "2026-11-22T08:40:00Z")
        // No category: 10 minutes.
        #expect(twice.notifications.first?.id == "a-20261122-0900-snooze")
        #expect(twice.notifications.first?.fireAt.rfc3339 == "2026-11-22T09:41:00+01:00")
        let done = try plan(reminderXML("a", schedule: daily0900), """
        {"occurrence": "a-20261122-0900", "action": "snooze", "at": "2026-11-22T09:20:00+01:00"},
        {"occurrence": "a-20261122-0900-snooze", "action": "done"}
        """, now: "2026-11-22T08:25:00Z")
        #expect(!done.notifications.contains { $0.id.hasSuffix("-snooze") })
    }

    @Test("a member ID of a group snoozes as a single-member notification without group")
    func snoozeMemberOfGroup() throws {
        let reminders = reminderXML("a", schedule: daily0900, extra: "<key>group</key><string>g</string>")
            + reminderXML("b", schedule: daily0900, extra: "<key>group</key><string>g</string>")
        let plan = try plan(reminders, #"{"occurrence": "b-20261122-0900", "action": "snooze", "at": "2026-11-22T09:02:00+01:00"}"#,
                            now: "2026-11-22T07:00:00Z")
        let group = try #require(plan.notifications.first { $0.id == "g-20261122-0900" })
        #expect(group.reminders == ["a"])
        #expect(group.title == "Title a")
        let snooze = try #require(plan.notifications.first { $0.id == "b-20261122-0900-snooze" })
        #expect(snooze.group == nil)
        #expect(snooze.reminders == ["b"])
        #expect(snooze.fireAt.rfc3339 == "2026-11-22T09:12:00+01:00")
    }

    @Test("a snooze of yesterday's delivered notification is resolved from the config")
    func snoozeOutsideTheWindow() throws {
        let plan = try plan(reminderXML("a", schedule: daily0900), #"{"occurrence": "a-20261115-0900", "action": "snooze", "at": "2026-11-22T07:59:00+01:00", "minutes": 30}"#)
        let snooze = try #require(plan.notifications.first)
        #expect(snooze.id == "a-20261115-0900-snooze")
        #expect(snooze.slot.description == "2026-11-15T09:00")
        #expect(snooze.fireAt.rfc3339 == "2026-11-22T08:29:00+01:00")
    }

    @Test("IDs of slots a schedule does not have are warnings, never errors")
    func unknownIDs() throws {
        let result = try compileWithEvents(reminderXML("a", schedule: daily0900), events: """
        {"events": [{"occurrence": "a-20261122-0930", "action": "done"}, {"occurrence": "zzz", "action": "skip"},
                    {"occurrence": "nobody-20261122-0900", "action": "done"},
                    {"occurrence": "a-20261122-0900-followup", "action": "snooze", "at": "2026-11-22T07:30:00+01:00"}]}
        """, now: "2026-11-22T07:00:00Z")
        #expect(result.plan != nil)
        // The last names the follow-up of a reminder that has none.
        #expect(result.diagnostics.filter { $0.severity == .warning }.count == 4)
        #expect(result.plan?.warnings.count == 4)
        #expect(result.plan?.notifications.first?.id == "a-20261122-0900")
    }

    @Test("lookbackSameDay counts from local midnight, or from the first instant when midnight is in a gap")
    func sameDayFromMidnight() throws {
        // Havana: clocks jump from 00:00 to 01:00 on 8 March 2026; the day starts at 05:00Z.
        let reminder = reminderXML("a", schedule: daily0900, extra: "<key>lookbackSameDay</key><true/>")
        let atStart = try plan(reminder, #"{"activity": "a", "at": "2026-03-08T05:00:00Z"}"#, now: "2026-03-08T04:00:00Z", zone: "America/Havana")
        #expect(!atStart.notifications.contains { $0.id == "a-20260308-0900" })
        let justBefore = try plan(reminder, #"{"activity": "a", "at": "2026-03-08T04:59:59Z"}"#, now: "2026-03-08T04:00:00Z", zone: "America/Havana")
        #expect(justBefore.notifications.contains { $0.id == "a-20260308-0900" })
    }

    @Test("a follow-up is suppressed by an activity between its parent and itself")
    func followUpWindow() throws {
        let reminder = reminderXML("a", schedule: daily0900, extra: followUp30 + "<key>lookbackHours</key><integer>1</integer>")
        let plan = try plan(reminder, #"{"activity": "a", "at": "2026-11-22T09:10:00+01:00"}"#)
        #expect(plan.notifications.map(\.id).prefix(2) == ["a-20261122-0900", "a-20261123-0900"])
        #expect(plan.suppressed.map(\.id) == ["a-20261122-0900-followup"])
        #expect(plan.suppressed.first?.reason == .activity)
    }

    @Test("a follow-up stays when its parent already fired")
    func followUpOfFiredParent() throws {
        let plan = try plan(reminderXML("a", schedule: daily0900, extra: followUp30), "", now: "2026-11-22T08:10:00Z")
        #expect(plan.notifications.first?.id == "a-20261122-0900-followup")
        #expect(plan.notifications.first?.parent == "a-20261122-0900")
    }

    @Test("replacesEarlier lists the same reminder's earlier notifications of that date")
    func replacesEarlier() throws {
        let schedule = "<key>frequency</key><string>daily</string><key>times</key><array><string>08:00</string><string>12:00</string><string>16:00</string></array>"
        let plan = try plan(reminderXML("w", schedule: schedule, extra: "<key>replacesEarlier</key><true/>"), "", now: "2026-11-22T08:00:00Z")
        // 09:00 local now: today's 08:00 fired already, but 12:00 still withdraws it.
        #expect(plan.notifications.prefix(3).map(\.replaces) == [["w-20261122-0800"], ["w-20261122-0800", "w-20261122-1200"], []])
    }
}
