import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

/// Every entry point gives the same bytes for the same job: `remindc compile`, the library
/// (the whole-plan API and the chunked driver), `remindc batch` and the service. The corpus
/// is every example (with its events), which between them use groups, follow-ups and
/// chains, counted goals, quiet hours, home time zones, yearly schedules and events, plus
/// the medication example with `calendarScope` `window` and with a previous plan.
@Suite("Entry points agree")
struct EntryPointAgreementTests {
    /// One compile job: a config's text, its events' text, the instant, a previous plan.
    struct Job: CustomStringConvertible, Sendable {
        var name: String
        var config: String
        var events: String?
        var now: String
        var previous: String?

        var description: String { name }
    }

    static func corpus() throws -> [Job] {
        var jobs: [Job] = []
        let events = try TestEnvironment.exampleEvents()
        for config in try TestEnvironment.exampleConfigs() {
            let name = config.deletingPathExtension().lastPathComponent
            let eventsFile = events.first { $0.lastPathComponent.hasPrefix(name + ".events.") }
            jobs.append(Job(
                name: name, config: try Self.text(config), events: try eventsFile.map(Self.text),
                now: CompileCommandTests.nowOfEvents[name] ?? CompileCommandTests.fixedNow
            ))
        }
        // The window's calendar while the plan stays budgeted.
        let medication = try Self.text(TestEnvironment.examples.appendingPathComponent("medication.plist"))
        let windowed = medication.replacingOccurrences(
            of: "<key>reminders</key>", with: "<key>calendarScope</key><string>window</string>\n\t<key>reminders</key>"
        )
        #expect(windowed != medication)
        jobs.append(Job(name: "medication, calendarScope window", config: windowed, now: CompileCommandTests.fixedNow))
        return jobs
    }

    static func text(_ url: URL) throws -> String {
        String(decoding: try TestEnvironment.bytes(url), as: UTF8.self)
    }

    /// The CLI's plan and calendar (in `style`) for `job`, written to `folder`.
    static func compiled(_ job: Job, style: ICalendarStyle, in folder: URL) async throws -> (plan: [UInt8], calendar: [UInt8]) {
        let config = folder.appendingPathComponent("config.plist")
        try job.config.write(to: config, atomically: true, encoding: .utf8)
        var arguments = ["compile", config.path, "--now", job.now, "-o", folder.appendingPathComponent("plan.json").path,
                         "--ics", folder.appendingPathComponent("calendar.ics").path, "--ics-style", style.rawValue]
        if let events = job.events {
            let file = folder.appendingPathComponent("events.txt")
            try events.write(to: file, atomically: true, encoding: .utf8)
            arguments += ["--events", file.path]
        }
        if let previous = job.previous {
            let file = folder.appendingPathComponent("previous.json")
            try previous.write(to: file, atomically: true, encoding: .utf8)
            arguments += ["--previous", file.path]
        }
        let result = try await run(TestEnvironment.remindcExecutable, arguments)
        #expect(result.status == 0, "\(job): \(result.standardError)")
        return (try TestEnvironment.bytes(folder.appendingPathComponent("plan.json")),
                try TestEnvironment.bytes(folder.appendingPathComponent("calendar.ics")))
    }

    /// The job as a `remindc batch` line (and a service request body).
    static func jobLine(_ job: Job) throws -> String {
        var object: [String: Any] = ["id": "job", "config": job.config, "now": job.now]
        if let events = job.events { object["events"] = events }
        if let previous = job.previous {
            object["previous"] = try JSONSerialization.jsonObject(with: Data(previous.utf8))
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The corpus, each job also with its own plan as the previous one (which a day later
    /// carries sequences forward).
    static func corpusWithPrevious() async throws -> [Job] {
        var jobs = try corpus()
        let folder = try TestEnvironment.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let medication = jobs.first { $0.name == "medication" }!
        let first = try await compiled(medication, style: .expanded, in: folder)
        var later = medication
        later.name = "medication a day later, with its previous plan and a changed title"
        later.now = "2026-11-23T08:00:00Z"
        later.config = medication.config.replacingOccurrences(of: "<string>Metformin</string>", with: "<string>Metformin XR</string>")
        #expect(later.config != medication.config)
        later.previous = String(decoding: first.plan, as: UTF8.self)
        jobs.append(later)
        return jobs
    }

    /// One case per job, one at a time: each starts the service twice, and the whole corpus
    /// in one test came near the 3 minutes a test may take on a busy 2-core machine.
    @Test(
        "compile, the library, batch and (with the Service trait) the service give the same plan and calendars",
        .serialized, arguments: try await corpusWithPrevious()
    )
    func sameBytesEverywhere(job: Job) async throws {
        do {
            let folder = try TestEnvironment.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let eventsInput = job.events.map { (Array($0.utf8), "events") }
            // The instant as the job reads it: the library reads no clock and parses no text.
            let line = try Self.jobLine(job)
            let parsed = try PlanJob.parse(Array(line.utf8)).get()
            let options = CompileOptions(now: parsed.now)
            var previousPlan: Plan?
            if let previous = job.previous {
                var collector = DiagnosticCollector()
                previousPlan = ReminderCompiler.readPlan(Array(previous.utf8), path: "previous", diagnostics: &collector)
                #expect(previousPlan != nil)
            }
            for style in [ICalendarStyle.expanded, .recurring] {
                let cli = try await Self.compiled(job, style: style, in: folder)

                // The library's whole-plan API, with the sequences carried as compile does.
                let whole = ReminderCompiler.compile(Array(job.config.utf8), path: "config", options: options, events: eventsInput)
                var plan = try #require(whole.plan, "\(job): \(whole.diagnostics.map(\.formatted))")
                if let previousPlan { ReminderCompiler.carrySequences(into: &plan, from: previousPlan) }
                #expect(PlanJSON.encode(plan) == cli.plan, "\(job): the whole-plan API")

                // The library's one planning driver, collecting in memory.
                let inputs = ReminderCompiler.load(Array(job.config.utf8), path: "config", options: options, events: eventsInput)
                var compilation = try #require(ChunkedCompilation(inputs: inputs, options: options))
                compilation.previous = previousPlan
                let collected = compilation.collect(calendarStyle: style)
                #expect(collected.plan == cli.plan, "\(job) \(style): the driver's plan")
                #expect(collected.calendar == cli.calendar, "\(job) \(style): the driver's calendar")

                // A job of `remindc batch` and the service's calendar for the same job.
                #expect(try parsed.calendar(style: style).get() == cli.calendar, "\(job) \(style): a job's calendar")
                let batch = try await run(TestEnvironment.remindcExecutable, ["batch"], input: Data((line + "\n").utf8))
                #expect(batch.standardOutput.contains("\"plan\":" + String(decoding: PlanJob.compact(cli.plan), as: UTF8.self)),
                        "\(job): batch")
                #if Service
                try await ServiceTests.withServer { server in
                    let planned = try await server.request("/v1/plan", body: Data(line.utf8))
                    #expect(planned.body.contains("\"plan\":" + String(decoding: PlanJob.compact(cli.plan), as: UTF8.self)),
                            "\(job): /v1/plan")
                    let calendar = try await server.request("/v1/ics?style=\(style.rawValue)", body: Data(line.utf8))
                    #expect(Array(calendar.body.utf8) == cli.calendar, "\(job) \(style): /v1/ics")
                }
                #endif
            }
        }
    }
}
