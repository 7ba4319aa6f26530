import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// The footer's TZ strings against the C library, which reads the same strings from the
/// `TZ` variable (glibc implements RFC 8536's extensions).
@Suite("TZ strings of zone files")
struct PosixZoneRuleTests {
    /// `[+-]hh[:mm[:ss]]`.
    static func duration(_ seconds: Int) -> String {
        let magnitude = abs(seconds)
        var text = (seconds < 0 ? "-" : "") + String(magnitude / 3600)
        if magnitude % 3600 != 0 { text += ":" + String(format: "%02d", magnitude / 60 % 60) }
        if magnitude % 60 != 0 { text += ":" + String(format: "%02d", magnitude % 60) }
        return text
    }

    /// A TZ string whose changes stay inside February to November of each year, where
    /// every reading of the format agrees (the C library decides by the year of the
    /// instant, remindc by the latest change, which differ only for rules that carry a
    /// change into another year).
    static func randomRule(using generator: inout SeededGenerator) -> String {
        let standard = Int.random(in: -12...14, using: &generator) * 3600 + [0, 0, 1800, 2700].randomElement(using: &generator)!
        var text = "<STD>" + duration(-standard)
        guard Bool.random(using: &generator) || Bool.random(using: &generator) else { return text }
        let saving = [3600, 3600, 1800, 7200, -3600].randomElement(using: &generator)!
        text += "<DST>"
        if saving != 3600 || Bool.random(using: &generator) { text += duration(-(standard + saving)) }
        func change(months: ClosedRange<Int>) -> String {
            var part: String
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: part = "J" + String(Int.random(in: (months.lowerBound * 30 + 10)...(months.upperBound * 30), using: &generator))
            case 1: part = String(Int.random(in: (months.lowerBound * 30 + 10)...(months.upperBound * 30), using: &generator))
            default:
                part = "M\(Int.random(in: months, using: &generator)).\(Int.random(in: 1...5, using: &generator)).\(Int.random(in: 0...6, using: &generator))"
            }
            if Bool.random(using: &generator) { part += "/" + duration(Int.random(in: -167 * 3600...167 * 3600, using: &generator)) }
            return part
        }
        // Northern or southern: the first change in spring or autumn.
        let (first, second) = Bool.random(using: &generator) ? (2...5, 7...10) : (7...10, 2...5)
        return text + "," + change(months: first) + "," + change(months: second)
    }

    @Test("offsets and daylight-saving flags of random rules agree with the C library's")
    func againstTheCLibrary() async throws {
        var generator = SeededGenerator(seed: 1003)
        var cases: [(tz: String, instants: [Int64], expected: [(offset: Int, isDaylightSaving: Bool)])] = []
        for _ in 0..<400 {
            let text = Self.randomRule(using: &generator)
            let rule = try #require(PosixZoneRule(Array(text.utf8)), "\(text)")
            var instants = (0..<100).map { _ in Int64.random(in: 0...13_000_000_000, using: &generator) }
            // The changes of a few years, to the second.
            for year in [1999, 2026, 2027, 2100] {
                guard let daylightSaving = rule.daylightSaving else { break }
                for change in [
                    daylightSaving.start.instant(in: year, offset: rule.standardOffset),
                    daylightSaving.end.instant(in: year, offset: daylightSaving.offset),
                ] {
                    instants += [change - 1, change, change + 1]
                }
            }
            cases.append((text, instants, instants.map { rule.localTime(at: $0) }))
        }
        #expect(try await CLibraryLocalTime.expectAgreement(cases) > 40_000)
    }

    @Test("rules checked by hand")
    func handChecked() throws {
        // Central Europe: 2027-03-28T01:00Z and 2027-10-31T01:00Z.
        let europe = try #require(PosixZoneRule(Array("CET-1CEST,M3.5.0,M10.5.0/3".utf8)))
        #expect(europe.localTime(at: 1_806_195_599) == (3600, false))
        #expect(europe.localTime(at: 1_806_195_600) == (7200, true))
        #expect(europe.localTime(at: 1_824_944_399) == (7200, true))
        #expect(europe.localTime(at: 1_824_944_400) == (3600, false))
        // Daylight saving all year (RFC 8536 §3.3.1): the end meets the next start.
        let always = try #require(PosixZoneRule(Array("EST5EDT,0/0,J365/25".utf8)))
        for instant: Int64 in [0, 1_798_761_600, 1_798_779_600, 1_830_297_599, 1_830_315_600] {
            #expect(always.localTime(at: instant) == (-14_400, true))
        }
        // Southern hemisphere, half-hour saving: Lord Howe Island from 2026-10-04T02:00
        // local (2026-10-03T15:30Z) to 2027-04-04T02:00 local daylight (2027-04-03T15:00Z).
        let lordHowe = try #require(PosixZoneRule(Array("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0".utf8)))
        #expect(lordHowe.localTime(at: 1_791_041_399) == (37_800, false))
        #expect(lordHowe.localTime(at: 1_791_041_400) == (39_600, true))
        #expect(lordHowe.localTime(at: 1_806_764_399) == (39_600, true))
        #expect(lordHowe.localTime(at: 1_806_764_400) == (37_800, false))
    }

    @Test("what is not a TZ string, or names daylight saving without saying when, is refused")
    func refused() {
        for text in [
            "", "CET", "CE-1", "CET-1CEST", "CET-25", "<+01-1", "<+01>", "CET-1CEST,M13.1.0,M10.5.0", "CET-1CEST,M3.6.0,M10.5.0",
            "CET-1CEST,M3.5.7,M10.5.0", "CET-1CEST,M3.5.0,M10.5.0/168", "CET-1CEST,J0,J100", "CET-1CEST,366,100",
            "CET-1CEST,M3.5.0", "CET-1CEST,M3.5.0,M10.5.0,", "CET-1:60", "CET-1CEST,M3.5.0/1:2:60,M10.5.0", "CET-1 ",
        ] {
            #expect(PosixZoneRule(Array(text.utf8)) == nil, "\(text)")
        }
        #expect(PosixZoneRule(Array("CET-1".utf8)) == PosixZoneRule(standardOffset: 3600, daylightSaving: nil))
    }
}
