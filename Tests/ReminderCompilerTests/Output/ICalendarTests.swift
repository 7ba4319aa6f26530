import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Checks an .ics against its plan with Python's `icalendar`, `ical` and `vobject` (and,
/// for the recurring style, `recurring-ical-events`), and with libical and sabre/vobject
/// when they are installed, through `Interop/check_ics.py`.
func checkICS(_ style: String, ics: URL, plan: URL, rename: Bool) async throws -> ProcessResult {
    let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Interop/check_ics.py")
    let arguments = [script.path, style, ics.path, plan.path] + (rename ? ["--rename"] : [])
    return try await Python.script(arguments + (await optionalReaderArguments()))
}

/// `check_ics.py`'s options for the readers outside Python: libical's when its reader
/// builds, `--sabre` when PHP has sabre/vobject, `--icaljs` when Node and ical.js are
/// there. CI installs all three and requires them (REMINDC_REQUIRE_LIBICAL,
/// REMINDC_REQUIRE_SABRE, REMINDC_REQUIRE_ICALJS); elsewhere the other readers still run.
func optionalReaderArguments() async -> [String] {
    let environment = ProcessInfo.processInfo.environment
    var arguments: [String] = []
    switch await LibicalReader.executable {
    case .success(let reader): arguments += ["--libical", reader.path]
    case .failure(let reason): if environment["REMINDC_REQUIRE_LIBICAL"] == "1" { Issue.record("libical reader: \(reason)") }
    }
    if await SabreReader.isAvailable {
        arguments.append("--sabre")
    } else if environment["REMINDC_REQUIRE_SABRE"] == "1" {
        Issue.record("sabre/vobject: php cannot load Sabre/VObject/autoload.php (is php-sabre-vobject installed?)")
    }
    if let module = await IcalJSReader.module {
        arguments += ["--icaljs", module.path]
    } else if environment["REMINDC_REQUIRE_ICALJS"] == "1" {
        Issue.record("ical.js: node cannot load \(IcalJSReader.modulePath.path) (see .ci/run, which takes it from Thunderbird)")
    }
    return arguments
}

/// ical.js, the parser and expander of Thunderbird's calendar, through Node and
/// `Interop/read_ics_icaljs.mjs`. Thunderbird ships it as the ES module `Ical.sys.mjs`;
/// `.ci/run` takes that file from Debian's `thunderbird` package into
/// `.build/interop/`, or `REMINDC_ICALJS_MODULE` names another copy.
enum IcalJSReader {
    static var modulePath: URL {
        if let named = ProcessInfo.processInfo.environment["REMINDC_ICALJS_MODULE"] { return URL(fileURLWithPath: named) }
        return TestEnvironment.repositoryRoot.appendingPathComponent(".build/interop/Ical.sys.mjs")
    }

    /// The module when Node imports it and finds `ICAL.Event`, checked once per test run.
    static let check = Task<URL?, Never> {
        let module = modulePath
        guard FileManager.default.fileExists(atPath: module.path) else { return nil }
        let shell = URL(fileURLWithPath: "/bin/sh")
        let script = "import(require('url').pathToFileURL(process.argv[1]).href)"
            + ".then(m => process.exit(typeof m.default.Event === 'function' ? 0 : 1), () => process.exit(1))"
        let result = try? await run(shell, ["-c", "node -e \"$0\" \"$1\" 2>/dev/null", script, module.path])
        return result?.status == 0 ? module : nil
    }

    static var module: URL? {
        get async { await check.value }
    }
}

/// sabre/vobject, the parser of SabreDAV, Baikal and Nextcloud, through PHP (Debian's
/// `php-cli` and `php-sabre-vobject`) and `Interop/read_ics_sabre.php`.
enum SabreReader {
    /// Whether PHP loads it, checked once per test run.
    static let check = Task<Bool, Never> {
        let shell = URL(fileURLWithPath: "/bin/sh")
        let result = try? await run(shell, ["-c", "php -r \"require_once 'Sabre/VObject/autoload.php';\" 2>/dev/null"])
        return result?.status == 0
    }

    static var isAvailable: Bool {
        get async { await check.value }
    }
}

