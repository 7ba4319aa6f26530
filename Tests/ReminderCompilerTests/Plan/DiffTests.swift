import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

@Suite("Plan diff")
struct DiffTests {
    static let fixedNow = "2026-11-22T08:00:00Z"

    @Test("a plan diffed with itself is empty, and --exit-code exits 0")
    func selfDiff() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = folder.appendingPathComponent("plan.json").path
        #expect(try await remindc("compile", "examples/medication.plist", "--now", Self.fixedNow, "-o", plan).status == 0)
        let result = try await remindc("diff", plan, plan, "--exit-code")
        #expect(result.status == 0)
        #expect(result.standardOutput == "Plan: 0 to add, 0 to cancel, 0 to update, 64 unchanged, 0 expired.\n")
        let json = try await remindc("diff", plan, plan, "--format", "json", "--exit-code")
        #expect(json.status == 0)
        #expect(json.standardOutput == """
        {
          "formatVersion": 1,
          "add": [],
          "cancel": [],
          "update": [],
          "expired": [],
          "unchanged": 64,
          "plan": {},
          "reminders": []
        }

        """)
    }

    @Test("use case 4: another time zone gives updates with the same IDs, not cancel + add; sequences count up")
    func timeZoneChange() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = folder.appendingPathComponent("london.json").path
        let new = folder.appendingPathComponent("new-york.json").path
        let diffPath = folder.appendingPathComponent("diff.json").path
        #expect(try await remindc("compile", "examples/travel-medication.plist", "--now", Self.fixedNow, "-o", old).status == 0)
        let compiled = try await remindc(
            "compile", "examples/travel-medication.plist", "--now", Self.fixedNow, "--time-zone", "America/New_York",
            "--previous", old, "--diff", diffPath, "-o", new
        )
        #expect(compiled.status == 0, "\(compiled.standardError)")
        let diff = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: diffPath))) as! [String: Any]
        let updates = diff["update"] as! [[String: Any]]
        let added = Set((diff["add"] as! [[String: Any]]).map { $0["id"] as! String })
        let cancelled = Set(diff["cancel"] as! [String])
        #expect(updates.count == 26)
        #expect(added.isDisjoint(with: cancelled))
        for update in updates {
            let changes = update["changes"] as! [String: Any]
            #expect(Array(changes.keys) == ["fireAt"])
            let notification = update["notification"] as! [String: Any]
            #expect(notification["id"] as? String == update["id"] as? String)
            #expect(notification["sequence"] as? Int == 1)
        }
        // The same local times in the new zone: 14:00 in London is 14:00 in New York.
        let first = try #require(updates.first { $0["id"] as? String == "med-antibiotic-20261122-1400" })
        let change = (first["changes"] as! [String: Any])["fireAt"] as! [String: String]
        #expect(change == ["before": "2026-11-22T14:00:00+00:00", "after": "2026-11-22T14:00:00-05:00"])
        // The diff CLI agrees with the diff compile wrote.
        let text = try await remindc("diff", old, new)
        #expect(text.standardOutput.hasSuffix("Plan: 2 to add, 2 to cancel, 26 to update, 0 unchanged, 0 expired; 2 plan fields changed.\n"))
        #expect(text.standardOutput.hasPrefix("~ plan timeZone: Europe/London → America/New_York; coveredUntil: "))
        #expect(text.standardOutput.contains("~ med-antibiotic-20261122-1400    fireAt: 2026-11-22 14:00 +00:00 → 2026-11-22 14:00 -05:00\n"))
        let viaCommand = try await remindc("diff", old, new, "--format", "json")
        #expect(viaCommand.standardOutput == String(decoding: try Data(contentsOf: URL(fileURLWithPath: diffPath)), as: UTF8.self))
        // An .ics written with --previous carries the sequence.
        let ics = try await remindc("ics", new)
        #expect(ics.standardOutput.contains("SEQUENCE:1\r\n"))
    }

    @Test("a corrupt plan or another formatVersion is an error naming the file, exit 1")
    func badPlans() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good.json").path
        #expect(try await remindc("compile", "examples/daily-facts.plist", "--now", Self.fixedNow, "-o", good).status == 0)
        let corrupt = folder.appendingPathComponent("corrupt.json")
        try Data("{\n  \"formatVersion\": 1,\n  \"notifications\": [\n".utf8).write(to: corrupt)
        let other = folder.appendingPathComponent("v2.json")
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: good)), as: UTF8.self)
        try Data(text.replacingOccurrences(of: "\"formatVersion\": 1", with: "\"formatVersion\": 2").utf8).write(to: other)
        let corruptResult = try await remindc("diff", good, corrupt.path, "--exit-code")
        #expect(corruptResult.status == 1)
        #expect(corruptResult.standardError.hasPrefix("\(corrupt.path):4:1: error: malformed JSON"))
        let otherResult = try await remindc("diff", other.path, good)
        #expect(otherResult.status == 1)
        #expect(otherResult.standardError == "\(other.path):2:20: error: plan formatVersion 2 is not supported; expected 1\n")
        let missing = try await remindc("diff", good, folder.appendingPathComponent("none.json").path)
        #expect(missing.status == 1)
        let previous = try await remindc("compile", "examples/daily-facts.plist", "--previous", corrupt.path, "-o", folder.appendingPathComponent("x.json").path)
        #expect(previous.status == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.json").path))
        let diffWithoutPrevious = try await remindc("compile", "examples/daily-facts.plist", "--diff", folder.appendingPathComponent("d.json").path)
        #expect(diffWithoutPrevious.status == 1)
    }

    @Test("applying diff(old, new) to old's pending notifications gives exactly new; expired are exactly those that fired",
          .timeLimit(.minutes(3)))
    func applyingTheDiff() throws {
        var generator = PlanScenarioGenerator(seed: 9)
        for round in 0..<200 {
            let (config, firstNow) = generator.scenario()
            let secondNow = firstNow + Int64(generator.random.int(0...(5 * 86_400)))
            let horizon = generator.random.int(1...15)
            let limit = generator.random.chance(50) ? 0 : generator.random.int(1...30)
            let old = try #require(ReminderCompiler.plan(
                config, options: CompileOptions(now: .instant(firstNow), horizonDays: horizon, pendingLimit: limit)
            ).plan)
            let events = generator.suppressingEvents(for: old, now: secondNow)
            var new = try #require(ReminderCompiler.plan(
                config, options: CompileOptions(now: .instant(secondNow), horizonDays: horizon, pendingLimit: limit), events: events
            ).plan)
            ReminderCompiler.carrySequences(into: &new, from: old)
            let diff = PlanDiff(old: old, new: new)

            var pending = Dictionary(uniqueKeysWithValues: old.notifications.filter { $0.fireAt.seconds > secondNow }.map { ($0.id, $0) })
            for id in diff.cancel.map(\.id) + diff.update.map(\.id) { pending[id] = nil }
            for notification in diff.add + diff.update.map(\.notification) { pending[notification.id] = notification }
            // What remains: the unchanged ones, which the app keeps as scheduled.
            let applied = pending.values.sorted { ($0.fireAt.seconds, $0.id) < ($1.fireAt.seconds, $1.id) }
            #expect(applied.map(\.id) == new.notifications.map(\.id), "round \(round)")
            for (left, right) in zip(applied, new.notifications) {
                #expect(PlanDiff.changes(from: left, to: right).isEmpty, "round \(round): \(left.id)")
            }
            let newIDs = Set(new.notifications.map(\.id))
            #expect(Set(diff.expired.map(\.id)) == Set(old.notifications.filter { $0.fireAt.seconds <= secondNow && !newIDs.contains($0.id) }.map(\.id)))
            #expect(diff.unchanged + diff.update.count + diff.add.count == new.notifications.count)
        }
    }
}

/// The per-reminder summary that comes before the detail (terraform's plan summarises per
/// resource first): what changed about each reminder, and how many notifications it moves.
@Suite("Diff by reminder")
struct DiffByReminderTests {
    /// The medication example compiled at `now`, with `edit` applied to its text first.
    static func plan(_ edit: (String) -> String, now: String, in folder: URL, name: String) async throws -> String {
        let config = folder.appendingPathComponent("\(name).plist")
        let text = String(decoding: try Data(contentsOf: TestEnvironment.examples.appendingPathComponent("medication.plist")), as: UTF8.self)
        try Data(edit(text).utf8).write(to: config)
        let plan = folder.appendingPathComponent("\(name).json").path
        let result = try await remindc("compile", config.path, "--now", now, "-o", plan)
        #expect(result.status == 0, "\(result.standardError)")
        return plan
    }

    @Test("a reminder moved from 21:30 to 22:00 is one line: its times, and what it cancels and adds; the window's new day is counted apart; the other reminders have no line")
    func timeMoved() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = try await Self.plan({ $0 }, now: "2026-11-22T08:00:00Z", in: folder, name: "old")
        let new = try await Self.plan({ $0.replacingOccurrences(of: "<string>21:30</string>", with: "<string>22:00</string>") }, now: "2026-11-23T08:00:00Z", in: folder, name: "new")
        let text = try await remindc("diff", old, new)
        let summaries = text.standardOutput.split(separator: "\n").filter { $0.hasPrefix("# ") }
        #expect(summaries == ["# med-d (Blood pressure check): times 21:30 → 22:00; 8 cancelled, 9 added (1 new in the window)"])
        // The line agrees with the detail: med-d's cancels are at 21:30 and its adds at 22:00.
        let detail = text.standardOutput.split(separator: "\n").filter { $0.hasPrefix("- med-d") || $0.hasPrefix("+ med-d") }
        #expect(detail.filter { $0.hasPrefix("- ") }.count == 8 && detail.filter { $0.hasPrefix("- ") }.allSatisfy { $0.contains(" 21:30 ") })
        #expect(detail.filter { $0.hasPrefix("+ ") }.count == 9 && detail.filter { $0.hasPrefix("+ ") }.allSatisfy { $0.contains(" 22:00 ") })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try await remindc("diff", old, new, "--format", "json").standardOutput.utf8)) as? [String: Any])
        let reminders = try #require(json["reminders"] as? [[String: Any]])
        #expect(reminders.count == 1)
        #expect(reminders.first?["id"] as? String == "med-d")
        #expect(reminders.first?["add"] as? Int == 9 && reminders.first?["cancel"] as? Int == 8 && reminders.first?["newInWindow"] as? Int == 1)
        #expect((reminders.first?["times"] as? [String: [String]]) == ["before": ["21:30"], "after": ["22:00"]])
        let markdown = try await remindc("diff", old, new, "--format", "markdown")
        #expect(markdown.standardOutput.contains("| `med-d` Blood pressure check | times 21:30 → 22:00; 8 cancelled, 9 added (1 new in the window) |"))
        // The whole text and Markdown, summary first, then the detail.
        let golden = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Golden/diff")
        expectGolden(text.standardOutput, matches: golden.appendingPathComponent("time-moved.txt"))
        expectGolden(markdown.standardOutput, matches: golden.appendingPathComponent("time-moved.md"))
    }

    @Test("a reminder renamed in the config is one line removed and one line new, in text, JSON (valid against the schema) and the in-memory diff alike")
    func removedAndAdded() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = try await Self.plan({ $0 }, now: "2026-11-22T08:00:00Z", in: folder, name: "old")
        let new = try await Self.plan({ $0.replacingOccurrences(of: "<string>med-d</string>", with: "<string>med-e</string>") }, now: "2026-11-22T08:00:00Z", in: folder, name: "new")
        let text = try await remindc("diff", old, new)
        #expect(text.standardOutput.split(separator: "\n").filter { $0.hasPrefix("# ") } == [
            "# med-d (Blood pressure check): removed from the config; 9 cancelled",
            "# med-e (Blood pressure check): new in the config; 9 added",
        ])
        let json = folder.appendingPathComponent("diff.json")
        try Data(try await remindc("diff", old, new, "--format", "json").standardOutput.utf8).write(to: json)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        #expect((object["reminders"] as? [[String: Any]])?.map { $0["config"] as? String } == ["removed", "added"])
        let validated = try await validateWithJSONSchema(
            schema: TestEnvironment.repositoryRoot.appendingPathComponent("schema/diff.schema.json"), documents: [json]
        )
        #expect(validated.status == 0, "\(validated.standardOutput)\(validated.standardError)")
        // The whole-plan path agrees with the file comparison.
        var diagnostics = DiagnosticCollector()
        let oldPlan = try #require(PlanReader.read(TestEnvironment.bytes(URL(fileURLWithPath: old)), path: "old", diagnostics: &diagnostics))
        let newPlan = try #require(PlanReader.read(TestEnvironment.bytes(URL(fileURLWithPath: new)), path: "new", diagnostics: &diagnostics))
        #expect(PlanDiff(old: oldPlan, new: newPlan).byReminder.map(\.configChange) == [.removed, .added])
        // Unchanged configs: no reminder is said to be removed or added.
        #expect(PlanDiff(old: oldPlan, new: oldPlan).byReminder.isEmpty)
    }

    /// After a change of zone every update moves `fireAt` its own way: the summary once
    /// listed each of those changes under the same JSON key, and compared each new change
    /// with all earlier ones.
    @Test("a field changed in many ways is named once under varied, and the summary's JSON has no repeated key")
    func variedField() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let london = folder.appendingPathComponent("london.json").path, newYork = folder.appendingPathComponent("new-york.json").path
        #expect(try await remindc("compile", "examples/travel-medication.plist", "--now", "2026-11-22T05:00:00Z", "-o", london).status == 0)
        #expect(try await remindc(
            "compile", "examples/travel-medication.plist", "--now", "2026-11-22T05:00:00Z", "--time-zone", "America/New_York", "-o", newYork
        ).status == 0)
        let text = try await remindc("diff", london, newYork)
        #expect(text.standardOutput.split(separator: "\n").filter { $0.hasPrefix("# ") } == [
            "# med-antibiotic (Amoxicillin): fireAt changed; 21 updated", "# med-levothyroxine (Levothyroxine): fireAt changed; 7 updated",
        ])
        let json = try await remindc("diff", london, newYork, "--format", "json").standardOutput
        // The top level's key, two spaces in (a notification's own `reminders` is deeper).
        let summaries = String(json[try #require(json.range(of: "\n  \"reminders\": [")).lowerBound...])
        #expect(summaries.components(separatedBy: "\"fireAt\": {").count == 1, "no fireAt key among the summaries' changes")
        #expect(summaries.components(separatedBy: "\"varied\": [\"fireAt\"]").count == 3)
    }

    @Test("a title changed in place is one line with the change and the count of updates; a weekly reminder moved to other days names its weekdays")
    func titleAndWeekdays() async throws {
        var diff = PlanDiff()
        let slot = LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 23)!, time: LocalTime(minuteOfDay: 540)!)
        func notification(_ id: String, _ day: Int, reminder: String, title: String) -> PlannedNotification {
            var slot = slot
            slot.date = CivilDate(year: 2026, month: 11, day: day)!
            return PlannedNotification(
                id: id, kind: .single, fireAt: ZonedInstant(seconds: 1_795_000_000 + Int64(day) * 86_400, offsetSeconds: 0), slot: slot, reminders: [reminder],
                title: title, body: "", interruptionLevel: .active
            )
        }
        let renamed = notification("a-20261123-0900", 23, reminder: "a", title: "New")
        diff.update = [PlanDiff.Update(id: renamed.id, changes: PlanDiff.changes(from: notification(renamed.id, 23, reminder: "a", title: "Old"), to: renamed), notification: renamed)]
        // Monday the 23rd and 30th cancelled, Wednesday the 25th added, all at 09:00.
        diff.cancel = [notification("w-20261123-0900", 23, reminder: "w", title: "Yoga"), notification("w-20261130-0900", 30, reminder: "w", title: "Yoga")]
        diff.add = [notification("w-20261125-0900", 25, reminder: "w", title: "Yoga")]
        let summaries = diff.byReminder
        #expect(summaries.map(\.reminder) == ["a", "w"])
        #expect(summaries.first?.description == "title: Old → New; 1 updated")
        #expect(summaries.last?.description == "weekdays monday → wednesday; 2 cancelled, 1 added")
        #expect(summaries.last?.timesBefore == [])
    }
}
