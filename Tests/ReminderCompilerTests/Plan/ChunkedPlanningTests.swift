import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

extension LongComputationTests {
    @Suite("Plans written in chunks")
    struct ChunkedPlanningTests {
        /// The plan JSON and the expanded .ics written in chunks of `days`.
        func chunked(_ compilation: ChunkedCompilation, days: Int) throws -> (json: [UInt8], ics: [UInt8], diagnostics: [Diagnostic]) {
            var compilation = compilation
            compilation.chunkDays = days
            var json: [UInt8] = []
            var ics: [UInt8] = []
            let diagnostics = try compilation.write(
                planTo: { json.append(span: $0) }, calendarTo: { ics.append(span: $0) }
            )
            return (json, ics, diagnostics)
        }

        /// The diagnostics of a whole-window plan, with the note a written expanded calendar
        /// adds when the budget cut the plan.
        func withCalendarNote(_ diagnostics: [Diagnostic], _ plan: Plan, _ config: ReminderConfig) -> [Diagnostic] {
            var collector = DiagnosticCollector()
            collector.append(contentsOf: diagnostics)
            if let note = ReminderCompiler.calendarCutNote(plan, at: config.location) { collector.append(contentsOf: [note]) }
            return collector.sorted
        }

        /// The plan drafted from the whole window at once: the reference for every way of
        /// drafting it range by range.
        func wholeWindow(_ config: ReminderConfig, _ options: CompileOptions, events: ReminderEvents = ReminderEvents()) -> CompileResult {
            ReminderCompiler.plan(config, options: options, events: events, diagnostics: [], zones: .system, rangeDays: 4000)
        }

        @Test("give the same bytes and diagnostics as the whole plan, whatever the chunk size", .timeLimit(.minutes(3)))
        func sameBytes() async throws {
            var generator = PlanScenarioGenerator(seed: 31)
            for round in 0..<120 {
                await Task.yield()  // let tests that await a child process have a thread
                let (config, now) = generator.scenario()
                let options = CompileOptions(
                    now: .instant(now), horizonDays: generator.random.int(1...40),
                    pendingLimit: generator.random.chance(50) ? 0 : generator.random.int(1...60)
                )
                let whole = wholeWindow(config, options)
                let plan = try #require(whole.plan)
                var compilation = ChunkedCompilation(config: config, options: options)
                compilation.events = generator.suppressingEvents(for: plan, now: now)
                let withEvents = try #require(wholeWindow(config, options, events: compilation.events).plan)
                // The library's plan, drafted four weeks at a time, is the same plan.
                let libraryPlan = ReminderCompiler.plan(config, options: options, events: compilation.events)
                #expect(libraryPlan.plan.map(PlanJSON.encode) == PlanJSON.encode(withEvents), "round \(round)")
                #expect(libraryPlan.diagnostics == wholeWindow(config, options, events: compilation.events).diagnostics, "round \(round)")
                let previous = generator.random.chance(30) ? plan : nil
                compilation.previous = previous
                var expected = withEvents
                if let previous { ReminderCompiler.carrySequences(into: &expected, from: previous) }
                let expectedDiagnostics = wholeWindow(config, options, events: compilation.events).diagnostics
                for days in [1, 3, 28] {
                    let written = try chunked(compilation, days: days)
                    #expect(written.json == PlanJSON.encode(expected), "round \(round), chunks of \(days) days")
                    #expect(written.ics == ICalendarExport.expanded(expected, settings: CalendarSettings(config)),
                            "round \(round), chunks of \(days) days")
                    #expect(written.diagnostics == withCalendarNote(expectedDiagnostics, expected, config), "round \(round)")
                }
                // A recurring calendar needs only the config and the removals: written after a
                // plan in chunks, it is the one made from the whole plan.
                var recurring: [UInt8] = []
                var chunkedRecurring = compilation
                chunkedRecurring.chunkDays = 3
                _ = try chunkedRecurring.write(planTo: { _ in }, calendarTo: { recurring.append(span: $0) }, calendarStyle: .recurring)
                #expect(recurring == ICalendarExport.recurring(config, plan: expected), "round \(round)")
            }
        }

