import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// A plan or calendar that would pass its size limit is an error naming the limit; the
/// bytes given until then are not a file to keep, and the command line keeps none.
@Suite("Output size limits")
struct OutputLimitTests {
    static func medication(scope: CalendarScope) throws -> ChunkedCompilation {
        let url = TestEnvironment.examples.appendingPathComponent("medication.plist")
        let bytes = [UInt8](try Data(contentsOf: url))
        let options = CompileOptions(now: .instant(1_795_334_400), horizonDays: 60)
        let inputs = ReminderCompiler.load(bytes, path: "medication.plist", options: options)
        var compilation = try #require(ChunkedCompilation(inputs: inputs, options: options))
        compilation.calendarScope = scope
        return compilation
    }

    /// The plan, the calendar and the diagnostics of a write with these limits.
    static func write(_ compilation: ChunkedCompilation, limits: (plan: Int, calendar: Int), style: ICalendarStyle = .expanded) throws
        -> (plan: Int, calendar: Int, diagnostics: [Diagnostic])
    {
        var compilation = compilation
        compilation.outputLimits = limits
        var plan = 0
        var calendar = 0
        let found = try compilation.write(
            planTo: { plan += $0.count }, calendarTo: { calendar += $0.count }, calendarStyle: style
        )
        return (plan, calendar, found)
    }

    @Test("a calendar or plan one byte over its limit is an error naming the limit; at the limit it is written",
          arguments: [CalendarScope.plan, .window])
    func limits(scope: CalendarScope) throws {
        let compilation = try Self.medication(scope: scope)
        let full = try Self.write(compilation, limits: (.max, .max))
        #expect(!full.diagnostics.contains { $0.severity == .error })
        #expect(full.calendar > 10_000 && full.plan > 10_000)

        let exact = try Self.write(compilation, limits: (full.plan, full.calendar))
        #expect(exact.diagnostics == full.diagnostics)
        #expect((exact.plan, exact.calendar) == (full.plan, full.calendar))

        let calendarOver = try Self.write(compilation, limits: (full.plan, full.calendar - 1))
        let calendarError = try #require(calendarOver.diagnostics.last { $0.severity == .error })
        #expect(calendarError.message.id == "plan.output-too-large")
        #expect(calendarError.message.text.hasPrefix("the calendar would pass the limit of 0 MiB (\(full.calendar - 1) bytes)"))
        #expect(calendarOver.calendar < full.calendar)

        let planOver = try Self.write(compilation, limits: (full.plan - 1, full.calendar))
        let planError = try #require(planOver.diagnostics.last { $0.severity == .error })
        #expect(planError.message.text.hasPrefix("the plan would pass the limit"))
    }

    @Test("the recurring calendar has the same limit")
    func recurring() throws {
        let compilation = try Self.medication(scope: .plan)
        let full = try Self.write(compilation, limits: (.max, .max), style: .recurring)
        let over = try Self.write(compilation, limits: (.max, full.calendar - 1), style: .recurring)
        #expect(over.diagnostics.contains { $0.message.id == "plan.output-too-large" })
        #expect(over.calendar == 0)
    }

    @Test("the limit is the plan's, so that every calendar remindc writes is as readable as its plan")
    func sameAsThePlan() {
        #expect(ReminderCompiler.maximumCalendarBytes == ReminderCompiler.maximumPlanBytes)
        #expect(ChunkedCompilation(config: ReminderConfig(location: .inCode), options: CompileOptions(now: .instant(0))).outputLimits
            == (ReminderCompiler.maximumPlanBytes, ReminderCompiler.maximumCalendarBytes))
    }
}
