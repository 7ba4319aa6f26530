import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// The paths that once held the whole window hold only what the budget keeps: measured as
/// the peak resident memory of the built binary (by the kernel, through Python's
/// `resource`), never as time.
@Suite("Memory stays with what the budget keeps")
struct MemoryBoundTests {
    /// A reminder every minute of the day for 300 days: 432 000 slots, 64 kept.
    static let config = configXML(
        reminders: reminderXML(
            "tick",
            schedule: "<key>frequency</key><string>daily</string><key>timesPerDay</key><integer>1440</integer>"
                + "<key>window</key><dict><key>from</key><string>00:00</string><key>until</key><string>23:59</string></dict>"
        ),
        rootExtra: "<key>horizonDays</key><integer>300</integer><key>pendingLimit</key><integer>64</integer>"
    )

    /// Peak resident memory in MB of `remindc` run with `arguments`, which must end with
    /// `expectedStatus`, and what it wrote to standard error: the run that is measured is
    /// the one whose diagnostics are checked, so that no large input is read twice.
    func measuredRun(_ arguments: [String], expectedStatus: Int = 0) async throws -> (peakMegabytes: Int, standardError: String) {
        guard let python = Python.executable else { throw Python.PythonUnavailable(reason: "python3 is not on the PATH") }
        // The first line: the status and the child's peak; then its standard error.
        let script = """
        import resource, subprocess, sys
        child = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        sys.stdout.write(f"{child.returncode} {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024}\\n")
        sys.stdout.flush()
        sys.stdout.buffer.write(child.stderr)
        """
        let result = try await run(python, ["-c", script, TestEnvironment.remindcExecutable.path] + arguments)
        let firstLine = result.standardOutput.prefix { $0 != "\n" }
        let fields = firstLine.split(separator: " ").map { Int($0) }
        #expect(fields.first == expectedStatus, "\(result.standardOutput.prefix(500))\(result.standardError)")
        let peak = try #require(fields.last ?? nil)
        return (peak, String(result.standardOutput.dropFirst(firstLine.count + 1)))
    }

    /// Peak resident memory in MB of `remindc` run with `arguments`, which must end with
    /// `expectedStatus`.
    func peakMegabytes(_ arguments: [String], expectedStatus: Int = 0) async throws -> Int {
        try await measuredRun(arguments, expectedStatus: expectedStatus).peakMegabytes
    }

    /// `count` entries `1`, the smallest wrong entry of any list, comma-separated between
    /// `opening` and `closing`.
    static func ones(_ count: Int, between opening: String, and closing: String) -> [UInt8] {
        // Made by repeating a string: two million appends took a debug build seconds of a
        // thread the other tests share.
        Array((opening + (count > 0 ? "1" + String(repeating: ",1", count: count - 1) : "") + closing).utf8)
    }

    /// Writes `count` wrong entries `1` between `opening` and `closing` to `name` in `folder`;
    /// returns its path.
    static func writeOnes(_ count: Int, between opening: String, and closing: String, to name: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(ones(count, between: opening, and: closing)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Expects standard error to show the first 1 000 of `total` errors and count the rest.
    static func expectCappedErrors(_ standardError: String, total: Int) {
        let lines = standardError.split(separator: "\n")
        #expect(lines.filter { $0.contains(": error: ") }.count == DiagnosticCollector.defaultMaximumErrors)
        #expect(
            lines.last?.contains("and \(total - DiagnosticCollector.defaultMaximumErrors) more errors in this file") == true, "\(lines.last ?? "")"
        )
    }

    @Test("a diff and a recurring calendar of 432 000 slots with 64 kept stay small (whole-window drafting took 128 MB)")
    func inMemoryPathsStaySmall() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let configPath = folder.appendingPathComponent("c.plist").path
        try Self.config.write(toFile: configPath, atomically: true, encoding: .utf8)
        let previous = folder.appendingPathComponent("previous.json").path
        #expect(try await remindc("compile", configPath, "--now", "2026-11-22T08:00:00Z", "-o", previous).status == 0)
        let common = ["compile", configPath, "--now", "2026-11-22T09:00:00Z", "-o", folder.appendingPathComponent("p.json").path]
        let withDiff = try await peakMegabytes(common + ["--previous", previous, "--diff", folder.appendingPathComponent("d.json").path])
        let recurring = try await peakMegabytes(common + ["--ics", folder.appendingPathComponent("c.ics").path, "--ics-style", "recurring"])
        #expect(withDiff < 80, "\(withDiff) MB")
        #expect(recurring < 80, "\(recurring) MB")
    }

