import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// A service keeps the checks of the configs it was sent (`CheckedConfigs`): a job answered
/// with a kept check gives the bytes it gives checked afresh.
@Suite("Checked configs kept by their bytes")
struct CheckedConfigsTests {
    static let now = CompileOptions.Moment.instant(InstantParsing.rfc3339("2026-11-22T08:00:00Z")!)

    /// Every example config: valid ones, ones with warnings and ones with errors.
    static func exampleConfigs() throws -> [(name: String, bytes: [UInt8])] {
        var configs: [(String, [UInt8])] = []
        for folder in ["", "warnings", "invalid"] {
            let directory = TestEnvironment.examples.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            where name.hasSuffix(".plist") && !name.contains(".events.") {
                configs.append((folder + "/" + name, try TestEnvironment.bytes(directory.appendingPathComponent(name))))
            }
        }
        return configs
    }

    @Test("a job with a kept check gives the line and the calendar of a fresh check, for every example")
    func keptEqualsFresh() throws {
        let configs = try Self.exampleConfigs()
        #expect(configs.count > 20)
        let passing = configs.filter { !ReminderCompiler.check($0.bytes, path: "config").hasErrors }.count
        #expect(passing > 10 && passing < configs.count)
        let kept = CheckedConfigs(capacity: 64)
        for (name, bytes) in configs {
            let job = PlanJob(id: name, config: bytes, now: Self.now)
            let fresh = job.result()
            // The first asks the kept checks and keeps its own; the second takes it.
            for round in 1...2 {
                let answered = job.result(checkedConfigs: kept)
                #expect(answered.ok == fresh.ok && answered.line == fresh.line, "\(name), round \(round)")
                let calendar = job.calendar(style: .expanded, checkedConfigs: kept)
                #expect(String(describing: calendar) == String(describing: job.calendar(style: .expanded)), "\(name), round \(round)")
            }
        }
        // Only checks that passed are kept; each was then taken three times (the calendar
        // of round 1, both answers of round 2).
        #expect(kept.count == passing)
        #expect(kept.hits == 3 * passing)
    }

