import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Inputs that once crashed remindc or took minutes: each must be answered at once.
///
/// The time limits are not measurements: they bound work that was quadratic (minutes
/// before the fix) and is now linear (well under a second), so a regression fails.
@Suite("Hostile input")
struct HostileInputTests {
    /// A plan remindc wrote, as bytes.
    static func examplePlan() throws -> [UInt8] {
        try TestEnvironment.bytes(
            TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Golden/plans/medication.json")
        )
    }

    @Test("a plan whose title nests 110 000 arrays is a located error, not a stack overflow")
    func deeplyNestedPlan() async throws {
        let good = String(decoding: try Self.examplePlan(), as: UTF8.self)
        let firstTitle = try #require(good.range(of: #""title": "Morning medications""#))
        let hostile = good.replacingCharacters(
            in: firstTitle, with: "\"title\": " + String(repeating: "[", count: 110_000) + String(repeating: "]", count: 110_000)
        )
        let hostileBytes = Array(hostile.utf8)
        #expect(PlanDiff(oldFile: try await Self.examplePlan(), newFile: hostileBytes) == nil)
        var diagnostics = DiagnosticCollector()
        #expect(ReminderCompiler.readPlan(hostileBytes, path: "deep.json", diagnostics: &diagnostics) == nil)
        let error = try #require(diagnostics.diagnostics.first { $0.severity == .error })
        #expect(error.message.id == "xml.too-deep")
        let line = hostile.prefix(upTo: firstTitle.lowerBound).filter { $0 == "\n" }.count + 1
        #expect(error.location.line == line)

        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("deep.json")
        try Data(hostileBytes).write(to: path)
        let result = try await remindc("diff", "Tests/ReminderCompilerTests/Golden/plans/medication.json", path.path)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("\(path.path):\(line):"))
        #expect(result.standardError.contains("error: elements nest deeper than the limit of 64 levels"))
    }

    @Test("positions in one long line match a count from the line's start, in ASCII text and in text with multi-byte scalars")
    func positionsInLongLines() {
        var generator = SystemRandomNumberGenerator()
        let ascii = ["a", "\n", "{\"k\":1}", "\t"]
        // ASCII text takes the table's shortcut (a column is a distance in bytes).
        for pieces in [ascii + ["é", "€", "😀"], ascii] {
            for _ in 0..<20 {
                let text = (0..<Int.random(in: 0..<600, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
                let bytes = Array(text.utf8)
                let table = LineTable(bytes)
                for offset in 0...bytes.count {
                    let before = bytes[..<offset]
                    let lineStart = (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 }) ?? 0
                    let expectedLine = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
                    let expectedColumn = bytes[lineStart..<offset].filter { $0 & 0xC0 != 0x80 }.count + 1
                    let position = table.position(ofByte: offset)
                    #expect(position.line == expectedLine && position.column == expectedColumn, "offset \(offset) of \(text.debugDescription)")
                }
            }
        }
    }

    @Test("a minified events file of 40 000 events is read at once, with columns on its one line", .timeLimit(.minutes(3)))
    func minifiedEvents() throws {
        let event = #"{"activity":"med-a","at":"2026-11-21T08:00:00Z"}"#
        let json = #"{"events":["# + Array(repeating: event, count: 40_000).joined(separator: ",") + #","oops"]}"#
        var diagnostics = DiagnosticCollector()
        _ = ReminderCompiler.readEvents(Array(json.utf8), path: "events.json", diagnostics: &diagnostics)
        let error = try #require(diagnostics.diagnostics.first { $0.severity == .error })
        // "oops" stands after 40 000 events and their commas, and the opening text.
        #expect(error.location.line == 1)
        #expect(error.location.column == 12 + 40_000 * (event.count + 1))
    }

    @Test("a once schedule of 100 000 entries gives its recurring calendar at once, every entry an event", .timeLimit(.minutes(1)))
    func manyOnceEntries() throws {
        // Every 7 minutes from 2026-12-01, 100 000 times: about 16 months.
        let first = Int64(CivilDate(year: 2026, month: 12, day: 1)!.dayNumber) * 1440
        let entries = (0..<100_000).map { index -> LocalDateTime in
            let minute = first + Int64(index) * 7
            return LocalDateTime(date: CivilDate(dayNumber: Int(minute / 1440)), time: LocalTime(minuteOfDay: Int(minute % 1440))!)
        }
        let config = ReminderConfig(timeZone: "Europe/Berlin", reminders: [Reminder(id: "a", title: "A", schedule: .once(entries))])
        let plan = try #require(ReminderCompiler.plan(config, options: CompileOptions(now: .instant(1_795_334_400), horizonDays: 30)).plan)
        let calendar = ICalendarExport.recurring(config, plan: plan)
        // Searching the entries once an entry took 8.8 s in a release build, and minutes in a debug one.
        var events = 0
        for index in calendar.indices.dropLast(12) where calendar[index] == UInt8(ascii: "B") {
            if calendar[index..<index + 12].elementsEqual("BEGIN:VEVENT".utf8) { events += 1 }
        }
        #expect(events == 100_000)
    }

    @Test("a config of 1.3 MB on one line is checked at once", .timeLimit(.minutes(3)))
    func oneLineConfig() throws {
        let reminders = (0..<6_000).map { reminderXML("r\($0)") }.joined()
        let xml = configXML(reminders: reminders).replacingOccurrences(of: "\n", with: "")
        #expect(xml.utf8.count > 1_300_000)
        let result = check(xml)
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty)
        #expect(result.config?.reminders.count == 6_000)
    }

    @Test("16 000 bad times: checked at once, the first 1 000 errors shown and the rest counted", .timeLimit(.minutes(3)))
    func manyErrors() throws {
        let reminders = (0..<16_000).map {
            reminderXML("r\($0)", schedule: "<key>frequency</key><string>daily</string><key>times</key><array><string>25:00</string></array>")
        }.joined(separator: "\n")
        let result = check(configXML(reminders: reminders))
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == DiagnosticCollector.defaultMaximumErrors)
        #expect(result.hasErrors)
        let last = try #require(result.diagnostics.last)
        #expect(last.severity == .note)
        #expect(last.message.text == "and 15000 more errors in this file, not shown (the first 1000 are)")
        // The note stands at the first error left out: the 1 001st reminder's time.
        #expect(last.location.line == errors.last!.location.line + 1)
    }
}

@Suite("Plan size cap")
struct PlanSizeCapTests {
    /// One reminder at every minute of the day over `days`.
    static func everyMinute(days: Int) -> String {
        let times = (0..<1440).map { "<string>\(zeroPadded($0 / 60, 2)):\(zeroPadded($0 % 60, 2))</string>" }.joined()
        return configXML(
            reminders: reminderXML("r", schedule: "<key>frequency</key><string>daily</string><key>times</key><array>\(times)</array>"),
            rootExtra: "<key>horizonDays</key><integer>\(days)</integer><key>pendingLimit</key><integer>64</integer>"
        )
    }

    @Test("a config whose slots pass 2 million is refused before anything is expanded")
    func overTheCap() throws {
        // 1440 × (1390 + 3) days of margin = 2 005 920 slots.
        let result = ReminderCompiler.compile(
            Array(Self.everyMinute(days: 1390).utf8), path: "c.plist", options: CompileOptions(now: .instant(fixedNow))
        )
        #expect(result.plan == nil)
        let error = try #require(result.diagnostics.first { $0.severity == .error })
        #expect(error.message.id == "plan.too-large", "\(error.formatted)")
        #expect(error.message.text.contains("2005920"), "\(error.message.text)")
    }
}