    @Test("an HTML page of 432 000 slots, with 64 kept or all of them, is made from a listing: memory stays small (the whole window took 251 and 275 MB)")
    func agendaPageStaysSmall() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let configPath = folder.appendingPathComponent("c.plist").path
        try Self.config.write(toFile: configPath, atomically: true, encoding: .utf8)
        let page = folder.appendingPathComponent("p.html").path
        let planPath = folder.appendingPathComponent("p.json").path
        let common = ["compile", configPath, "--now", "2026-11-22T09:00:00Z", "-o", planPath, "--html", page]
        let unlimited = try await peakMegabytes(common + ["--pending-limit", "0"])
        // Every notification of the window is in the unlimited plan; the page shows 10 000.
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: planPath))) as? [String: Any])
        let total = try #require(plan["notifications"] as? [Any]).count
        #expect(total > 400_000)
        let notice = "and \(total - Agenda.maximumEntries) later ones are left out"
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains(notice))
        let budgeted = try await peakMegabytes(common)
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains(notice))
        #expect(budgeted < 80, "\(budgeted) MB")
        #expect(unlimited < 80, "\(unlimited) MB")
    }

    @Test("a plist list of 1.3 million values is read as a tape of a few bytes a value; 2.6 million stop at the value limit (libxml2's tree of 2.6 million took 894 MB)")
    func plistReadAsTape() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (count, expected) in [(1_300_000, "error: the config must be a <dict>, found <array>"), (2_600_000, "error: the input holds more than 2000000 values")] {
            let path = folder.appendingPathComponent("list-\(count).plist").path
            let text = "<plist version=\"1.0\">\n<array>\n" + String(repeating: "<true/>\n", count: count) + "</array>\n</plist>\n"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let result = try await measuredRun(["check", path], expectedStatus: 1)
            // The files are 10 and 21 MB; a debug build read them in 153 and 158 MB, where
            // libxml2's tree and the list grown by doubling took 894 MB for the larger.
            #expect(result.peakMegabytes < 250, "\(count) values: \(result.peakMegabytes) MB")
            #expect(result.standardError.contains(expected), "\(result.standardError.prefix(300))")
        }
    }

    @Test("an events file of 2 million wrong entries is read an entry at a time: memory near the file's size, errors capped (a tree of them took 30 bytes a byte)")
    func eventsFileReadEntryByEntry() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let count = 2_000_000
        // `1` is the smallest entry that is wrong: an event must be a dict.
        let eventsPath = try Self.writeOnes(count, between: #"{"formatVersion":1,"events":["#, and: "]}", to: "events.json", in: folder)
        let config = TestEnvironment.examples.appendingPathComponent("medication.plist").path
        let plan = folder.appendingPathComponent("plan.json").path
        let arguments = ["compile", config, "--events", eventsPath, "--now", "2026-11-22T08:00:00Z", "-o", plan]
        let result = try await measuredRun(arguments, expectedStatus: 1)
        // The file is 4 MB; a located tree of its entries took about 135 MB.
        #expect(result.peakMegabytes < 80, "\(result.peakMegabytes) MB")
        Self.expectCappedErrors(result.standardError, total: count)
        #expect(!FileManager.default.fileExists(atPath: plan))
    }

    @Test("a pending list of 2 million wrong entries is read an entry at a time: memory near the file's size, errors capped")
    func pendingListReadEntryByEntry() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let count = 2_000_000
        // `1` is the smallest entry that is wrong: an entry must be an object.
        let pendingPath = try Self.writeOnes(count, between: "[", and: "]", to: "pending.json", in: folder)
        let plan = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Golden/plans/medication.json").path
        let arguments = ["reconcile", plan, "--pending", pendingPath]
        let result = try await measuredRun(arguments, expectedStatus: 1)
        // The file is 4 MB; a located tree of its entries took about 140 MB.
        #expect(result.peakMegabytes < 80, "\(result.peakMegabytes) MB")
        Self.expectCappedErrors(result.standardError, total: count)
        #expect(result.standardError.hasPrefix("\(pendingPath):1:2: error: "), "\(result.standardError.prefix(200))")
    }

    @Test("a plan whose notifications are 2 million wrong tokens is read a notification at a time; as many values elsewhere are refused (a tree of them took about 140 MB)")
    func planReadNotificationByNotification() async throws {
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let count = 2_000_000
        let planPath = try Self.writeOnes(count, between: #"{"formatVersion":1,"notifications":["#, and: "]}", to: "plan.json", in: folder)
        let result = try await measuredRun(["ics", planPath], expectedStatus: 1)
        // The file is 4 MB; a located tree of it takes about 140 MB (8 MB of them took 270 MB). Ten
        // required keys are missing too. Under another key, the root, the array and the
        // 2 million tokens pass the limit of values.
        #expect(result.peakMegabytes < 80, "\(result.peakMegabytes) MB")
        #expect(result.standardError.contains("error: the plan is missing the required key 'timeZone'"))
        Self.expectCappedErrors(result.standardError, total: count + 10)
        // The same tokens under a key the plan reader ignores are refused past the limit.
        _ = try Self.writeOnes(count, between: #"{"formatVersion":1,"somethingElse":["#, and: "]}", to: "plan.json", in: folder)
        let refused = try await remindc("ics", planPath)
        #expect(refused.status == 1)
        #expect(refused.standardError.hasPrefix("\(planPath):1:"))
        #expect(refused.standardError.contains("error: the input holds more than \(JSONReader.defaultMaximumValues) values at once"))
    }
}