    @Test("a kept check serves only the same bytes under the same name and options")
    func keyedByBytesNameAndOptions() throws {
        let warning = try TestEnvironment.bytes(TestEnvironment.examples.appendingPathComponent("warnings/follow-up-past-next-slot.plist"))
        let kept = CheckedConfigs()
        let first = PlanJob(id: "a", config: warning, now: Self.now)
        #expect(first.result(checkedConfigs: kept).line == first.result().line)
        // Another id names the config differently in the diagnostics.
        let renamed = PlanJob(id: "b", config: warning, now: Self.now)
        let renamedLine = String(decoding: renamed.result(checkedConfigs: kept).line, as: UTF8.self)
        // Compared as booleans: a failure would otherwise print the whole plan.
        let sameRenamed = renamedLine == String(decoding: renamed.result().line, as: UTF8.self)
        #expect(sameRenamed)
        let namedB = renamedLine.contains(#""file": "b/config""#) && !renamedLine.contains("a/config")
        #expect(namedB)
        // Another zone moves the plan.
        let moved = PlanJob(id: "a", config: warning, now: Self.now, timeZone: "America/New_York")
        #expect(moved.result(checkedConfigs: kept).line == moved.result().line)
        // One byte more is another config.
        let spaced = PlanJob(id: "a", config: warning + [0x0A], now: Self.now)
        #expect(spaced.result(checkedConfigs: kept).line == spaced.result().line)
        #expect(kept.count == 4 && kept.hits == 0)
        _ = renamed.result(checkedConfigs: kept)
        #expect(kept.hits == 1)
    }

    @Test("when full, a check not asked for since the last turn makes room")
    func usedChecksStay() throws {
        let configs = try Self.exampleConfigs().filter { !$0.name.hasPrefix("invalid/") }.prefix(3).map(\.bytes)
        let kept = CheckedConfigs(capacity: 2)
        func ask(_ index: Int) { _ = PlanJob(config: configs[index], now: Self.now).result(checkedConfigs: kept) }
        ask(0)
        ask(1)
        ask(0)
        #expect(kept.hits == 1)
        // Full: the first was asked for again, so the second makes room.
        ask(2)
        ask(0)
        #expect(kept.hits == 2)
        ask(1)
        #expect(kept.hits == 2 && kept.count == 2)
    }

    @Test("a check that failed is not kept, nor one whose job's name makes it too large")
    func notKept() throws {
        let invalid = try TestEnvironment.bytes(TestEnvironment.examples.appendingPathComponent("invalid/invalid-values.plist"))
        let kept = CheckedConfigs(largestConfigBytes: 8192)
        let job = PlanJob(config: invalid, now: Self.now)
        #expect(job.result(checkedConfigs: kept).line == job.result().line)
        #expect(kept.count == 0)
        let valid = try TestEnvironment.bytes(TestEnvironment.examples.appendingPathComponent("medication.plist"))
        #expect(valid.count < 8000)
        // The config fits, but with an id of 4 000 bytes its name does not.
        let named = PlanJob(id: String(repeating: "x", count: 4000), config: valid, now: Self.now)
        #expect(named.result(checkedConfigs: kept).line == named.result().line)
        #expect(kept.count == 0)
        _ = PlanJob(id: "short", config: valid, now: Self.now).result(checkedConfigs: kept)
        #expect(kept.count == 1)
    }

    @Test("no more configs are kept than the capacity, none past the size limit, none of another zone database")
    func bounded() throws {
        let configs = try Self.exampleConfigs().filter { !$0.name.hasPrefix("invalid/") }.prefix(5)
        let small = CheckedConfigs(capacity: 2)
        // Twice round, so that configs made room for are checked and kept again.
        for _ in 1...2 {
            for (name, bytes) in configs {
                let job = PlanJob(config: bytes, now: Self.now)
                #expect(job.result(checkedConfigs: small).line == job.result().line, "\(name)")
                #expect(small.count <= 2)
            }
        }
        #expect(small.count == 2)
        let tiny = CheckedConfigs(largestConfigBytes: 100)
        let otherDatabase = CheckedConfigs(zones: TimeZoneDatabase(zoneInfoDirectory: TimeZoneDatabase.systemZoneInfoDirectory))
        for (name, bytes) in configs {
            let job = PlanJob(config: bytes, now: Self.now)
            #expect(job.result(checkedConfigs: tiny).line == job.result().line, "\(name)")
            #expect(job.result(checkedConfigs: otherDatabase).line == job.result().line, "\(name)")
        }
        #expect(tiny.count == 0 && otherDatabase.count == 0)
        let none = CheckedConfigs(capacity: 0)
        #expect(PlanJob(config: configs.first!.bytes, now: Self.now).result(checkedConfigs: none).line
            == PlanJob(config: configs.first!.bytes, now: Self.now).result().line)
        #expect(none.count == 0)
    }

    @Test("jobs on many threads at once share the kept checks and get the lines of fresh checks")
    func concurrent() async throws {
        let configs = try Self.exampleConfigs().filter { !$0.name.hasPrefix("invalid/") }.prefix(4)
        let expected = configs.map { PlanJob(config: $0.bytes, now: Self.now).result().line }
        let kept = CheckedConfigs(capacity: 3)
        let lines = await withTaskGroup(of: (Int, [UInt8]).self) { group in
            for task in 0..<24 {
                let index = task % configs.count
                let bytes = configs[configs.startIndex + index].bytes
                group.addTask { (index, PlanJob(config: bytes, now: Self.now).result(checkedConfigs: kept).line) }
            }
            var lines: [(Int, [UInt8])] = []
            for await line in group { lines.append(line) }
            return lines
        }
        #expect(lines.count == 24)
        for (index, line) in lines { #expect(line == expected[index], "config \(index)") }
        #expect(kept.count <= 3)
    }
}
