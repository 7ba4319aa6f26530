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
        key: String, slot: LocalDateTime, followUp: Int, texts: NotificationTexts, fireAt: ZonedInstant, sequence: Int = 0
    ) -> (parts: PlannedNotification, text: PlannedNotification) {
        let content = NotificationContent(texts, preparingOutput: true, idKey: key)
        let parts = PlannedNotification(
            storedID: .occurrence(OccurrenceTail(slot: slot, followUp: followUp)), kind: followUp == 0 ? .single : .followUp,
            fireAt: fireAt, slot: slot,
            parent: followUp == 0 ? nil : .occurrence(OccurrenceTail(slot: slot, followUp: 0)), replaces: [], content: content,
            sequence: sequence
        )
        let text = PlannedNotification(
            id: referenceID(key: key, slot: slot, followUp: followUp), kind: followUp == 0 ? .single : .followUp,
            fireAt: fireAt, slot: slot, parent: followUp == 0 ? nil : referenceID(key: key, slot: slot, followUp: 0),
            replaces: [], content: content, sequence: sequence
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

    @Test("an event written in one go has the bytes of the same event written line by line")
    func eventInOneGo() throws {
        var generator = SeededGenerator(seed: 3110)
        var partsList: [PlannedNotification] = []
        var textList: [PlannedNotification] = []
        // Europe/Berlin's clocks went back at 2026-10-25T01:00:00Z: its local times from
        // 02:00 to 03:00 came twice, and events then are written in UTC.
        let fallBack: Int64 = 1_792_890_000
        let zones: [String?] = [nil, "Europe/Berlin", "America/New_York", "Asia/Kathmandu"]
        var seconds = fallBack
        for index in 0..<400 {
            // Runs of one instant, their events in zones taken at random, so that an
            // instant's start kept from the event before is asked for in another zone.
            if index == 0 || Int.random(in: 0..<3, using: &generator) == 0 {
                seconds = [
                    fallBack + Int64.random(in: -8...8, using: &generator) * 900,
                    1_795_000_000 + Int64.random(in: 0...100_000, using: &generator) * 60,
                    // Beyond the zones' span (4 000 days from the first event), and beyond
                    // the years a calendar is written in.
                    Int64.random(in: 1 << 36...1 << 40, using: &generator),
                ].randomElement(using: &generator)!
            }
            var texts = PreparedContentTests.randomTexts(using: &generator)
            texts.timeZone = zones.randomElement(using: &generator)!
            let (parts, text) = Self.pair(
                key: Self.randomKey(using: &generator), slot: Self.randomSlot(using: &generator),
                followUp: [0, 1, 2, 10, 123, Int.max, -1, Int.min].randomElement(using: &generator)!, texts: texts,
                fireAt: ZonedInstant(seconds: seconds, offsetSeconds: 3600),
                sequence: [0, 1, 9, 10, 12_345, -1, Int.min, Int.max].randomElement(using: &generator)!
            )
            partsList.append(parts)
            textList.append(text)
        }
        // The notifications in order of time, as a plan holds them: the zones are worked
        // out from the first to the last.
        let order = partsList.indices.sorted { partsList[$0].fireAt.seconds < partsList[$1].fireAt.seconds }
        let partsPlan = PreparedContentTests.plan(of: order.map { partsList[$0] })
        let textPlan = PreparedContentTests.plan(of: order.map { textList[$0] })
        // The default domain, and one long enough to fold every UID line.
        for uidDomain in ["remindc.local", String(repeating: "d", count: 60)] {
            let settings = CalendarSettings(calendarName: "Reminders", uidDomain: uidDomain)
            let calendar = ICalendarExport.expanded(partsPlan, settings: settings)
            // Compared as booleans: a failure would otherwise print megabytes.
            let same = calendar == ICalendarExport.expanded(textPlan, settings: settings)
            #expect(same, "the calendar with UIDs @\(uidDomain) differs")
            let text = String(decoding: calendar, as: UTF8.self)
            #expect(text.contains("DTSTART:") && text.contains("DTSTART;TZID=America/New_York:"))
        }
    }

    @Test("an event is written in one go only when every line of it fits unfolded")
    func eventInOneGoFallsBack() throws {
        let timeline = ZoneTimeline(rules: try #require(TimeZoneDatabase.system.zone("Europe/Berlin")), span: 1_790_000_000...1_800_000_000)
        var generator = SeededGenerator(seed: 11)
        let parts = NotificationContent(PreparedContentTests.randomTexts(using: &generator), preparingOutput: true, idKey: "pill")
            .prepared!.parts
        let tail = OccurrenceTail(slot: Self.randomSlot(using: &generator), followUp: 0)
        func written(startName: String, uidDomain: String, key: String, instant: Int64) -> Bool {
            var writer = ICalendarWriter()
            let zone = EventZone(
                timeline: timeline, startName: startName, uidSuffix: "@" + uidDomain, stampLine: ICalendarExport.stampLine(now: 0)
            )
            var key = key
            let wrote = key.withUTF8 { writer.preparedEvent(key: $0, tail: tail, instant: instant, sequence: 0, parts: parts, zone: zone) }
            // Nothing is written when the event is left to be written line by line.
            #expect(wrote == !writer.bytes.isEmpty)
            return wrote
        }
        let name = "DTSTART;TZID=Europe/Berlin"
        #expect(written(startName: name, uidDomain: "remindc.local", key: "pill", instant: 1_795_000_000))
        // "UID:", the key, the tail's 14 bytes and the suffix: 75 octets fit, 76 do not.
        #expect(written(startName: name, uidDomain: "d", key: String(repeating: "k", count: 55), instant: 1_795_000_000))
        #expect(!written(startName: name, uidDomain: "d", key: String(repeating: "k", count: 56), instant: 1_795_000_000))
        // `DTSTART;TZID=…:` and fifteen digits: 75 octets fit, 76 do not.
        #expect(written(startName: String(repeating: "n", count: 59), uidDomain: "d", key: "pill", instant: 1_795_000_000))
        #expect(!written(startName: String(repeating: "n", count: 60), uidDomain: "d", key: "pill", instant: 1_795_000_000))
        // In UTC (outside the zone's span), the start's name is `DTSTART` whatever the zone's.
        #expect(written(startName: String(repeating: "n", count: 60), uidDomain: "d", key: "pill", instant: 0))
    }

    @Test("an ID's tail knows its length before it is written")
    func tailLength() {
        let slot = LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 23)!, time: LocalTime(minuteOfDay: 480)!)
        for followUp in [0, 1, 2, 9, 10, 99, 100, 123, 1_000_000, Int.max, -1, -10, Int.min] {
            let tail = OccurrenceTail(slot: slot, followUp: followUp)
            #expect(tail.length == tail.withBytes { $0.count }, "follow-up \(followUp)")
            #expect(tail.length <= OccurrenceTail.maximumLength)
        }
    }

    @Test("a date-time is written in full exactly when its local date falls in the years 1 to 9999")
    func fourDigitYears() {
        let first = Int64(CivilDate.dayNumber(year: 1, month: 1, day: 1)) * 86_400
        let afterLast = Int64(CivilDate.dayNumber(year: 9999, month: 12, day: 31) + 1) * 86_400
        var random = SeededGenerator(seed: 0x4D19)
        let samples = [first - 86_401, first - 1, first, first + 1, afterLast - 1, afterLast, afterLast + 86_400, 0, -1,
                       Int64.min, Int64.max]
            + (0..<2_000).map { _ in Int64.random(in: (first - 10 * 86_400)...(afterLast + 10 * 86_400), using: &random) }
        for seconds in samples {
            // The reference splits the seconds into a date, as writing the digits does.
            let day = seconds / 86_400 - (seconds % 86_400 < 0 ? 1 : 0)
            let expected = day >= Int64(CivilDate.dayNumber(year: 1, month: 1, day: 1)) && day <= Int64(CivilDate.dayNumber(year: 9999, month: 12, day: 31))
            #expect(ICalendarWriter.dateTimeFitsFourDigitYears(localSeconds: seconds) == expected, "\(seconds)")
        }
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
