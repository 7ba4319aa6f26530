import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// `remindc explain`: why an ID is or is not in the plan, on the medication example with its
/// events, each answer worked out by hand from the config and the events file.
@Suite("Explain")
struct ExplainTests {
    static func explain(_ id: String, _ extra: String...) async throws -> [String] {
        let result = try await run(TestEnvironment.remindcExecutable, [
            "explain", "examples/medication.plist", "--occurrence", id, "--now", "2026-11-22T08:00:00Z",
            "--events", "examples/medication.events.json",
        ] + extra)
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput.components(separatedBy: "\n").filter { !$0.isEmpty }
    }

    @Test("planned: a group's notification, its position and members; a member is sent to its group")
    func planned() async throws {
        #expect(try await Self.explain("med-b-20261122-0920") == [
            "med-b-20261122-0920: planned",
            "  reminder 'med-b' is in group 'morning': its occurrence comes as the group's notification 'morning-20261122-0920'",
            // The snooze at 09:15 comes first.
            "  'morning-20261122-0920' is in the plan: group at 2026-11-22 09:20 +01:00, number 2 of 64, \"Vitamin D\"",
        ])
    }

    @Test("suppressed by events, each named at its file, line and column")
    func suppressed() async throws {
        // Both members marked done on the 23rd (lines 6 and 7 of the events file).
        #expect(try await Self.explain("morning-20261123-0920") == [
            "morning-20261123-0920: suppressed",
            "  'morning-20261123-0920' at 2026-11-23 09:20 +01:00 is suppressed for med-a, med-b: done",
            "  examples/medication.events.json:6:5: the event 'done' on 'med-a-20261123-0920'",
            "  examples/medication.events.json:7:5: the event 'done' on 'med-b-20261123-0920'",
        ])
        // Med A logged at 08:50, within its 4-hour look-back: the group comes without it.
        let activity = try await Self.explain("med-a-20261122-0920")
        #expect(activity.first == "med-a-20261122-0920: suppressed")
        #expect(activity.contains("  'morning-20261122-0920' at 2026-11-22 09:20 +01:00 is suppressed for med-a: activity"))
        #expect(activity.contains("  examples/medication.events.json:4:5: 'med-a' logged at 2026-11-22 08:50 +01:00"))
        #expect(try await Self.explain("med-c-20261124-1900-followup").contains("  examples/medication.events.json:8:5: the event 'skip' on 'med-c-20261124-1900-followup'"))
    }

    @Test("dropped by the budget: its position, and the pendingLimit that would keep it")
    func dropped() async throws {
        // 64 kept; from 1 December 13:00 on dropped: 13:00 is the 65th, its follow-up the
        // 66th, 19:00 the 67th.
        let lines = try await Self.explain("med-c-20261201-1900")
        #expect(lines.first == "med-c-20261201-1900: dropped")
        #expect(lines.contains { $0.contains("number 67 of ") && $0.contains("keeps the first 64 (pendingLimit 64, reservedSlots 0)") })
        #expect(lines.contains { $0.contains("a pendingLimit of 67 would keep it") })
        // And with that limit it is planned.
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("m.plist")
        let text = String(decoding: try Data(contentsOf: TestEnvironment.examples.appendingPathComponent("medication.plist")), as: UTF8.self)
        try Data(text.replacingOccurrences(of: "<integer>64</integer>", with: "<integer>67</integer>").utf8).write(to: config)
        let kept = try await run(TestEnvironment.remindcExecutable, [
            "explain", config.path, "--occurrence", "med-c-20261201-1900", "--now", "2026-11-22T08:00:00Z", "--events", "examples/medication.events.json",
        ])
        #expect(kept.standardOutput.hasPrefix("med-c-20261201-1900: planned"), "\(kept.standardOutput)")
    }

    @Test("not a slot, a missing follow-up, outside the window, an unknown key, not an ID")
    func absent() async throws {
        #expect(try await Self.explain("med-c-20261122-1000") == [
            "med-c-20261122-1000: notInSchedule",
            "  2026-11-22 10:00 is not a slot of the schedule of 'med-c'; the next slots are med-c-20261122-1300 (2026-11-22 13:00 +01:00), med-c-20261122-1900 (2026-11-22 19:00 +01:00), med-c-20261123-1300 (2026-11-23 13:00 +01:00)",
        ])
        #expect(try await Self.explain("med-c-20261122-1300-followup-2") == [
            "med-c-20261122-1300-followup-2: notInSchedule", "  'med-c' has 1 follow-up(s), so there is no follow-up 2",
        ])
        // horizonDays 14 from 2026-11-22 09:00.
        #expect(try await Self.explain("morning-20261221-0920") == [
            "morning-20261221-0920: outsideWindow",
            "  it is due at 2026-12-21 09:20 +01:00, after the window's end (2026-12-06 09:00 +01:00); a longer horizonDays or a later plan brings it in",
        ])
        #expect(try await Self.explain("med-c-20261121-1300") == [
            "med-c-20261121-1300: outsideWindow",
            "  it was due at 2026-11-21 13:00 +01:00, not after now (2026-11-22 09:00 +01:00): it has fired or been missed",
        ])
        #expect(try await Self.explain("med-x-20261122-0920") == [
            "med-x-20261122-0920: unknown", "  no reminder or group of the config is called 'med-x'; did you mean 'med-a'?",
        ])
        #expect(try await Self.explain("tomorrow")[0] == "tomorrow: unknown")
    }

    @Test("deferred by quiet hours, with the time it was due")
    func deferred() async throws {
        // 12 a day (posture every two hours 06:00–22:00, journal and its follow-up, insulin)
        // for 5 days. Before it: six posture reminders, the journal pair and the insulin on
        // the 22nd, then the 22nd's 22:00 posture, deferred to 07:00 as well and first by ID.
        let result = try await remindc("explain", "examples/quiet-hours.plist", "--occurrence", "posture-20261123-0600", "--now", "2026-11-22T08:00:00Z")
        #expect(result.standardOutput == """
            posture-20261123-0600: planned
              'posture-20261123-0600' is in the plan: reminder at 2026-11-23 07:00 +01:00, number 11 of 60, "Sit up straight"
              quiet hours (21:30–07:00, defer) moved it from 2026-11-23 06:00 +01:00

            """)
    }
}

extension ExplainTests {
    @Test("every example: its first notification, first suppressed one, first dropped one and a time that is no slot, golden-tested",
          arguments: try TestEnvironment.exampleConfigs())
    func goldenExplanations(_ config: URL) async throws {
        let name = config.deletingPathExtension().lastPathComponent
        var common = ["--now", CompileCommandTests.nowOfEvents[name] ?? CompileCommandTests.fixedNow]
        if let events = try TestEnvironment.exampleEvents().first(where: { $0.lastPathComponent.hasPrefix(name + ".events.") }) {
            common += ["--events", "examples/\(events.lastPathComponent)"]
        }
        let path = "examples/\(config.lastPathComponent)"
        let plan = try JSONDecoder().decode(Plan.self, from: Data(try await run(TestEnvironment.remindcExecutable, ["compile", path] + common).standardOutput.utf8))
        let whole = try JSONDecoder().decode(
            Plan.self, from: Data(try await run(TestEnvironment.remindcExecutable, ["compile", path, "--pending-limit", "0"] + common).standardOutput.utf8)
        )
        let kept = Set(plan.notifications.map(\.id))
        let first = try #require(plan.notifications.first)
        let key = try #require(OccurrenceReference(first.parent ?? first.id)).key
        let ids = [first.id, plan.suppressed.first?.id, whole.notifications.first { !kept.contains($0.id) }?.id, "\(key)-20261122-0001"].compactMap { $0 }
        var text = ""
        for id in ids {
            let result = try await run(TestEnvironment.remindcExecutable, ["explain", path, "--occurrence", id] + common)
            #expect(result.status == 0, "\(result.standardError)")
            text += result.standardOutput
        }
        expectGolden(text, matches: CompileCommandTests.golden.appendingPathComponent("explain/\(name).txt"))
    }
}
