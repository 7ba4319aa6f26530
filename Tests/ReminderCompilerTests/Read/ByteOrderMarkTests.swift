import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// A UTF-8 byte order mark before a JSON document is ignored by every reader, as RFC 8259
/// allows; before this, each refused the file at 1:1.
@Suite("Byte order marks")
struct ByteOrderMarkTests {
    static let mark: [UInt8] = [0xEF, 0xBB, 0xBF]

    @Test("configs, events, plans, pending lists and jobs read the same with a mark before them")
    func ignored() throws {
        let config = Array(#"{"formatVersion": 1, "timeZone": "UTC", "reminders": [{"id": "a", "title": "A", "schedule": {"frequency": "daily", "times": ["09:00"]}}]}"#.utf8)
        let plain = ReminderCompiler.check(config, path: "c.json")
        let marked = ReminderCompiler.check(Self.mark + config, path: "c.json")
        #expect(plain.diagnostics.isEmpty && marked.diagnostics.isEmpty, "\(marked.diagnostics.map(\.formatted))")
        #expect(marked.config?.reminders.map(\.id) == ["a"])

        let events = Array(#"{"formatVersion": 1, "events": [{"occurrence": "a-20261123-0900", "action": "done"}]}"#.utf8)
        let readEvents = ReminderCompiler.readEvents(Self.mark + events, path: "e.json")
        #expect(readEvents.diagnostics.isEmpty && readEvents.events?.actions.count == 1)

        let options = CompileOptions(now: .instant(1_795_334_400), horizonDays: 3)
        let parsed = try #require(plain.config)
        let plan = try #require(ReminderCompiler.plan(parsed, options: options).plan)
        let planBytes = PlanJSON.encode(plan)
        var diagnostics = DiagnosticCollector()
        let read = ReminderCompiler.readPlan(Self.mark + planBytes, path: "p.json", diagnostics: &diagnostics)
        #expect(diagnostics.sorted.isEmpty)
        #expect(read.map(PlanJSON.encode) == planBytes)
        #expect(ReminderCompiler.holdsPlan(Self.mark + planBytes))

        let pending = ReminderCompiler.readPending(Self.mark + Array(#"[{"id": "a-20261123-0900"}]"#.utf8), path: "pending.json")
        #expect(pending.diagnostics.isEmpty && pending.pending?.map(\.id) == ["a-20261123-0900"])

        let job = Array(#"{"config": "{}", "now": "2026-11-22T08:00:00Z"}"#.utf8)
        #expect((try? PlanJob.parse(Self.mark + job).get()) != nil)
        // Only at the start: a mark anywhere else is not white space.
        #expect(ReminderCompiler.check(Array(" ".utf8) + Self.mark + config, path: "c.json").hasErrors)
    }
}
