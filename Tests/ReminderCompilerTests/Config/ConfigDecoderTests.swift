import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// A config around `reminders` (the inside of the reminders array) and `rootExtra` keys.
func configXML(reminders: String, rootExtra: String = "", timeZone: String? = "Europe/Berlin") -> String {
    let zone = timeZone.map { "<key>timeZone</key><string>\($0)</string>\n" } ?? ""
    return """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
    <key>formatVersion</key><integer>1</integer>
    \(zone)\(rootExtra)<key>reminders</key>
    <array>
    \(reminders)
    </array>
    </dict>
    </plist>
    """
}

/// A reminder dict with `schedule` (the inside of the schedule dict) and extra keys.
func reminderXML(_ id: String, schedule: String = "<key>frequency</key><string>daily</string><key>times</key><array><string>09:00</string></array>", extra: String = "") -> String {
    "<dict><key>id</key><string>\(id)</string><key>title</key><string>Title \(id)</string>\(extra)<key>schedule</key><dict>\(schedule)</dict></dict>"
}

func check(_ xml: String, options: ConfigOptions = ConfigOptions()) -> CheckResult {
    ReminderCompiler.check(Array(xml.utf8), path: "c.plist", options: options)
}

/// 2026-11-22T08:00:00Z.
let fixedNow: Int64 = 1_795_334_400

