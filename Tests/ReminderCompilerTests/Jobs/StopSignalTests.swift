import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// A raised stop signal ends planning within one range of the window, with `plan.stopped`.
@Suite("Stopping a compile")
struct StopSignalTests {
    static func compilation() throws -> ChunkedCompilation {
        let config = ReminderConfig(timeZone: "UTC", reminders: [
            Reminder(id: "r", title: "R", schedule: .daily(times: .every(minutes: 30, window: LocalTime(minuteOfDay: 0)!...LocalTime(minuteOfDay: 1410)!))),
        ])
        var compilation = ChunkedCompilation(config: config, options: CompileOptions(now: .instant(1_795_334_400), horizonDays: 365, pendingLimit: 0))
        compilation.chunkDays = 7
        return compilation
    }

    @Test("a signal raised while the plan is written stops it after the range under way")
    func stopsWhileWriting() throws {
        var compilation = try Self.compilation()
        var fullChunks = 0
        let full = try compilation.write(planTo: { _ in fullChunks += 1 })
        #expect(full.isEmpty)
        let signal = StopSignal()
        compilation.stopSignal = signal
        var chunks = 0
        let found = try compilation.write(planTo: { _ in
            chunks += 1
            signal.raise()
        })
        #expect(found.last?.message.id == "plan.stopped", "\(found.map(\.message.id))")
        #expect(found.last?.severity == .error)
        // The writer runs a range or two behind the driver, which stops at its next range:
        // a few chunks of the 53 weeks' are written.
        #expect(chunks <= 4 && fullChunks > 50, "\(chunks) of \(fullChunks)")
    }

    @Test("a raised signal stops the recurring calendar, which is otherwise the public function's bytes")
    func stopsRecurringCalendar() throws {
        let entries = (0..<3_000).map { LocalDateTime(date: CivilDate(dayNumber: 20_800 + $0), time: LocalTime(minuteOfDay: 600)!) }
        let config = ReminderConfig(timeZone: "Europe/Berlin", reminders: [
            Reminder(id: "once", title: "Once", schedule: .once(entries)),
            Reminder(id: "daily", title: "Daily", schedule: .daily(times: .list([LocalTime(minuteOfDay: 480)!]))),
        ])
        let plan = try #require(ReminderCompiler.plan(config, options: CompileOptions(now: .instant(1_795_334_400), horizonDays: 30)).plan)
        let validated = try #require(ConfigValidator.validated(config, zones: .system, timeZoneOverride: nil).config)
        let whole = try #require(ICalendarExport.recurring(validated, plan: plan, zones: .system, stopSignal: StopSignal()))
        #expect(whole == ICalendarExport.recurring(config, plan: plan))
        #expect(whole.count > 3_000 * 200)
        let signal = StopSignal()
        signal.raise()
        #expect(ICalendarExport.recurring(validated, plan: plan, zones: .system, stopSignal: signal) == nil)
    }

    @Test("a signal raised while the plan is written stops the recurring calendar's re-plan of a budgeted window, with plan.stopped")
    func stopsUnbudgetedReplan() throws {
        var compilation = try Self.compilation()
        compilation.options.pendingLimit = 64
        compilation.events.record(.snooze(at: 1_795_335_000, minutes: 10), occurrence: "r-20261122-0830")
        let whole = compilation.collect(calendarStyle: .recurring)
        #expect(whole.diagnostics.allSatisfy { $0.severity != .error })
        #expect(String(decoding: try #require(whole.calendar), as: UTF8.self).contains("r-20261122-0830-snooze"))
        // The 64 notifications kept lie in the first range: the drive is over when the plan's
        // bytes are written, and only the re-plan of the whole window is left to stop.
        let signal = StopSignal()
        compilation.stopSignal = signal
        var calendar: [UInt8] = []
        let found = try compilation.write(
            planTo: { _ in signal.raise() }, calendarTo: { calendar.append(span: $0) }, calendarStyle: .recurring
        )
        #expect(found.last?.message.id == "plan.stopped", "\(found.map(\.message.id))")
        #expect(calendar.isEmpty)
    }

    @Test("a signal raised while the plan is written stops the window-scope calendar's pass, with plan.stopped")
    func stopsWindowCalendarPass() throws {
        var compilation = try Self.compilation()
        compilation.options.pendingLimit = 64
        compilation.calendarScope = .window
        let whole = compilation.collect(calendarStyle: .expanded)
        #expect(whole.diagnostics.allSatisfy { $0.severity != .error } && (whole.calendar?.count ?? 0) > 1_000_000)
        // The 64 kept lie in the first range: the plan's pass is over when its bytes are
        // written, and the calendar's pass over the whole window is left to stop.
        let signal = StopSignal()
        compilation.stopSignal = signal
        let found = try compilation.write(planTo: { _ in signal.raise() }, calendarTo: { _ in }, calendarStyle: .expanded)
        #expect(found.last?.message.id == "plan.stopped", "\(found.map(\.message.id))")
    }

    @Test("a signal raised before the compile stops every way of planning at once")
    func raisedBefore() throws {
        var compilation = try Self.compilation()
        let signal = StopSignal()
        signal.raise()
        compilation.stopSignal = signal
        #expect(compilation.plan().plan == nil)
        #expect(compilation.plan().diagnostics.map(\.message.id) == ["plan.stopped"])
        let collected = compilation.collect(calendarStyle: .recurring)
        #expect(collected.plan.isEmpty && collected.diagnostics.map(\.message.id) == ["plan.stopped"])
        let job = try #require(try? PlanJob.parse(Array(#"{"config": "{\"formatVersion\": 1, \"timeZone\": \"UTC\", \"reminders\": [{\"id\": \"a\", \"title\": \"A\", \"schedule\": {\"frequency\": \"daily\", \"times\": [\"09:00\"]}}]}", "now": "2026-11-22T08:00:00Z"}"#.utf8)).get())
        #expect(job.result(stopSignal: signal).ok == false)
        #expect(job.result().ok)
    }
}
