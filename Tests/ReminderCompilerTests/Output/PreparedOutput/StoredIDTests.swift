import Testing
@_spi(Tooling) @testable import ReminderCompiler

@Suite("IDs kept as parts")
struct StoredIDTests {
    /// The ID of Planning rules, "Stable IDs", spelt out with strings: `{key}-{yyyyMMdd}-{HHmm}`, then `-followup`
    /// or `-followup-{n}`.
    static func referenceID(key: String, slot: LocalDateTime, followUp: Int) -> String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let (year, month, day) = slot.date.components
        let occurrence = "\(key)-\(padded(year, 4))\(padded(month, 2))\(padded(day, 2))-\(padded(slot.time.hour, 2))\(padded(slot.time.minute, 2))"
        switch followUp {
        case 0: return occurrence
        case 1: return occurrence + "-followup"
        default: return occurrence + "-followup-\(followUp)"
        }
    }

    /// The numericId of Plan format: 32-bit FNV-1a of the ID's UTF-8 bytes, masked to 31 bits.
    static func referenceNumericID(_ id: String) -> UInt32 {
        var state: UInt32 = 0x811C_9DC5
        for byte in id.utf8 { state = (state ^ UInt32(byte)) &* 0x0100_0193 }
        return state & 0x7FFF_FFFF
    }

    /// Identifiers, as configs have them, and one key in eight with a character that JSON
    /// escapes (which only a key made in code could hold), so that both ways of writing an
    /// ID kept as parts are taken.
    static func randomKey(using generator: inout SeededGenerator) -> String {
        let first = Array("abcXYZ019")
        let rest = Array("abcXYZ019._-")
        let length = [0, 1, 5, 20, 63].randomElement(using: &generator)!
        let key = String(first.randomElement(using: &generator)!) + String((0..<length).map { _ in rest.randomElement(using: &generator)! })
        guard Int.random(in: 0..<8, using: &generator) == 0 else { return key }
        return key + ["\"", "\\", "\n", "é\u{1}"].randomElement(using: &generator)!
    }

    static func randomSlot(using generator: inout SeededGenerator) -> LocalDateTime {
        LocalDateTime(
            date: CivilDate(dayNumber: Int.random(in: 0...2_932_896, using: &generator)),
            time: LocalTime(minuteOfDay: Int.random(in: 0..<1440, using: &generator))!
        )
    }

    /// A notification whose ID (and parent's, for a follow-up) is kept as parts, and the
    /// same notification with its IDs as text.
    static func pair(
        key: String, slot: LocalDateTime, followUp: Int, texts: NotificationTexts, fireAt: ZonedInstant
    ) -> (parts: PlannedNotification, text: PlannedNotification) {
        let content = NotificationContent(texts, preparingOutput: true, idKey: key)
        let parts = PlannedNotification(
            storedID: .occurrence(OccurrenceTail(slot: slot, followUp: followUp)), kind: followUp == 0 ? .single : .followUp,
            fireAt: fireAt, slot: slot,
            parent: followUp == 0 ? nil : .occurrence(OccurrenceTail(slot: slot, followUp: 0)), replaces: [], content: content
        )
        let text = PlannedNotification(
            id: referenceID(key: key, slot: slot, followUp: followUp), kind: followUp == 0 ? .single : .followUp,
            fireAt: fireAt, slot: slot, parent: followUp == 0 ? nil : referenceID(key: key, slot: slot, followUp: 0),
            replaces: [], content: content
        )
        return (parts, text)
    }

    @Test("an ID kept as parts reads, hashes and writes as the same ID as text")
    func partsEqualText() throws {
        var generator = SeededGenerator(seed: 5202)
        var partsList: [PlannedNotification] = []
        var textList: [PlannedNotification] = []
        for index in 0..<300 {
            let key = Self.randomKey(using: &generator)
            let slot = Self.randomSlot(using: &generator)
            let followUp = [0, 0, 1, 2, 9, 12, 123].randomElement(using: &generator)!
            // Runs of three notifications at one instant, as plans have: the plan writer
            // keeps the last instant's digits for the next fingerprint.
            let fireAt = ZonedInstant(seconds: 1_795_000_000 + Int64(index / 3) * 60, offsetSeconds: 3600)
            let (parts, text) = Self.pair(
                key: key, slot: slot, followUp: followUp, texts: PreparedContentTests.randomTexts(using: &generator), fireAt: fireAt
            )
            let expected = Self.referenceID(key: key, slot: slot, followUp: followUp)
            #expect(parts.id == expected)
            #expect(parts.parent == (followUp == 0 ? nil : Self.referenceID(key: key, slot: slot, followUp: 0)))
            #expect(parts.numericId == Self.referenceNumericID(expected))
            #expect(parts.numericId == NotificationID.numericID(of: expected))
            #expect(parts.fingerprint == PreparedContentTests.referenceFingerprint(text))
            #expect(parts == text)
            #expect(parts.hashValue == text.hashValue)
            partsList.append(parts)
            textList.append(text)
        }
        let partsPlan = PreparedContentTests.plan(of: partsList)
        let textPlan = PreparedContentTests.plan(of: textList)
        // Compared as booleans: a failure would otherwise print megabytes.
        let sameJSON = PlanJSON.encode(partsPlan) == PlanJSON.encode(textPlan)
        #expect(sameJSON, "the plan JSON differs")
        let settings = CalendarSettings(calendarName: "Reminders", uidDomain: "remindc.test")
        let sameCalendar = ICalendarExport.expanded(partsPlan, settings: settings) == ICalendarExport.expanded(textPlan, settings: settings)
        #expect(sameCalendar, "the calendar differs")
        // The plan reads back with the same IDs, when they are IDs a plan file may hold;
        // keys with quotes, backslashes or line breaks (a config built in code may use
        // them) are written escaped, and a plan file holding them is refused on reading.
        let readable = partsList.filter {
            ([$0.id] + $0.reminders + [$0.parent, $0.group, $0.category].compactMap { $0 }).allSatisfy(ConfigValueParsing.isValidPlanID)
        }
        #expect(readable.count > 5 && readable.count < partsList.count, "\(readable.count)")
        var diagnostics = DiagnosticCollector()
        let read = try #require(PlanReader.read(PlanJSON.encode(PreparedContentTests.plan(of: readable)), path: "plan.json", diagnostics: &diagnostics))
        #expect(read.notifications.map(\.id) == readable.map(\.id))
        var refused = DiagnosticCollector()
        #expect(PlanReader.read(PlanJSON.encode(partsPlan), path: "plan.json", diagnostics: &refused) == nil)
        #expect(refused.sorted.allSatisfy { $0.message.id == "plan-file.invalid-id" })
    }

    @Test("changing what an ID is made of keeps the ID it had")
    func changesKeepTheID() {
        var generator = SeededGenerator(seed: 77)
        let slot = LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 23)!, time: LocalTime(minuteOfDay: 480)!)
        let (original, _) = Self.pair(
            key: "pill", slot: slot, followUp: 2, texts: PreparedContentTests.randomTexts(using: &generator),
            fireAt: ZonedInstant(seconds: 1_795_000_000, offsetSeconds: 3600)
        )
        let later = LocalDateTime(date: CivilDate(year: 2027, month: 1, day: 2)!, time: LocalTime(minuteOfDay: 61)!)

        var moved = original
        moved.slot = later
        #expect(moved.id == "pill-20261123-0800-followup-2")
        #expect(moved.parent == "pill-20261123-0800")
        #expect(moved.slot == later)

        var retitled = original
        retitled.title = "Another title"
        retitled.reminders = ["other"]
        retitled.group = "g"
        #expect(retitled.id == "pill-20261123-0800-followup-2")
        #expect(retitled.parent == "pill-20261123-0800")
        #expect(retitled.title == "Another title")
        #expect(retitled.numericId == original.numericId)
        // The original is untouched.
        #expect(original.title != "Another title")

        var renamed = original
        renamed.id = "renamed"
        renamed.parent = nil
        #expect(renamed.id == "renamed")
        #expect(renamed.parent == nil)
    }

    @Test("notifications at one instant come in the order of their IDs' bytes, whatever keys they share")
    func orderAtOneInstant() throws {
        // Keys that are prefixes of one another, or differ only after one ends, at one time.
        let ids = ["a", "a-b", "a-1", "a.x", "ab", "a0", "A", "a-", "a--", "a_"]
        let followUp = "<key>followUp</key><dict><key>afterMinutes</key><integer>10</integer><key>repeat</key><integer>2</integer></dict>"
        let reminders = ids.map { reminderXML($0, extra: followUp) }.joined()
        let plan = try compilePlan(reminders, now: "2026-11-22T08:00:00Z", horizonDays: 3)
        #expect(plan.notifications.count > ids.count * 3)
        var byInstant: [Int64: [String]] = [:]
        for notification in plan.notifications { byInstant[notification.fireAt.seconds, default: []].append(notification.id) }
        for (_, listed) in byInstant {
            #expect(listed.count == ids.count)
            #expect(listed == listed.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        }
    }
}
