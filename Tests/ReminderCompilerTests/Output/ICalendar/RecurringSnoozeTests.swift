import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// A recurring calendar holds every snooze of the window whose occurrence its series leave
/// out (EXDATE), also when the budget cut the snooze from the plan.
@Suite("Snoozes in recurring calendars")
struct RecurringSnoozeTests {
    /// A daily pill, a budget of three, and the sixth day's pill snoozed: its snooze lies
    /// past the budget's cut.
    static let config = """
        {"formatVersion": 1, "timeZone": "Europe/Berlin", "horizonDays": 10, "pendingLimit": 3, "minimumCoverageDays": 0,
         "reminders": [{"id": "pill", "title": "Pill", "schedule": {"frequency": "daily", "times": ["09:00"]}}]}
        """
    static let events = """
        {"formatVersion": 1, "events": [{"occurrence": "pill-20261128-0900", "action": "snooze", "at": "2026-11-28T09:00:00+01:00", "minutes": 30}]}
        """

    @Test("the cut snooze is an event of the recurring calendar beside the EXDATE, from the library and from both command-line paths")
    func snoozePastTheBudget() async throws {
        let options = CompileOptions(now: .instant(1_795_334_400))
        let inputs = ReminderCompiler.load(Array(Self.config.utf8), path: "c.json", options: options, events: (Array(Self.events.utf8), "e.json"))
        let compilation = try #require(ChunkedCompilation(inputs: inputs, options: options))
        let collected = compilation.collect(calendarStyle: .recurring)
        #expect(!collected.diagnostics.contains { $0.severity == .error })
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(collected.plan)) as? [String: Any])
        let ids = (plan["notifications"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(!ids.contains("pill-20261128-0900-snooze"), "the budget cuts it from the plan: \(ids)")
        let calendar = String(decoding: try #require(collected.calendar), as: UTF8.self)
        #expect(calendar.contains("EXDATE;TZID=Europe/Berlin:20261128T090000"))
        #expect(calendar.contains("UID:pill-20261128-0900-snooze@remindc.local"))

        // The command line writes the same calendar, whether it plans in chunks or whole
        // (with --html beside it).
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let configFile = folder.appendingPathComponent("c.json")
        let eventsFile = folder.appendingPathComponent("e.json")
        try Self.config.write(to: configFile, atomically: true, encoding: .utf8)
        try Self.events.write(to: eventsFile, atomically: true, encoding: .utf8)
        for extra in [[], ["--html", folder.appendingPathComponent("p.html").path]] {
            let ics = folder.appendingPathComponent("r.ics")
            let result = try await remindc(
                ["compile", configFile.path, "--events", eventsFile.path, "--now", "2026-11-22T08:00:00Z",
                 "-o", folder.appendingPathComponent("p.json").path, "--ics", ics.path, "--ics-style", "recurring"] + extra
            )
            #expect(result.status == 0, "\(result.standardError)")
            #expect(try String(contentsOf: ics, encoding: .utf8) == calendar, "\(extra)")
        }
    }
}