@Suite("Config decoding")
struct ConfigDecoderTests {
    /// A list of tiny wrong entries made a value of several hundred bytes each before the
    /// check (a million `1` in JSON took 686 MB and 24.7 s in a debug build; 81 MB and
    /// 1.7 s now): past 100 000 entries, a list is refused with one error.
    @Test("reminders, groups and categories hold at most 100 000 entries; past that, one error at the first entry past it")
    func entryLimit() {
        let limit = 100_000
        #expect(ConfigDecoder.maximumEntries == limit)
        // At the limit, every wrong entry is read and reported (the first 1 000 shown).
        let atLimit = check(configXML(reminders: String(repeating: "<true/>\n", count: limit)))
        #expect(atLimit.diagnostics.filter { $0.severity == .error }.count == DiagnosticCollector.defaultMaximumErrors)
        #expect(atLimit.diagnostics.last?.formatted.contains("and \(limit - DiagnosticCollector.defaultMaximumErrors) more errors") == true)
        // One more, and the list is refused at it (line 8 holds the first entry).
        let past = check(configXML(reminders: String(repeating: "<true/>\n", count: limit + 1)))
        #expect(past.diagnostics.map(\.formatted) == [
            "c.plist:\(8 + limit):1: error: 'reminders' holds more than 100000 entries, more than any real config needs; none of them is read",
        ])
        for key in ["groups", "categories"] {
            let entries = (0...limit).map { "<key>e\($0)</key><true/>" }.joined(separator: "\n")
            let result = check(configXML(reminders: reminderXML("a"), rootExtra: "<key>\(key)</key><dict>\n\(entries)\n</dict>\n"))
            #expect(result.diagnostics.map(\.formatted) == [
                "c.plist:\(7 + limit):1: error: '\(key)' holds more than 100000 entries, more than any real config needs; none of them is read",
            ], "\(key)")
        }
    }

    @Test("documented defaults of root and reminder keys apply to what the file leaves out")
    func defaults() throws {
        let result = check(configXML(reminders: reminderXML("a")))
        #expect(result.diagnostics.isEmpty)
        let config = try #require(result.config)
        #expect(config.horizonDays == 30)
        #expect(config.pendingLimit == 64)
        #expect(config.reservedSlots == 0)
        #expect(config.minimumCoverageDays == 3)
        #expect(config.calendarName == "Reminders")
        #expect(config.uidDomain == "remindc.local")
        let reminder = try #require(config.reminders.first)
        #expect(reminder.body == "")
        #expect(reminder.enabled)
        #expect(reminder.activity == "a")
        #expect(reminder.interruptionLevel == .active)
        #expect(reminder.durationMinutes == 15)
        #expect(!reminder.replacesEarlier)
        #expect(reminder.lookback == nil)
        #expect(reminder.schedule.interval == 1)
        #expect(reminder.schedule.missingDays == .skip)
    }

    @Test("the medication example decodes into the expected typed config")
    func medicationExample() throws {
        let url = TestEnvironment.examples.appendingPathComponent("medication.plist")
        let result = ReminderCompiler.check(try TestEnvironment.bytes(url), path: "medication.plist")
        let config = try #require(result.config)
        #expect(config.timeZone == "Europe/Berlin")
        #expect(config.horizonDays == 14)
        #expect(config.groups["morning"]?.title == "Morning medications")
        #expect(config.categories["medication"]?.map(\.id) == ["take", "snooze", "skip"])
        #expect(config.categories["medication"]?[1].snoozeMinutes == 10)
        #expect(config.categories["medication"]?[2].destructive == true)
        #expect(config.reminders.map(\.id) == ["med-a", "med-b", "med-c", "med-d"])
        let medA = config.reminders[0]
        #expect(medA.group == "morning")
        #expect(medA.interruptionLevel == .timeSensitive)
        #expect(medA.followUp?.afterMinutes == 30)
        #expect(medA.followUp?.interruptionLevel == .critical)
        #expect(medA.schedule.timesOfDay.resolved.map(\.description) == ["09:20"])
        #expect(config.reminders[2].userInfo == ["medicationID": "42"])
        #expect(config.reminders[2].schedule.timesOfDay.resolved.map(\.description) == ["13:00", "19:00"])
    }

    @Test("times spread over a window follow the documented timesPerDay formula")
    func spreadTimes() {
        let window = LocalTime(minuteOfDay: 6 * 60)!...LocalTime(minuteOfDay: 22 * 60)!
        #expect(Schedule.TimesOfDay.spread(count: 3, window: window).resolved.map(\.description) == ["06:00", "14:00", "22:00"])
        #expect(Schedule.TimesOfDay.spread(count: 1, window: window).resolved.map(\.description) == ["06:00"])
        // floor(i·(until−from)/(N−1)) with 960 minutes and N = 7: 0, 160, 320, 480, 640, 800, 960.
        #expect(Schedule.TimesOfDay.spread(count: 7, window: window).resolved.map(\.minuteOfDay)
            == [360, 520, 680, 840, 1000, 1160, 1320])
        let short = LocalTime(minuteOfDay: 600)!...LocalTime(minuteOfDay: 602)!
        // More slots than minutes: duplicates collapse.
        #expect(Schedule.TimesOfDay.spread(count: 10, window: short).resolved.map(\.minuteOfDay) == [600, 601, 602])
        let hourly = LocalTime(minuteOfDay: 8 * 60)!...LocalTime(minuteOfDay: 10 * 60 + 30)!
        #expect(Schedule.TimesOfDay.every(minutes: 60, window: hourly).resolved.map(\.description) == ["08:00", "09:00", "10:00"])
    }

    @Test("x- keys are ignored anywhere; an <integer> is accepted where a <real> is expected")
    func extensionsAndIntegerReals() throws {
        let xml = configXML(
            reminders: reminderXML("a", extra: "<key>x-color</key><string>red</string><key>lookbackHours</key><integer>2</integer>"),
            rootExtra: "<key>x-owner</key><dict><key>anything</key><true/></dict><key>minimumCoverageDays</key><integer>5</integer>"
        )
        let result = check(xml)
        #expect(result.diagnostics.isEmpty)
        #expect(result.config?.minimumCoverageDays == 5)
        #expect(result.config?.reminders.first?.lookback == .seconds(7200))
    }

    @Test("a missing timeZone is an error unless --time-zone supplies one")
    func missingTimeZone() async {
        let xml = configXML(reminders: reminderXML("a"), timeZone: nil)
        #expect(await check(xml).diagnostics.map(\.message.id) == ["config.missing-time-zone"])
        #expect(await check(xml, options: ConfigOptions(timeZoneOverride: "Asia/Tokyo")).diagnostics.isEmpty)
    }

    @Test("tz database names are accepted; invented offsets are not", arguments: [
        ("UTC", true), ("US/Eastern", true), ("Pacific/Chatham", true), ("Australia/Lord_Howe", true),
        ("GMT+1", false), ("Europe/Berln", false), ("../../etc/passwd", false), ("", false),
    ])
    func timeZones(_ name: String, _ accepted: Bool) {
        #expect(TimeZoneDatabase.system.contains(name) == accepted)
    }

    @Test("warnings: empty reminders, unused group")
    func warnings() throws {
        let empty = check(configXML(reminders: ""))
        #expect(empty.config != nil)
        #expect(empty.diagnostics.map(\.formatted) == ["c.plist:7:1: warning: 'reminders' is empty; the plan will be empty"])
        let unused = check(configXML(
            reminders: reminderXML("a"),
            rootExtra: "<key>groups</key><dict><key>evening</key><dict/></dict>\n"
        ))
        #expect(unused.config != nil)
        #expect(unused.diagnostics.map(\.message.id) == ["config.unused-group"])
    }

    @Test("a reminder that can never fire is a warning", arguments: [
        // end in the past of --now
        ("<key>frequency</key><string>daily</string><key>times</key><array><string>09:00</string></array><key>end</key><string>2026-11-01</string>",
         "its 'end' 2026-11-01 is before today (2026-11-22)"),
        // every `at` in the past
        ("<key>frequency</key><string>once</string><key>at</key><array><string>2026-11-22T08:59</string></array>",
         "every 'at' is in the past"),
        // day 31 with skip, every 12 months from a 30-day month
        ("<key>frequency</key><string>monthly</string><key>days</key><array><integer>31</integer></array><key>interval</key><integer>12</integer><key>start</key><string>2026-11-01</string><key>times</key><array><string>09:00</string></array>",
         "no date from 2026-11-22 on matches its schedule"),
        // a weekly rule whose only date range holds none of its weekdays
        ("<key>frequency</key><string>weekly</string><key>weekdays</key><array><string>sunday</string></array><key>start</key><string>2026-11-23</string><key>end</key><string>2026-11-27</string><key>times</key><array><string>09:00</string></array>",
         "no date from 2026-11-23 on matches its schedule"),
    ])
    func neverFires(_ schedule: String, _ reason: String) {
        let result = check(configXML(reminders: reminderXML("r", schedule: schedule)), options: ConfigOptions(now: fixedNow))
        #expect(result.config != nil)
        #expect(result.diagnostics.map(\.message.text) == ["reminder 'r' can never fire: \(reason)"])
    }

    @Test("schedules that can fire give no warning", arguments: [
        // Berlin is UTC+1: 09:01 local is after 08:00Z.
        "<key>frequency</key><string>once</string><key>at</key><array><string>2026-11-22T09:01</string></array>",
        // day 31 with lastDay from a 30-day month fires on the 30th
        "<key>frequency</key><string>monthly</string><key>days</key><array><integer>31</integer></array><key>missingDays</key><string>lastDay</string><key>interval</key><integer>12</integer><key>start</key><string>2026-11-01</string><key>times</key><array><string>09:00</string></array>",
        // February 29 every 12 months: fires in 2028
        "<key>frequency</key><string>monthly</string><key>days</key><array><integer>29</integer></array><key>interval</key><integer>12</integer><key>start</key><string>2027-02-01</string><key>times</key><array><string>09:00</string></array>",
        "<key>frequency</key><string>monthly</string><key>weekdayOrdinals</key><array><string>5FR</string></array><key>times</key><array><string>09:00</string></array>",
    ])
    func canFire(_ schedule: String) {
        let result = check(configXML(reminders: reminderXML("r", schedule: schedule)), options: ConfigOptions(now: fixedNow))
        #expect(result.config != nil)
        #expect(result.diagnostics.isEmpty)
    }

    @Test("the order of reminders in the file does not change the set of diagnostics")
    func orderIndependence() {
        let first = reminderXML("a", extra: "<key>interruptionLevel</key><string>loud</string>")
        let second = reminderXML("b", schedule: "<key>frequency</key><string>weekly</string><key>times</key><array><string>25:00</string></array>")
        let forward = Set(check(configXML(reminders: first + "\n" + second)).diagnostics.map(\.message))
        let backward = Set(check(configXML(reminders: second + "\n" + first)).diagnostics.map(\.message))
        #expect(forward.count == 3)
        #expect(forward == backward)
    }

    @Test("an unknown frequency still lets the rest of the schedule be checked")
    func unknownFrequencyKeepsChecking() {
        let schedule = "<key>frequency</key><string>dayly</string><key>times</key><array><string>24:00</string></array><key>start</key><string>2026-13-01</string>"
        let ids = check(configXML(reminders: reminderXML("a", schedule: schedule))).diagnostics.map(\.message.id)
        #expect(ids == ["config.enum", "config.time", "config.date"])
    }
}

