import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// `calendarScope` / `--ics-scope` (Planning rules, "Calendar scope"): a calendar of the whole window while the
/// plan stays budgeted.
@Suite("Calendar scope")
struct CalendarScopeTests {
    @Test("a calendar the budget cut says so in a note, on both ways the command line writes it; a whole one says nothing",
          arguments: [[], ["--html", "HTML"]])
    func cutCalendarNote(_ extra: [String]) async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = extra.map { $0 == "HTML" ? folder.appendingPathComponent("plan.html").path : $0 }
        let base = ["compile", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z", "-o", folder.appendingPathComponent("plan.json").path,
                    "--ics", folder.appendingPathComponent("plan.ics").path] + arguments
        let cut = try await remindc(base + ["--warnings-as-errors"])
        #expect(cut.status == 0, "\(cut.standardError)")
        // 98 notifications in the window, 64 kept (the hand count in the Calendars article).
        #expect(cut.standardError == "examples/medication.plist:13:1: note: the calendar holds the plan's 64 notifications, up to 2026-12-01T09:50:00+01:00; the pending limit left 34 more of the window to later plans, which calendarScope 'window' writes too (--ics-scope window on the command line)\n")
        let ics = String(decoding: try Data(contentsOf: folder.appendingPathComponent("plan.ics")), as: UTF8.self)
        #expect(ics.components(separatedBy: "BEGIN:VEVENT").count - 1 == 64)
        for whole in [["--ics-scope", "window"], ["--pending-limit", "0"], ["--ics-style", "recurring"]] {
            let result = try await remindc(base + whole)
            #expect(result.status == 0 && result.standardError.isEmpty, "\(whole): \(result.standardError)")
        }
    }

    @Test("remindc ics of a plan the budget cut says so too, naming the compile that writes the whole window; of a whole plan, or in the recurring style, nothing")
    func cutCalendarNoteFromPlanFile() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = folder.appendingPathComponent("plan.json").path, whole = folder.appendingPathComponent("whole.json").path
        #expect(try await remindc("compile", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z", "-o", plan).status == 0)
        let cut = try await remindc("ics", plan, "-o", folder.appendingPathComponent("plan.ics").path)
        #expect(cut.status == 0)
        #expect(cut.standardError == "\(plan):1:1: note: the calendar holds the plan's 64 notifications, up to 2026-12-01T09:50:00+01:00; the pending limit left 34 more of the window out of the plan, which a compile with --ics-scope window writes too\n")
        #expect(try await remindc("compile", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z", "--pending-limit", "0", "-o", whole).status == 0)
        let complete = try await remindc("ics", whole, "-o", folder.appendingPathComponent("whole.ics").path)
        #expect(complete.status == 0 && complete.standardError.isEmpty, "\(complete.standardError)")
        let recurring = try await remindc("ics", plan, "--ics-style", "recurring", "--config", "examples/medication.plist", "-o", folder.appendingPathComponent("r.ics").path)
        #expect(recurring.status == 0 && recurring.standardError.isEmpty, "\(recurring.standardError)")
    }

    @Test("window: the calendar is the unbudgeted compile's calendar, byte for byte; the plan stays budgeted",
          arguments: [["--ics-scope", "window"], ["--ics-scope", "window", "--previous", "PREVIOUS", "--diff", "DIFF"], ["CONFIG-SCOPE"]])
    func window(_ extra: [String]) async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var config = "examples/medication.plist"
        if extra == ["CONFIG-SCOPE"] {
            // The same through the config's own key.
            let text = String(decoding: try Data(contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent(config)), as: UTF8.self)
            let scoped = text.replacingOccurrences(of: "<key>reminders</key>", with: "<key>calendarScope</key><string>window</string>\n  <key>reminders</key>")
            #expect(scoped != text)
            config = folder.appendingPathComponent("scoped.plist").path
            try Data(scoped.utf8).write(to: URL(fileURLWithPath: config))
        }
        let previous = folder.appendingPathComponent("previous.json").path
        #expect(try await remindc("compile", "examples/medication.plist", "--now", "2026-11-21T08:00:00Z", "-o", previous).status == 0)
        let arguments = extra.filter { $0 != "CONFIG-SCOPE" }.map {
            $0 == "PREVIOUS" ? previous : $0 == "DIFF" ? folder.appendingPathComponent("diff.json").path : $0
        }
        let plan = folder.appendingPathComponent("plan.json").path
        let ics = folder.appendingPathComponent("window.ics").path
        let result = try await run(TestEnvironment.remindcExecutable, ["compile", config, "--now", "2026-11-22T08:00:00Z", "-o", plan, "--ics", ics] + arguments)
        #expect(result.status == 0, "\(result.standardError)")
        let unbudgetedICS = folder.appendingPathComponent("unbudgeted.ics").path
        var reference = ["compile", "examples/medication.plist", "--now", "2026-11-22T08:00:00Z", "--pending-limit", "0", "-o", "/dev/null", "--ics", unbudgetedICS]
        if arguments.contains("--previous") { reference += ["--previous", previous] }
        #expect(try await run(TestEnvironment.remindcExecutable, reference).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: ics)) == Data(contentsOf: URL(fileURLWithPath: unbudgetedICS)))
        let written = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: plan))) as? [String: Any])
        #expect((written["notifications"] as? [Any])?.count == 64)
        #expect((written["dropped"] as? Int ?? 0) > 0)
        let events = String(decoding: try Data(contentsOf: URL(fileURLWithPath: ics)), as: UTF8.self).components(separatedBy: "BEGIN:VEVENT").count - 1
        #expect(events == 64 + (written["dropped"] as? Int ?? 0))
    }

    @Test("an unknown scope is a located error with a suggestion")
    func unknownScope() throws {
        let result = check(configXML(reminders: reminderXML("r"), rootExtra: "<key>calendarScope</key><string>windw</string>"))
        #expect(result.diagnostics.map(\.formatted) == [
            "c.plist:6:25: error: unknown calendarScope 'windw'; expected one of 'plan', 'window'; did you mean 'window'?",
        ])
    }
}