/// `Interop/read_ics_libical.c`, built once per test run with the system's libical
/// (Debian `libical-dev`), the library Evolution and KDE read calendars with.
enum LibicalReader {
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// The reader, built by the first test that needs it; the others await the same task.
    static let build = Task<Result<URL, Unavailable>, Never> {
        let source = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Interop/read_ics_libical.c")
        let output = TestEnvironment.repositoryRoot.appendingPathComponent(".build/read_ics_libical")
        let shell = URL(fileURLWithPath: "/bin/sh")
        let command = "cc \"\(source.path)\" -o \"\(output.path)\" $(pkg-config --cflags --libs libical)"
        guard let result = try? await run(shell, ["-c", command]), result.status == 0 else {
            return .failure(Unavailable(description: "cannot build it (is libical-dev installed?)"))
        }
        return .success(output)
    }

    /// The built reader, or why it could not be built.
    static var executable: Result<URL, Unavailable> {
        get async { await build.value }
    }
}

/// Compiles a config with `options` into a plan and an .ics in a scratch folder.
func compileToFiles(_ config: String, style: String, options: [String]) async throws -> (plan: URL, ics: URL, folder: URL) {
    let folder = try TestEnvironment.scratchFolder()
    let plan = folder.appendingPathComponent("plan.json")
    let ics = folder.appendingPathComponent("plan.ics")
    let result = try await run(
        TestEnvironment.remindcExecutable,
        ["compile", config, "-o", plan.path, "--ics", ics.path, "--ics-style", style] + options
    )
    #expect(result.status == 0, "\(result.standardError)")
    return (plan, ics, folder)
}

extension ExternalProgramTests {
    @Suite("iCalendar export")
    struct ICalendarTests {
        static let fixedNow = "2026-11-22T08:00:00Z"
        static let fixtures = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Fixtures")
        /// Zones whose clocks change in every way the tz database knows (half-hour and
        /// 45-minute offsets and changes, changes at midnight, negative daylight saving), and
        /// two that no longer change (Apia across the date line, Kolkata at half an hour).
        /// UTC, which any reader knows without our VTIMEZONE, was left out to keep the
        /// serialized external suites, which set the test run's length, shorter.
        static let zones = [
            "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Chatham", "America/Santiago", "Europe/Dublin",
            "Africa/Casablanca", "Asia/Kolkata", "America/Havana", "Pacific/Apia",
        ]

        @Test("each example has its golden .ics, in both styles", arguments: try TestEnvironment.exampleConfigs())
        func golden(_ config: URL) async throws {
            let name = config.deletingPathExtension().lastPathComponent
            for style in ["expanded", "recurring"] {
                let files = try await compileToFiles("examples/\(config.lastPathComponent)", style: style, options: ["--now", Self.fixedNow])
                defer { try? FileManager.default.removeItem(at: files.folder) }
                let text = String(decoding: try Data(contentsOf: files.ics), as: UTF8.self)
                expectGolden(text, matches: CompileCommandTests.golden.appendingPathComponent("ics/\(name).\(style).ics"))
            }
        }

        /// Moves a compiled plan and calendar into `folder`, named by `label` so that a
        /// problem names the calendar it is in.
        static func keep(_ compiled: (plan: URL, ics: URL, folder: URL), as label: String, in folder: URL) throws -> (ics: URL, plan: URL) {
            let ics = folder.appendingPathComponent("\(label).ics"), plan = folder.appendingPathComponent("\(label).json")
            try FileManager.default.moveItem(at: compiled.ics, to: ics)
            try FileManager.default.moveItem(at: compiled.plan, to: plan)
            try? FileManager.default.removeItem(at: compiled.folder)
            return (ics, plan)
        }

