import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// What calendar readers do differently, said where remindc cannot avoid it.
@Suite("Reader differences remindc reports")
struct ReaderWorkaroundTests {
    @Test("titles and bodies with surrounding white space are a warning at their value, from a file and from code")
    func surroundingSpaces() throws {
        let xml = configXML(reminders: "<dict><key>id</key><string>a</string><key>title</key><string> Aspirin</string>"
            + "<key>body</key><string>100 mg\n</string><key>schedule</key><dict><key>frequency</key><string>daily</string>"
            + "<key>times</key><array><string>09:00</string></array></dict></dict>")
        let found = check(xml).diagnostics.map(\.formatted)
        #expect(found.count == 2, "\(found)")
        #expect(found.allSatisfy { $0.contains("warning: '") && $0.contains("starts or ends with white space, which libical and CalDAV clients trim") })
        #expect(found.first?.hasPrefix("c.plist:8:") == true, "\(found)")
        let inCode = ReminderConfig(timeZone: "UTC", reminders: [Reminder(id: "a", title: "Aspirin ", schedule: .daily(times: ["09:00"]))])
        #expect(inCode.validate().map(\.formatted) == [
            "reminders[0].title: warning: 'title' starts or ends with white space, which libical and CalDAV clients trim: calendars show it without",
        ])
    }

    @Test("the plan names the tz database release it was compiled with; plans without it still read")
    func tzdataVersion() async throws {
        let version = try #require(TimeZoneDatabase.system.version)
        #expect(version.range(of: #"^\d{4}[a-z]$"#, options: .regularExpression) != nil, "\(version)")
        let result = try await remindc("compile", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z")
        #expect(result.standardOutput.contains("\n  \"tzdataVersion\": \"\(version)\",\n"))
        let older = result.standardOutput.replacingOccurrences(of: "\n  \"tzdataVersion\": \"\(version)\",", with: "")
        var diagnostics = DiagnosticCollector()
        let plan = try #require(ReminderCompiler.readPlan(Array(older.utf8), path: "old.json", diagnostics: &diagnostics))
        #expect(plan.tzdataVersion == nil)
        let current = try #require(ReminderCompiler.readPlan(Array(result.standardOutput.utf8), path: "new.json", diagnostics: &diagnostics))
        #expect(current.tzdataVersion == version)
        // The full reader accepts both too.
        #expect(PlanReader.read(Array(older.utf8), path: "old.json", diagnostics: &diagnostics) != nil)
        #expect(PlanReader.read(Array(result.standardOutput.utf8), path: "new.json", diagnostics: &diagnostics)?.tzdataVersion == version)
    }

    /// The VEVENTs, unfolded, of the recurring calendar `remindc compile` writes for the
    /// fixture `name` over its whole window (no budget).
    static func recurringEvents(ofFixture name: String) async throws -> [String] {
        let files = try await compileToFiles(
            "Tests/ReminderCompilerTests/Fixtures/\(name)", style: "recurring",
            options: ["--now", "2026-11-22T08:00:00Z", "--pending-limit", "0"]
        )
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let text = String(decoding: try Data(contentsOf: files.ics), as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "")
        return Array(text.components(separatedBy: "BEGIN:VEVENT\r\n").dropFirst())
    }

    @Test("a series of UTC instants carries a rule of its first instant alone: Radicale expands no RDATE without an RRULE")
    func instantSeriesHaveARule() async throws {
        let events = try await Self.recurringEvents(ofFixture: "recurring-edge-cases.plist")
        let withRDates = events.filter { $0.contains("\r\nRDATE:") }
        // The fixture's fortnightly 02:30 series crosses a gap, so it is written as instants.
        let fortnight = try #require(withRDates.first { $0.hasPrefix("UID:fortnight-0230@") })
        #expect(fortnight.contains("\r\nDTSTART:20261125T013000Z\r\nRRULE:FREQ=DAILY;COUNT=1\r\nRDATE:20261129T013000Z,"))
        for event in withRDates {
            #expect(event.contains("\r\nRRULE:"), "\(event.prefix(80))")
        }
    }

    /// ical.js stops expanding a series, with "max tries have occurred", after 500 excluded
    /// instances in a row: the fixture's daily dose with 635 left-out dates made Thunderbird
    /// show none of it. The interop tests read the same file with ical.js.
    @Test("a series with more than 400 EXDATEs is written as its instants: ical.js gives up after 500 excluded in a row")
    func fewExclusions() async throws {
        var seriesAsInstants: [String] = []
        for event in try await Self.recurringEvents(ofFixture: "long-date-lists.plist") {
            let lines = event.components(separatedBy: "\r\n")
            let excluded = lines.filter { $0.hasPrefix("EXDATE") }.map { $0.split(separator: ":").last!.split(separator: ",").count }.reduce(0, +)
            #expect(excluded <= RecurringSeries.maximumExcludedInstances, "\(lines.first ?? ""): \(excluded) EXDATEs")
            if lines.contains("RRULE:FREQ=DAILY;COUNT=1"), lines.contains(where: { $0.hasPrefix("RDATE") }) { seriesAsInstants.append(lines[0]) }
        }
        // The daily stretch with its 635 left-out dates, and the 02:30 dose across clock changes.
        #expect(seriesAsInstants == ["UID:night-0230@remindc.local", "UID:stretch-1000@remindc.local"])
    }
}

@Suite("Recurring calendars after events")
struct RecurringAfterEventsTests {
    @Test("an occurrence whose follow-up was skipped leaves its series and keeps only its first alarm")
    func skippedFollowUp() async throws {
        let files = try await compileToFiles(
            "examples/medication.plist", style: "recurring",
            options: ["--now", "2026-11-22T08:00:00Z", "--pending-limit", "0", "--events", "examples/medication.events.json"]
        )
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let text = String(decoding: try Data(contentsOf: files.ics), as: UTF8.self)
        let events = text.components(separatedBy: "BEGIN:VEVENT\r\n").dropFirst()
        // The events file skips med-c-20261124-1900-followup.
        let single = try #require(events.first { $0.hasPrefix("UID:med-c-20261124-1900@") })
        #expect(single.contains("DTSTART:20261124T180000Z\r\n"))
        #expect(single.components(separatedBy: "BEGIN:VALARM").count == 2)
        #expect(single.contains("TRIGGER:PT0S"))
        let series = try #require(events.first { $0.hasPrefix("UID:med-c-1900@") })
        #expect(series.contains("EXDATE;TZID=Europe/Berlin:20261124T190000"))
        #expect(series.components(separatedBy: "BEGIN:VALARM").count == 3)
        // The snooze the events made is an event of its own.
        #expect(events.contains { $0.hasPrefix("UID:med-c-20261121-1900-snooze@") })
    }
}
