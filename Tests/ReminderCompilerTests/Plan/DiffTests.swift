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
          "plan": {}
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
            let center = CivilDate(dayNumber: generator.random.int(19_000...21_000))
            let config = generator.config(around: center)
            let firstNow = Int64(center.dayNumber) * 86_400 + Int64(generator.random.int(0...86_399))
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