        @Test("the examples with their events, in chunks of a week")
        func examples() throws {
            for events in try TestEnvironment.exampleEvents() {
                let name = String(events.lastPathComponent.prefix { $0 != "." })
                let config = try #require(ReminderCompiler.check(
                    try TestEnvironment.bytes(TestEnvironment.examples.appendingPathComponent("\(name).plist")), path: name
                ).config)
                var collector = DiagnosticCollector()
                let parsed = try #require(ReminderCompiler.readEvents(try TestEnvironment.bytes(events), path: "e", diagnostics: &collector))
                let options = CompileOptions(now: .instant(fixedNow))
                let expected = try #require(ReminderCompiler.plan(config, options: options, events: parsed).plan)
                var compilation = ChunkedCompilation(config: config, options: options)
                compilation.events = parsed
                let written = try chunked(compilation, days: 7)
                #expect(written.json == PlanJSON.encode(expected), "\(name)")
            }
        }

        @Test("report a shared numericId like the whole plan, with and without a limit")
        func numericIDCollision() async throws {
            // r198824 and r568140 share the numericId of their 2026-11-23 09:00 occurrence
            // (see PlanPropertyTests.numericIDCollision), and, as their FNV-1a states already
            // agree after the reminder id, of every other occurrence too.
            let others = (0..<5).map { reminderXML("other-\($0)") }.joined()
            let config = try #require(await check(configXML(reminders: reminderXML("r198824") + reminderXML("r568140") + others)).config)
            for limit in [0, 1, 6, 7, 9] {
                let options = CompileOptions(now: .instant(fixedNow), horizonDays: 20, pendingLimit: limit)
                let whole = wholeWindow(config, options)
                let plan = try #require(whole.plan)
                let numericID = NotificationID.numericID(of: "r198824-20261123-0900")
                let warning = "numericId \(numericID) is shared by 'r198824-20261123-0900' and 'r568140-20261123-0900'"
                let shared = plan.warnings.filter { $0.hasPrefix("numericId") }
                #expect(shared.count == plan.notifications.count { $0.reminders == ["r568140"] }, "limit \(limit)")
                #expect(shared.first == (limit == 0 || limit >= 7 ? warning : nil), "limit \(limit)")
                for days in [1, 7, 28] {
                    let written = try chunked(ChunkedCompilation(config: config, options: options), days: days)
                    #expect(written.json == PlanJSON.encode(plan), "limit \(limit), chunks of \(days) days")
                    #expect(written.ics == ICalendarExport.expanded(plan, settings: CalendarSettings(config)), "limit \(limit)")
                    #expect(written.diagnostics == withCalendarNote(whole.diagnostics, plan, config), "limit \(limit), chunks of \(days) days")
                }
            }
        }

        @Test("a compilation made from checked inputs plans them as checked; a config changed afterwards is checked again")
        func checkedOnceAndAgainAfterAChange() throws {
            let bytes = Array(configXML(reminders: reminderXML("water")).utf8)
            let options = CompileOptions(now: .instant(fixedNow))
            let inputs = ReminderCompiler.load(bytes, path: "c.plist", options: options)
            var compilation = try #require(ChunkedCompilation(inputs: inputs, options: options))
            let planned = compilation.collect()
            #expect(planned.plan == PlanJSON.encode(try #require(ReminderCompiler.compile(bytes, path: "c.plist", options: options).plan)))
            // A change in code after the check: the interval no rule allows is refused,
            // named by the file position of the part it changed.
            compilation.config.reminders[0].schedule.interval = 0
            let refused = compilation.collect()
            #expect(refused.plan.isEmpty)
            #expect(refused.diagnostics.contains { $0.severity == .error && $0.message.text.contains("'interval' is 0") },
                    "\(refused.diagnostics.map(\.formatted))")
            // Inputs with errors make no compilation.
            let broken = ReminderCompiler.load(Array("<plist version=\"1.0\"><dict/></plist>".utf8), path: "b.plist", options: options)
            #expect(ChunkedCompilation(inputs: broken, options: options) == nil)
        }

        struct SinkFailure: Error {}

        @Test("an error from either output ends the compile with that error")
        func sinkErrors() async throws {
            let config = try #require(await check(configXML(reminders: (0..<20).map { reminderXML("r\($0)") }.joined())).config)
            var compilation = ChunkedCompilation(config: config, options: CompileOptions(now: .instant(fixedNow), horizonDays: 200, pendingLimit: 0))
            compilation.chunkDays = 7
            #expect(throws: SinkFailure.self) {
                _ = try compilation.write(planTo: { _ in }, calendarTo: { _ in throw SinkFailure() })
            }
            #expect(throws: SinkFailure.self) {
                _ = try compilation.write(planTo: { _ in throw SinkFailure() }, calendarTo: { _ in })
            }
            // A calendar that fails late, after the plan has gone on without it.
            let calls = LockedCounter()
            #expect(throws: SinkFailure.self) {
                _ = try compilation.write(planTo: { _ in }, calendarTo: { _ in
                    if calls.increment() == 3 { throw SinkFailure() }
                })
            }
        }
    }
}

/// `ChunkedPlanningTests` under its short name, for the tests of other suites.
typealias ChunkedPlanningTests = LongComputationTests.ChunkedPlanningTests

/// A counter shared with the thread that writes the calendar.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// The count after adding one.
    func increment() -> Int { lock.withLock { count += 1; return count } }
}