@Suite("Config value parsing")
struct ConfigValueParsingTests {
    @Test("times of day", arguments: [("00:00", 0), ("23:59", 1439), ("09:20", 560)])
    func validTimes(_ text: String, _ minutes: Int) {
        #expect(ConfigValueParsing.time(text)?.minuteOfDay == minutes)
    }

    @Test("invalid times", arguments: ["24:00", "9:20", "09:60", "0920", "09:2", " 09:20", "aa:bb", ""])
    func invalidTimes(_ text: String) {
        #expect(ConfigValueParsing.time(text) == nil)
    }

    @Test("dates must exist", arguments: [
        ("2028-02-29", true), ("2026-02-29", false), ("2100-02-29", false), ("2000-02-29", true),
        ("2026-04-31", false), ("2026-12-31", true), ("1969-12-31", false), ("2026-1-01", false),
    ])
    func dates(_ text: String, _ valid: Bool) {
        #expect((ConfigValueParsing.date(text) != nil) == valid)
    }

    @Test("weekday ordinals", arguments: [
        ("2TU", 2, Weekday.tuesday), ("-1FR", -1, .friday), ("+3we", 3, .wednesday), ("5SU", 5, .sunday),
    ])
    func ordinals(_ text: String, _ ordinal: Int, _ weekday: Weekday) {
        let parsed = ConfigValueParsing.weekdayOrdinal(text)
        #expect(parsed?.ordinal == ordinal && parsed?.weekday == weekday)
    }