        /// Reads every expanded calendar of `files` with `check_ics.py`'s manifest, with its
        /// zone's name and renamed as `renamed` lists: one run, two reader processes at a
        /// time, instead of one run per file, so that the second core works too once the
        /// rest of the suite is done.
        static func readAll(_ files: [(ics: URL, plan: URL)], renamed: [Bool], in folder: URL) async throws {
            let manifest = files.flatMap { file in
                renamed.map { ["expanded", file.ics.path, file.plan.path, $0 ? "1" : "0"].joined(separator: "\t") }
            }
            let list = folder.appendingPathComponent("manifest.txt")
            try manifest.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
            let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ReminderCompilerTests/Interop/check_ics.py")
            let result = try await Python.script([script.path, "--manifest", list.path] + (await optionalReaderArguments()))
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("\(manifest.count) files"), "\(result.standardOutput)")
            #expect(result.standardOutput.contains(" 0 problems"), "\(result.standardOutput)")
        }

        @Test("icalendar, ical and the other readers read every example's expanded .ics at the plan's instants, with and without the zone's name")
        func expandedExamples() async throws {
            let folder = try TestEnvironment.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            var files: [(ics: URL, plan: URL)] = []
            for config in try TestEnvironment.exampleConfigs() {
                let compiled = try await compileToFiles("examples/\(config.lastPathComponent)", style: "expanded", options: ["--now", Self.fixedNow])
                files.append(try Self.keep(compiled, as: config.deletingPathExtension().lastPathComponent, in: folder))
            }
            try await Self.readAll(files, renamed: [false, true], in: folder)
        }

        @Test("only our VTIMEZONE supplies the offsets, and it is right for every instant: 400 days of small-hour slots in each of 10 zones")
        func expandedInZones() async throws {
            let folder = try TestEnvironment.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = Self.fixtures.appendingPathComponent("zones-around-the-clock.plist").path
            var files: [(ics: URL, plan: URL)] = []
            for zone in Self.zones {
                let compiled = try await compileToFiles(config, style: "expanded", options: ["--now", Self.fixedNow, "--time-zone", zone])
                files.append(try Self.keep(compiled, as: zone.replacingOccurrences(of: "/", with: "-"), in: folder))
            }
            try await Self.readAll(files, renamed: [true], in: folder)
        }

