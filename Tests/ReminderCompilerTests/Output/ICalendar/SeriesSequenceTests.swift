import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// `SEQUENCE` of recurring series across compiles with `--previous`: counted up once for a
/// series that changed, kept for the others, never reset, and the same whether the plan is
/// written whole (with `--diff`) or in chunks.
@Suite("Recurring series sequences")
struct SeriesSequenceTests {
    static let water = reminderXML("water", schedule: "<key>frequency</key><string>daily</string><key>times</key><array><string>09:00</string><string>15:00</string></array>")
    static let walk = reminderXML("walk", schedule: "<key>frequency</key><string>daily</string><key>times</key><array><string>18:00</string></array>")

    struct Compiled {
        let plan: Plan
        let planBytes: Data
        let calendar: String
        let planPath: URL
    }

    /// Compiles twice, whole and in chunks, and checks that both give the same files.
    static func compile(_ reminders: String, now: String, previous: URL?, events: String?, in folder: URL, name: String) async throws -> Compiled {
        let config = folder.appendingPathComponent("\(name).plist")
        try configXML(reminders: reminders).write(to: config, atomically: true, encoding: .utf8)
        var extra: [String] = []
        if let events {
            let file = folder.appendingPathComponent("\(name).events.json")
            try events.write(to: file, atomically: true, encoding: .utf8)
            extra += ["--events", file.path]
        }
        var outputs: [(plan: URL, ics: URL)] = []
        for whole in [false, true] {
            let plan = folder.appendingPathComponent("\(name)\(whole ? "-whole" : "").json")
            let ics = folder.appendingPathComponent("\(name)\(whole ? "-whole" : "").ics")
            var arguments = ["compile", config.path, "--now", now, "--horizon-days", "10", "-o", plan.path, "--ics", ics.path,
                             "--ics-style", "recurring"] + extra
            if let previous {
                arguments += ["--previous", previous.path]
                if whole { arguments += ["--diff", folder.appendingPathComponent("\(name).diff.json").path] }
            }
            let result = try await run(TestEnvironment.remindcExecutable, arguments)
            #expect(result.status == 0, "\(result.standardError)")
            outputs.append((plan, ics))
        }
        let planBytes = try Data(contentsOf: outputs[0].plan)
        #expect(planBytes == (try Data(contentsOf: outputs[1].plan)), "\(name): chunked and whole plans differ")
        let calendar = try String(contentsOf: outputs[0].ics, encoding: .utf8)
        #expect(calendar == (try String(contentsOf: outputs[1].ics, encoding: .utf8)), "\(name): chunked and whole calendars differ")
        var diagnostics = DiagnosticCollector()
        let plan = try #require(PlanReader.read([UInt8](planBytes), path: outputs[0].plan.path, diagnostics: &diagnostics))
        return Compiled(plan: plan, planBytes: planBytes, calendar: calendar, planPath: outputs[0].plan)
    }

    /// SEQUENCE of each VEVENT, by UID without the domain.
    static func sequences(in calendar: String) -> [String: Int] {
        var result: [String: Int] = [:]
        var uid: String?
        for line in calendar.components(separatedBy: "\r\n") {
            if line.hasPrefix("UID:") { uid = String(line.dropFirst(4).split(separator: "@")[0]) }
            if line.hasPrefix("SEQUENCE:"), let uid { result[uid] = Int(line.dropFirst(9)) }
        }
        return result
    }

    @Test("a changed series counts up once per change; unchanged ones and the moving window keep their number")
    func countsChangedSeries() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await Self.compile(Self.water + Self.walk, now: "2026-11-22T06:00:00Z", previous: nil, events: nil, in: folder, name: "a")
        #expect(Self.sequences(in: first.calendar) == ["walk-1800": 0, "water-0900": 0, "water-1500": 0])
        #expect(first.plan.seriesSequences.isEmpty)
        #expect(!String(decoding: first.planBytes, as: UTF8.self).contains("seriesSequences"))

        // A day later, nothing changed: the window moved on, and new instances at its end
        // are no change.
        let same = try await Self.compile(Self.water + Self.walk, now: "2026-11-23T06:00:00Z", previous: first.planPath, events: nil, in: folder, name: "b")
        #expect(Self.sequences(in: same.calendar) == ["walk-1800": 0, "water-0900": 0, "water-1500": 0])
        #expect(same.plan.seriesSequences.isEmpty)