    @Test("invalid weekday ordinals", arguments: ["0MO", "6MO", "-6MO", "2XX", "TU", "1.5TU", "--1TU"])
    func invalidOrdinals(_ text: String) {
        #expect(ConfigValueParsing.weekdayOrdinal(text) == nil)
    }

    @Test("identifiers", arguments: [
        ("med-a", true), ("A.b_c-9", true), (String(repeating: "x", count: 64), true),
        (String(repeating: "x", count: 65), false), ("-lead", false), ("has space", false), ("é", false), ("", false),
    ])
    func identifiers(_ text: String, _ valid: Bool) {
        #expect(ConfigValueParsing.isValidIdentifier(text) == valid)
    }

    @Test("suggestions find typos and prefixes but not unrelated words")
    func suggestions() {
        let keys = ConfigDecoder.rootKeys
        #expect(closestMatch(to: "horizon", in: keys) == "horizonDays")
        #expect(closestMatch(to: "timezone", in: keys) == "timeZone")
        #expect(closestMatch(to: "remidners", in: keys) == "reminders")
        #expect(closestMatch(to: "colour", in: keys) == nil)
    }

    @Test("RFC 3339 instants", arguments: [
        ("2026-11-22T08:00:00Z", Int64(1_795_334_400)), ("2026-11-22T09:00:00+01:00", 1_795_334_400),
        ("2026-11-22T03:00:00.250-05:00", 1_795_334_400),
    ])
    func instants(_ text: String, _ expected: Int64) {
        #expect(InstantParsing.rfc3339(text) == expected)
    }
}