        @Test("the recurring export expanded by recurring-ical-events equals the plan's occurrences",
              arguments: ["examples/activity-lookback.plist", "examples/daily-facts.plist", "examples/intake-goals.plist",
                          "examples/travel-medication.plist", "Tests/ReminderCompilerTests/Fixtures/recurring-edge-cases.plist",
                          "Tests/ReminderCompilerTests/Fixtures/long-date-lists.plist"])
        func recurringRoundTrip(_ config: String) async throws {
            let files = try await compileToFiles(config, style: "recurring", options: ["--now", Self.fixedNow, "--pending-limit", "0"])
            defer { try? FileManager.default.removeItem(at: files.folder) }
            let result = try await checkICS("recurring", ics: files.ics, plan: files.plan, rename: false)
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("0 problems"))
        }

        @Test("suppressed occurrences become EXDATEs: the recurring export still equals the plan after events")
        func recurringWithEvents() async throws {
            let files = try await compileToFiles(
                "examples/intake-goals.plist", style: "recurring",
                options: ["--now", Self.fixedNow, "--pending-limit", "0", "--events", "examples/intake-goals.events.json"]
            )
            defer { try? FileManager.default.removeItem(at: files.folder) }
            let text = String(decoding: try Data(contentsOf: files.ics), as: UTF8.self)
            #expect(text.contains("EXDATE;TZID=Australia/Sydney:20261122T200000"))
            let result = try await checkICS("recurring", ics: files.ics, plan: files.plan, rename: false)
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        }

        @Test("remindc ics writes from a plan file alone what compile --ics writes; recurring asks for the config; another config is refused")
        func icsCommand() async throws {
            let files = try await compileToFiles("examples/medication.plist", style: "expanded", options: ["--now", Self.fixedNow])
            defer { try? FileManager.default.removeItem(at: files.folder) }
            let fromPlan = try await remindc("ics", files.plan.path, "--config", "examples/medication.plist")
            #expect(fromPlan.status == 0, "\(fromPlan.standardError)")
            #expect(fromPlan.standardOutput == String(decoding: try Data(contentsOf: files.ics), as: UTF8.self))
            // The plan recorded the calendar's name and UID domain.
            let withoutConfig = try await remindc("ics", files.plan.path)
            #expect(withoutConfig.standardOutput == String(decoding: try Data(contentsOf: files.ics), as: UTF8.self))
            // A plan from before those fields: the defaults.
            let planText = String(decoding: try Data(contentsOf: files.plan), as: UTF8.self)
            let older = files.folder.appendingPathComponent("older.json")
            try planText.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.contains("\"calendarName\"") && !$0.contains("\"uidDomain\"") && !$0.contains("\"configDigest\"") }
                .joined(separator: "\n").write(to: older, atomically: true, encoding: .utf8)
            let fromOlder = try await remindc("ics", older.path)
            #expect(fromOlder.standardOutput.contains("X-WR-CALNAME:Reminders"))
            #expect(fromOlder.standardOutput.contains("@remindc.local"))
            // Another config than the plan's is refused, naming both digests.
            let other = try await remindc("ics", files.plan.path, "--config", "examples/daily-facts.plist")
            #expect(other.status == 1)
            #expect(other.standardError.contains("is not the config"), "\(other.standardError)")
            let recurring = try await remindc("ics", files.plan.path, "--ics-style", "recurring")
            #expect(recurring.status == 1)
            #expect(recurring.standardError.contains("give the config with --config CONFIG"))
            let corrupt = files.folder.appendingPathComponent("corrupt.json")
            try Data("{\"formatVersion\": 1,\n \"timeZone\": }".utf8).write(to: corrupt)
            let broken = try await remindc("ics", corrupt.path)
            #expect(broken.status == 1)
            #expect(broken.standardError.hasPrefix("\(corrupt.path):2:14: error: malformed JSON"))
        }

        @Test("the calendar's frame: no BOM, CRLF, one PRODID, no METHOD, DTSTAMP from the plan's now")
        func frame() async throws {
            let files = try await compileToFiles("examples/daily-facts.plist", style: "expanded", options: ["--now", Self.fixedNow])
            defer { try? FileManager.default.removeItem(at: files.folder) }
            let bytes = [UInt8](try Data(contentsOf: files.ics))
            #expect(Array(bytes.prefix(3)) != [0xEF, 0xBB, 0xBF])
            let text = String(decoding: bytes, as: UTF8.self)
            let lines = text.components(separatedBy: "\r\n")
            #expect(lines.first == "BEGIN:VCALENDAR")
            #expect(lines.last == "")
            #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
            #expect(lines.filter { $0.hasPrefix("PRODID:") }.count == 1)
            #expect(!lines.contains { $0.hasPrefix("METHOD") })
            #expect(lines.filter { $0.hasPrefix("DTSTAMP:") }.allSatisfy { $0 == "DTSTAMP:20261122T080000Z" })
            #expect(lines.contains("CALSCALE:GREGORIAN"))
            #expect(lines.contains("X-WR-TIMEZONE:Asia/Kolkata"))
            #expect(lines.filter { $0 == "BEGIN:VTIMEZONE" }.count == 1)
        }
    }
}

/// `ICalendarTests` under its short name, for the tests of other suites.
typealias ICalendarTests = ExternalProgramTests.ICalendarTests

