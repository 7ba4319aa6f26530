import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// A recurring series' DTSTART is its first instance (RFC 5545, 3.8.5.3): no RDATE of a
/// series lies before it, which CalDAV servers index series by; and RDATEs stand beside a
/// rule of that one instance only, the one form sabre/vobject expands like the others.
@Suite("Series start at their first instance")
struct SeriesStartTests {
    /// The instant of an iCalendar DATE-TIME value: UTC with `Z`, else local in `zone`.
    static func instant(_ value: Substring, zone: String?) throws -> Int64 {
        let digits = value.filter(\.isNumber)
        let number = { (from: Int, count: Int) -> Int in Int(digits.dropFirst(from).prefix(count))! }
        var components = DateComponents(
            year: number(0, 4), month: number(4, 2), day: number(6, 2), hour: number(8, 2), minute: number(10, 2), second: number(12, 2)
        )
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = value.hasSuffix("Z") ? TimeZone(identifier: "UTC")! : try #require(TimeZone(identifier: zone ?? "UTC"))
        components.timeZone = calendar.timeZone
        return Int64(try #require(calendar.date(from: components)).timeIntervalSince1970)
    }

    @Test("in 300 random configs' recurring calendars every RDATE comes after its series' DTSTART, beside a rule of one instance only", .timeLimit(.minutes(3)))
    func noInstanceBeforeStart() async throws {
        var generator = PlanScenarioGenerator(seed: 0x5EB1E5)
        var seriesWithDates = 0
        for round in 0..<300 {
            await Task.yield()
            let center = CivilDate(dayNumber: generator.random.int(19_500...21_000))
            let config = generator.config(around: center)
            let now = Int64(center.dayNumber) * 86_400 + Int64(generator.random.int(0...86_399))
            guard let plan = ReminderCompiler.plan(config, options: CompileOptions(now: .instant(now), horizonDays: 60)).plan else { continue }
            let text = String(decoding: ICalendarExport.recurring(config, plan: plan), as: UTF8.self)
                .replacingOccurrences(of: "\r\n ", with: "")
            for event in text.components(separatedBy: "BEGIN:VEVENT").dropFirst() {
                let lines = event.components(separatedBy: "\r\n")
                guard let start = lines.first(where: { $0.hasPrefix("DTSTART") }),
                      let rdates = lines.first(where: { $0.hasPrefix("RDATE") })
                else { continue }
                let name = start.split(separator: ":")[0]
                let zone = name.split(separator: ";").first { $0.hasPrefix("TZID=") }.map { String($0.dropFirst(5)).replacingOccurrences(of: "\"", with: "") }
                let first = try Self.instant(start.split(separator: ":").last!, zone: zone)
                for value in rdates.split(separator: ":").last!.split(separator: ",") {
                    let instant = try Self.instant(value, zone: nil)
                    #expect(instant > first, "round \(round): \(start) then RDATE \(value)")
                }
                // sabre/vobject expands an event with RDATEs from DTSTART and the RDATEs
                // alone: a rule of more instances beside them would be lost there.
                let rules = lines.filter { $0.hasPrefix("RRULE") }
                #expect(rules == ["RRULE:FREQ=DAILY;COUNT=1"], "round \(round): \(rules) beside RDATEs")
                seriesWithDates += 1
            }
        }
        #expect(seriesWithDates > 100, "\(seriesWithDates) series with RDATEs")
    }
}
