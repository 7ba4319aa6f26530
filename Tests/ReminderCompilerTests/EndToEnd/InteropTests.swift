import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Everything a config says, without source locations, in a stable order: two files with
/// the same content give the same text.
func contentDescription(_ config: ReminderConfig) -> String {
    var lines = [
        "timeZone=\(config.timeZone ?? "-") horizon=\(config.horizonDays) limit=\(config.pendingLimit)",
        "reserved=\(config.reservedSlots) coverage=\(config.minimumCoverageDays)",
        "calendar=\(config.calendarName) uid=\(config.uidDomain)",
    ]
    for (key, group) in config.groups.sorted(by: { $0.key < $1.key }) {
        lines.append("group \(key): \(group.title) | \(group.body) | \(group.category ?? "-")")
    }
    for (key, actions) in config.categories.sorted(by: { $0.key < $1.key }) {
        lines.append("category \(key): \(actions)")
    }
    for reminder in config.reminders {
        var copy = reminder
        copy.location = SourceLocation(path: "", line: 0, column: 0)
        copy.followUp?.location = copy.location
        let userInfo = reminder.userInfo.sorted { $0.key < $1.key }
        copy.userInfo = [:]
        // Sets print in no fixed order; list them sorted instead.
        let weekdays = reminder.schedule.weekdays.sorted()
        let exceptions = reminder.schedule.exceptions.sorted()
        copy.schedule.weekdays = []
        copy.schedule.exceptions = []
        lines.append("reminder \(copy) userInfo=\(userInfo) weekdays=\(weekdays) except=\(exceptions)")
    }
    return lines.joined(separator: "\n")
}

extension ExternalProgramTests {
    @Suite("Interoperability")
    struct InteropTests {
        @Test("a config written by Python's plistlib with an example's content is accepted as the same config",
              arguments: try TestEnvironment.exampleConfigs())
        func plistlibWrittenConfig(_ example: URL) async throws {
            // plistlib reads the example and writes it anew: its own XML layout, escaping and
            // element order, none of it ours.
            let script = """
            import plistlib, sys
            with open(sys.argv[1], 'rb') as f:
                data = plistlib.load(f)
            sys.stdout.buffer.write(plistlib.dumps(data, fmt=plistlib.FMT_XML, sort_keys=True))
            """
            let result = try await Python.script(["-c", script, example.path])
            #expect(result.status == 0, "\(result.standardError)")
            let rewritten = Array(result.standardOutput.utf8)
            #expect(rewritten != (try TestEnvironment.bytes(example)))

            let original = ReminderCompiler.check(try TestEnvironment.bytes(example), path: "original.plist")
            let fromPython = ReminderCompiler.check(rewritten, path: "plistlib.plist")
            #expect(fromPython.diagnostics.isEmpty, "\(fromPython.diagnostics.map(\.formatted))")
            let originalConfig = try #require(original.config)
            let pythonConfig = try #require(fromPython.config)
            #expect(contentDescription(pythonConfig) == contentDescription(originalConfig))
        }
    }
}

/// `InteropTests` under its short name, for the tests of other suites.
typealias InteropTests = ExternalProgramTests.InteropTests