@Suite("iCalendar text")
struct ICalendarTextTests {
    /// Unfolding and unescaping written independently of the writer, from RFC 5545 §3.1
    /// and §3.3.11.
    static func unfold(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var index = 0
        var current: [UInt8] = []
        while index < bytes.count {
            if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                if index + 2 < bytes.count, bytes[index + 2] == 0x20 || bytes[index + 2] == 0x09 {
                    index += 3
                    continue
                }
                lines.append(current)
                current = []
                index += 2
                continue
            }
            current.append(bytes[index])
            index += 1
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    static func unescape(_ text: String) -> String {
        // Scalar by scalar: an escaped "n" may be followed by a combining mark.
        var result = String.UnicodeScalarView()
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                result.append(scalar == "n" || scalar == "N" ? "\n" : scalar)
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    @Test("any Unicode text survives escape, fold, unfold and unescape; no physical line exceeds 75 octets")
    func roundTrip() {
        let pieces = [
            "a", "é", "e\u{301}", "漢字", "💊", "👩‍👩‍👧", "🇩🇪", "\\", ";", ",", "\n", " ", "x", "\u{1F3FB}", "Ω", "ß", "\u{200D}",
            "plain text of some length", "\t", "\u{7F}", "\r", "\r\n", "\u{1}",
        ]
        var generator = SeededGenerator(seed: 75)
        for length in 0..<400 {
            var text = ""
            for _ in 0..<(length % 120) { text += pieces[Int.random(in: 0..<pieces.count, using: &generator)] }
            var writer = ICalendarWriter()
            writer.text("DESCRIPTION", text)
            let physical = writer.bytes.split(separator: 0x0A, omittingEmptySubsequences: true)
            for line in physical {
                // Without its CR, every physical line is at most 75 octets and valid UTF-8.
                let content = line.last == 0x0D ? line.dropLast() : line[...]
                #expect(content.count <= 75)
                #expect(String(validating: Array(content), as: UTF8.self) != nil)
            }
            let logical = Self.unfold(writer.bytes)
            #expect(logical.count == 1)
            let value = String(decoding: logical[0].dropFirst("DESCRIPTION:".utf8.count), as: UTF8.self)
            // The writer escapes in bulk; the string escaper, one scalar at a time.
            #expect(value == ICalendarWriter.escapeText(text))
            // What survives: line breaks (CRLF, CR, LF) as LF, other control characters gone.
            var kept = String.UnicodeScalarView()
            var afterCarriageReturn = false
            for scalar in text.unicodeScalars {
                defer { afterCarriageReturn = scalar == "\r" }
                if scalar == "\n" && afterCarriageReturn { continue }
                if scalar == "\r" || scalar == "\n" {
                    kept.append("\n")
                } else if scalar.value >= 0x20 && scalar.value != 0x7F {
                    kept.append(scalar)
                }
            }
            #expect(Self.unescape(value) == String(kept))
        }
    }

    @Test("control characters are removed and every line break becomes \\n")
    func controlCharacters() {
        #expect(ICalendarWriter.escapeText("a\u{0}b\u{7}c\td\r\ne\rf\ng\u{7F}") == "abcd\\ne\\nf\\ng")
        #expect(ICalendarWriter.escapeText("x;y,z\\") == "x\\;y\\,z\\\\")
    }

    @Test("date-times written again from the writer's remembered value equal ones written afresh, UTC or local, folded or not")
    func repeatedDateTimes() {
        var writer = ICalendarWriter()
        var expected = ""
        var generator = SeededGenerator(seed: 5545)
        // Formatted here with Foundation, independently of the writer.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var localSeconds: Int64 = 1_795_000_000
        var utc = false
        // Runs of one value, as events in a row share it, changing one thing at a time: the
        // instant, UTC or local, and a name so long that the line folds (written afresh).
        // Gregorian years only (Foundation's calendar is Julian before 1582), up to 9999.
        for _ in 0..<500 {
            var name = "DTSTART"
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: localSeconds = localSeconds > 253_000_000_000 ? 1_795_000_000 : localSeconds + Int64.random(in: 1...90_000, using: &generator)
            case 1: utc.toggle()
            case 2: name = String(repeating: "X", count: 70)
            case 3: localSeconds = [-11_676_096_000, 0, 253_402_300_799].randomElement(using: &generator)!
            default: break
            }
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                writer.dateTime(name, localSeconds: localSeconds, utc: utc)
                let parts = calendar.dateComponents(
                    [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(localSeconds))
                )
                func padded(_ value: Int, _ width: Int) -> String {
                    let digits = String(value.magnitude)
                    return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
                }
                let value = padded(parts.year!, 4) + padded(parts.month!, 2) + padded(parts.day!, 2) + "T"
                    + padded(parts.hour!, 2) + padded(parts.minute!, 2) + padded(parts.second!, 2) + (utc ? "Z" : "")
                expected += "\(name):\(value)\n"
            }
        }
        let written = Self.unfold(writer.bytes).map { String(decoding: $0, as: UTF8.self) + "\n" }.joined()
        let same = written == expected
        #expect(same, "the date-times differ")
    }
}