        // The walk's title changes, and one 15:00 water occurrence is done in advance:
        // those two series change, the 09:00 water series does not.
        let renamedWalk = Self.walk.replacingOccurrences(of: "Title walk", with: "Evening walk")
        let done = #"{ "events": [ { "occurrence": "water-20261126-1500", "action": "done" } ] }"#
        let changed = try await Self.compile(Self.water + renamedWalk, now: "2026-11-23T08:00:00Z", previous: same.planPath, events: done, in: folder, name: "c")
        // The rename counts up the walk's revision, which its series add; the done water
        // occurrence counts up its series.
        #expect(Self.sequences(in: changed.calendar) == ["walk-1800": 1, "water-0900": 0, "water-1500": 1])
        #expect(changed.plan.seriesSequences == ["water-1500": 1])
        #expect(changed.plan.reminderRevisions == ["walk": 1])

        // Compiled again unchanged: the numbers stay (they are not reset).
        let kept = try await Self.compile(Self.water + renamedWalk, now: "2026-11-24T08:00:00Z", previous: changed.planPath, events: done, in: folder, name: "d")
        #expect(Self.sequences(in: kept.calendar) == ["walk-1800": 1, "water-0900": 0, "water-1500": 1])

        // The walk moves to 18:30 and the water gets a body: both reminders changed, so
        // both revisions count up once, and their series with them (the new 18:30 series
        // starts at the walk's revision); no series counts a second time for it.
        let movedWalk = renamedWalk.replacingOccurrences(of: "18:00", with: "18:30")
        let newBody = Self.water.replacingOccurrences(of: "<key>schedule</key>", with: "<key>body</key><string>A glass.</string><key>schedule</key>")
        let moved = try await Self.compile(newBody + movedWalk, now: "2026-11-24T09:00:00Z", previous: kept.planPath, events: done, in: folder, name: "e")
        #expect(Self.sequences(in: moved.calendar) == ["walk-1830": 2, "water-0900": 1, "water-1500": 2])
        #expect(moved.plan.seriesSequences == ["water-1500": 1])
        #expect(moved.plan.reminderRevisions == ["walk": 2, "water": 1])
    }

    @Test("a digest is the same in every process: sets and maps are taken in order")
    func digestsAreStable() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let weekly = reminderXML("gym", schedule: """
            <key>frequency</key><string>weekly</string><key>weekdays</key><array><string>monday</string><string>wednesday</string>\
            <string>friday</string><string>sunday</string></array><key>times</key><array><string>07:00</string></array>\
            <key>except</key><array><string>2026-12-25</string><string>2026-12-31</string><string>2027-01-01</string></array>
            """)
        let withUserInfo = weekly.replacingOccurrences(
            of: "<key>schedule</key>", with: "<key>userInfo</key><dict><key>a</key><string>1</string><key>b</key><string>2</string><key>c</key><string>3</string></dict><key>schedule</key>"
        )
        var digests: Set<String> = []
        // Each compile is a process of its own, with its own hashing seed.
        for round in 0..<4 {
            let compiled = try await Self.compile(withUserInfo, now: "2026-11-22T06:00:00Z", previous: nil, events: nil, in: folder, name: "r\(round)")
            digests.insert(try #require(compiled.plan.reminderDigests["gym"]))
        }
        #expect(digests.count == 1)
    }

    @Test("a reminder changed where the two plans share no notification still counts up: after the previous window, and past its budget")
    func changesOutsideTheOverlap() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A monthly reminder on the 28th: past the 10-day window of a plan made on the 22nd.
        let monthly = reminderXML("rent", schedule: "<key>frequency</key><string>monthly</string><key>days</key><array><integer>28</integer></array><key>times</key><array><string>10:00</string></array>")
        let first = try await Self.compile(Self.water + monthly, now: "2026-11-12T06:00:00Z", previous: nil, events: nil, in: folder, name: "a")
        #expect(Set(first.plan.reminderDigests.keys) == ["water", "rent"])
        #expect(first.plan.reminderDigests.values.allSatisfy { $0.count == 16 && $0.allSatisfy(\.isHexDigit) })
        #expect(first.plan.reminderRevisions.isEmpty)
        // A month later, well after the first plan's window, the water's title changed.
        let renamedWater = Self.water.replacingOccurrences(of: "Title water", with: "Drink water")
        #expect(renamedWater != Self.water)
        let later = try await Self.compile(renamedWater + monthly, now: "2026-12-20T06:00:00Z", previous: first.planPath, events: nil, in: folder, name: "b")
        #expect(Self.sequences(in: later.calendar) == ["water-0900": 1, "water-1500": 1, "rent-1000": 0])
        #expect(later.plan.reminderRevisions == ["water": 1])
        // The next day the rent's time changes; its only instance lies past both windows.
        let movedRent = monthly.replacingOccurrences(of: "10:00", with: "11:00")
        let next = try await Self.compile(renamedWater + movedRent, now: "2026-12-21T06:00:00Z", previous: later.planPath, events: nil, in: folder, name: "c")
        #expect(Self.sequences(in: next.calendar) == ["water-0900": 1, "water-1500": 1, "rent-1100": 1])
        #expect(next.plan.reminderRevisions == ["water": 1, "rent": 1])
        // Unchanged, the numbers stay; a reminder taken out keeps its count and its last
        // digest in the plan.
        let without = try await Self.compile(renamedWater, now: "2026-12-22T06:00:00Z", previous: next.planPath, events: nil, in: folder, name: "d")
        #expect(Self.sequences(in: without.calendar) == ["water-0900": 1, "water-1500": 1])
        #expect(without.plan.reminderRevisions == ["water": 1, "rent": 1])
        #expect(without.plan.reminderDigests["rent"] == next.plan.reminderDigests["rent"])
        // It comes back changed a month later: compared with what it was, it counts up.
        let returned = try await Self.compile(
            renamedWater + monthly, now: "2027-01-20T06:00:00Z", previous: without.planPath, events: nil, in: folder, name: "f"
        )
        #expect(Self.sequences(in: returned.calendar) == ["water-0900": 1, "water-1500": 1, "rent-1000": 2])
        #expect(returned.plan.reminderRevisions == ["water": 1, "rent": 2])
    }

    @Test("seriesSequences survive the plan readers and Codable; a bad value is located")
    func readBack() throws {
        var plan = Plan(
            timeZone: "UTC", now: ZonedInstant(seconds: 0, offsetSeconds: 0), windowEnd: ZonedInstant(seconds: 86_400, offsetSeconds: 0),
            pendingLimit: 0, reservedSlots: 0, coveredUntil: ZonedInstant(seconds: 86_400, offsetSeconds: 0), dropped: 0,
            categories: [:], notifications: [], suppressed: [], warnings: []
        )
        plan.seriesSequences = ["water-0900": 3, "b-1200": 1]
        var bytes: [UInt8] = []
        PlanJSON.write(plan) { bytes.append(span: $0) }
        var diagnostics = DiagnosticCollector()
        #expect(PlanReader.read(bytes, path: "p.json", diagnostics: &diagnostics)?.seriesSequences == plan.seriesSequences)
        #expect(try JSONDecoder().decode(Plan.self, from: Data(bytes)).seriesSequences == plan.seriesSequences)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#""seriesSequences": {"#))

        let negative = Array(text.replacingOccurrences(of: #""water-0900": 3"#, with: #""water-0900": -3"#).utf8)
        var errors = DiagnosticCollector()
        #expect(PlanReader.read(negative, path: "p.json", diagnostics: &errors) == nil)
        let message = errors.sorted.map(\.formatted).joined()
        #expect(message.contains("p.json:") && message.contains("water-0900"), "\(message)")
        // Codable refuses what the readers refuse: a sequence below 0 or past INTEGER.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Plan.self, from: Data(negative)) }

        // The reminder keys go through every reader and back.
        plan.reminderDigests = ["water": "0123456789abcdef"]
        plan.reminderRevisions = ["water": 2]
        var withRevisions: [UInt8] = []
        PlanJSON.write(plan) { withRevisions.append(span: $0) }
        let fast = try #require(ReminderCompiler.readPlan(withRevisions, path: "p.json", diagnostics: &diagnostics))
        #expect(fast.reminderDigests == plan.reminderDigests && fast.reminderRevisions == plan.reminderRevisions)
        let located = try #require(PlanReader.read(withRevisions, path: "p.json", diagnostics: &diagnostics))
        #expect(located.reminderDigests == plan.reminderDigests && located.reminderRevisions == plan.reminderRevisions)
        let decoded = try JSONDecoder().decode(Plan.self, from: Data(withRevisions))
        #expect(decoded.reminderRevisions == plan.reminderRevisions)
        let tooLarge = String(decoding: withRevisions, as: UTF8.self).replacingOccurrences(of: #""water": 2"#, with: #""water": 2147483648"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Plan.self, from: Data(tooLarge.utf8)) }
    }
}
