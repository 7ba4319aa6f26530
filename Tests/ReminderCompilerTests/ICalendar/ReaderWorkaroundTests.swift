import Foundation
import Testing
@testable import ReminderCompiler

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
    func tzdataVersion() throws {
        let version = try #require(TimeZoneDatabase.system.version)
        #expect(version.range(of: #"^\d{4}[a-z]$"#, options: .regularExpression) != nil, "\(version)")
        let result = try remindc("compile", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z")
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
}
