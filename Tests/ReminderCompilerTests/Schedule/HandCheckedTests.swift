import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Compiles a config made of `reminders` and returns the plan, failing the test on errors.
func compilePlan(
    _ reminders: String, zone: String = "Europe/Berlin", now: String, rootExtra: String = "",
    horizonDays: Int? = nil, pendingLimit: Int? = 0, sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> Plan {
    let xml = configXML(reminders: reminders, rootExtra: rootExtra, timeZone: zone)
    let instant = try #require(InstantParsing.rfc3339(now), sourceLocation: sourceLocation)
    let result = ReminderCompiler.compile(
        Array(xml.utf8), path: "test.plist",
        options: CompileOptions(now: .instant(instant), horizonDays: horizonDays, pendingLimit: pendingLimit)
    )
    #expect(!result.hasErrors, "\(result.diagnostics.map(\.formatted))", sourceLocation: sourceLocation)
    return try #require(result.plan, sourceLocation: sourceLocation)
}

private func daily(_ times: [String], extra: String = "") -> String {
    "<key>frequency</key><string>daily</string><key>times</key><array>"
        + times.map { "<string>\($0)</string>" }.joined() + "</array>" + extra
}

private func monthly(days: [Int], missing: String = "skip", extra: String = "") -> String {
    "<key>frequency</key><string>monthly</string><key>days</key><array>"
        + days.map { "<integer>\($0)</integer>" }.joined()
        + "</array><key>missingDays</key><string>\(missing)</string><key>times</key><array><string>09:00</string></array>" + extra
}

/// Cases worked out by hand from the tz database and a calendar.
@Suite("Hand-checked expansion")
struct HandCheckedTests {
    @Test("02:30 on a spring-forward day fires at 03:30 (Berlin, 2026-03-29)")
    func springForwardGap() throws {
        let plan = try compilePlan(reminderXML("r", schedule: daily(["02:30"])), now: "2026-03-28T12:00:00Z", horizonDays: 2)
        #expect(plan.notifications.map(\.fireAt.rfc3339) == ["2026-03-29T03:30:00+02:00", "2026-03-30T02:30:00+02:00"])
        #expect(plan.notifications.map(\.slot.description) == ["2026-03-29T02:30", "2026-03-30T02:30"])
        #expect(plan.notifications.first?.id == "r-20260329-0230")
    }

    @Test("01:30 on a fall-back day fires once, the first (New York, 2026-11-01)")
    func fallBackOverlap() throws {
        let plan = try compilePlan(
            reminderXML("r", schedule: daily(["01:30"])), zone: "America/New_York", now: "2026-10-31T12:00:00Z", horizonDays: 2
        )
        // 01:30 EDT (−04:00) is 05:30Z; the second 01:30 (EST) would be 06:30Z.
        #expect(plan.notifications.map(\.fireAt.rfc3339) == ["2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"])
    }

    @Test("monthly day 31: skipped in short months, or moved to their last day")
    func day31() throws {
        let skip = try compilePlan(reminderXML("r", schedule: monthly(days: [31])), now: "2026-01-01T00:00:00Z", horizonDays: 365)
        #expect(skip.notifications.map(\.slot.date.description) == [
            "2026-01-31", "2026-03-31", "2026-05-31", "2026-07-31", "2026-08-31", "2026-10-31", "2026-12-31",
        ])
        let last = try compilePlan(
            reminderXML("r", schedule: monthly(days: [31], missing: "lastDay")), now: "2026-01-01T00:00:00Z", horizonDays: 120
        )
        #expect(last.notifications.map(\.slot.date.description) == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"])
    }

    @Test("−1 is the last day, −31 exists only in 31-day months (or is day 1 with lastDay)")
    func negativeDays() throws {
        let lastDays = try compilePlan(reminderXML("r", schedule: monthly(days: [-1])), now: "2028-01-15T00:00:00Z", horizonDays: 60)
        #expect(lastDays.notifications.map(\.slot.date.description) == ["2028-01-31", "2028-02-29"])
        let minus31 = try compilePlan(reminderXML("r", schedule: monthly(days: [-31])), now: "2026-01-15T00:00:00Z", horizonDays: 60)
        #expect(minus31.notifications.map(\.slot.date.description) == ["2026-03-01"])
        let minus31Moved = try compilePlan(
            reminderXML("r", schedule: monthly(days: [-31], missing: "lastDay")), now: "2026-01-15T00:00:00Z", horizonDays: 60
        )
        #expect(minus31Moved.notifications.map(\.slot.date.description) == ["2026-02-01", "2026-03-01"])
    }

    @Test("a fifth Friday is skipped in months that have four")
    func missingFifthWeekday() throws {
        let schedule = "<key>frequency</key><string>monthly</string><key>weekdayOrdinals</key><array><string>5FR</string></array><key>times</key><array><string>09:00</string></array>"
        let plan = try compilePlan(reminderXML("r", schedule: schedule), now: "2026-01-01T00:00:00Z", horizonDays: 365)
        // 2026 months with five Fridays: January, May, July, October.
        #expect(plan.notifications.map(\.slot.date.description) == ["2026-01-30", "2026-05-29", "2026-07-31", "2026-10-30"])
    }

    @Test("weekly every 2 weeks from a Wednesday start counts weeks from that week's Monday")
    func weeklyIntervalFromMidweek() throws {
        let schedule = "<key>frequency</key><string>weekly</string><key>interval</key><integer>2</integer><key>start</key><string>2026-11-04</string><key>weekdays</key><array><string>mon</string><string>fri</string></array><key>times</key><array><string>09:00</string></array>"
        let plan = try compilePlan(reminderXML("r", schedule: schedule), now: "2026-11-01T00:00:00Z", horizonDays: 30)
        // The week of 2026-11-02 fires, but Monday 2 November is before the start.
        #expect(plan.notifications.map(\.slot.date.description) == ["2026-11-06", "2026-11-16", "2026-11-20", "2026-11-30"])
    }

    @Test("29 February fires in leap years only")
    func februaryTwentyNinth() throws {
        let plan = try compilePlan(
            reminderXML("r", schedule: monthly(days: [29], extra: "<key>interval</key><integer>12</integer><key>start</key><string>2027-02-01</string>")),
            now: "2027-01-01T00:00:00Z", horizonDays: 3000
        )
        #expect(plan.notifications.map(\.slot.date.description) == ["2028-02-29", "2032-02-29"])
    }

    @Test("New Year in UTC+14 and in UTC−11")
    func newYearAtTheEdges() throws {
        let kiritimati = try compilePlan(
            reminderXML("r", schedule: daily(["00:00"])), zone: "Pacific/Kiritimati", now: "2026-12-31T09:00:00Z", horizonDays: 1
        )
        #expect(kiritimati.notifications.map(\.fireAt.rfc3339) == ["2027-01-01T00:00:00+14:00"])
        #expect(kiritimati.notifications.map(\.id) == ["r-20270101-0000"])
        let pagoPago = try compilePlan(
            reminderXML("r", schedule: daily(["00:00"])), zone: "Pacific/Pago_Pago", now: "2027-01-01T10:00:00Z", horizonDays: 1
        )
        #expect(pagoPago.notifications.map(\.fireAt.rfc3339) == ["2027-01-01T00:00:00-11:00"])
        #expect(pagoPago.notifications.first?.fireAt.seconds == kiritimati.notifications.first!.fireAt.seconds + 25 * 3600)
    }

    @Test("a horizon of 3660 days plans every day of it")
    func longHorizon() throws {
        let plan = try compilePlan(reminderXML("r", schedule: daily(["12:00"])), now: "2026-01-01T00:00:00Z", horizonDays: 3660)
        #expect(plan.notifications.count == 3660)
        // 2026 … 2035 hold 3652 days (leap years 2028 and 2032); 8 more reach 9 January 2036.
        #expect(plan.windowEnd.rfc3339 == "2036-01-09T01:00:00+01:00")
        #expect(plan.notifications.last?.slot.date.description == "2036-01-08")
    }

    @Test("the window is (now, now + horizon]: a slot exactly at now is excluded, one at the end included")
    func windowBounds() throws {
        let plan = try compilePlan(reminderXML("r", schedule: daily(["09:00"])), now: "2026-11-22T08:00:00Z", horizonDays: 2)
        #expect(plan.notifications.map(\.fireAt.rfc3339) == ["2026-11-23T09:00:00+01:00", "2026-11-24T09:00:00+01:00"])
    }

    @Test("duplicate slots collapse into one")
    func duplicatesCollapse() throws {
        let plan = try compilePlan(reminderXML("r", schedule: daily(["09:00", "09:00", "08:00"])), now: "2026-11-22T00:00:00Z", horizonDays: 1)
        #expect(plan.notifications.map(\.slot.description) == ["2026-11-22T08:00", "2026-11-22T09:00"])
    }

    @Test("rotating bodies count every slot from start, so re-planning later keeps each pending body")
    func rotation() throws {
        let reminder = reminderXML(
            "fact", schedule: daily(["08:30"], extra: "<key>start</key><string>2026-11-01</string><key>except</key><array><string>2026-11-23</string></array>"),
            extra: "<key>bodies</key><array><string>A</string><string>B</string><string>C</string></array>"
        )
        let today = try compilePlan(reminder, zone: "Asia/Kolkata", now: "2026-11-22T00:00:00Z", horizonDays: 5)
        // 2026-11-22 is slot 21 from 1 November: 21 mod 3 = 0 → A; 23 November is excepted.
        #expect(today.notifications.map(\.body) == ["A", "C", "A", "B"])
        #expect(today.notifications.map(\.slot.date.description) == ["2026-11-22", "2026-11-24", "2026-11-25", "2026-11-26"])
        let tomorrow = try compilePlan(reminder, zone: "Asia/Kolkata", now: "2026-11-23T00:00:00Z", horizonDays: 5)
        let earlier = Dictionary(uniqueKeysWithValues: today.notifications.map { ($0.id, $0.body) })
        for notification in tomorrow.notifications where earlier[notification.id] != nil {
            #expect(earlier[notification.id] == notification.body)
        }
    }

    @Test("numericId is FNV-1a 32-bit masked to 31 bits (published test vectors)")
    func numericID() {
        // FNV-1a 32: "" → 0x811c9dc5, "a" → 0xe40c292c, "foobar" → 0xbf9cf968.
        #expect(NotificationID.numericID(of: "") == 0x811C_9DC5 & 0x7FFF_FFFF)
        #expect(NotificationID.numericID(of: "a") == 0xE40C_292C & 0x7FFF_FFFF)
        #expect(NotificationID.numericID(of: "foobar") == 0xBF9C_F968 & 0x7FFF_FFFF)
    }

    @Test("a local --now is read in the plan's zone, by the same gap rule")
    func localNow() throws {
        let xml = configXML(reminders: reminderXML("r", schedule: daily(["09:00"])))
        let local = try #require(InstantParsing.localDateTime("2026-03-29T02:30"))
        let result = ReminderCompiler.compile(
            Array(xml.utf8), path: "t", options: CompileOptions(now: .local(local), horizonDays: 1)
        )
        #expect(result.plan?.now.rfc3339 == "2026-03-29T03:30:00+02:00")
    }

    @Test("a config whose schedules would flood memory is refused before expanding")
    func tooLarge() throws {
        let every5 = "<key>frequency</key><string>daily</string><key>everyMinutes</key><integer>5</integer><key>window</key><dict><key>from</key><string>00:00</string><key>until</key><string>23:59</string></dict>"
        let reminders = (0..<20).map { reminderXML("r\($0)", schedule: every5) }.joined()
        let xml = configXML(reminders: reminders, rootExtra: "<key>horizonDays</key><integer>3660</integer>")
        let result = ReminderCompiler.compile(Array(xml.utf8), path: "big.plist", options: CompileOptions(now: .instant(fixedNow)))
        #expect(result.plan == nil)
        #expect(result.diagnostics.map(\.message.id) == ["plan.too-large"])
    }
}
